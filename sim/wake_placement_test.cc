// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The wake-up and fork placement decisions without the engine: a small
// machine's shared state built by hand (sim/engine_state_testing.h) and
// each decision of kernel/sched/fair.c (Linux 6.1) checked on it.

#include "sim/wake_placement.h"

#include <cstdint>
#include <utility>

#include "gtest/gtest.h"
#include "sim/config.h"
#include "sim/engine_state_testing.h"
#include "sim/sched_state.h"
#include "topology/sched_domains.h"
#include "topology/topology.h"

namespace schedsim::sim {
namespace {

using state_testing::kMs;
using state_testing::TestState;
using state_testing::TwoLlcs;
using topology::SchedDomain;
using topology::Topology;
using topology::TopologyBuilder;

struct Rig {
  explicit Rig(Topology t, SimConfig c = SimConfig())
      : topo(std::move(t)),
        domains(*topology::BuildSchedDomains(topo)),
        config(c),
        state(topo, domains, now_ns),
        wp(state, topo, domains, config, now_ns) {
    wp.Init();
  }
  const SchedDomain& Domain(int cpu, const char* name) const {
    for (int d = 0; d < domains.depth(cpu); ++d) {
      if (domains.domain(cpu, d).name == name) return domains.domain(cpu, d);
    }
    ADD_FAILURE() << "no " << name << " domain on CPU " << cpu;
    return domains.domain(cpu, 0);
  }

