// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Whole-engine runs under named kernels: a 6.5 run and a 6.6 run differ
// only through the fair class, and each EEVDF mechanism the engine routes
// (delayed dequeue's requeue, the schedstat waits) shows in a run.

#include <string>

#include "gtest/gtest.h"
#include "sim/builtin_policies.h"
#include "sim/kernels.h"
#include "sim/simulator.h"
#include "topology/presets.h"

namespace schedsim::sim {
namespace {

// Four ping-pong pairs and four CPU hogs on an 8-CPU machine, every task
// allowed on CPUs 0-3 only: runqueues of three, where the fair class
// decides who runs.
Workload Contended() {
  Workload w;
  for (int p = 0; p < 4; ++p) {
    w.channels.push_back(
        {"a" + std::to_string(p), ChannelSpec::Kind::kPipe, 16});
    w.channels.push_back(
        {"b" + std::to_string(p), ChannelSpec::Kind::kPipe, 16});
  }
  w.metrics = {"round_trip"};
  ProgramBuilder ping("ping");
  ping.Loop(0)
      .Stamp()
      .Compute(Dist::Constant(200000))
      .Send(0)
      .Recv(1)
      .Mark(0)
      .EndLoop();
  ProgramBuilder pong("pong");
  pong.Loop(0).Recv(0).Compute(Dist::Constant(300000)).Send(1).EndLoop();
  ProgramBuilder hog("hog");
  hog.Loop(0).Compute(Dist::Constant(5000000)).EndLoop();
  w.programs = {*ping.Build(), *pong.Build(), *hog.Build()};
  for (int p = 0; p < 4; ++p) {
    TaskSpec a;
    a.name = "ping";
    a.program = 0;
    a.affinity = "0-3";
    a.channel_base = 2 * p;
    TaskSpec b = a;
    b.name = "pong";
    b.program = 1;
    TaskSpec h;
    h.name = "hog";
    h.program = 2;
    h.affinity = "0-3";
    w.tasks.push_back(a);
    w.tasks.push_back(b);
    w.tasks.push_back(h);
  }
  return w;
}

SimStats RunWith(const SimConfig& config) {
  absl::StatusOr<topology::Topology> topo =
      topology::MakePreset("skylake-e3-1240v5");
  EXPECT_TRUE(topo.ok());
  PerformanceGovernor freq;
  FitIdleGovernor idle;
  PrevTargetPlacement place;
  absl::StatusOr<std::unique_ptr<Simulator>> sim =
      Simulator::Create(*topo, config, Contended(), {&freq, &idle, &place}, 3);
  EXPECT_TRUE(sim.ok()) << sim.status();
  EXPECT_TRUE((*sim)->RunFor(Milliseconds(200)).ok());
  return (*sim)->Stats();
}

uint64_t Involuntary(const SimStats& s) {
  uint64_t n = 0;
  for (const TaskStats& t : s.tasks) n += t.involuntary_switches;
  return n;
}
int64_t WaitSum(const SimStats& s) {
  int64_t n = 0;
  for (const TaskStats& t : s.tasks) n += t.wait_sum_ns;
  return n;
}

TEST(KernelRunsTest, A65AndA66RunDifferOnlyThroughTheFairClass) {
  SimConfig v65, v66;
  ApplyKernel({6, 5}, &v65);
  ApplyKernel({6, 6}, &v66);
  const SimStats a = RunWith(v65);
  const SimStats b = RunWith(v66);
  EXPECT_NE(a.events, b.events);
  EXPECT_NE(Involuntary(a), Involuntary(b));
  EXPECT_NE(WaitSum(a), WaitSum(b));
  EXPECT_GT(WaitSum(a), 0);
  // 6.6 with 6.5's fair class (CFS and its buddies) is the 6.5 run, event
  // for event: nothing else differs between the two kernels.
  SimConfig v66_cfs = v66;
  v66_cfs.eevdf = false;
  v66_cfs.cfs_buddies = true;
  const SimStats c = RunWith(v66_cfs);
  EXPECT_EQ(a.events, c.events);
  EXPECT_EQ(Involuntary(a), Involuntary(c));
  EXPECT_EQ(WaitSum(a), WaitSum(c));
  EXPECT_EQ(a.metrics[0].count, c.metrics[0].count);
}

TEST(KernelRunsTest, DelayedDequeueChangesA612Run) {
  SimConfig v612;
  ApplyKernel({6, 12}, &v612);
  SimConfig no_delay = v612;
  no_delay.delay_dequeue = false;
  const SimStats a = RunWith(v612);
  const SimStats b = RunWith(no_delay);
  EXPECT_NE(a.events, b.events);
  EXPECT_GT(a.metrics[0].count, 0u);
  EXPECT_GT(b.metrics[0].count, 0u);
}

// sched_idle_fallback (v5.4, commit 3c29e651e16d): a CPU running only
// SCHED_IDLE tasks is sched_idle() to the idle-CPU search. A normal task
// on CPU 0 sleeping 100 us between bursts, SCHED_IDLE hogs on CPUs 1-7: at
// each of its wake-ups the policy sees the hogs' CPUs as sched-idle under
// 5.4, and never under 5.3.
class SchedIdleCounter final : public platform::PlacementPolicy {
 public:
  absl::string_view name() const override { return "count"; }
  int SelectIdleSibling(platform::SchedView& view,
                        const platform::WakeupRequest& request) override {
    ++wakeups;
    for (int cpu = 1; cpu < 8; ++cpu) seen += view.sched_idle(cpu) ? 1 : 0;
    return request.prev_cpu;
  }
  int wakeups = 0;
  int seen = 0;
};

SchedIdleCounter RunSchedIdleHogs(const SimConfig& config) {
  absl::StatusOr<topology::Topology> topo =
      topology::MakePreset("skylake-e3-1240v5");
  EXPECT_TRUE(topo.ok());
  Workload w;
  ProgramBuilder sleeper("sleeper");
  sleeper.Loop(0)
      .Compute(Dist::Constant(20000))
      .Sleep(Dist::Constant(100000))
      .EndLoop();
  ProgramBuilder hog("hog");
  hog.Loop(0).Compute(Dist::Constant(5000000)).EndLoop();
  w.programs = {*sleeper.Build(), *hog.Build()};
  TaskSpec s;
  s.name = "sleeper";
  s.program = 0;
  s.affinity = "0";
  w.tasks.push_back(s);
  for (int cpu = 1; cpu < 8; ++cpu) {
    TaskSpec h;
    h.name = "hog";
    h.program = 1;
    h.policy = SchedPolicy::kIdle;
    h.affinity = std::to_string(cpu);
    w.tasks.push_back(h);
  }
  PerformanceGovernor freq;
  FitIdleGovernor idle;
  SchedIdleCounter place;
  absl::StatusOr<std::unique_ptr<Simulator>> sim =
      Simulator::Create(*topo, config, w, {&freq, &idle, &place}, 3);
  EXPECT_TRUE(sim.ok()) << sim.status();
  EXPECT_TRUE((*sim)->RunFor(Milliseconds(20)).ok());
  return place;
}

TEST(KernelRunsTest, SchedIdleCpusAreFallbackTargetsFrom54) {
  SimConfig v53, v54;
  ApplyKernel({5, 3}, &v53);
  ApplyKernel({5, 4}, &v54);
  EXPECT_FALSE(v53.sched_idle_fallback);
  EXPECT_TRUE(v54.sched_idle_fallback);
  const SchedIdleCounter a = RunSchedIdleHogs(v53);
  const SchedIdleCounter b = RunSchedIdleHogs(v54);
  EXPECT_GT(a.wakeups, 50);
  EXPECT_EQ(a.seen, 0);
  EXPECT_EQ(b.wakeups, a.wakeups);
  EXPECT_EQ(b.seen, 7 * b.wakeups);
}

}  // namespace
}  // namespace schedsim::sim
