// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The load balancer without the engine: a small machine's shared state
// built by hand (CPUs, tasks on their runqueues, the scheduling domains),
// each decision of kernel/sched/fair.c (Linux 6.1 unless a test says
// otherwise) checked on it, and the moves a balance makes recorded by a
// mover that applies them to the state.

#include "sim/load_balancer.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "sim/config.h"
#include "sim/engine_state.h"
#include "sim/engine_state_testing.h"
#include "sim/sched_state.h"
#include "topology/sched_domains.h"
#include "topology/topology.h"

namespace schedsim::sim {
namespace {

using state_testing::kMs;
using state_testing::TestState;
using state_testing::TwoLlcs;
using state_testing::TwoSockets;
using topology::SchedDomain;
using topology::SchedDomains;
using topology::Topology;
using topology::TopologyBuilder;

class RecordingMover : public BalanceMover {
 public:
  explicit RecordingMover(TestState* s) : s_(s) {}
  void MigrateQueued(int task, int src, int dst) override {
    moves.push_back({task, src, dst});
    s_->Move(task, src, dst);
  }
  struct Move {
    int task, src, dst;
  };
  std::vector<Move> moves;

 private:
  TestState* s_;
};

// A machine, its state, a clock and the balancer over them.
struct Rig {
  explicit Rig(Topology t, SimConfig c = SimConfig())
      : topo(std::move(t)),
        domains(*topology::BuildSchedDomains(topo)),
        config(c),
        state(topo, domains, now_ns),
        mover(&state),
        lb(state, topo, domains, config, now_ns, mover) {
    lb.Init(/*tick_ns=*/4 * kMs);
  }
  // The index in `cpu`'s stack of its domain named `name`.
  size_t Level(int cpu, const char* name) const {
    for (int d = 0; d < domains.depth(cpu); ++d) {
      if (domains.domain(cpu, d).name == name) return static_cast<size_t>(d);
    }
    ADD_FAILURE() << "no " << name << " domain on CPU " << cpu;
    return 0;
  }
  const SchedDomain& Domain(int cpu, const char* name) const {
    return domains.domain(cpu, static_cast<int>(Level(cpu, name)));
  }

