// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Load balancing over the scheduling domains: newidle balancing when a CPU
// is about to idle, periodic balancing from the tick (rebalance_domains():
// per level, one balancing CPU per local group, should_we_balance(), with
// the interval doubling while balanced; the LLC level's balance also
// refreshes SIS_UTIL's nr_idle_scan, kernel/sched/fair.c
// update_idle_cpu_scan(), Linux 6.1), and
// NO_HZ idle balancing, where an overloaded CPU's tick kicks an idle CPU
// to pull work.
//
// The periodic balance has two models. The default
// (SimConfig::balance_by_load) is load_balance() on PELT load (below,
// before LoadBalance()). The other (CountBalance()) compares groups by
// runnable tasks against their CPU count and pulls one task into a local
// group with room; between groups that are all loaded it never moves
// anything. Newidle balancing, by default, and NO_HZ kicks are simpler:
// they pull one queued task from the busiest CPU (by runnable tasks) of the
// lowest level that has one; with SimConfig::newidle_load_balance the
// newidle balance is newidle_balance()'s walk (StartNewidleWalk(): each
// level an event, the CPU not idle to wake-ups until the walk ends).
// Both the count model and newidle balancing obey can_migrate_task()'s
// cache-hot rule (task_hot(): ran within sched_migration_cost): a hot task
// moves only once the level's nr_balance_failed, which periodic balances
// that found an imbalance and moved nothing count up, exceeds the domain's
// cache_nice_tries (kernel/sched/fair.c load_balance(), Linux 5.19 and
// 6.1). A NO_HZ kick still pulls a hot task.

#include <algorithm>
#include <cassert>

#include "sim/load_balancer.h"

namespace schedsim::sim {

void LoadBalancer::PeriodicBalance(int cpu) {
  // rebalance_domains() from the tick's softirq, bottom level up.
  Cpu& c = s_.cpus_[cpu];
  const std::vector<int>& ids = domains_.stack_ids(cpu);
  bool busy = c.mode == CpuMode::kBusy;
  // Every level's newidle cost decays here, the regular visit to all the
  // domains (update_newidle_cost(sd, 0)), whether or not it balances.
  if (!newidle_costs_.empty()) {
    for (NewidleCost& level : newidle_costs_[cpu]) UpdateNewidleCost(level, 0);
  }
  for (size_t i = 0; i < ids.size(); ++i) {
    const topology::SchedDomain& sd = domains_.domains()[ids[i]];
    if (now_ns_ < c.balance[i].last_ns + BalanceIntervalNs(cpu, i, busy)) {
      continue;
    }
    c.balance[i].last_ns = now_ns_;
    // load_balance(): a CPU that is not this group's balancer stops here,
    // and does not go on to the levels above (continue_balancing = 0).
    if (!ShouldWeBalance(cpu, sd)) break;
    ++c.balance[i].count;
    // From here on this level either moves a task (the interval goes back
    // to min_interval) or finds it balanced (the interval doubles, up to
    // max_interval).
    auto balanced = [&] {
      if (c.balance[i].interval_ms < sd.max_interval_ms) {
        c.balance[i].interval_ms *= 2;
      }
    };
    // update_sd_lb_stats() -> update_idle_cpu_scan(): SIS_UTIL's depth,
    // from the balance of the LLC domain (never a newidle one).
    if (sd.has(topology::kSdSharePkgResources) &&
        sd.span.Count() == domains_.llc_size(cpu)) {
      UpdateIdleCpuScan(cpu, sd);
    }
    // Nothing can move unless some CPU in the span has a task queued
    // behind its running one (detach_tasks() needs nr_running > 1).
    bool any = false;
    for (int l : s_.domain_llcs_[ids[i]]) any |= s_.llcs_[l].nr_overloaded > 0;
    if (!config_.balance_by_load) {
      // The count model: runnable tasks against CPUs.
      if (!any) {
        c.balance[i].nr_balance_failed = 0;
        balanced();
        continue;
      }
      const int moved = CountBalance(cpu, i);
      if (moved > 0) {
        c.balance[i].nr_balance_failed = 0;
        return;
      }
      if (moved < 0) {
        c.balance[i].nr_balance_failed = 0;
        balanced();
        continue;
      }
      // An imbalance, and only cache-hot tasks to move: load_balance()
      // counts the failure and goes back to min_interval.
      ++c.balance[i].nr_balance_failed;
      c.balance[i].interval_ms = sd.min_interval_ms;
      continue;
    }
    const int moved = any ? LoadBalance(cpu, i, !busy) : -1;
    if (moved < 0) {
      c.balance[i].nr_balance_failed = 0;
      balanced();
      continue;
    }
    if (moved == 0) {
      ++c.balance[i].nr_balance_failed;
    } else {
      c.balance[i].nr_balance_failed = 0;
      // The levels above see this CPU as it is now (rebalance_domains()).
      busy = c.nr_running > 0;
    }
    // Unbalanced: back to min_interval (no active balance is modelled, so
    // this holds whether or not a task moved).
    c.balance[i].interval_ms = sd.min_interval_ms;
  }
}

int LoadBalancer::CountBalance(int cpu, size_t level) {
  Cpu& c = s_.cpus_[cpu];
  const topology::SchedDomain& sd =
      domains_.domains()[domains_.stack_ids(cpu)[level]];
  // Local and busiest groups by runnable tasks against CPUs.
  int local = sd.LocalGroup(cpu);
  int64_t local_nr = 0, local_cpus = 0;
  int busiest_group = -1;
  int64_t busiest_excess = 0;
  for (size_t g = 0; g < sd.groups.size(); ++g) {
    int64_t nr = 0, n = 0;
    const topology::CpuSet& grp = sd.groups[g];
    for (int x = grp.First(); x >= 0; x = grp.Next(x)) {
      nr += s_.cpus_[x].nr_running;
      ++n;
    }
    if (static_cast<int>(g) == local) {
      local_nr = nr;
      local_cpus = n;
      continue;
    }
    int64_t excess = nr - n;
    if (busiest_group < 0 || excess > busiest_excess) {
      busiest_group = static_cast<int>(g);
      busiest_excess = excess;
    }
  }
  if (busiest_group < 0 || busiest_excess <= 0 ||
      local_nr >= local_cpus) {  // none busier, or no spare capacity here
    return -1;
  }
  int src = FindBusiestCpu(sd.groups[busiest_group], cpu, 2);
  if (src < 0) return -1;
  // can_migrate_task(): cache-hot tasks stay until nr_balance_failed
  // exceeds cache_nice_tries.
  const int moved =
      PullOne(src, cpu, IgnoreHot(sd, c.balance[level].nr_balance_failed));
  if (moved > 0) c.balance[level].interval_ms = sd.min_interval_ms;
  return moved;  // -1: every candidate pinned (LBF_ALL_PINNED)
}

}  // namespace schedsim::sim
