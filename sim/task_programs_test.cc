// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The task programs' user space without the engine: loops (counts, forever
// loops, the nesting limit), marks and stamps, the compute ops' sampling
// (the draw order, zero-length ops, the shared line's stall), the
// barriers' arrivals and releases, and the resume table a phase end uses.

#include "sim/task_programs.h"

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "sim/cache_lines.h"
#include "sim/config.h"
#include "sim/noise.h"
#include "sim/program.h"
#include "sim/rng.h"
#include "sim/sched_state.h"
#include "sim/shared_objects.h"
#include "sim/stats.h"
#include "sim/workload.h"
#include "topology/topology.h"

namespace schedsim::sim {
namespace {

using topology::Topology;
using topology::TopologyBuilder;

// One package of 4 single-thread cores in one LLC.
Topology Machine() {
  TopologyBuilder b("programs");
  for (int cpu = 0; cpu < 4; ++cpu) b.AddCpu(cpu, 0, 0, 0, cpu);
  b.set_distances({{10}});
  topology::CoherenceSpec c;
  c.smt_ns = 10;
  c.llc_ns = 40;
  c.package_ns = 100;
  c.remote_ns = 200;
  b.set_coherence(c);
  absl::StatusOr<Topology> t = b.Build();
  EXPECT_TRUE(t.ok()) << t.status();
  return *std::move(t);
}

SimConfig NoNoise() {
  SimConfig c;
  c.noise_scale = 0;
  return c;
}

Program Build(ProgramBuilder& b) {
  absl::StatusOr<Program> p = b.Build();
  EXPECT_TRUE(p.ok()) << p.status();
  return *std::move(p);
}

// The part over a machine's lines and the noise of `config`, with the
// programs, barriers, marks and one shared line of `workload`.
struct Rig {
  explicit Rig(Workload w, SimConfig c = NoNoise())
      : topo(Machine()),
        config(c),
        workload(std::move(w)),
        noise(7),
        cache(topo, config) {
    EXPECT_TRUE(noise.Init(config, 0).ok());
    SharedLineSpec line;
    line.name = "line";
    cache.Init({line});
    progs.Init(workload);
  }
  // Runs task `t` (id 0) from its pc through the ops that need no kernel,
  // as the engine's interpreter does, until it reaches one that does or
  // one that starts a phase: that op's code (kCompute or kShared for a
  // phase), or kExit after `max_ops` ops.
  OpCode RunUser(Task& t, int max_ops = 1000) {
    for (int n = 0; n < max_ops; ++n) {
      const Op& op = progs.ops(t.program)[t.pc];
      switch (op.code) {
        case OpCode::kCompute:
          if (TaskPrograms::SampleCompute(t, 0, op, rng, noise)) return op.code;
          break;
        case OpCode::kShared:
          if (TaskPrograms::SampleShared(t, 0, op, rng, noise, cache, 0, now_ns,
                                         1.0)) {
            return op.code;
          }
          break;
        case OpCode::kLoop:
          if (!progs.EnterLoop(t, op)) return OpCode::kLoop;
          break;
        case OpCode::kEndLoop:
          TaskPrograms::EndLoop(t, op);
          break;
        case OpCode::kMark:
          progs.Mark(t, op, now_ns);
          break;
        case OpCode::kStamp:
          TaskPrograms::Stamp(t, now_ns);
          break;
        default:
          return op.code;
      }
    }
    return OpCode::kExit;
  }
  int64_t now_ns = 0;
  Topology topo;
  SimConfig config;
  Workload workload;
  Noise noise;
  CacheLines cache;
  TaskPrograms progs;
  Rng rng{42};
};

TEST(TaskProgramsTest, LoopsRunTheirCountThenGoOn) {
  Workload w;
  ProgramBuilder b("loops");
  b.Loop(3).Compute(Dist::Constant(100)).Loop(2).Stamp().EndLoop().EndLoop();
  b.Sleep(Dist::Constant(5));
  w.AddProgram(Build(b));
  Rig rig(std::move(w));
  Task t;
  int computes = 0;
  while (rig.RunUser(t) == OpCode::kCompute) {
    EXPECT_EQ(t.rem_cycles, 100);
    EXPECT_EQ(t.loop_level, 1);  // inside the outer loop only
    ++computes;
  }
  EXPECT_EQ(computes, 3);
  EXPECT_EQ(rig.progs.ops(0)[t.pc].code, OpCode::kSleep);
  EXPECT_EQ(t.loop_level, 0);
}

TEST(TaskProgramsTest, ForeverLoopNeverEnds) {
  Workload w;
  ProgramBuilder b("forever");
  b.Loop(0).Compute(Dist::Constant(10)).EndLoop();
  w.AddProgram(Build(b));
  Rig rig(std::move(w));
  Task t;
  for (int i = 0; i < 10000; ++i) {
    ASSERT_EQ(rig.RunUser(t), OpCode::kCompute) << i;
  }
  EXPECT_EQ(t.loop_level, 1);
  EXPECT_EQ(t.loop_left[0], 0);
}

TEST(TaskProgramsTest, LoopsNestAtMostTheLimit) {
  // Built by hand: ProgramBuilder refuses a program nesting deeper.
  Program p;
  p.name = "deep";
  for (int i = 0; i <= kMaxLoopDepth; ++i) {
    Op op;
    op.code = OpCode::kLoop;
    op.arg = 2;
    p.ops.push_back(op);
  }
  Workload w;
  w.AddProgram(std::move(p));
  Rig rig(std::move(w));
  Task t;
  EXPECT_EQ(rig.RunUser(t), OpCode::kLoop);  // refused, nothing changed
  EXPECT_EQ(t.loop_level, kMaxLoopDepth);
  EXPECT_EQ(t.pc, static_cast<uint32_t>(kMaxLoopDepth));
  EXPECT_EQ(rig.progs.name(0), "deep");
}

TEST(TaskProgramsTest, MarksCountAndTakeTheLatencyFromTheLastStamp) {
  Workload w;
  w.AddMark("op");
  w.AddMark("other");
  ProgramBuilder b("marks");
  b.Mark(0).Stamp().Compute(Dist::Constant(1)).Mark(0).Mark(1);
  b.Sleep(Dist::Constant(5));
  w.AddProgram(Build(b));
  Rig rig(std::move(w));
  Task t;
  rig.now_ns = 1000;
  EXPECT_EQ(rig.RunUser(t), OpCode::kCompute);  // a mark with no stamp yet
  EXPECT_EQ(t.stamp_ns, 1000);
  rig.now_ns = 1700;
  EXPECT_EQ(rig.RunUser(t), OpCode::kSleep);
  const std::vector<MetricStats>& m = rig.progs.metrics();
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].name, "op");
  EXPECT_EQ(m[0].count, 2u);
  EXPECT_EQ(m[0].latency_ns.count(), 1u);
  EXPECT_EQ(m[0].latency_ns.sum(), 700);
  EXPECT_EQ(m[1].count, 1u);
  EXPECT_EQ(m[1].latency_ns.sum(), 700);
  rig.progs.ResetStats();
  EXPECT_EQ(rig.progs.metrics()[0].name, "op");
  EXPECT_EQ(rig.progs.metrics()[0].count, 0u);
  EXPECT_EQ(rig.progs.metrics()[0].latency_ns.count(), 0u);
}