  Topology topo;
  SchedDomains domains;
  SimConfig config;
  int64_t now_ns = 1000 * kMs;
  TestState state;
  RecordingMover mover;
  LoadBalancer lb;
};

TEST(LoadBalancerTest, ATaskIsCacheHotWithinTheMigrationCost) {
  // task_hot(): now - p->se.exec_start < sysctl_sched_migration_cost.
  Rig r(TwoLlcs());
  const int64_t cost = r.config.sched_migration_cost_ns;
  const int warm = r.state.AddTask(1, true, r.now_ns - cost + 1);
  const int cold = r.state.AddTask(2, true, r.now_ns - cost);
  EXPECT_TRUE(r.lb.TaskHot(warm, 0));
  EXPECT_FALSE(r.lb.TaskHot(cold, 0));
}

TEST(LoadBalancerTest, CanMigrateChecksAffinityPolicyStateAndHeat) {
  // can_migrate_task(): the destination in p->cpus_ptr, then task_hot()
  // unless the balance ignores it. SCHED_FIFO and sleeping (delayed)
  // tasks are not the fair class's to move.
  Rig r(TwoLlcs());
  r.state.AddTask(4, true, 0);
  const int hot = r.state.AddTask(4, false, r.now_ns);
  const int cold = r.state.AddTask(4, false, 0);
  EXPECT_FALSE(r.lb.CanMigrate(hot, 0, /*ignore_hot=*/false));
  EXPECT_TRUE(r.lb.CanMigrate(hot, 0, /*ignore_hot=*/true));
  EXPECT_TRUE(r.lb.CanMigrate(cold, 0, /*ignore_hot=*/false));

  const topology::CpuSet upper = *topology::CpuSet::ParseList("4-7", 8);
  r.state.Pin(cold, &upper);
  EXPECT_FALSE(r.lb.CanMigrate(cold, 0, /*ignore_hot=*/true));
  EXPECT_TRUE(r.lb.CanMigrate(cold, 5, /*ignore_hot=*/true));

  r.state.tasks_[hot].policy = SchedPolicy::kFifo;
  EXPECT_FALSE(r.lb.CanMigrate(hot, 0, /*ignore_hot=*/true));
  r.state.tasks_[hot].policy = SchedPolicy::kNormal;
  r.state.tasks_[hot].state = TaskState::kBlocked;
  EXPECT_FALSE(r.lb.CanMigrate(hot, 0, /*ignore_hot=*/true));
}

TEST(LoadBalancerTest, HotTasksMoveOnlyAfterCacheNiceTriesFailures) {
  // load_balance(): can_migrate_task() takes a hot task once
  // nr_balance_failed > cache_nice_tries.
  Rig r(TwoLlcs());
  const SchedDomain& mc = r.Domain(0, "MC");
  ASSERT_EQ(mc.cache_nice_tries, 1);
  EXPECT_FALSE(r.lb.IgnoreHot(mc, 0));
  EXPECT_FALSE(r.lb.IgnoreHot(mc, 1));
  EXPECT_TRUE(r.lb.IgnoreHot(mc, 2));
}

TEST(LoadBalancerTest, NoTaskIsHotToAnSmtBalanceWithTheSwitch) {
  // task_hot() v5.10..v6.1: an SD_SHARE_CPUCAPACITY domain's balance
  // ignores cache heat (SimConfig::smt_ignores_cache_hot).
  TopologyBuilder b("smt");
  for (int cpu = 0; cpu < 4; ++cpu) b.AddCpu(cpu, 0, 0, 0, cpu / 2);
  b.set_distances({{10}});
  SimConfig on;
  on.smt_ignores_cache_hot = true;
  Rig r(*b.Build(), on);
  EXPECT_TRUE(r.lb.IgnoreHot(r.Domain(0, "SMT"), 0));
  EXPECT_FALSE(r.lb.IgnoreHot(r.Domain(0, "MC"), 0));
  SimConfig off;
  Rig r2(*b.Build(), off);
  EXPECT_FALSE(r2.lb.IgnoreHot(r2.Domain(0, "SMT"), 0));
}

TEST(LoadBalancerTest, TheFirstIdleCpuOfTheLocalGroupBalancesElseItsFirst) {
  // should_we_balance(): DIE's local group of CPU 2 is 0-3.
  Rig r(TwoLlcs());
  const SchedDomain& die = r.Domain(2, "DIE");
  r.state.AddTask(0, true, 0);  // 0 busy, 1-3 idle
  EXPECT_TRUE(r.lb.ShouldWeBalance(1, die));
  EXPECT_FALSE(r.lb.ShouldWeBalance(2, die));
  EXPECT_FALSE(r.lb.ShouldWeBalance(0, die));
  for (int cpu = 1; cpu < 4; ++cpu) r.state.AddTask(cpu, true, 0);
  EXPECT_TRUE(r.lb.ShouldWeBalance(0, die));  // none idle: the first
  EXPECT_FALSE(r.lb.ShouldWeBalance(1, die));
}

TEST(LoadBalancerTest, TheIntervalGrowsByBusyFactorAndIsClamped) {
  // get_sd_balance_interval(): balance_interval ms, times busy_factor on a
  // busy CPU, clamped to [1 jiffy, max_load_balance_interval = HZ *
  // num_online_cpus / 10 jiffies].
  Rig r(TwoLlcs());
  const size_t mc = r.Level(0, "MC");
  r.state.cpus_[0].balance[mc].interval_ms = 4;
  EXPECT_EQ(r.lb.BalanceIntervalNs(0, mc, /*busy=*/false), 4 * kMs);
  EXPECT_EQ(r.lb.BalanceIntervalNs(0, mc, /*busy=*/true), 64 * kMs);
  r.state.cpus_[0].balance[mc].interval_ms = 1;  // below a jiffy (4 ms)
  EXPECT_EQ(r.lb.BalanceIntervalNs(0, mc, /*busy=*/false), 4 * kMs);
  r.state.cpus_[0].balance[mc].interval_ms = 100;  // 1.6 s busy
  // HZ 250 * 8 CPUs / 10 = 200 jiffies = 800 ms.
  EXPECT_EQ(r.lb.BalanceIntervalNs(0, mc, /*busy=*/true), 800 * kMs);
  // rq->next_balance: the earliest level's last balance plus interval.
  const size_t die = r.Level(0, "DIE");
  r.state.cpus_[0].balance[mc].last_ns = 10 * kMs;  // + 100 ms idle
  r.state.cpus_[0].balance[die].last_ns = 20 * kMs;
  r.state.cpus_[0].balance[die].interval_ms = 8;
  EXPECT_EQ(r.lb.NextBalanceNs(0), 28 * kMs);
}

TEST(LoadBalancerTest, TheBusiestSearchesSkipTheBalancingCpu) {
  Rig r(TwoLlcs());
  for (int k = 0; k < 3; ++k) r.state.AddTask(1, k == 0, 0);  // 3
  for (int k = 0; k < 3; ++k) r.state.AddTask(5, k == 0, 0);  // 3
  for (int k = 0; k < 4; ++k) r.state.AddTask(6, k == 0, 0);  // 4
  r.state.AddTask(2, true, 0);                                // 1
  const topology::CpuSet all = r.topo.all_cpus();
  EXPECT_EQ(r.lb.FindBusiestCpu(all, 0, 2), 6);
  EXPECT_EQ(r.lb.FindBusiestCpu(all, 6, 2), 1);  // ties: the first
  EXPECT_EQ(r.lb.FindBusiestCpu(all, 0, 5), -1);
  const int mc0 = r.domains.stack_ids(0)[r.Level(0, "MC")];
  const int die = r.domains.stack_ids(0)[r.Level(0, "DIE")];
  EXPECT_EQ(r.lb.FindOverloadedCpu(mc0, 0), 1);
  EXPECT_EQ(r.lb.FindOverloadedCpu(mc0, 1), -1);  // CPU 2 has one task
  EXPECT_EQ(r.lb.FindOverloadedCpu(die, 0), 6);
  EXPECT_TRUE(r.lb.Overloaded());
}

TEST(LoadBalancerTest, PullOneSkipsPinnedAndHotTasks) {
  Rig r(TwoLlcs());
  r.state.AddTask(4, true, 0);
  const int pinned = r.state.AddTask(4, false, 0);
  const int hot = r.state.AddTask(4, false, r.now_ns);
  const topology::CpuSet only4 = *topology::CpuSet::ParseList("4", 8);
  r.state.Pin(pinned, &only4);
  EXPECT_EQ(r.lb.PullOne(4, 0, /*ignore_hot=*/false), 0);  // only hot
  EXPECT_TRUE(r.mover.moves.empty());
  EXPECT_EQ(r.lb.PullOne(4, 0, /*ignore_hot=*/true), 1);
  ASSERT_EQ(r.mover.moves.size(), 1u);
  EXPECT_EQ(r.mover.moves[0].task, hot);
  EXPECT_EQ(r.mover.moves[0].dst, 0);
  EXPECT_EQ(r.lb.PullOne(4, 0, /*ignore_hot=*/true), -1);  // all pinned
}

TEST(LoadBalancerTest, CountBalancePullsIntoALocalGroupWithRoom) {
  SimConfig c;
  c.balance_by_load = false;
  Rig r(TwoLlcs(), c);
  // CPUs 4-7 run 6 tasks (5: 3, 6: 2), CPUs 0-3 run 2: room at 2 and 3.
  r.state.AddTask(0, true, 0);
  r.state.AddTask(1, true, 0);
  r.state.AddTask(4, true, 0);
  for (int k = 0; k < 3; ++k) r.state.AddTask(5, k == 0, 0);
  r.state.AddTask(6, true, 0);
  r.state.AddTask(6, false, 0);
  const size_t die = r.Level(2, "DIE");
  EXPECT_EQ(r.lb.CountBalance(2, die), 1);
  ASSERT_EQ(r.mover.moves.size(), 1u);
  EXPECT_EQ(r.mover.moves[0].src, 5);  // the busiest CPU of 4-7
  EXPECT_EQ(r.mover.moves[0].dst, 2);
  // The local group is full now only once 3 has a task too.
  r.state.AddTask(3, true, 0);
  EXPECT_EQ(r.lb.CountBalance(2, die), -1);
}

TEST(LoadBalancerTest, LoadBalanceMovesHalfTheTaskDifferenceOldestFirst) {
  // calculate_imbalance(): a local group with spare capacity under a
  // prefer_sibling child (MC) takes half the difference in runnable
  // tasks; detach_tasks() from the least recently run.
  Rig r(TwoLlcs());
  r.state.AddTask(4, true, r.now_ns);
  const int newest = r.state.AddTask(4, false, 300 * kMs);
  const int oldest = r.state.AddTask(4, false, 100 * kMs);
  const int second = r.state.AddTask(4, false, 200 * kMs);
  r.state.AddTask(4, false, 400 * kMs);
  const size_t die = r.Level(0, "DIE");
  EXPECT_EQ(r.lb.LoadBalance(0, die, /*idle=*/true), 2);  // 5 vs 0: 2
  ASSERT_EQ(r.mover.moves.size(), 2u);
  EXPECT_EQ(r.mover.moves[0].task, oldest);
  EXPECT_EQ(r.mover.moves[1].task, second);
  EXPECT_NE(r.mover.moves[1].task, newest);
  EXPECT_EQ(r.mover.moves[0].src, 4);
  // 3 against 2: balanced.
  EXPECT_EQ(r.lb.LoadBalance(0, die, /*idle=*/true), -1);
}

TEST(LoadBalancerTest, ABusyCpuDoesNotPullFromAGroupWithSpareCapacity) {
  // find_busiest_group(): a busiest group that is not overloaded is left
  // alone by a CPU that is not idle (env->idle == CPU_NOT_IDLE), unless
  // prefer_sibling forces the balance; at MC (SMT-less cores, no
  // prefer_sibling child) it does not.
  Rig r(TwoLlcs());
  r.state.AddTask(0, true, 0);
  r.state.AddTask(1, true, 0);
  r.state.AddTask(1, false, 0);
  const size_t mc = r.Level(0, "MC");
  EXPECT_EQ(r.lb.LoadBalance(0, mc, /*idle=*/false), -1);
  EXPECT_TRUE(r.mover.moves.empty());
}

TEST(LoadBalancerTest, PeriodicBalanceDoublesTheIntervalWhileBalanced) {
  // rebalance_domains(): a due level is balanced (its balance_interval
  // doubles up to max_interval) or moves tasks (back to min_interval).
  Rig r(TwoLlcs());
  for (int cpu = 0; cpu < 8; ++cpu) r.state.AddTask(cpu, true, 0);
  const size_t mc = r.Level(0, "MC");
  const size_t die = r.Level(0, "DIE");
  r.lb.PeriodicBalance(0);
  const Cpu& c = r.state.cpus_[0];
  EXPECT_EQ(c.balance[mc].interval_ms, 8);    // 4 -> 8 (max 8)
  EXPECT_EQ(c.balance[die].interval_ms, 16);  // 8 -> 16 (max 16)
  EXPECT_EQ(c.balance[mc].last_ns, r.now_ns);
  EXPECT_EQ(c.balance[mc].count, 1u);
  // Not due again before its interval (x busy_factor on a busy CPU).
  r.now_ns += 100 * kMs;
  r.lb.PeriodicBalance(0);
  EXPECT_EQ(c.balance[mc].count, 1u);
  r.now_ns += 100 * kMs;  // 200 ms > 8 ms x 16
  r.lb.PeriodicBalance(0);
  EXPECT_EQ(c.balance[mc].count, 2u);
  EXPECT_EQ(c.balance[mc].interval_ms, 8);  // at max_interval
  // At MC every CPU is a group of its own; at DIE only CPU 0 balances
  // 0-3 (none idle), so CPU 1 stops before it.
  r.lb.PeriodicBalance(1);
  EXPECT_EQ(r.state.cpus_[1].balance[mc].count, 1u);
  EXPECT_EQ(r.state.cpus_[1].balance[die].count, 0u);
}

TEST(LoadBalancerTest, PeriodicBalanceMovesAndResetsTheInterval) {
  Rig r(TwoLlcs());
  r.state.AddTask(4, true, 0);
  for (int k = 0; k < 3; ++k) r.state.AddTask(4, false, 0);
  const size_t die = r.Level(0, "DIE");
  r.state.cpus_[0].balance[die].interval_ms = 16;
  r.lb.PeriodicBalance(0);  // CPU 0, idle, first idle CPU of 0-3
  EXPECT_EQ(r.mover.moves.size(), 2u);
  EXPECT_EQ(r.state.cpus_[0].balance[die].interval_ms, 8);  // min_interval
  EXPECT_EQ(r.state.cpus_[0].balance[die].nr_balance_failed, 0u);
}

TEST(LoadBalancerTest, TheNewidlePullTakesFromTheLowestLevelWithATask) {
  // The default newidle model: the lowest SD_BALANCE_NEWIDLE level with an
  // overloaded CPU gives one task that is not cache-hot.
  Rig r(TwoLlcs());
  r.state.cpus_[0].avg_idle_ns = 10 * kMs;  // past the v5.16 gate
  r.state.AddTask(5, true, 0);
  const int far = r.state.AddTask(5, false, 0);
  r.state.AddTask(5, false, 0);
  r.state.AddTask(2, true, 0);
  const int hot = r.state.AddTask(2, false, r.now_ns);
  r.lb.NewidleBalance(0);
  // MC's CPU 2 has only a hot task; at DIE CPU 5 is the busiest.
  ASSERT_EQ(r.mover.moves.size(), 1u);
  EXPECT_EQ(r.mover.moves[0].task, far);
  EXPECT_NE(r.mover.moves[0].task, hot);
  // Before v5.16, avg_idle below sched_migration_cost skips it.
  r.state.cpus_[1].avg_idle_ns = r.config.sched_migration_cost_ns - 1;
  r.lb.NewidleBalance(1);
  EXPECT_EQ(r.mover.moves.size(), 1u);
}

TEST(LoadBalancerTest, ImbNumaNrIsTheLlcsOfTheFirstLevelAboveTheLlc) {
  // build_sched_domains() (v5.18+): at the first level above the LLC,
  // imb_numa_nr = the LLCs it spans.
  Rig r(TwoSockets());
  const int top = r.domains.depth(0) - 1;
  ASSERT_TRUE(r.domains.domain(0, top).has(topology::kSdNuma));
  EXPECT_EQ(r.lb.ImbNumaNr(0, static_cast<size_t>(top)), 2);
}

TEST(LoadBalancerTest, ImbNumaNrScalesByTheFirstNumaDomainsSpan) {
  // One package split into two nodes of two LLCs each (Zen3 NPS2/4's
  // shape): MC, NODE (not SD_NUMA), NUMA. build_sched_domains() takes
  // imb_span from the first SD_NUMA domain above NODE, so the NUMA level's
  // imb_numa_nr is NODE's 2 LLCs times 8/8, not times 8/4.
  TopologyBuilder b("nps-like");
  for (int cpu = 0; cpu < 8; ++cpu) b.AddCpu(cpu, 0, cpu / 4, cpu / 2, cpu);
  b.set_distances({{10, 12}, {12, 10}});
  absl::StatusOr<Topology> t = b.Build();
  ASSERT_TRUE(t.ok()) << t.status();
  Rig r(*std::move(t));
  const size_t node = r.Level(0, "NODE");
  const size_t numa = r.Level(0, "NUMA");
  ASSERT_FALSE(r.Domain(0, "NODE").flags & topology::kSdNuma);
  ASSERT_TRUE(r.Domain(0, "NUMA").flags & topology::kSdNuma);
  EXPECT_EQ(r.lb.ImbNumaNr(0, node), 2);
  EXPECT_EQ(r.lb.ImbNumaNr(0, numa), 2);
}

TEST(LoadBalancerTest, NewidleCostRisesAtOnceAndDecaysAfterASecond) {
  // update_newidle_cost() (v5.19): max(cost), or * 253/256 once a second
  // has passed since the last raise or decay.
  SimConfig c;
  c.newidle_load_balance = true;
  Rig r(TwoLlcs(), c);
  r.lb.UpdateNewidleCost(0, 0, 25600);
  EXPECT_EQ(r.lb.newidle_max_cost_ns(0, 0), 25600);
  r.now_ns += 1000 * kMs;  // not past a second yet
  r.lb.UpdateNewidleCost(0, 0, 100);
  EXPECT_EQ(r.lb.newidle_max_cost_ns(0, 0), 25600);
  r.now_ns += 1;
  r.lb.UpdateNewidleCost(0, 0, 100);
  EXPECT_EQ(r.lb.newidle_max_cost_ns(0, 0), 25300);
}

TEST(LoadBalancerTest, TheNewidleWalkStopsWhereItWouldOutlastAvgIdle) {
  // newidle_balance(): stop when avg_idle < curr_cost + max_newidle_lb_cost.
  SimConfig c;
  c.newidle_load_balance = true;
  c.probe_cost_ns = 100;
  Rig r(TwoLlcs(), c);
  r.state.cpus_[0].avg_idle_ns = 1000;
  r.lb.StartNewidleWalk(0);
  int64_t cost = 0;
  EXPECT_EQ(r.lb.NextNewidleLevel(0, 0, &cost), 0);  // MC: 4 CPUs
  EXPECT_EQ(cost, 400);
  EXPECT_EQ(r.lb.NextNewidleLevel(0, 1, &cost), 1);  // DIE: 8 CPUs
  EXPECT_EQ(cost, 800);
  // A second walk: 0 + MC's 400 fits in 1000; then 400 + DIE's 800 not.
  r.lb.StartNewidleWalk(0);
  EXPECT_EQ(r.lb.NextNewidleLevel(0, 0, &cost), 0);
  EXPECT_EQ(r.lb.NextNewidleLevel(0, 1, &cost), -1);
}

TEST(LoadBalancerTest, TheNohzKickPicksTheFirstIdleCpuOnce) {
  // nohz_balancer_kick() -> find_new_ilb(); no second kick until the
  // kicked CPU set nohz.next_balance.
  SimConfig c;
  c.nohz_idle_balance = true;
  Rig r(TwoLlcs(), c);
  r.state.AddTask(0, true, 0);
  r.state.AddTask(0, false, 0);
  r.state.AddTask(1, true, 0);
  EXPECT_EQ(r.lb.KickIlb(), 2);
  EXPECT_EQ(r.lb.nohz_next_balance_ns(), LoadBalancer::kNoKick);
  EXPECT_EQ(r.lb.KickIlb(), -1);
  r.lb.SetNohzNextBalance(r.now_ns + 5 * kMs);
  EXPECT_EQ(r.lb.KickIlb(), -1);
  r.now_ns += 5 * kMs;
  EXPECT_EQ(r.lb.KickIlb(), 2);
  r.lb.SetNohzNextBalance(LoadBalancer::kNoKick);  // none due: now
  EXPECT_EQ(r.lb.nohz_next_balance_ns(), r.now_ns);
}

TEST(LoadBalancerTest, TheSimpleKickPullsToTheNearestIdleCpuAllowed) {
  Rig r(TwoLlcs());
  for (int cpu = 0; cpu < 4; ++cpu) r.state.AddTask(cpu, true, 0);
  r.state.AddTask(5, true, 0);
  const int queued = r.state.AddTask(5, false, 0);
  int task = -1;
  EXPECT_EQ(r.lb.FindKickPull(5, &task), 4);  // MC before DIE
  EXPECT_EQ(task, queued);
  const topology::CpuSet six = *topology::CpuSet::ParseList("5-6", 8);
  r.state.Pin(queued, &six);
  EXPECT_EQ(r.lb.FindKickPull(5, &task), 6);
  r.state.AddTask(6, true, 0);
  EXPECT_EQ(r.lb.FindKickPull(5, &task), -1);
}

TEST(LoadBalancerTest, SisUtilScanDepthFollowsTheLlcUtilization) {
  // update_idle_cpu_scan(): x = avg util, y = 1024 - min(x^2 pct^2 /
  // (10000 * 1024), 1024), nr_idle_scan = y * llc_weight / 1024.
  Rig r(TwoLlcs());
  const SchedDomain& mc = r.Domain(0, "MC");
  for (int cpu = 0; cpu < 4; ++cpu) {
    r.state.cpus_[cpu].rq_pelt.util_avg = 512;
  }
  r.lb.UpdateIdleCpuScan(0, mc);
  // 512^2 * 117^2 / 10240000 = 350; (1024 - 350) * 4 / 1024 = 2.
  EXPECT_EQ(r.state.llcs_[0].nr_idle_scan, 2);
  for (int cpu = 0; cpu < 4; ++cpu) r.state.cpus_[cpu].rq_pelt.util_avg = 0;
  r.lb.UpdateIdleCpuScan(0, mc);
  EXPECT_EQ(r.state.llcs_[0].nr_idle_scan, 4);
  for (int cpu = 0; cpu < 4; ++cpu) {
    r.state.cpus_[cpu].rq_pelt.util_avg = 1024;
  }
  r.lb.UpdateIdleCpuScan(0, mc);
  EXPECT_EQ(r.state.llcs_[0].nr_idle_scan, 0);
}

}  // namespace
}  // namespace schedsim::sim
