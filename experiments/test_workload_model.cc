// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/test_workload_model.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "sim/program.h"
#include "workloads/model_registry.h"

namespace schedsim::experiments {
namespace {

workloads::WorkloadModel TestModel() {
  workloads::WorkloadModel m;
  m.name = kTestModelName;
  m.description =
      "Test model: tasks computing and sleeping, counting one op per loop.";
  m.params = {
      {"tasks", int64_t{1}, "number of tasks"},
      {"cycles", int64_t{200000}, "cycles computed per op"},
      {"sleep_us", int64_t{200}, "mean sleep per op (exponential), us"},
      {"stall_ns", int64_t{0},
       "model only: frequency-independent stall per op, ns (a cost the "
       "robustness check scales when nonzero)"},
  };
  m.metrics = {
      {"ops_per_s", "ops/s", true, workloads::MeanKind::kHarmonic,
       "ops completed per simulated second"},
      {"op_latency_us", "us", false, workloads::MeanKind::kArithmetic,
       "mean time from stamp to mark"},
  };
  m.build = [](const platform::Params& p,
               const topology::Topology&) -> absl::StatusOr<sim::Workload> {
    const int64_t tasks = p.GetInt("tasks");
    if (tasks < 1 || tasks > kTestModelMaxTasks) {
      return absl::InvalidArgumentError(absl::StrCat(
          "tasks must be in 1..", kTestModelMaxTasks, ", got ", tasks));
    }
    sim::Workload w;
    w.metrics = {"op"};
    sim::ProgramBuilder b("worker");
    b.Loop(0)
        .Stamp()
        .Compute(sim::Dist::Constant(p.GetInt("cycles")),
                 sim::Dist::Constant(p.GetInt("stall_ns")))
        .Sleep(sim::Dist::Exponential(p.GetInt("sleep_us") * 1000))
        .Mark(0)
        .EndLoop();
    absl::StatusOr<sim::Program> program = b.Build();
    if (!program.ok()) return program.status();
    w.programs.push_back(*std::move(program));
    sim::TaskSpec t;
    t.name = "worker";
    t.program = 0;
    t.count = static_cast<int>(tasks);
    w.tasks.push_back(t);
    return w;
  };
  m.evaluate = [](const platform::Params&, const sim::SimStats& stats) {
    const sim::MetricStats& op = stats.metrics.at(0);
    const double seconds = stats.duration_s();
    return std::vector<workloads::MetricValue>{
        {"ops_per_s",
         seconds > 0 ? static_cast<double>(op.count) / seconds : 0.0},
        {"op_latency_us", op.latency_ns.mean() / 1000.0},
    };
  };
  return m;
}

SCHEDSIM_REGISTER_WORKLOAD(TestModel());

}  // namespace
}  // namespace schedsim::experiments
