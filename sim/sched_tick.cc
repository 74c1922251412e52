// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Preemption: the scheduler tick (scheduler_tick() in kernel/sched/core.c
// and the fair class's task_tick_fair() -> entity_tick() ->
// check_preempt_tick(), kernel/sched/fair.c, Linux 6.1; with EEVDF
// update_curr()'s deadline check, 6.6) and wake-up preemption
// (check_preempt_curr() -> check_preempt_wakeup(), 6.1; wakeup_preempt()
// from 6.6). The tick also runs the periodic and NO_HZ balance triggers
// (trigger_load_balance(), nohz_balancer_kick()).

#include <cassert>

#include "sim/simulator_impl.h"

namespace schedsim::sim {

void SimulatorImpl::CheckPreemptWakeup(int cpu, int task) {
  Cpu& c = cpus_[cpu];
  if (c.mode != CpuMode::kBusy || c.curr < 0) return;
  const Task& w = tasks_[task];
  const Task& curr = tasks_[c.curr];
  bool preempt = false;
  if (w.policy == SchedPolicy::kFifo) {
    preempt =
        curr.policy != SchedPolicy::kFifo || w.rt_priority > curr.rt_priority;
  } else if (curr.policy != SchedPolicy::kFifo) {
    // check_preempt_wakeup() (kernel/sched/fair.c, v6.1 and v6.6)
    // returns at once when a reschedule is already due (with CFS's
    // buddies, no buddy is marked).
    if (c.need_resched && (config_.cfs_buddies || eevdf_on_)) return;
    UpdateCurr(cpu);
    preempt = Fair([&](auto& f) { return f.WakeupPreempt(cpu, task); });
  }
  if (preempt) c.need_resched = true;
}

void SimulatorImpl::StartTick(int cpu) {
  Cpu& c = cpus_[cpu];
  if (c.tick_running) return;
  c.tick_running = true;
  int64_t next = (now_ns_ / tick_ns_ + 1) * tick_ns_;
  assert(!ticks_.pending(cpu));
  SetTick(cpu, next);
}

void SimulatorImpl::OnTick(int cpu) {
  Cpu& c = cpus_[cpu];
  ++c.stats.ticks;
  SetTick(cpu, now_ns_ + tick_ns_);
  if (c.curr < 0) return;
  UpdateCurr(cpu);
  UpdatePelt(cpu);
  // entity_tick() -> update_load_avg() (and, under an RT task, the
  // blocked-load update of the balance softirq): only a change is passed.
  UtilChangeUpdate(cpu);
  Task& t = tasks_[c.curr];
  if (t.policy != SchedPolicy::kFifo) {
    if (!c.rt_rq.empty()) {
      c.need_resched = true;
    } else if (Fair([&](auto& f) { return f.TickPreempt(cpu); })) {
      c.need_resched = true;
    }
  }
  if (config_.load_balance) {
    lb_.PeriodicBalance(cpu);
    NohzKick(cpu);
  }
  if (c.need_resched && c.mode == CpuMode::kBusy) {
    SettlePhase(cpu);
    return Schedule(cpu);
  }
  return;
}

}  // namespace schedsim::sim
