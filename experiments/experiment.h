// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Experiment files: a what-if comparison described in JSON. One machine,
// one workload model (workloads/model_registry.h) with its parameters, an
// optional sweep of one parameter, and the variants to compare (policies
// and model settings; the first is the baseline), each run `iterations`
// times with seeds derived from the file's seed. `schedsim run FILE` runs
// them (runner.h) and compares them (compare.h); docs/experiments.md
// documents the format.
//
//   absl::StatusOr<Experiment> e = LoadExperimentFile("hwp_boost.json");
//   if (!e.ok()) return e.status();  // "hwp_boost.json: variants[1].cpufreq
//                                    //  .params: unknown parameter ..."
//
// Every mistake in a file is an InvalidArgument whose message starts with
// the file name and the JSON path of the offending field and says what was
// expected: syntax errors, unknown or duplicate keys (listing the known
// ones), wrong types, out-of-range values, and unknown machines, policies,
// workload models and parameters (listing the known names).

#ifndef SCHEDSIM_EXPERIMENTS_EXPERIMENT_H_
#define SCHEDSIM_EXPERIMENTS_EXPERIMENT_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "experiments/builtin_registry.h"
#include "experiments/idle_control.h"
#include "experiments/json_util.h"
#include "experiments/machine_source.h"
#include "experiments/settle.h"
#include "platform/registry.h"
#include "sim/config.h"
#include "topology/topology.h"
#include "workloads/model_registry.h"

namespace schedsim::experiments {

// Limits of the file's values.
inline constexpr int64_t kMaxExperimentDurationMs = 1000000000;  // 11.6 days
inline constexpr int kMaxIterations = 10000;
inline constexpr int kDefaultIterations = 5;
inline constexpr int kMaxSweepPoints = 10000;
inline constexpr int kMaxVariants = 100;
// The runs an experiment may make without "max_runs" or --yes
// (docs/experiments.md, "Cost"), and the largest "max_runs".
inline constexpr int64_t kDefaultMaxRuns = 10000;
inline constexpr int64_t kMaxMaxRuns = 1000000000;
// The estimated wall time above which `schedsim run` asks for --yes.
inline constexpr double kMaxWallSecondsWithoutYes = 24 * 3600.0;

using ParamMap = std::map<std::string, platform::ParamValue>;

// One of the configurations compared.
struct Variant {
  std::string name;  // unique; letters, digits and . _ + -
  std::string description;
  PolicySpec cpufreq;
  PolicySpec cpuidle;
  PolicySpec placement;
  // The kernel it models ("6.12"; sim/kernels.h), "" when none is named:
  // the variant's "kernel", else the file's.
  std::string kernel;
  // The defaults, the kernel's switches, the file's "config", the
  // variant's.
  sim::SimConfig config;
  // The config keys set (the file's, then the variant's), for reports.
  OrderedJson config_overrides = OrderedJson::object();
  // Idle states disabled or capped and per-CPU resume latencies: the
  // file's keys, each replaced by the variant's (idle_control.h).
  IdleControl idle;
};

// The values one model parameter takes, in order.
struct Sweep {
  std::string param;
  std::vector<platform::ParamValue> values;
};

struct Experiment {
  std::string filename;  // as given; error messages start with it
  std::string description;
  // Exactly one source is set; relative paths are taken from the directory
  // of `filename`.
  MachineSource machine;
  // The workload model (registered in WorkloadRegistry::Global()) and the
  // parameters the file gives it (typed as the model declares them).
  const workloads::WorkloadModel* model = nullptr;
  ParamMap params;
  std::optional<Sweep> sweep;
  std::vector<Variant> variants;  // variants[0] is the baseline
  int iterations = kDefaultIterations;
  uint64_t seed = 1;
  int64_t warmup_ms = 0;
  int64_t duration_ms = 0;  // measured, after the warm-up
  // The file's "max_runs": the runs allowed without --yes (0: absent, the
  // limit is kDefaultMaxRuns).
  int64_t max_runs = 0;
  // Runs of a model that runs until stopped (WorkloadModel::settle) stop
  // when their rate has settled (settle.h), duration_ms being the longest
  // they go; `fixed_length` (the file's "settle": false, or --fixed-length)
  // runs every run for duration_ms.
  bool fixed_length = false;
  SettleOptions settle;

