// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Workload models by name: each benchmark model (hackbench, schbench,
// netperf, pgbench, ...) registers a name, a description of what it
// exercises and assumes, its parameters (named as the real tool names
// them) with defaults, the metrics it reports (with unit and direction),
// a builder that makes the task programs for a machine, and an evaluator
// that turns a run's statistics into the benchmark's own numbers.
//
//   SCHEDSIM_REGISTER_WORKLOAD(HackbenchModelInfo());
//
//   const WorkloadModel* m = WorkloadRegistry::Global().Find("hackbench");
//   absl::StatusOr<platform::Params> p = WorkloadRegistry::Global()
//       .ResolveParams(*m, {{"groups", int64_t{8}}});
//   absl::StatusOr<sim::Workload> w = m->build(*p, topology);
//   ... run ...
//   std::vector<MetricValue> values = m->evaluate(*p, stats);

#ifndef SCHEDSIM_WORKLOADS_MODEL_REGISTRY_H_
#define SCHEDSIM_WORKLOADS_MODEL_REGISTRY_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "platform/registry.h"
#include "sim/stats.h"
#include "sim/workload.h"
#include "topology/topology.h"

namespace schedsim::workloads {

// How repeated samples of a metric are averaged in comparisons (as mmtests
// does): arithmetic for times and latencies, harmonic for rates
// (throughput), geometric for ratios.
enum class MeanKind { kArithmetic, kHarmonic, kGeometric };

struct MetricInfo {
  std::string name;  // "transactions_per_s", "latency_p99_us", ...
  std::string unit;  // "tps", "us", "s", "msgs/s", "J"
  bool higher_is_better = true;
  MeanKind mean = MeanKind::kArithmetic;
  std::string doc;
};

struct MetricValue {
  std::string name;
  double value = 0;
};

// The parameter that sets a model's service-time jitter of user work
// (sim::Workload::work_cv) in percent. A model that declares it (a double,
// see WorkCvParam in model_util.h) gets it applied by the registry: its
// registered build sets work_cv = work_cv_pct / 100 on what it returns.
inline constexpr char kWorkCvParam[] = "work_cv_pct";

// How a model that runs until stopped settles (experiments/settle.h): the
// rate metric measured in batches, the count it is the rate of, and the
// metrics that follow from the settled rate.
struct SettleSpec {
  int rate_metric = 0;  // index in WorkloadModel::metrics
  // The events the rate counts, since the statistics were reset.
  std::function<double(const platform::Params&, const sim::SimStats&)> count;
  // Whether the run is one that settles at these parameters (always when
  // not set).
  std::function<bool(const platform::Params&)> applies;
  // Other metrics from the rate: (metric index, value), e.g. hackbench's
  // time_s for its loops at the settled rate; optional.
  std::function<std::vector<std::pair<int, double>>(const platform::Params&,
                                                    double rate)>
      derive;
  // The metric that is a time or count at the benchmark's published
  // length, extrapolated from the rate (-1: none), and that length in
  // words ("50000 loops").
  int extrapolated_metric = -1;
  std::function<std::string(const platform::Params&)> length;
  // With an extrapolated metric that is a time: the count at the
  // published length (hackbench: groups x fds x fds x loops messages).
  // The time is then the simulated time so far plus the rest of the count
  // at the settled rate, so the start-up transient counts as it ran.
  std::function<double(const platform::Params&)> total;
};

struct WorkloadModel {
  std::string name;         // "hackbench"
  std::string description;  // what it models, mechanisms, assumptions
  std::vector<platform::ParamSpec> params;
  std::vector<MetricInfo> metrics;
  // The task programs for `topology` (some models size themselves by the
  // machine, e.g. one client per CPU).
  std::function<absl::StatusOr<sim::Workload>(const platform::Params&,
                                              const topology::Topology&)>
      build;
  // The model's metrics from a run's statistics, in `metrics` order.
  std::function<std::vector<MetricValue>(const platform::Params&,
                                         const sim::SimStats&)>
      evaluate;
  // Set for models that run until stopped: runs stop when settled.
  std::optional<SettleSpec> settle;
};

class WorkloadRegistry {
 public:
  static WorkloadRegistry& Global();

  // AlreadyExists on a second model with the same name; InvalidArgument
  // when build or evaluate is missing.
  absl::Status Register(WorkloadModel model);
  std::vector<const WorkloadModel*> List() const;
  // NotFound listing the known models.
  absl::StatusOr<const WorkloadModel*> Lookup(absl::string_view name) const;
  // Defaults filled in; unknown names and wrong types are errors naming
  // the model and listing its parameters.
  absl::StatusOr<platform::Params> ResolveParams(
      const WorkloadModel& model,
      const std::map<std::string, platform::ParamValue>& given) const;

 private:
  std::map<std::string, WorkloadModel> models_;
};

struct WorkloadRegistration {
  explicit WorkloadRegistration(WorkloadModel model);
};

#define SCHEDSIM_WORKLOAD_CONCAT_INNER_(a, b) a##b
#define SCHEDSIM_WORKLOAD_CONCAT_(a, b) SCHEDSIM_WORKLOAD_CONCAT_INNER_(a, b)
#define SCHEDSIM_REGISTER_WORKLOAD(model_expr)               \
  static ::schedsim::workloads::WorkloadRegistration         \
  SCHEDSIM_WORKLOAD_CONCAT_(schedsim_workload_registration_, \
                            __LINE__)(model_expr)

}  // namespace schedsim::workloads

#endif  // SCHEDSIM_WORKLOADS_MODEL_REGISTRY_H_
