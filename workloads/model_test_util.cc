// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/model_test_util.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "sim/simulator.h"
#include "topology/presets.h"
#include "workloads/model_registry.h"

namespace schedsim::workloads {

topology::Topology Machine(const std::string& name) {
  absl::StatusOr<topology::Topology> t = topology::MakePreset(name);
  if (!t.ok()) {
    std::fprintf(stderr, "%s\n", std::string(t.status().message()).c_str());
    std::abort();
  }
  return *std::move(t);
}

absl::StatusOr<sim::SimStats> RunWorkload(const sim::Workload& workload,
                                          const RunOptions& options) {
  const topology::Topology machine = Machine(options.machine);
  const platform::PolicyRegistry& registry = platform::PolicyRegistry::Global();
  absl::StatusOr<std::unique_ptr<platform::FreqGovernor>> freq =
      registry.MakeFreq(options.freq, options.freq_params);
  if (!freq.ok()) return freq.status();
  absl::StatusOr<std::unique_ptr<platform::IdleGovernor>> idle =
      registry.MakeIdle(options.idle);
  if (!idle.ok()) return idle.status();
  absl::StatusOr<std::unique_ptr<platform::PlacementPolicy>> placement =
      registry.MakePlacement(options.placement);
  if (!placement.ok()) return placement.status();
  const sim::Policies policies{freq->get(), idle->get(), placement->get()};
  absl::StatusOr<std::unique_ptr<sim::Simulator>> sim = sim::Simulator::Create(
      machine, options.config, workload, policies, options.seed);
  if (!sim.ok()) return sim.status();
  if (options.warmup_ms > 0) {
    if (absl::Status s = (*sim)->RunFor(sim::Milliseconds(options.warmup_ms));
        !s.ok()) {
      return s;
    }
    (*sim)->ResetStats();
  }
  if (absl::Status s = (*sim)->RunFor(sim::Milliseconds(options.duration_ms));
      !s.ok()) {
    return s;
  }
  return (*sim)->Stats();
}

absl::StatusOr<ModelRun> RunModel(
    const std::string& model,
    const std::map<std::string, platform::ParamValue>& params,
    const RunOptions& options) {
  const WorkloadRegistry& registry = WorkloadRegistry::Global();
  absl::StatusOr<const WorkloadModel*> m = registry.Lookup(model);
  if (!m.ok()) return m.status();
  absl::StatusOr<platform::Params> p = registry.ResolveParams(**m, params);
  if (!p.ok()) return p.status();
  const topology::Topology machine = Machine(options.machine);
  absl::StatusOr<sim::Workload> w = (*m)->build(*p, machine);
  if (!w.ok()) return w.status();
  absl::StatusOr<sim::SimStats> stats = RunWorkload(*w, options);
  if (!stats.ok()) return stats.status();
  ModelRun run;
  run.stats = *std::move(stats);
  const std::vector<MetricValue> values = (*m)->evaluate(*p, run.stats);
  if (values.size() != (*m)->metrics.size()) {
    return absl::InternalError(
        absl::StrCat(model, ": evaluate returned ", values.size(),
                     " metrics, declares ", (*m)->metrics.size()));
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].name != (*m)->metrics[i].name) {
      return absl::InternalError(absl::StrCat(model, ": metric ", i, " is '",
                                              values[i].name, "', declared '",
                                              (*m)->metrics[i].name, "'"));
    }
    run.metrics[values[i].name] = values[i].value;
  }
  return run;
}

std::vector<sim::OpCode> OpCodes(const sim::Program& program) {
  std::vector<sim::OpCode> codes;
  codes.reserve(program.ops.size());
  for (const sim::Op& op : program.ops) codes.push_back(op.code);
  return codes;
}

}  // namespace schedsim::workloads
