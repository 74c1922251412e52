// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Runqueues, the CFS-like fair class, a minimal SCHED_FIFO class, the
// scheduler tick and the context switch.

#include <algorithm>
#include <cassert>

#include "absl/base/optimization.h"
#include "absl/strings/str_cat.h"
#include "sim/simulator_impl.h"

namespace schedsim::sim {

// --- Runqueue heap (by vruntime, then task id) ----------------------------

bool SimulatorImpl::TaskBefore(int a, int b) const {
  const Task& ta = tasks_[a];
  const Task& tb = tasks_[b];
  if (ta.vruntime != tb.vruntime) return ta.vruntime < tb.vruntime;
  return a < b;
}

void SimulatorImpl::HeapSiftUp(Cpu& c, int pos) {
  int task = c.rq[pos];
  while (pos > 0) {
    int parent = (pos - 1) / 2;
    if (!TaskBefore(task, c.rq[parent])) break;
    c.rq[pos] = c.rq[parent];
    tasks_[c.rq[pos]].rq_pos = pos;
    pos = parent;
  }
  c.rq[pos] = task;
  tasks_[task].rq_pos = pos;
}

void SimulatorImpl::HeapSiftDown(Cpu& c, int pos) {
  int n = static_cast<int>(c.rq.size());
  int task = c.rq[pos];
  while (true) {
    int child = 2 * pos + 1;
    if (child >= n) break;
    if (child + 1 < n && TaskBefore(c.rq[child + 1], c.rq[child])) ++child;
    if (!TaskBefore(c.rq[child], task)) break;
    c.rq[pos] = c.rq[child];
    tasks_[c.rq[pos]].rq_pos = pos;
    pos = child;
  }
  c.rq[pos] = task;
  tasks_[task].rq_pos = pos;
}

void SimulatorImpl::HeapPush(Cpu& c, int task) {
  c.rq.push_back(task);
  HeapSiftUp(c, static_cast<int>(c.rq.size()) - 1);
}

void SimulatorImpl::HeapRemove(Cpu& c, int task) {
  int pos = tasks_[task].rq_pos;
  tasks_[task].rq_pos = -1;
  int last = c.rq.back();
  c.rq.pop_back();
  if (last == task) return;
  c.rq[pos] = last;
  tasks_[last].rq_pos = pos;
  HeapSiftUp(c, pos);
  HeapSiftDown(c, tasks_[last].rq_pos);
}

// --- Accounting ------------------------------------------------------------

// PELT is invariant in frequency and in CPU capacity
// (kernel/sched/pelt.c ___update_load_sum / accumulate_sum scale running
// time by arch_scale_freq_capacity() and then arch_scale_cpu_capacity();
// kernel/sched/pelt.h update_rq_clock_pelt does the same to the PELT clock
// since v5.1, see sim/pelt.h): a task always running on a CPU of capacity
// 446 at its highest frequency tends to util 446.
uint32_t SimulatorImpl::ComputePeltScale(int cpu, int64_t khz) const {
  const int64_t max_khz = fdoms_[cpus_[cpu].domain].max_khz;
  // Without frequency invariance PELT counts running time at full weight
  // whatever the frequency (arch_scale_freq_capacity() = 1024).
  const uint32_t freq_scale = max_khz <= 0 || !config_.frequency_invariance
                                  ? 1024
                                  : static_cast<uint32_t>(std::min<int64_t>(
                                        1024, khz * 1024 / max_khz));
  return PeltScale(freq_scale, static_cast<uint32_t>(topo_.capacity(cpu)));
}

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
  // delta * 1024 / weight; nice-0 tasks (weight 1024) skip the division.
  t.vruntime += t.weight == 1024 ? delta : delta * 1024 / t.weight;
  int64_t v = t.vruntime;
  int top = HeapTop(c);
  if (top >= 0) v = std::min(v, tasks_[top].vruntime);
  c.min_vruntime = std::max(c.min_vruntime, v);
}

void SimulatorImpl::NoteNrRunning(int cpu, int delta) {
  Cpu& c = cpus_[cpu];
  bool was = c.nr_running >= 2;
  c.nr_running += delta;
  nr_running_[cpu] = c.nr_running;
  bool is = c.nr_running >= 2;
  if (was != is) {
    llcs_[c.llc].nr_overloaded += is ? 1 : -1;
    overloaded_[cpu >> 6] ^= uint64_t{1} << (cpu & 63);
  }
}

