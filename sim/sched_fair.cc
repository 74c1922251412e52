// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Runqueues: update_curr() and the PELT updates, enqueue_task() and
// dequeue_task() around the fair class (sim/fair_class.h) and a minimal
// SCHED_FIFO class, and the pick and context switch of __schedule()
// (kernel/sched/core.c, kernel/sched/fair.c, Linux 6.1). The tick and
// wake-up preemption are sched_tick.cc; a task's utilization attached and
// removed, pelt_attach.cc.

#include <algorithm>
#include <cassert>

#include "absl/base/optimization.h"
#include "absl/strings/str_cat.h"
#include "sim/simulator_impl.h"

namespace schedsim::sim {

// --- Accounting ------------------------------------------------------------

void SimulatorImpl::UpdateTaskPelt(Task& t, bool running) {
  if (PeltUpdate(t.pelt, now_ns_, running, running ? PeltScaleOf(t.cpu) : 0) &&
      util_est_) {
    // A recomputed util_avg clears UTIL_AVG_UNCHANGED (cfs_se_util_change()).
    UtilEstNoteUtilAvgChange(task_util_est_[&t - tasks_.data()]);
  }
}

void SimulatorImpl::UpdateRqLoad(int cpu) {
  Cpu& c = cpus_[cpu];
  PeltUpdateLoad(rq_load_[cpu], now_ns_, c.load_weight);
}

// Brings the runqueue's signal and the running task's up to now.
void SimulatorImpl::UpdatePelt(int cpu) {
  Cpu& c = cpus_[cpu];
  bool fair_running = c.mode == CpuMode::kBusy && c.curr >= 0 &&
                      tasks_[c.curr].policy != SchedPolicy::kFifo;
  uint32_t scale = PeltScaleOf(cpu);
  // A decay across a period boundary is a utilization change the governor
  // hears of at the next call site (update_load_avg -> cfs_rq_util_change).
  if (PeltUpdate(c.rq_pelt, now_ns_, fair_running, scale)) {
    c.util_changed = true;
  }
  if (c.curr >= 0 && c.mode == CpuMode::kBusy) {
    if (PeltUpdate(tasks_[c.curr].pelt, now_ns_, true, scale) && util_est_) {
      UtilEstNoteUtilAvgChange(task_util_est_[c.curr]);
    }
  }
}

void SimulatorImpl::UpdateCurr(int cpu) {
  Cpu& c = cpus_[cpu];
  if (c.curr < 0 || c.mode != CpuMode::kBusy) return;
  Task& t = tasks_[c.curr];
  int64_t delta = now_ns_ - t.exec_start_ns;
  if (delta <= 0) return;
  t.exec_start_ns = now_ns_;
  t.slice_exec_ns += delta;
  t.run_ns += delta;
  if (t.policy == SchedPolicy::kFifo) return;
  // The fair class's update_curr(): virtual time, min_vruntime and (EEVDF)
  // the deadline, which may ask for a reschedule.
  if (Fair([&](auto& f) { return f.Charge(cpu, t, delta); })) {
    c.need_resched = true;
  }
}

void SimulatorImpl::GovernorUpdate(int cpu, uint32_t flags) {
  policies_.freq->UpdateUtil(*fdoms_[cpus_[cpu].domain].view, cpu, flags);
}

// --- Enqueue / dequeue
// --------------------------------------------------------

void SimulatorImpl::EnqueueTask(int cpu, int task, bool wakeup,
                                uint32_t util_flags) {
  Cpu& c = cpus_[cpu];
  Task& t = tasks_[task];
  const int from = t.cpu;
  // enqueue_entity() starts with update_curr(): place_entity() and the
  // migration renormalisation below read an up-to-date min_vruntime.
  UpdateCurr(cpu);
  UpdatePelt(cpu);
  UpdateTaskPelt(t, false);  // blocked decay up to now
  // Load signals only when something reads them (SimConfig::balance_by_load).
  const bool fair_load = track_load_ && t.policy != SchedPolicy::kFifo;
  if (fair_load) {
    UpdateRqLoad(cpu);
    PeltUpdateLoad(task_load_[task], now_ns_, 0);  // asleep until now
  }
  if (from != cpu) {
    // Migration: move the PELT contribution, charge the cache refill when
    // the task leaves its LLC (the fair class places it in virtual time).
    Cpu& old = cpus_[from];
    UpdatePelt(from);
    PeltDetach(old.rq_pelt, t.pelt);
    PeltAttach(c.rq_pelt, t.pelt);
    if (fair_load) {
      UpdateRqLoad(from);
      PeltDetach(rq_load_[from], task_load_[task]);
      PeltAttach(rq_load_[cpu], task_load_[task]);
    }
    old.util_changed = true;
    c.util_changed = true;
    t.pending_cost_ns +=
        cache_.MigrationRefillNs(specs_[t.spec].working_set_bytes, from, cpu);
    ++c.stats.migrations_in;
    ++task_stats_[task].migrations;
    if (sink_) sink_->OnMigrate(now_ns_, task, from, cpu);
    t.cpu = cpu;
  }
  t.state = TaskState::kRunnable;
  if (t.policy == SchedPolicy::kFifo) {
    auto it = std::find_if(c.rt_rq.begin(), c.rt_rq.end(), [&](int q) {
      return tasks_[q].rt_priority < t.rt_priority;
    });
    c.rt_rq.insert(it, task);
  } else {
    const uint32_t fair_flags =
        (wakeup ? kEnqueueWakeup : 0u) | (from != cpu ? kEnqueueMigrated : 0u);
    Fair([&](auto& f) { f.Enqueue(cpu, task, from, fair_flags); });
    // util_est_enqueue(): the task's estimate joins the runqueue's sum
    // before enqueue_entity()'s update_load_avg() tells the governor.
    if (util_est_) UtilEstEnqueue(rq_util_est_[cpu], task_util_est_[task]);
  }
  NoteNrRunning(cpu, +1);
  WaitStart(task);
  if (t.policy == SchedPolicy::kIdle) ++c.nr_sched_idle;
  RefreshProbe(cpu);
  if (t.uclamp_min != 0 || t.uclamp_max != 1024) ++c.nr_uclamped;
  if (t.uclamp_inc_at_target) {
    // The target runs the wake list's enqueue (sched_ttwu_pending()) and
    // its uclamp_rq_inc(): in the running task's time, or before the woken
    // task runs.
    t.uclamp_inc_at_target = false;
    if (c.mode == CpuMode::kBusy && c.curr >= 0) {
      ChargeCpu(cpu, UclampUpdateNs(cpu));
    } else {
      t.pending_cost_ns += UclampUpdateNs(cpu);
    }
  }
  if (t.policy == SchedPolicy::kFifo) {
    // enqueue_top_rt_rq() kicks cpufreq on every RT enqueue (Linux 6.1
    // kernel/sched/rt.c).
    c.util_changed = false;
    GovernorUpdate(cpu, 0);
    return;
  }
  // enqueue_task_fair(): an IO-wait wake-up is passed on first, on every
  // such enqueue; then update_load_avg()'s change, if any.
  // The IO-wait callback of an enqueue the waker ran on its own CPU is a
  // remote one (platform::kUtilRemote).
  const uint32_t remote = t.remote_enqueue ? platform::kUtilRemote : 0u;
  t.remote_enqueue = false;
  if (util_flags & platform::kUtilIowait) {
    GovernorUpdate(cpu, platform::kUtilIowait | remote);
  }
  UtilChangeUpdate(cpu);
}

void SimulatorImpl::DequeueTask(int cpu, int task, bool sleep) {
  Cpu& c = cpus_[cpu];
  Task& t = tasks_[task];
  WaitEnd(task);  // a queued task leaving (moved by a balance)
  if (t.policy == SchedPolicy::kFifo) {
    auto it = std::find(c.rt_rq.begin(), c.rt_rq.end(), task);
    if (it != c.rt_rq.end()) c.rt_rq.erase(it);
  } else {
    // dequeue_entity() -> update_load_avg(): runnable up to now.
    if (track_load_) {
      UpdateRqLoad(cpu);
      if (t.state != TaskState::kDead) {
        PeltUpdateLoad(task_load_[task], now_ns_, t.weight);
      }
    }
    // dequeue_task_fair(): util_est leaves at the sleep even when the
    // entity's dequeue is delayed (v6.12).
    if (util_est_) {
      // util_est_dequeue(), then util_est_update() for a task going to
      // sleep (not one migrated or exiting): it learns from the util_avg
      // it had when it blocked, against its CPU's original capacity.
      UtilEst& ue = task_util_est_[task];
      UtilEstDequeue(rq_util_est_[cpu], ue);
      if (t.state == TaskState::kBlocked) {
        UtilEstUpdate(ue, t.pelt.util_avg,
                      static_cast<uint32_t>(topo_.capacity(cpu)));
      }
    }
    const uint32_t fair_flags = sleep ? kDequeueSleep : 0u;
    if (!Fair([&](auto& f) { return f.Dequeue(cpu, task, fair_flags); })) {
      // DELAY_DEQUEUE: still queued and counted until FinishDelayed().
      UtilChangeUpdate(cpu);
      return;
    }
  }
  DequeueAccount(cpu, task);
}

void SimulatorImpl::FinishDelayed(int cpu, int task) {
  Task& t = tasks_[task];
  // dequeue_entities(DEQUEUE_SLEEP | DEQUEUE_DELAYED) (v6.12): the entity
  // leaves; its load (runnable up to now) leaves with it.
  if (track_load_) {
    UpdateRqLoad(cpu);
    PeltUpdateLoad(task_load_[task], now_ns_, t.weight);
  }
  Fair([&](auto& f) { f.Dequeue(cpu, task, kDequeueSleep | kDequeueDelayed); });
  DequeueAccount(cpu, task);
}

void SimulatorImpl::DequeueAccount(int cpu, int task) {
  Cpu& c = cpus_[cpu];
  Task& t = tasks_[task];
  NoteNrRunning(cpu, -1);
  if (t.policy == SchedPolicy::kIdle) --c.nr_sched_idle;
  RefreshProbe(cpu);
  if (t.uclamp_min != 0 || t.uclamp_max != 1024) --c.nr_uclamped;
  // dequeue_entity() -> update_load_avg(): the governor hears only of a
  // change (dequeue_top_rt_rq() makes no call).
  if (t.policy != SchedPolicy::kFifo) UtilChangeUpdate(cpu);
}

// --- Pick and switch
// ----------------------------------------------------------

void SimulatorImpl::Schedule(int cpu) {
  Cpu& c = cpus_[cpu];
  const int prev = c.curr;
  c.need_resched = false;
  if (prev >= 0) {
    Task& pt = tasks_[prev];
    if (ABSL_PREDICT_FALSE(chan_.any_spinning()) &&
        pt.state == TaskState::kRunnable) {
      MutexSpinToSleep(cpu, prev);  // blocks it if it was spinning
    }
    if (pt.state == TaskState::kRunnable) {
      // Preempted (or yielded): back on the runqueue.
      UpdateCurr(cpu);
      SettlePhase(cpu);
      UpdatePelt(cpu);
      pt.last_ran_ns = now_ns_;
      WaitStart(prev);
      if (pt.policy == SchedPolicy::kFifo) {
        auto it = std::find_if(c.rt_rq.begin(), c.rt_rq.end(), [&](int q) {
          return tasks_[q].rt_priority < pt.rt_priority;
        });
        c.rt_rq.insert(it, prev);
      } else {
        Fair([&](auto& f) { f.PutPrev(cpu, prev); });
      }
    }
  }
  int next = -1;
  if (!c.rt_rq.empty()) {
    next = c.rt_rq.front();
  } else {
    next = Fair([&](auto& f) { return f.Pick(cpu); });
    // pick_next_entity() (v6.12): a delayed entity picked leaves for good
    // and the pick starts again.
    while (next >= 0 && ABSL_PREDICT_FALSE(eevdf_on_) && eevdf_.Delayed(next)) {
      FinishDelayed(cpu, next);
      next = Fair([&](auto& f) { return f.Pick(cpu); });
    }
  }
  if (next == prev && prev >= 0) {
    // Keep running it.
    if (tasks_[prev].policy == SchedPolicy::kFifo) {
      c.rt_rq.erase(c.rt_rq.begin());
    } else {
      Fair([&](auto& f) { f.SetNext(cpu, prev); });
    }
    Task& t = tasks_[prev];
    t.exec_start_ns = now_ns_;
    WaitEnd(prev);
    if (t.in_phase) {
      c.seg_start_ns = now_ns_;
      ReschedulePhaseEnd(cpu);
      return;
    }
    return RunTask(cpu);
  }
  // The CPU's phase-end slot still holds prev's end. Switching to a task,
  // it is re-armed (its phase resumes or starts) or cleared (the task
  // blocks at once and the CPU goes idle) before this handler returns, so
  // only going idle clears it here.
  if (prev >= 0 && tasks_[prev].state == TaskState::kRunnable) {
    ++task_stats_[prev].involuntary_switches;
  }
  if (sink_) sink_->OnSwitch(now_ns_, cpu, prev, next);
  // finish_task_switch() (kernel/sched/core.c, v6.1): the switch away from
  // a dead task drops its last reference; its slot can be reused.
  if (prev >= 0 && tasks_[prev].state == TaskState::kDead) ReapTask(prev);
  if (next < 0) {
    phase_ends_.Clear(cpu);
    c.curr = -1;
    if (c.mode == CpuMode::kBusy) {
      UpdatePelt(cpu);
      freq_.AccountBusyEnd(cpu);
      c.mode = CpuMode::kAwake;
      RefreshProbe(cpu);
      PackageBusyChanged(cpu, false);
      SiblingChanged(cpu);
    }
    return EnterIdle(cpu);
  }
  // Switch to `next`.
  Task& t = tasks_[next];
  if (t.policy == SchedPolicy::kFifo) {
    c.rt_rq.erase(c.rt_rq.begin());
  } else {
    Fair([&](auto& f) { f.SetNext(cpu, next); });
  }
  ++c.stats.context_switches;
  c.curr = next;
  WaitEnd(next);
  t.exec_start_ns = now_ns_;
  t.slice_exec_ns = 0;
  // context_switch(): switch_mm_irqs_off() only when the next task's mm is
  // not the one loaded (kernel/sched/core.c, arch/x86/mm/tlb.c, v6.1).
  int64_t switch_ns = config_.context_switch_ns;
  const int32_t mm = specs_[t.spec].mm;
  if (mm >= 0 && mm == loaded_mm_[cpu]) {
    switch_ns -= std::min(config_.mm_switch_ns, switch_ns);
    ++mm_switches_avoided_;
  }
  loaded_mm_[cpu] = mm;
  // The uclamp dequeue work the task left on this CPU when it blocked
  // (dequeue_debt_ns_), charged with the switch that follows.
  t.pending_cost_ns += KernelWorkNs(cpu, switch_ns) + dequeue_debt_ns_[cpu];
  dequeue_debt_ns_[cpu] = 0;
  if (t.wake_start_ns >= 0) {
    // Wake-ups that began before the last ResetStats() are not counted.
    if (t.wake_start_ns >= stats_start_ns_) {
      int64_t latency = now_ns_ - t.wake_start_ns;
      task_stats_[next].wakeup_latency_ns.Record(latency);
      wakeup_latency_.Record(latency);
    }
    t.wake_start_ns = -1;
  }
  if (c.mode != CpuMode::kBusy) {
    UpdatePelt(cpu);
    c.mode = CpuMode::kBusy;
    RefreshProbe(cpu);
    freq_.AccountBusyStart(cpu);
    PackageBusyChanged(cpu, true);
    SiblingChanged(cpu);
    StartTick(cpu);
  }
  UpdatePelt(cpu);
  if (t.in_phase) {
    c.seg_start_ns = now_ns_;
    t.rem_stall_ns += t.pending_cost_ns;
    t.pending_cost_ns = 0;
    ReschedulePhaseEnd(cpu);
    return;
  }
  return RunTask(cpu);
}

}  // namespace schedsim::sim