  // Sweep points (1 without a sweep).
  int num_points() const {
    return sweep ? static_cast<int>(sweep->values.size()) : 1;
  }
  // The swept value at `point` as text ("4"); "" without a sweep.
  std::string PointValue(int point) const;
  // "groups=4"; "" without a sweep.
  std::string PointName(int point) const;
  // The model's parameters at `point`: `params` and the swept value, the
  // model's defaults for the rest.
  absl::StatusOr<platform::Params> PointParams(int point) const;
  // The seed of iteration `iteration`: DeriveSeed(seed, iteration), the same
  // for every variant and sweep point, so that comparisons are paired.
  uint64_t IterationSeed(int iteration) const;
};

// The memory one run's result takes until the output is written (its
// metrics and its report, per CPU): measured 13.6 KiB per run on an 8-CPU
// preset (1 ms runs, --format=json), rounded up.
inline constexpr int64_t kResultBytesPerRun = 4096;
inline constexpr int64_t kResultBytesPerRunPerCpu = 2048;
// The share of the machine's physical memory the results may take; above
// it `run` refuses even with --yes (sharding splits the results).
inline constexpr double kMaxResultMemoryShare = 0.5;

// What an experiment costs, estimated before it runs.
struct CostEstimate {
  int64_t runs = 0;
  double simulated_s = 0;      // runs x (warm-up + duration)
  double simulated_cpu_s = 0;  // times the machine's CPUs
  int jobs = 1;                // runs in parallel
  // The runs' estimated costs (cost_model.h) on `jobs` threads, largest
  // first.
  double wall_s = 0;
  // The results held until the output is written: runs x
  // (kResultBytesPerRun + kResultBytesPerRunPerCpu x CPUs).
  double memory_bytes = 0;
  // kMaxResultMemoryShare of this machine's physical memory (0: unknown,
  // no limit).
  double memory_limit_bytes = 0;
  // "40 runs, 14 simulated s (112 simulated CPU-s on 8 CPUs), about 6 s
  // of wall time on 2 jobs, about 1 MB of memory for the results"
  std::string Text() const;
};
// `run_wall_s`: the estimated wall seconds of each run of one pass
// (EstimateRunCosts); without them every CPU of every run counts at the
// model's measured rate.
CostEstimate EstimateCost(const Experiment& e, int64_t runs, int num_cpus,
                          int jobs, const std::vector<double>& run_wall_s = {});
// OK when the estimate is within the limits: runs <= "max_runs" (default
// kDefaultMaxRuns) and wall_s <= kMaxWallSecondsWithoutYes, or `yes`; and,
// `yes` or not, memory_bytes <= memory_limit_bytes (issue 49 #12: 2 x 10^6
// runs ended in std::bad_alloc with every finished run lost). Otherwise
// FailedPrecondition naming the estimate, the limit and how to lift it.
absl::Status CheckCost(const Experiment& e, const CostEstimate& cost, bool yes);

// Parses an experiment. `filename` is used in error messages and to resolve
// relative machine paths. Model and policy names are checked against the
// global registries, so the policies and models must be linked in.
absl::StatusOr<Experiment> ParseExperiment(const std::string& json_text,
                                           const std::string& filename);

// Reads and parses `path`.
absl::StatusOr<Experiment> LoadExperimentFile(const std::string& path);

// `spec` with the cpufreq default resolved for `machine` booted with or
// without HWP (the variant's config `hwp`).
PolicySpec ResolvedCpufreq(const PolicySpec& spec,
                           const topology::Topology& machine, bool hwp);

// A parameter value as JSON (boolean, integer, number or string).
OrderedJson ParamValueJson(const platform::ParamValue& value);
// The parameters as a JSON object, in name order.
OrderedJson ParamMapJson(const ParamMap& params);

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_EXPERIMENT_H_