void SimulatorImpl::GovernorUpdate(int cpu, uint32_t flags) {
  policies_.freq->UpdateUtil(*fdoms_[cpus_[cpu].domain].view, cpu, flags);
}

void SimulatorImpl::PostInitUtil(int cpu, int task) {
  Task& t = tasks_[task];
  t.pelt = PeltSignal{};
  t.pelt.last_update_ns = now_ns_;
  // Only the fair class starts with a utilization (post_init_entity_util_avg
  // returns early for the others, leaving 0).
  if (t.policy == SchedPolicy::kFifo) return;
  Cpu& c = cpus_[cpu];
  UpdatePelt(cpu);
  // Half the capacity the runqueue has left (of arch_scale_cpu_capacity);
  // on a runqueue with load, the
  // task's weight's share of its utilization, capped there. The runqueue's
  // load_avg is CpuLoad()'s estimate, as wake_affine_weight reads it.
  const int64_t rq_util = c.rq_pelt.util_avg;
  const int64_t cap = (int64_t{topo_.capacity(cpu)} - rq_util) / 2;
  int64_t util = 0;
  if (cap > 0) {
    util = rq_util == 0
               ? cap
               : std::min(cap, rq_util * t.weight / (CpuLoad(cpu) + 1));
  }
  t.pelt.util_avg = static_cast<uint32_t>(util);
  // attach_entity_load_avg(): onto the runqueue at once, a utilization
  // change (cfs_rq_util_change).
  PeltAttach(c.rq_pelt, t.pelt);
  c.util_changed = true;
  // init_entity_runnable_average(): a new task's load_avg starts at its
  // full weight, so a burst of forks weighs on its runqueue at once.
  if (!track_load_) return;
  PeltSignal& load = task_load_[task];
  load = PeltSignal{};
  load.util_avg = static_cast<uint32_t>(t.weight);
  UpdateRqLoad(cpu);
  PeltAttach(rq_load_[cpu], load);
}

void SimulatorImpl::DetachDeadUtil(int cpu, int task) {
  Task& t = tasks_[task];
  if (t.policy == SchedPolicy::kFifo) return;
  Cpu& c = cpus_[cpu];
  UpdatePelt(cpu);
  PeltUpdate(t.pelt, now_ns_, false, 0);
  PeltDetach(c.rq_pelt, t.pelt);
  t.pelt.util_avg = 0;
  t.pelt.util_sum = 0;
  c.util_changed = true;
  // remove_entity_load_avg(): its load leaves with it (runnable up to now).
  if (!track_load_) return;
  PeltSignal& load = task_load_[task];
  UpdateRqLoad(cpu);
  PeltUpdateLoad(load, now_ns_, t.rq_pos >= 0 || c.curr == task ? t.weight : 0);
  PeltDetach(rq_load_[cpu], load);
  load.util_avg = 0;
  load.util_sum = 0;
}

// --- Enqueue / dequeue
// --------------------------------------------------------

