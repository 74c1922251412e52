// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Task programs: what a simulated task does. A program is a flat list of
// operations (compute, sleep, IO wait, send/receive on a channel, barrier,
// yield, fork, exit, loops, metric marks); tasks share programs and carry
// only a program counter and loop counters, so a task costs a few hundred
// bytes however long its program is.
//
//   ProgramBuilder b("ping");
//   b.Loop(1000)
//       .Send(/*channel=*/0)
//       .Recv(/*channel=*/1)
//       .Compute(Dist::Constant(20000), Dist::Constant(0))
//    .EndLoop()
//    .Exit();
//   absl::StatusOr<Program> ping = b.Build();
//
// Durations and cycle counts are drawn from distributions with the
// simulation's seeded generator, so a run is reproducible.

#ifndef SCHEDSIM_SIM_PROGRAM_H_
#define SCHEDSIM_SIM_PROGRAM_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "sim/rng.h"

namespace schedsim::sim {

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

  // A draw; constant distributions do not touch the generator.
  int64_t Sample(Rng& rng) const {
    return kind == Kind::kConstant ? a : SampleRandom(rng);
  }
  int64_t SampleRandom(Rng& rng) const;
  // The mean (for docs, checks and analytic tests).
  double Mean() const;
  // InvalidArgument naming `what` if parameters are out of range.
  absl::Status Validate(const std::string& what) const;
};

enum class OpCode : uint8_t {
  kCompute,  // run d1 cycles plus d2 ns of frequency-independent stall
  kSleep,    // block for d1 ns (a timer wake-up)
  kIoWait,   // block in iowait for d1 ns (an IO completion wake-up); with
             // `arg` kIoWaitDevice: a device interrupt that is not IO
             // wait (a network packet from another host)
  kSend,     // put one message on channel `arg`; wakes a waiting reader
             // (arg2 = kChannelBatch: as many as the task's last batch
             // receive took, waking as many readers)
  kRecv,     // take one message from channel `arg`; blocks while empty
             // (arg2 = kChannelBatch: every message waiting, a batch)
  kBarrier,  // wait on barrier `arg`: spin up to d1 ns, then block
  kYield,    // sched_yield()
  kFork,     // start `arg2` new tasks running program `arg`
  kExit,     // the task ends
  kLoop,     // repeat the body up to the matching kEndLoop `arg` times
             // (arg = 0: forever)
  kEndLoop,  // `arg` = index of the matching kLoop
  kMark,     // count one operation of metric `arg` (and its latency since
             // the last kStamp, if any)
  kStamp,    // remember now as the start of an operation
  kShared,   // run d1 cycles that write shared line `arg` `arg2` times,
             // each write holding the line d2 ns (a lock's critical
             // section; 0 = an atomic read-modify-write)
  kIo,       // write d1 bytes to device `arg` (Workload::devices), then
             // d2 ns more on the last request (a cache flush); block in
             // IO wait until each request completes in turn
  kExec,     // execve(): run program `arg` from its start as the same task
             // (its PELT signal and channel base kept), after sched_exec()
             // moved it to the CPU find_idlest_cpu picks (SD_BALANCE_EXEC)
};

const char* OpCodeName(OpCode code);

// Op::arg2 of a kSend or kRecv that moves a batch (ProgramBuilder::RecvBatch
// and SendBatch).
inline constexpr int32_t kChannelBatch = 1;

struct Op {
  OpCode code = OpCode::kExit;
  int32_t arg = 0;
  int32_t arg2 = 0;
  Dist d1;
  Dist d2;
};

struct Program {
  std::string name;
  std::vector<Op> ops;
  // Deepest loop nesting (the interpreter keeps one counter per level).
  int loop_depth = 0;
};

inline constexpr int kMaxLoopDepth = 4;

// The most tasks a workload may start with (the sum of every TaskSpec's
// count), and the most children one fork op may create: Simulator::Create
// refuses more (InvalidArgument naming the limit) instead of running out
// of memory (docs/workloads.md, "Limits").
inline constexpr int64_t kMaxTasks = 100000;

// kIoWait's `arg`: an IO completion (0) or another device's interrupt.
inline constexpr int32_t kIoWaitDevice = 1;

class ProgramBuilder {
 public:
  explicit ProgramBuilder(std::string name) { program_.name = std::move(name); }

  ProgramBuilder& Compute(Dist cycles, Dist stall_ns = Dist::Constant(0));
  ProgramBuilder& Sleep(Dist ns);
  ProgramBuilder& IoWait(Dist ns);
  // Blocks for `ns` until a device interrupt that is not an IO completion
  // wakes it: a packet from another host (the NIC's interrupt, then the
  // receive softirq, wakes the task on the CPU it slept on). Neither IO
  // wait (no iowait accounting, no SCHED_CPUFREQ_IOWAIT) nor a timer the
  // idle governor can see.
  ProgramBuilder& DeviceWait(Dist ns);
  // Writes `bytes` to device `device` (Workload::devices) and waits for
  // every request; `flush_ns` more on the last request (a FLUSH/FUA).
  ProgramBuilder& Io(int device, Dist bytes, Dist flush_ns = Dist::Constant(0));
  ProgramBuilder& Send(int channel);
  ProgramBuilder& Recv(int channel);
  // Takes every message waiting on `channel` (at least one; blocks while
  // it is empty): a kernel thread serving all the requests queued for it
  // at once, as jbd2 commits every fsync that joined the transaction.
  ProgramBuilder& RecvBatch(int channel);
  // Puts as many messages on `channel` as this task's last RecvBatch took
  // (one if none), waking as many readers: the batch's answers.
  ProgramBuilder& SendBatch(int channel);
  ProgramBuilder& Barrier(int barrier, Dist spin_ns = Dist::Constant(0));
  ProgramBuilder& Yield();
  ProgramBuilder& Fork(int program, int count = 1);
  // execve() of `program` (OpCode::kExec): the ops after it never run.
  ProgramBuilder& Exec(int program);
  ProgramBuilder& Exit();
  ProgramBuilder& Loop(int64_t count);
  ProgramBuilder& EndLoop();
  ProgramBuilder& Mark(int metric);
  ProgramBuilder& Stamp();
  // `cycles` of work that write shared line `line` (Workload::lines)
  // `writes` times, each write holding the line `hold_ns`: what the writes
  // cost (moving the line from its last owner, waiting while other CPUs
  // hold it) is added as stall (docs/model.md, "Shared cache lines").
  ProgramBuilder& Shared(int line, int writes, Dist cycles,
                         Dist hold_ns = Dist::Constant(0));

  // Checks loops match (at most kMaxLoopDepth deep) and the program ends in
  // kExit or an endless loop; appends kExit when it does not.
  absl::StatusOr<Program> Build();

 private:
  Program program_;
  std::vector<int> open_loops_;
  std::string error_;
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_PROGRAM_H_