TEST(TaskProgramsTest, ComputeDrawsCyclesThenStall) {
  Workload w;
  ProgramBuilder b("compute");
  b.Compute(Dist::Uniform(1, 1000000), Dist::Uniform(1, 1000000));
  w.AddProgram(Build(b));
  Rig rig(std::move(w));
  Task t;
  EXPECT_EQ(rig.RunUser(t), OpCode::kCompute);
  Rng twin(42);
  const int64_t cycles = Dist::Uniform(1, 1000000).Sample(twin);
  const int64_t stall = Dist::Uniform(1, 1000000).Sample(twin);
  EXPECT_NE(cycles, stall);
  EXPECT_EQ(t.rem_cycles, cycles);
  EXPECT_EQ(t.rem_stall_ns, stall);
  EXPECT_EQ(t.pc, 1u);
}

TEST(TaskProgramsTest, ZeroLengthComputeStartsNoPhaseUnlessKernelWorkWaits) {
  Workload w;
  ProgramBuilder b("zero");
  b.Compute(Dist::Constant(0)).Compute(Dist::Constant(0));
  b.Sleep(Dist::Constant(5));
  w.AddProgram(Build(b));
  Rig rig(std::move(w));
  Task t;
  EXPECT_EQ(rig.RunUser(t), OpCode::kSleep);  // both skipped
  Task u;
  u.pending_cost_ns = 300;  // a phase for the kernel work
  EXPECT_EQ(rig.RunUser(u), OpCode::kCompute);
  EXPECT_EQ(u.pc, 1u);
}