// The cache refill a task pays when it resumes on `to` after running on
// `from`. Across LLCs: a task with a known working set refills
// min(working set, the LLC) from where it ran, one line per
// Topology::LineTransferNs(from, to), refill_parallelism fills at a time;
// without one (or on a machine without coherence figures), the flat
// llc_migration_penalty_ns scaled by SLIT distance / 10. Inside an LLC, on
// another core: smt_migration_penalty_ns (the private L2 refills from the
// shared L3).
int64_t SimulatorImpl::MigrationRefillNs(int task, int from, int to) const {
  const topology::CpuPlace& a = topo_.place(from);
  const topology::CpuPlace& b = topo_.place(to);
  if (a.llc == b.llc) {
    return a.core != b.core ? config_.smt_migration_penalty_ns : 0;
  }
  const int64_t ws = specs_[tasks_[task].spec].working_set_bytes;
  const int64_t line_ns = LineNs(from, to);
  if (ws < 0 || line_ns <= 0) {
    int64_t penalty = config_.llc_migration_penalty_ns;
    if (a.node != b.node)
      penalty = penalty * topo_.distance(a.node, b.node) / 10;
    return penalty;
  }
  int64_t bytes = ws;
  int line_bytes = 64;
  for (const topology::CacheSpec& c : topo_.caches()) {
    if (c.level == 3) {
      bytes = std::min(bytes, c.size_bytes);
      line_bytes = c.line_bytes > 0 ? c.line_bytes : 64;
    }
  }
  const int64_t lines = (bytes + line_bytes - 1) / line_bytes;
  const int par = std::max(1, topo_.coherence().refill_parallelism);
  return lines * line_ns / par;
}

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
    // Migration: renormalise vruntime, move the PELT contribution, charge
    // the cache refill when the task leaves its LLC.
    Cpu& old = cpus_[from];
    t.vruntime = t.vruntime - old.min_vruntime + c.min_vruntime;
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
    t.pending_cost_ns += MigrationRefillNs(task, from, cpu);
    ++c.stats.migrations_in;
    ++task_stats_[task].migrations;
    if (sink_) sink_->OnMigrate(now_ns_, task, from, cpu);
    t.cpu = cpu;
  }
  if (wakeup && t.policy != SchedPolicy::kFifo) {
    // place_entity(): a waking task gets at most half a latency period of
    // sleeper credit (GENTLE_FAIR_SLEEPERS).
    t.vruntime = std::max(t.vruntime, c.min_vruntime - sched_latency_ns_ / 2);
  }
  t.state = TaskState::kRunnable;
  if (t.policy == SchedPolicy::kFifo) {
    auto it = std::find_if(c.rt_rq.begin(), c.rt_rq.end(), [&](int q) {
      return tasks_[q].rt_priority < t.rt_priority;
    });
    c.rt_rq.insert(it, task);
  } else {
    HeapPush(c, task);
    ++c.nr_fair;
    c.load_weight += t.weight;
    // util_est_enqueue(): the task's estimate joins the runqueue's sum
    // before enqueue_entity()'s update_load_avg() tells the governor.
    if (util_est_) UtilEstEnqueue(rq_util_est_[cpu], task_util_est_[task]);
  }
  NoteNrRunning(cpu, +1);
  if (t.policy == SchedPolicy::kIdle) ++c.nr_sched_idle;
  RefreshProbe(cpu);
  if (t.uclamp_min != 0 || t.uclamp_max != 1024) ++c.nr_uclamped;
  if (t.policy == SchedPolicy::kFifo) {
    // enqueue_top_rt_rq() kicks cpufreq on every RT enqueue (Linux 6.1
    // kernel/sched/rt.c).
    c.util_changed = false;
    GovernorUpdate(cpu, 0);
    return;
  }
  // enqueue_task_fair(): an IO-wait wake-up is passed on first, on every
  // such enqueue; then update_load_avg()'s change, if any.
  if (util_flags & platform::kUtilIowait) {
    GovernorUpdate(cpu, platform::kUtilIowait);
  }
  UtilChangeUpdate(cpu);
}

void SimulatorImpl::DequeueTask(int cpu, int task) {
  Cpu& c = cpus_[cpu];
  Task& t = tasks_[task];
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
    if (t.rq_pos >= 0) HeapRemove(c, task);
    ClearBuddies(cpu, task);  // dequeue_entity() -> clear_buddies()
    --c.nr_fair;
    c.load_weight -= t.weight;
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
  }
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
    if (ABSL_PREDICT_FALSE(!mutex_spins_.empty()) &&
        pt.state == TaskState::kRunnable) {
      MutexSpinToSleep(cpu, prev);  // blocks it if it was spinning
    }
    if (pt.state == TaskState::kRunnable) {
      // Preempted (or yielded): back on the runqueue.
      UpdateCurr(cpu);
      SettlePhase(cpu);
      UpdatePelt(cpu);
      pt.last_ran_ns = now_ns_;
      if (pt.policy == SchedPolicy::kFifo) {
        auto it = std::find_if(c.rt_rq.begin(), c.rt_rq.end(), [&](int q) {
          return tasks_[q].rt_priority < pt.rt_priority;
        });
        c.rt_rq.insert(it, prev);
      } else {
        HeapPush(c, prev);
      }
    }
  }
  int next = -1;
  if (!c.rt_rq.empty()) {
    next = c.rt_rq.front();
  } else {
    next = PickNextFair(cpu);
    // set_next_entity() -> clear_buddies(): a buddy earns its favour anew.
    if (next >= 0) ClearBuddies(cpu, next);
  }
  if (next == prev && prev >= 0) {
    // Keep running it.
    if (tasks_[prev].policy == SchedPolicy::kFifo) {
      c.rt_rq.erase(c.rt_rq.begin());
    } else {
      HeapRemove(c, prev);
    }
    Task& t = tasks_[prev];
    t.exec_start_ns = now_ns_;
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
      AccountBusyEnd(cpu);
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
    HeapRemove(c, next);
  }
  ++c.stats.context_switches;
  c.curr = next;
  t.exec_start_ns = now_ns_;
  t.slice_exec_ns = 0;
  t.pending_cost_ns += KernelWorkNs(cpu, config_.context_switch_ns);
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
    AccountBusyStart(cpu);
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

