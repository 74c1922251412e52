// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The engine's side of newidle balancing (sim/balance.cc describes the
// models, sim/load_balancer.h decides): with
// SimConfig::newidle_load_balance, newidle_balance()'s walk over the
// domains, each level an event (kernel/sched/fair.c newidle_balance(),
// Linux 6.1).

#include <algorithm>
#include <cassert>

#include "sim/simulator_impl.h"

namespace schedsim::sim {

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
  if (!lb_.Overloaded()) return false;
  // this_rq->idle_stamp: the idle period (avg_idle) counts from here.
  c.idle_stamp_ns = now_ns_;
  lb_.StartNewidleWalk(cpu);
  return NewidleWalkFrom(cpu, 0);
}

bool SimulatorImpl::NewidleWalkFrom(int cpu, int level) {
  Cpu& c = cpus_[cpu];
  int64_t cost_ns = 0;
  const int i = lb_.NextNewidleLevel(cpu, level, &cost_ns);
  if (i < 0) return false;
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

void SimulatorImpl::OnNewidleStep(int cpu, int level) {
  Cpu& c = cpus_[cpu];
  if (!c.newidle_walk) return;
  c.newidle_walk = false;
  c.exiting = false;
  RefreshProbe(cpu);
  // Tasks woken onto the runqueue during the scan (and interrupts it
  // held) are enqueued now; then this level's pull.
  DrainHeldWakeups(cpu);
  if (c.nr_running == 0 && c.ttwu_pending == 0 && lb_.NewidlePull(cpu, level)) {
    // pulled_task: no idle period after all.
    c.idle_stamp_ns = 0;
  }
  // A task woken meanwhile ended the idle period (EnqueueWoken).
  if (c.nr_running > 0) return Schedule(cpu);
  if (c.ttwu_pending > 0) return;  // a delivery is coming: it schedules
  if (NewidleWalkFrom(cpu, level + 1)) return;
  return EnterIdleState(cpu);
}

void SimulatorImpl::BalanceMoverImpl::MigrateQueued(int task, int src,
                                                    int dst) {
  sim_->DequeueTask(src, task);
  sim_->EnqueueTask(dst, task, /*wakeup=*/false, 0);
  ++sim_->lb_migrations_;
}

}  // namespace schedsim::sim