TEST(TaskProgramsTest, JitterScalesTheDrawnWork) {
  Workload w;
  ProgramBuilder b("jitter");
  b.Compute(Dist::Constant(1000000));
  w.AddProgram(Build(b));
  SimConfig c;
  c.layout_cv_pct = 50;
  Rig rig(std::move(w), c);
  ASSERT_TRUE(rig.noise.jitter());
  rig.noise.NewTask(0);
  Task t;
  EXPECT_EQ(rig.RunUser(t), OpCode::kCompute);
  EXPECT_NE(t.rem_cycles, 1000000);
  EXPECT_GT(t.rem_cycles, 0);
}

TEST(TaskProgramsTest, SharedOpAddsTheLinesStallFromItsStart) {
  Workload w;
  ProgramBuilder b("shared");
  b.Shared(0, 3, Dist::Constant(1000), Dist::Constant(50));
  b.Shared(0, 0, Dist::Constant(0));  // nothing: no phase
  b.Sleep(Dist::Constant(5));
  w.AddProgram(Build(b));
  Rig rig(std::move(w));
  // Another CPU of the LLC wrote the line just before: the first write
  // moves it, and each write holds it 50 ns.
  rig.cache.SharedLineStall(2, 0, 1, 0, 0, 1000, 1.0);
  Topology topo = Machine();
  SimConfig config = NoNoise();
  CacheLines twin(topo, config);
  SharedLineSpec line;
  line.name = "line";
  twin.Init({line});
  twin.SharedLineStall(2, 0, 1, 0, 0, 1000, 1.0);
  rig.now_ns = 100;
  Task t;
  t.pending_cost_ns = 200;
  // The op's writes start after the kernel work pending (RunUser passes
  // now_ns as the start, as the engine passes now + pending).
  rig.now_ns += t.pending_cost_ns;
  EXPECT_EQ(rig.RunUser(t), OpCode::kShared);
  const int64_t expect = twin.SharedLineStall(0, 0, 3, 50, 300, 1000, 1.0);
  EXPECT_GT(expect, 3 * 50);
  EXPECT_EQ(t.rem_cycles, 1000);
  EXPECT_EQ(t.rem_stall_ns, expect);
  t.pending_cost_ns = 0;
  EXPECT_EQ(rig.RunUser(t), OpCode::kSleep);
  EXPECT_EQ(rig.cache.stats()[0].writes, twin.stats()[0].writes);
}

TEST(TaskProgramsTest, BarrierReleasesSpinnersThenWaitersLastFirst) {
  Workload w;
  w.AddBarrier("b", 4);
  ProgramBuilder spin("spin");
  spin.Barrier(0, Dist::Constant(5000));
  ProgramBuilder wait("wait");
  wait.Barrier(0);
  w.AddProgram(Build(spin));
  w.AddProgram(Build(wait));
  Rig rig(std::move(w));
  std::vector<Task> tasks(4);
  tasks[1].program = 1;
  tasks[2].program = 1;
  tasks[3].program = 1;
  const Op& spin_op = rig.progs.ops(0)[0];
  const Op& wait_op = rig.progs.ops(1)[0];
  EXPECT_EQ(rig.progs.Arrive(tasks[0], 0, spin_op, rig.rng),
            TaskPrograms::Arrival::kSpin);
  EXPECT_TRUE(tasks[0].spinning);
  EXPECT_EQ(tasks[0].rem_stall_ns, 5000);
  EXPECT_EQ(tasks[0].rem_cycles, 0);
  EXPECT_EQ(tasks[0].pc, 0u);  // still at the barrier
  EXPECT_EQ(rig.progs.Arrive(tasks[1], 1, wait_op, rig.rng),
            TaskPrograms::Arrival::kWait);
  EXPECT_EQ(rig.progs.Arrive(tasks[2], 2, wait_op, rig.rng),
            TaskPrograms::Arrival::kWait);
  EXPECT_EQ(tasks[1].pc, 1u);  // past it when woken
  EXPECT_EQ(rig.progs.barrier(0).arrived, 3);
  EXPECT_EQ(rig.progs.Arrive(tasks[3], 3, wait_op, rig.rng),
            TaskPrograms::Arrival::kRelease);
  EXPECT_EQ(tasks[3].pc, 1u);
  std::vector<int> order;
  rig.progs.Release(
      0, tasks,
      [&](int s) {
        EXPECT_FALSE(tasks[s].spinning);
        EXPECT_EQ(tasks[s].pc, 1u);  // past the barrier before it is re-armed
        order.push_back(s);
      },
      [&](int w) {
        EXPECT_EQ(tasks[w].next_waiter, -1);
        order.push_back(100 + w);
      });
  EXPECT_EQ(order, (std::vector<int>{0, 102, 101}));
  EXPECT_EQ(rig.progs.barrier(0).arrived, 0);
  EXPECT_EQ(rig.progs.barrier(0).generation, 1u);
  EXPECT_EQ(rig.progs.barrier(0).waiters_head, -1);
  EXPECT_TRUE(rig.progs.barrier(0).spinners.empty());
}