int64_t SimulatorImpl::SchedSliceNs(const Cpu& c, const Task& t) const {
  // sched_slice(): the period (sched_latency, or nr * min_granularity
  // beyond sched_nr_latency = 8 tasks) shared by weight.
  int64_t nr = std::max(c.nr_fair, 1);
  int64_t period = nr > 8 ? nr * min_granularity_ns_ : sched_latency_ns_;
  int64_t load = std::max<int64_t>(c.load_weight, t.weight);
  return period * t.weight / load;
}

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
    // check_preempt_wakeup() (kernel/sched/fair.c, v6.1) returns at once
    // when a reschedule is already due: no buddy is marked.
    if (c.need_resched && config_.cfs_buddies) return;
    UpdateCurr(cpu);
    preempt = curr.vruntime - w.vruntime > WakeupGranNs(w);
    if (preempt && config_.cfs_buddies) {
      // set_next_buddy(wakee); with sched_nr_latency (8) or more tasks on
      // the runqueue, LAST_BUDDY marks the preempted task too. Neither
      // marks a SCHED_IDLE task.
      Buddies& b = buddies_[static_cast<size_t>(cpu)];
      if (w.policy != SchedPolicy::kIdle) b.next = task;
      if (c.nr_fair >= 8 && curr.policy != SchedPolicy::kIdle) {
        b.last = c.curr;
      }
    }
  }
  if (preempt) c.need_resched = true;
}

int SimulatorImpl::PickNextFair(int cpu) const {
  const Cpu& c = cpus_[cpu];
  const int left = HeapTop(c);
  if (left < 0 || !config_.cfs_buddies) return left;
  // wakeup_preempt_entity(buddy, left) < 1: the buddy's vruntime leads the
  // leftmost's by at most the wake-up granularity in the leftmost's
  // virtual time.
  const Task& l = tasks_[left];
  const int64_t gran = WakeupGranNs(l);
  auto fair = [&](int b) {
    return b >= 0 && tasks_[b].rq_pos >= 0 &&
           tasks_[b].vruntime - l.vruntime <= gran;
  };
  const Buddies& b = buddies_[static_cast<size_t>(cpu)];
  if (fair(b.next)) return b.next;
  if (fair(b.last)) return b.last;
  return left;
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
    } else if (c.nr_fair > 1) {
      // check_preempt_tick().
      int64_t ideal = SchedSliceNs(c, t);
      int top = HeapTop(c);
      if (t.slice_exec_ns > ideal) {
        c.need_resched = true;
        // It ran long enough: no buddy favour brings it back.
        ClearBuddies(cpu, c.curr);
      } else if (top >= 0 && t.slice_exec_ns >= min_granularity_ns_ &&
                 t.vruntime - tasks_[top].vruntime > ideal) {
        c.need_resched = true;
      }
    }
  }
  if (config_.load_balance) {
    PeriodicBalance(cpu);
    NohzKick(cpu);
  }
  if (c.need_resched && c.mode == CpuMode::kBusy) {
    SettlePhase(cpu);
    return Schedule(cpu);
  }
  return;
}

}  // namespace schedsim::sim
