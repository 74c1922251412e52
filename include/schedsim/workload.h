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
// that count operations); tasks run programs.
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

namespace schedsim {

// A distribution of non-negative int64 values (cycles or nanoseconds).
struct Dist {
  enum class Kind : uint8_t {
    kConstant,     // a
    kUniform,      // uniform integer in [a, b]
    kExponential,  // mean a
    kNormal,       // mean a, standard deviation b, truncated at 0
    kLogNormal,    // median a, sigma b / 1000 (b in thousandths)
  };
  Kind kind = Kind::kConstant;
  int64_t a = 0;
  int64_t b = 0;

  static Dist Constant(int64_t v) { return {Kind::kConstant, v, 0}; }
  static Dist Uniform(int64_t lo, int64_t hi) {
    return {Kind::kUniform, lo, hi};
  }
  static Dist Exponential(int64_t mean) {
    return {Kind::kExponential, mean, 0};
  }
  static Dist Normal(int64_t mean, int64_t stddev) {
    return {Kind::kNormal, mean, stddev};
  }
  static Dist LogNormal(int64_t median, int64_t sigma_milli) {
    return {Kind::kLogNormal, median, sigma_milli};
  }
};

// One operation of a program (ProgramBuilder writes them).
struct ProgramOp {
  enum class Code : uint8_t {
    kCompute,  // run d1 cycles plus d2 ns of frequency-independent stall
    kSleep,    // block for d1 ns (a timer wake-up)
    kIoWait,   // block in iowait for d1 ns (an IO completion wake-up)
    kSend,     // put one message on channel `arg`; wakes a waiting reader
    kRecv,     // take one message from channel `arg`; blocks while empty
    kBarrier,  // wait on barrier `arg`: spin up to d1 ns, then block
    kYield,    // sched_yield()
    kFork,     // start `arg2` new tasks running program `arg`
    kExit,     // the task ends
    kLoop,     // repeat the body up to the matching kEndLoop `arg` times
               // (arg = 0: forever)
    kEndLoop,  // the end of the innermost open loop
    kMark,     // count one operation of mark `arg` (and its latency since
               // the last kStamp, if any)
    kStamp,    // remember now as the start of an operation
  };
  Code code = Code::kExit;
  int64_t arg = 0;
  int32_t arg2 = 0;
  Dist d1;
  Dist d2;
};

struct Program {
  std::string name;
  std::vector<ProgramOp> ops;
};

// Builds a Program; Build() checks it.
class ProgramBuilder {
 public:
  explicit ProgramBuilder(std::string name) { program_.name = std::move(name); }

  ProgramBuilder& Compute(Dist cycles, Dist stall_ns = Dist::Constant(0));
  ProgramBuilder& Sleep(Dist ns);
  ProgramBuilder& IoWait(Dist ns);
  ProgramBuilder& Send(int channel);
  ProgramBuilder& Recv(int channel);
  ProgramBuilder& Barrier(int barrier, Dist spin_ns = Dist::Constant(0));
  ProgramBuilder& Yield();
  ProgramBuilder& Fork(int program, int count = 1);
  ProgramBuilder& Exit();
  // `count` iterations; 0 = forever. At most 4 loops deep.
  ProgramBuilder& Loop(int64_t count);
  ProgramBuilder& EndLoop();
  ProgramBuilder& Mark(int mark);
  ProgramBuilder& Stamp();

  // InvalidArgument naming the program when loops do not match or are too
  // deep, or a distribution is out of range. A program that does not end
  // in Exit or an endless loop gets an Exit.
  absl::StatusOr<Program> Build() const;

 private:
  ProgramBuilder& Add(ProgramOp op) {
    program_.ops.push_back(op);
    return *this;
  }
  Program program_;
};

struct ChannelSpec {
  enum class Kind : uint8_t { kPipe, kSocket };
  std::string name;
  Kind kind = Kind::kPipe;
  // Messages the channel holds before a sender blocks.
  int capacity = 655;
};

struct BarrierSpec {
  std::string name;
  int parties = 2;
};

enum class SchedPolicy : uint8_t { kNormal, kIdle, kFifo };

struct TaskSpec {
  std::string name;
  int program = 0;  // index in Workload::programs
  int count = 1;    // this many identical tasks
  int nice = 0;     // -20..19 (SCHED_NORMAL)
  SchedPolicy policy = SchedPolicy::kNormal;
  int rt_priority = 0;  // 1..99 for kFifo
  // CPUs the task may run on (cpulist text such as "0-3,8"; "" = all).
  std::string affinity;
  // CPU the task starts on; -1 = placed by fork balancing.
  int start_cpu = -1;
  // Added to the channel ids of the program's Send and Recv, so that many
  // tasks share one program on different channels.
  int channel_base = 0;
  // uclamp request, 0..1024; -1 = unset.
  int uclamp_min = -1;
  int uclamp_max = -1;
};

// Task programs and what they share. The Add* helpers return the new
// element's index (the id programs and tasks refer to it by).
struct Workload {
  std::vector<Program> programs;
  std::vector<ChannelSpec> channels;
  std::vector<BarrierSpec> barriers;
  std::vector<TaskSpec> tasks;     // the tasks present at the start
  std::vector<std::string> marks;  // ProgramBuilder::Mark ids index this

  int AddProgram(Program program);
  int AddChannel(std::string name,
                 ChannelSpec::Kind kind = ChannelSpec::Kind::kPipe,
                 int capacity = 655);
  int AddBarrier(std::string name, int parties);
  int AddMark(std::string name);
  int AddTask(TaskSpec task);
  // `count` tasks named `name` running program `program`, with the
  // TaskSpec defaults otherwise.
  int AddTask(std::string name, int program, int count = 1);
};

// How a recorded ftrace text trace is replayed (docs/traces.md): one task
// per traced task, running the bursts and sleeps the trace shows for it.
struct ReplayOptions {
  // Tasks to keep: a pid ("1234") or a comm ("surfaceflinger"). Empty:
  // every task except the tracer's (exclude_comms).
  std::vector<std::string> tasks;
  std::vector<std::string> exclude_comms = {
      "trace-cmd", "perf", "atrace", "traced", "traced_probes", "perfetto"};
  // The frequency of CPUs without cpu_frequency events, in kHz (> 0).
  int64_t nominal_khz = 1000000;
  // Repeat each task's program forever.
  bool loop = false;
  // RT tasks become SCHED_FIFO; false: SCHED_NORMAL nice 0.
  bool rt_as_fifo = true;
};

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
