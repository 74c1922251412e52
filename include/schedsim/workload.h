// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// What the simulated tasks do. A WorkloadSpec names one of:
//   * a benchmark model by name with parameters (hackbench, schbench,
//     netperf, pgbench, ...; WorkloadModels() lists them, docs/workloads.md
//     describes them):  WorkloadSpec::Model("hackbench", {{"groups", 4}});
//   * an rt-app JSON task description:  WorkloadSpec::RtAppFile("a.json");
//   * the replay of a recorded ftrace text trace:
//     WorkloadSpec::Replay("trace.txt");
//   * task programs built in code:  WorkloadSpec::Programs(workload).
//
// Task programs: a program is a flat list of operations (compute, sleep, IO
// wait, send/receive on a channel, barrier, yield, fork, exit, loops, marks
// that count operations); tasks run programs. These are the simulator's
// own types (sim/program.h, sim/workload.h), re-exported below.
//
//   schedsim::Workload w;
//   int ping = w.AddChannel("ping");
//   int pong = w.AddChannel("pong");
//   int rtt = w.AddMark("round_trip");
//   schedsim::ProgramBuilder client("client");
//   client.Loop(0)  // forever
//       .Stamp().Send(ping).Recv(pong).Mark(rtt)
//       .Compute(schedsim::Dist::Constant(20000))  // cycles
//       .EndLoop();
//   schedsim::ProgramBuilder server("server");
//   server.Loop(0).Recv(ping).Send(pong).EndLoop();
//   w.AddTask("client", w.AddProgram(*client.Build()));
//   w.AddTask("server", w.AddProgram(*server.Build()));
//
// Durations and cycle counts are drawn from distributions with the
// simulation's seeded generator, so a run is reproducible.

#ifndef SCHEDSIM_INCLUDE_SCHEDSIM_WORKLOAD_H_
#define SCHEDSIM_INCLUDE_SCHEDSIM_WORKLOAD_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "schedsim/params.h"
#include "sim/program.h"
#include "sim/workload.h"
#include "workloads/replay_options.h"

namespace schedsim {

// The task programs and workloads are the engine's own types
// (sim/program.h, sim/workload.h), re-exported here: one definition, which
// the simulator runs as it is.
//
// A distribution of non-negative int64 values (cycles or nanoseconds):
// Dist::Constant, Uniform, Exponential, Normal, LogNormal.
using sim::Dist;
// One operation of a program (ProgramBuilder writes them) and its code.
using sim::Op;
using sim::OpCode;
using sim::OpCodeName;
// A name and a flat list of operations.
using sim::Program;
// Builds a Program; Build() checks it: InvalidArgument naming the program
// when loops do not match or nest deeper than kMaxLoopDepth, a distribution
// is out of range or an id is negative. A program that does not end in
// Exit or an endless loop gets an Exit.
using sim::kMaxLoopDepth;
// The most tasks a workload may start with, and the most one fork op creates.
using sim::kMaxTasks;
using sim::ProgramBuilder;
// A pipe or socket, a barrier, a task (or `count` identical ones).
using sim::BarrierSpec;
using sim::ChannelSpec;
using sim::DeviceSpec;
using sim::SchedPolicy;
using sim::SharedLineSpec;
using sim::TaskSpec;
// Task programs and what they share (Workload::Add* return the new
// element's index, the id programs and tasks refer to it by).
using sim::Workload;

// How a recorded ftrace text trace is replayed (docs/traces.md): one task
// per traced task, running the bursts and sleeps the trace shows for it.
using workloads::ReplayOptions;

// Which workload a simulation runs (see the file comment).
struct WorkloadSpec {
  enum class Kind : uint8_t {
    kPrograms,
    kModel,
    kRtAppFile,
    kRtAppJson,
    kReplay
  };
  Kind kind = Kind::kPrograms;
  // kModel: the model name; kRtAppFile, kReplay: the path; kRtAppJson: the
  // JSON text.
  std::string source;
  ParamMap params;       // kModel
  ReplayOptions replay;  // kReplay
  Workload programs;     // kPrograms

  // A registered workload model with parameters (defaults for the rest).
  static WorkloadSpec Model(std::string name, ParamMap params = {});
  // rt-app JSON, from a file or as text.
  static WorkloadSpec RtAppFile(std::string path);
  static WorkloadSpec RtAppJson(std::string json);
  // The replay of an ftrace text trace (trace-cmd report, or
  // /sys/kernel/tracing/trace).
  static WorkloadSpec Replay(std::string ftrace_path,
                             ReplayOptions options = {});
  // Task programs built in code.
  static WorkloadSpec Programs(Workload workload);
};

// A metric a workload model reports (Simulation::ModelMetrics()).
struct ModelMetricInfo {
  std::string name;  // "transactions_per_s", "latency_p99_us", ...
  std::string unit;  // "tps", "us", ...
  bool higher_is_better = true;
  std::string doc;
};

// A registered workload model.
struct WorkloadModelInfo {
  std::string name;
  std::string description;
  std::vector<ParamSpec> params;
  std::vector<ModelMetricInfo> metrics;
};

// Every registered workload model, by name.
std::vector<WorkloadModelInfo> WorkloadModels();

}  // namespace schedsim

#endif  // SCHEDSIM_INCLUDE_SCHEDSIM_WORKLOAD_H_
