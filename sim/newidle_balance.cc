// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Newidle balancing (sim/balance.cc describes the models): a CPU about
// to idle pulls one queued task, or, with SimConfig::newidle_load_balance,
// walks its domains as newidle_balance() does, each level an event
// (kernel/sched/fair.c newidle_balance(), Linux 6.1).

#include <algorithm>
#include <cassert>

#include "sim/simulator_impl.h"

namespace schedsim::sim {

void SimulatorImpl::NewidleBalance(int cpu) {
  Cpu& c = cpus_[cpu];
  // Before v5.16 newidle_balance() also skipped whenever avg_idle was below
  // sysctl_sched_migration_cost (removed by commit c5b0a7eefc70,
  // "sched/fair: Remove sysctl_sched_migration_cost condition").
  if (config_.newidle_migration_cost_gate &&
      c.avg_idle_ns < config_.sched_migration_cost_ns) {
    return;
  }
  // The default model: the lowest level that yields a task, at no cost.
  const std::vector<int>& ids = domains_.stack_ids(cpu);
  for (size_t i = 0; i < ids.size(); ++i) {
    if (!domains_.domains()[ids[i]].has(topology::kSdBalanceNewidle)) {
      continue;
    }
    if (NewidlePull(cpu, static_cast<int>(i))) return;
  }
}

bool SimulatorImpl::NewidlePull(int cpu, int level) {
  // With balance_by_load, find_busiest_group()'s rules as the periodic
  // balance (below), without counting a failure. Else the simple pull: one
  // task that is not cache-hot from the busiest CPU by runnable tasks;
  // can_migrate_task(): a cache-hot task moves only once this level's
  // periodic balances have failed more than cache_nice_tries times in a
  // row (a newidle balance never counts a failure).
  if (config_.newidle_load_balance && track_load_) {
    return LoadBalance(cpu, static_cast<size_t>(level), /*idle=*/true,
                       /*newidle=*/true) > 0;
  }
  const int id = domains_.stack_ids(cpu)[level];
  const topology::SchedDomain& sd = domains_.domains()[id];
  const int busiest = FindOverloadedCpu(id, cpu);
  if (busiest < 0) return false;
  return PullOne(busiest, cpu,
                 IgnoreHot(sd, cpus_[cpu].balance[level].nr_balance_failed)) >
         0;
}

// newidle_balance() (kernel/sched/fair.c, v5.19 and v6.1) runs inside
// schedule() once pick_next_task_fair() finds nothing: rq->curr is still
// the task that blocked, so idle_cpu() is false for the whole walk and no
// wake-up's search takes the CPU as idle. The walk drops the runqueue
// lock, so a task can be woken onto it meanwhile; the loop stops after the
// level under way when one has (nr_running or ttwu_pending). Each level's
// load_balance() scans its span (update_sg_lb_stats(), a remote probe per
// CPU) before it pulls, so the pull decides on the runqueues as they are
// at the end of the scan.
bool SimulatorImpl::StartNewidleWalk(int cpu) {
  Cpu& c = cpus_[cpu];
  if (config_.newidle_migration_cost_gate &&
      c.avg_idle_ns < config_.sched_migration_cost_ns) {
    return false;
  }
  // rd->overload: no CPU has a task queued behind its running one, so
  // there is nothing to pull anywhere; the kernel stops before any cost.
  bool overload = false;
  for (const LlcShared& l : llcs_) overload |= l.nr_overloaded > 0;
  if (!overload) return false;
  // this_rq->idle_stamp: the idle period (avg_idle) counts from here.
  c.idle_stamp_ns = now_ns_;
  newidle_walk_cost_ns_[cpu] = 0;
  return NewidleWalkFrom(cpu, 0);
}

bool SimulatorImpl::NewidleWalkFrom(int cpu, int level) {
  Cpu& c = cpus_[cpu];
  const std::vector<int>& ids = domains_.stack_ids(cpu);
  for (int i = level; i < static_cast<int>(ids.size()); ++i) {
    const topology::SchedDomain& sd = domains_.domains()[ids[i]];
    NewidleCost& cost = newidle_costs_[cpu][i];
    // for_each_domain(): stop where the balance so far plus this level's
    // dearest one would outlast the idle period the CPU expects.
    if (c.avg_idle_ns < newidle_walk_cost_ns_[cpu] + cost.max_ns) break;
    if (!sd.has(topology::kSdBalanceNewidle)) continue;
    const int64_t cost_ns = sd.span.Count() * config_.probe_cost_ns;
    UpdateNewidleCost(cost, cost_ns);
    newidle_walk_cost_ns_[cpu] += cost_ns;
    if (!c.newidle_walk) {
      c.newidle_walk = true;
      // Deliveries and interrupts wait for the level's end, as during a
      // C-state exit (whose POLL-level power the walk is charged at too:
      // a simplification).
      c.exiting = true;
      RefreshProbe(cpu);
    }
    QueuePush(SimTime::FromNanoseconds(now_ns_ + cost_ns), kBandSched,
              kEvNewidleStep, cpu, i);
    return true;
  }
  return false;
}

void SimulatorImpl::OnNewidleStep(int cpu, int level) {
  Cpu& c = cpus_[cpu];
  if (!c.newidle_walk) return;
  c.newidle_walk = false;
  c.exiting = false;
  RefreshProbe(cpu);
  // Tasks woken onto the runqueue during the scan (and interrupts it
  // held) are enqueued now; then this level's pull.
  DrainHeldWakeups(cpu);
  if (c.nr_running == 0 && c.ttwu_pending == 0 && NewidlePull(cpu, level)) {
    // pulled_task: no idle period after all.
    c.idle_stamp_ns = 0;
  }
  if (c.nr_running > 0) {
    NoteIdleEnd(c);  // a woken task ends the idle period (ttwu_do_wakeup)
    return Schedule(cpu);
  }
  if (c.ttwu_pending > 0) return;  // a delivery is coming: it schedules
  if (NewidleWalkFrom(cpu, level + 1)) return;
  return EnterIdleState(cpu);
}

void SimulatorImpl::UpdateNewidleCost(NewidleCost& level, int64_t cost_ns) {
  if (cost_ns > level.max_ns) {
    level.max_ns = cost_ns;
    level.last_decay_ns = now_ns_;
  } else if (now_ns_ > level.last_decay_ns + 1000000000) {
    level.max_ns = level.max_ns * 253 / 256;
    level.last_decay_ns = now_ns_;
  }
}

}  // namespace schedsim::sim