TEST(TaskProgramsTest, SpinnerThatTimesOutWaits) {
  Workload w;
  w.AddBarrier("b", 3);
  ProgramBuilder spin("spin");
  spin.Barrier(0, Dist::Constant(5000));
  w.AddProgram(Build(spin));
  Rig rig(std::move(w));
  std::vector<Task> tasks(3);
  const Op& op = rig.progs.ops(0)[0];
  EXPECT_EQ(rig.progs.Arrive(tasks[0], 0, op, rig.rng),
            TaskPrograms::Arrival::kSpin);
  EXPECT_EQ(rig.progs.Arrive(tasks[1], 1, op, rig.rng),
            TaskPrograms::Arrival::kSpin);
  rig.progs.SpinTimedOut(tasks[0], 0);
  EXPECT_FALSE(tasks[0].spinning);
  EXPECT_EQ(tasks[0].pc, 1u);
  EXPECT_EQ(rig.progs.barrier(0).waiters_head, 0);
  EXPECT_EQ(rig.progs.barrier(0).spinners, std::vector<int32_t>{1});
  EXPECT_EQ(rig.progs.Arrive(tasks[2], 2, op, rig.rng),
            TaskPrograms::Arrival::kRelease);
  std::vector<int> spun, woken;
  rig.progs.Release(
      0, tasks, [&](int s) { spun.push_back(s); },
      [&](int w) { woken.push_back(w); });
  EXPECT_EQ(spun, std::vector<int>{1});
  EXPECT_EQ(woken, std::vector<int>{0});
}

TEST(TaskProgramsTest, PhaseResumeSkipsForeverLoopEndsAndFindsTheChannel) {
  Workload w;
  ProgramBuilder forever("forever");
  // 0 Loop(0), 1 Compute, 2 Mark, 3 Recv(2), 4 Compute, 5 EndLoop.
  forever.Loop(0).Compute(Dist::Constant(1)).Mark(0).Recv(2);
  forever.Compute(Dist::Constant(1)).EndLoop();
  ProgramBuilder counted("counted");
  // 0 Loop(3), 1 Compute, 2 EndLoop, 3 Send(1), 4 Exit.
  counted.Loop(3).Compute(Dist::Constant(1)).EndLoop().Send(1);
  w.AddMark("m");
  w.AddProgram(Build(forever));
  w.AddProgram(Build(counted));
  Rig rig(std::move(w));
  // After the last compute, the forever loop's end: resume at its body.
  EXPECT_EQ(rig.progs.phase_resume(0, 5).pc, 1u);
  EXPECT_EQ(rig.progs.phase_resume(0, 5).channel, -1);
  EXPECT_EQ(rig.progs.phase_resume(0, 2).pc, 2u);
  EXPECT_EQ(rig.progs.phase_resume(0, 2).channel, 2);  // past the mark
  EXPECT_EQ(rig.progs.phase_resume(0, 4).channel, -1);
  // A counted loop's end is an op to run.
  EXPECT_EQ(rig.progs.phase_resume(1, 2).pc, 2u);
  EXPECT_EQ(rig.progs.phase_resume(1, 2).channel, -1);  // may loop back
  EXPECT_EQ(rig.progs.phase_resume(1, 3).channel, 1);
}

}  // namespace
}  // namespace schedsim::sim