  Topology topo;
  topology::SchedDomains domains;
  SimConfig config;
  int64_t now_ns = 1000 * kMs;
  TestState state;
  WakePlacement wp;
};

TEST(WakePlacementTest, RecordWakeeCountsFlipsAndHalvesThemEachSecond) {
  // record_wakee(): wakee_flips++ on a new wakee; halved once per second.
  Rig r(TwoLlcs());
  const int waker = r.state.AddTask(0, true, 0);
  const int a = r.state.AddTask(1, true, 0);
  const int b = r.state.AddTask(2, true, 0);
  Task& w = r.state.tasks_[waker];
  w.wakee_flip_decay_ns = r.now_ns;
  r.wp.RecordWakee(waker, a);
  r.wp.RecordWakee(waker, a);  // the same wakee: no flip
  r.wp.RecordWakee(waker, b);
  r.wp.RecordWakee(waker, a);
  EXPECT_EQ(w.wakee_flips, 3u);
  EXPECT_EQ(w.last_wakee, a);
  r.now_ns += 1000 * kMs + 1;
  r.wp.RecordWakee(waker, a);  // 3 >> 1, and no flip
  EXPECT_EQ(w.wakee_flips, 1u);
  EXPECT_EQ(w.wakee_flip_decay_ns, r.now_ns);
}

TEST(WakePlacementTest, WakeWideNeedsFlipsBeyondTheLlcSize) {
  // wake_wide(): slave >= sd_llc_size && master >= slave * sd_llc_size.
  Rig r(TwoLlcs());  // LLCs of 4
  const int waker = r.state.AddTask(0, true, 0);
  const int wakee = r.state.AddTask(1, true, 0);
  r.state.tasks_[waker].wakee_flips = 16;
  r.state.tasks_[wakee].wakee_flips = 4;
  EXPECT_TRUE(r.wp.WakeWide(wakee, waker));
  EXPECT_TRUE(r.wp.WakeWide(waker, wakee));  // symmetric
  r.state.tasks_[waker].wakee_flips = 15;
  EXPECT_FALSE(r.wp.WakeWide(wakee, waker));
  r.state.tasks_[waker].wakee_flips = 16;
  r.state.tasks_[wakee].wakee_flips = 3;
  EXPECT_FALSE(r.wp.WakeWide(wakee, waker));
  EXPECT_FALSE(r.wp.WakeWide(wakee, -1));  // an interrupt's wake-up
}

TEST(WakePlacementTest, LoadsAreEstimatedFromUtilizationAndWeights) {
  Rig r(TwoLlcs());
  const int t = r.state.AddTask(0, true, 0);
  r.state.AddTask(0, false, 0);
  r.state.cpus_[0].rq_pelt.util_avg = 512;
  // util * avg weight / 1024 + one avg weight per task queued behind.
  EXPECT_EQ(r.wp.CpuLoad(0), 512 + 1024);
  r.state.cpus_[1].rq_pelt.util_avg = 100;  // no fair task: blocked load
  EXPECT_EQ(r.wp.CpuLoad(1), 100);
  r.state.tasks_[t].pelt.util_avg = 300;
  r.state.tasks_[t].weight = 2048;
  EXPECT_EQ(r.wp.TaskLoad(t), 600);
}

TEST(WakePlacementTest, TheAffineDomainIsTheLowestSpanningPrev) {
  Rig r(TwoLlcs());
  EXPECT_EQ(r.wp.AffineDomain(0, 1), &r.Domain(0, "MC"));
  EXPECT_EQ(r.wp.AffineDomain(0, 5), &r.Domain(0, "DIE"));
  // Nodes farther than RECLAIM_DISTANCE (30): the NUMA level loses
  // SD_WAKE_AFFINE (sd_init()), so no domain of CPU 0 spans CPU 5.
  TopologyBuilder b("far-sockets");
  for (int cpu = 0; cpu < 8; ++cpu) {
    b.AddCpu(cpu, cpu / 4, cpu / 4, cpu / 4, cpu);
  }
  b.set_distances({{10, 40}, {40, 10}});
  Rig far(*b.Build());
  EXPECT_EQ(far.wp.AffineDomain(0, 5), nullptr);
  EXPECT_NE(far.wp.AffineDomain(0, 1), nullptr);
}

TEST(WakePlacementTest, WakeAffineIdleTakesAnIdleCpuSharingTheCache) {
  // wake_affine_idle().
  Rig r(TwoLlcs());
  const SchedDomain& mc = r.Domain(0, "MC");
  const int wakee = r.state.AddTask(4, true, 0);  // somewhere else
  // this_cpu 0 idle, sharing the cache with prev 1: prev if idle too.
  EXPECT_EQ(r.wp.WakeAffine(mc, wakee, 0, 1, false, -1), 1);
  r.state.AddTask(1, true, 0);
  EXPECT_EQ(r.wp.WakeAffine(mc, wakee, 0, 1, false, -1), 0);
  // A sync wake-up from a CPU running only the waker: this CPU.
  const int waker = r.state.AddTask(2, true, 0);
  EXPECT_EQ(r.wp.WakeAffine(mc, wakee, 2, 3, true, waker), 2);
  // Else an idle prev.
  r.state.AddTask(2, false, 0);
  EXPECT_EQ(r.wp.WakeAffine(mc, wakee, 2, 3, true, waker), 3);
}

TEST(WakePlacementTest, WakeAffineWeightComparesTheLoads) {
  // wake_affine_weight(): this_eff = (this load + task load) * 100 * cap,
  // prev_eff = (prev load - task load) * (100 + (pct - 100) / 2) * cap.
  Rig r(TwoLlcs());
  const SchedDomain& die = r.Domain(0, "DIE");
  const int wakee = r.state.AddTask(7, true, 0);
  r.state.tasks_[wakee].pelt.util_avg = 0;
  r.state.AddTask(0, true, 0);
  r.state.AddTask(4, true, 0);
  r.state.AddTask(4, false, 0);
  r.state.cpus_[0].rq_pelt.util_avg = 1024;  // load 1024
  r.state.cpus_[4].rq_pelt.util_avg = 0;     // load 1024 (one queued)
  // 1024 * 100 vs 1024 * 108: this CPU.
  EXPECT_EQ(r.wp.WakeAffine(die, wakee, 0, 4, false, -1), 0);
  r.state.cpus_[0].rq_pelt.util_avg = 1024;
  r.state.AddTask(0, false, 0);  // this load 2048
  EXPECT_EQ(r.wp.WakeAffine(die, wakee, 0, 4, false, -1), 4);
}

TEST(WakePlacementTest, ForkGoesToTheGroupWithTheMostIdleCpus) {
  // find_idlest_cpu() (default: the group with the most idle CPUs, then
  // the idle CPU in the shallowest state, most recently idle).
  Rig r(TwoLlcs());
  const int parent = r.state.AddTask(0, true, 0);
  r.state.AddTask(1, true, 0);
  r.state.AddTask(2, true, 0);
  r.state.AddTask(4, true, 0);
  r.state.AddTask(5, true, 0);
  EXPECT_EQ(r.wp.FindIdlestCpu(parent, 0, topology::kSdBalanceFork), 6);
  r.state.AddTask(6, true, 0);
  r.state.AddTask(6, false, 0);  // 4-7: one idle, as 0-3
  EXPECT_EQ(r.wp.FindIdlestCpu(parent, 0, topology::kSdBalanceFork), 3);
}

TEST(WakePlacementTest, ExecCountsItsOwnCpuAsIdleAndStays) {
  // sched_exec(): the exec'ing task's CPU seen without it
  // (idle_cpu_without()); the local group kept on equal idle CPUs.
  Rig r(TwoLlcs());
  const int self = r.state.AddTask(0, true, 0);
  r.state.AddTask(4, true, 0);
  // Fork from 0: 0-3 and 4-7 have 3 idle CPUs each; the first group's
  // first idle CPU.
  EXPECT_EQ(r.wp.FindIdlestCpu(self, 0, topology::kSdBalanceFork), 1);
  EXPECT_EQ(r.wp.FindIdlestCpu(self, 0, topology::kSdBalanceExec), 0);
}

TEST(WakePlacementTest, AnRtTaskStaysUnlessPrevRunsAnEqualOrHigherOne) {
  Rig r(TwoLlcs());
  const int fair = r.state.AddTask(1, true, 0);
  const int rt = r.state.AddTask(3, true, 0);
  r.state.tasks_[rt].policy = SchedPolicy::kFifo;
  r.state.tasks_[rt].rt_priority = 50;
  for (int cpu = 0; cpu < 8; ++cpu) {
    if (cpu != 1 && cpu != 3) r.state.AddTask(cpu, true, 0);
  }
  Task& me = r.state.tasks_[fair];
  me.policy = SchedPolicy::kFifo;
  me.rt_priority = 50;
  EXPECT_EQ(r.wp.SelectTaskRqRt(fair, 2), 2);  // prev runs a fair task
  // prev 3 runs an RT task of equal priority: no CPU is idle, so the
  // first allowed CPU running a fair task.
  EXPECT_EQ(r.wp.SelectTaskRqRt(fair, 3), 0);
  me.rt_priority = 51;
  EXPECT_EQ(r.wp.SelectTaskRqRt(fair, 3), 3);
}

}  // namespace
}  // namespace schedsim::sim
