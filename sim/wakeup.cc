// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The wake-up path: try_to_wake_up, select_task_rq_fair (its decisions,
// record_wakee, wake_wide and wake_affine, are wake_, sim/wake_placement.h;
// kernel/sched/fair.c, Linux 6.1), the placement policy's
// select_idle_sibling through SchedView (sched_view.cc), wake-list and IPI
// delivery (kernel/sched/core.c ttwu_queue_cond() and
// send_call_function_single_ipi()). Wake-up preemption is sched_tick.cc.

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <limits>

#include "absl/strings/str_cat.h"
#include "platform/core/answer_checks.h"
#include "sim/simulator_impl.h"

namespace schedsim::sim {

// Out of line: the message's temporaries (allowed.ToList()'s string) would
// otherwise give SelectTaskRqFair, on every wake-up, a stack canary.
void SimulatorImpl::FailPlacement(int cpu, int task,
                                  const topology::CpuSet& allowed) {
  FailCat("placement policy '", policies_.placement->name(), "' chose CPU ",
          cpu, " for task ", task, ", which may run only on ",
          allowed.ToList());
}

int SimulatorImpl::SelectTaskRqFair(int task, int prev, int this_cpu,
                                    bool from_task, uint32_t wake_flags) {
  Task& p = tasks_[task];
  const topology::CpuSet* allowed = AllowedOf(p);
  int waker_task = from_task ? cpus_[this_cpu].curr : -1;
  if (waker_task >= 0) wake_.RecordWakee(waker_task, task);
  bool sync = (wake_flags & platform::kWfSync) != 0;
  bool wide = wake_.WakeWide(task, waker_task);
  if (wide) ++placement_stats_.wake_wide;
  bool want_affine = !wide && allowed->Test(this_cpu);
  int new_cpu = prev;
  // The lowest SD_WAKE_AFFINE domain spanning prev (no default level has
  // SD_BALANCE_WAKE, so without want_affine there is nothing to find).
  if (want_affine && this_cpu != prev) {
    if (const topology::SchedDomain* sd = wake_.AffineDomain(this_cpu, prev)) {
      new_cpu = wake_.WakeAffine(*sd, task, this_cpu, prev, sync, waker_task);
      ++(new_cpu == this_cpu ? placement_stats_.affine_this
                             : placement_stats_.affine_prev);
    }
  }

  platform::WakeupRequest req;
  req.task = task;
  req.this_cpu = this_cpu;
  req.prev_cpu = prev;
  req.target = new_cpu;
  req.wake_flags = wake_flags | platform::kWfTtwu;
  req.allowed = allowed;
  req.recent_used_cpu = &p.recent_used_cpu;
  scan_probes_ = 0;
  int cpu = policies_.placement->SelectIdleSibling(*sched_view_, req);
  if (!platform::core::ValidPlacementAnswer(cpu, topo_.num_cpus(), *allowed)) {
    FailPlacement(cpu, task, *allowed);
    return prev;
  }
  PlacementStats& ps = placement_stats_;
  ++ps.searches;
  ps.probes += scan_probes_;
  ++ps.probes_histogram[std::min<int64_t>(scan_probes_,
                                          ps.probes_histogram.size() - 1)];
  if (available_idle(cpu)) ++ps.chosen_idle;
  if (cpu == new_cpu) {
    ++ps.chose_target;
  } else if (cpu == prev) {
    ++ps.chose_prev;
  } else {
    ++ps.chose_other;
  }
  return cpu;
}

void SimulatorImpl::TryToWakeUp(int task, int waker_cpu, bool from_task,
                                uint32_t flags) {
  Task& p = tasks_[task];
  if (p.state != TaskState::kBlocked) return;
  p.state = TaskState::kWaking;
  // Wake-up latency counts from the first event that made the task
  // runnable (a timer expiry that first had to wake its CPU counts from the
  // expiry).
  if (p.wake_start_ns < 0) p.wake_start_ns = now_ns_;
  if (p.iowait) {
    --cpus_[p.cpu].nr_iowait;
    task_stats_[task].iowait_ns += now_ns_ - p.block_start_ns;
  }
  int waker_task = from_task ? cpus_[waker_cpu].curr : -1;
  scan_probes_ = 0;
  line_cpu_ = waker_cpu;  // the waker runs the search
  line_cost_ns_ = 0;
  // ttwu_runnable() (kernel/sched/core.c, v6.12): a delayed entity
  // (DELAY_DEQUEUE) is still queued, so it is requeued where it is, with
  // no select_task_rq().
  const bool delayed = ABSL_PREDICT_FALSE(eevdf_on_) && eevdf_.Delayed(task);
  int target = delayed ? p.cpu
               : p.policy == SchedPolicy::kFifo
                   ? wake_.SelectTaskRqRt(task, p.cpu)
                   : SelectTaskRqFair(task, p.cpu, waker_cpu, from_task,
                                      flags & platform::kWfSync);
  // try_to_wake_up's shared lines (kernel/sched/core.c, v6.1): the
  // wakee's task_struct (pi_lock, state, on_cpu) comes from the CPU it
  // last ran on; the target runqueue's lock and its wake list (or the
  // runqueue itself, for a direct enqueue) from the target.
  const int64_t wake_lines_ns =
      cache_.LineNs(p.cpu, waker_cpu) + 2 * cache_.LineNs(target, waker_cpu);
  int64_t cost = KernelWorkNs(waker_cpu, config_.wakeup_cost_ns) +
                 scan_probes_ * config_.probe_cost_ns + line_cost_ns_ +
                 wake_lines_ns;
  line_cost_ns_ = 0;
  line_cpu_ = -1;
  Cpu& tc = cpus_[target];
  // ttwu_queue() (kernel/sched/core.c, v6.1): a target in another LLC, or
  // an idle one, gets the wake-up on its wake list and runs the enqueue
  // itself; otherwise the waker enqueues on the target's runqueue.
  const bool wake_list =
      target != waker_cpu &&
      (!domains_.SharesCache(waker_cpu, target) || tc.nr_running == 0);
  // enqueue_task()'s uclamp_rq_inc() runs where the enqueue runs; the
  // dequeue's uclamp_rq_dec() is paid when the task sleeps (BlockCurrent).
  p.uclamp_inc_at_target = uclamp_costs_ && wake_list;
  p.remote_enqueue = target != waker_cpu && !wake_list;
  if (uclamp_costs_ && !wake_list) cost += UclampUpdateNs(waker_cpu);
  // The wake-up happens after the kernel work the waker has already
  // queued (the pipe copy before the wake, say), then costs `cost` more.
  int64_t delay = cost;
  if (waker_task >= 0) {
    delay += tasks_[waker_task].pending_cost_ns;
    tasks_[waker_task].pending_cost_ns += cost;
  } else {
    ChargeCpu(waker_cpu, cost);
  }
  if (target != waker_cpu) {
    ++placement_stats_.remote_wakeups;
    if (wake_list) ++placement_stats_.wake_list;
    bool polling = tc.mode == CpuMode::kIdle && tc.polling;
    if (wake_list && !polling) {
      delay += config_.ipi_latency_ns;
      ++placement_stats_.ipis;
      ++tc.stats.ipis_received;
    }
  }
  ++placement_stats_.wakeups;
  if (target != p.cpu) ++placement_stats_.migrated_wakeups;
  ++task_stats_[task].wakeups;
  ++tc.ttwu_pending;
  RefreshProbe(target);
  PushDelivery(now_ns_ + delay, target, task);
  if (sink_) sink_->OnWakeup(now_ns_, task, target, waker_cpu);
}

void SimulatorImpl::PushPending(Cpu& c, int task) {
  tasks_[task].next_waiter = -1;
  if (c.pending_tail >= 0) {
    tasks_[c.pending_tail].next_waiter = task;
  } else {
    c.pending_head = task;
  }
  c.pending_tail = task;
}

void SimulatorImpl::OnWakeDeliver(int cpu, int task) {
  Cpu& c = cpus_[cpu];
  Task& p = tasks_[task];
  if (c.mode == CpuMode::kIdle) {
    if (c.polling) {
      ++c.stats.poll_wakeups;
      LeaveIdle(cpu, /*by_poll=*/true, /*exit_ns=*/0);
    } else {
      const int64_t exit_ns = idle_.PhysicalExitNs(cpu);
      if (exit_ns > 0) {
        LeaveIdleWithExit(cpu, exit_ns, now_ns_ + exit_ns);
        PushPending(c, task);  // stays counted in ttwu_pending
        return;
      }
      LeaveIdle(cpu, /*by_poll=*/false, 0);
    }
  } else if (c.exiting) {
    PushPending(c, task);
    return;
  }
  --c.ttwu_pending;
  RefreshProbe(cpu);
  uint32_t flags = p.iowait ? uint32_t{platform::kUtilIowait} : 0u;
  p.iowait = false;
  EnqueueWoken(cpu, task, flags);
  if (c.mode != CpuMode::kBusy) return Schedule(cpu);
  CheckPreemptWakeup(cpu, task);
  if (c.need_resched) {
    SettlePhase(cpu);
    return Schedule(cpu);
  }
  return;
}

void SimulatorImpl::EnqueueWoken(int cpu, int task, uint32_t util_flags) {
  // ttwu_do_wakeup() (kernel/sched/core.c, v6.1): a task woken onto the
  // runqueue ends its idle period for avg_idle; an interrupt does not.
  idle_.NoteIdleEnd(cpu);
  if (ABSL_PREDICT_TRUE(!eevdf_on_) || !eevdf_.Delayed(task)) {
    return EnqueueTask(cpu, task, /*wakeup=*/true, util_flags);
  }
  // requeue_delayed_entity() (kernel/sched/fair.c, v6.12), reached from
  // enqueue_task_fair(ENQUEUE_DELAYED): the entity never left.
  Task& t = tasks_[task];
  UpdateCurr(cpu);
  UpdatePelt(cpu);
  eevdf_.Requeue(cpu, task);
  t.state = TaskState::kRunnable;
  WaitStart(task);
  if (util_est_) UtilEstEnqueue(rq_util_est_[cpu], task_util_est_[task]);
  UtilChangeUpdate(cpu);
}

void SimulatorImpl::OnTaskTimer(int cpu, int task, bool device_irq) {
  Cpu& c = cpus_[cpu];
  tasks_[task].wake_start_ns = now_ns_;
  if (chan_.TakeTurn(task)) {
    // Its turn on a pipe's mutex: `cpu` is the unlocker's, which wakes it
    // as a task does (PipeLockWait) if it still runs one.
    const bool by_task = c.mode == CpuMode::kBusy && c.curr >= 0;
    return TryToWakeUp(task, cpu, by_task, 0);
  }
  // A sleep's timer leaves the CPU's timer list; an IO completion or
  // another device's interrupt was never on it.
  if (!device_irq && !tasks_[task].iowait && !c.timers.empty()) {
    std::pop_heap(c.timers.begin(), c.timers.end(), std::greater<int64_t>());
    c.timers.pop_back();
  }
  if (c.mode == CpuMode::kIdle && !c.polling) {
    // The timer interrupt wakes the CPU; the wake-up runs after the exit.
    const int64_t exit_ns = idle_.PhysicalExitNs(cpu);
    LeaveIdleWithExit(cpu, exit_ns, now_ns_ + exit_ns);
    c.irq_pending.push_back(task);
    return;
  }
  if (c.mode == CpuMode::kAwake && c.exiting) {
    c.irq_pending.push_back(task);
    return;
  }
  // Only a polling CPU is still idle here: the timer ends its poll.
  if (c.mode == CpuMode::kIdle) LeaveIdle(cpu, /*by_poll=*/true, 0);
  TryToWakeUp(task, cpu, /*from_task=*/false, 0);
  if (c.mode == CpuMode::kAwake && c.nr_running == 0 && c.ttwu_pending == 0) {
    return SelectAndEnterIdle(cpu);
  }
  return;
}

}  // namespace schedsim::sim
