// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// cpuidle's event-driven side (kernel/sched/idle.c do_idle() and
// cpuidle_idle_call(), Linux 6.1): the newidle balance before idle, the
// idle-entry work, the governor's choice through the device, POLL with its
// time limit, the tick while idle (NO_HZ), the end of a C-state's exit with
// the wake-ups it held. The decisions and the accounting (the sleep length,
// the physical exit, cpuidle_enter_state()'s counters, a guest's halts)
// are idle_'s (sim/idle_path.h).

#include "absl/strings/str_cat.h"
#include "platform/core/answer_checks.h"
#include "sim/simulator_impl.h"

namespace schedsim::sim {

// The CPU has nothing to run: newidle balance, update_idle_core, then an
// idle state.
void SimulatorImpl::EnterIdle(int cpu) {
  Cpu& c = cpus_[cpu];
  if (config_.load_balance && config_.newidle_balance) {
    if (config_.newidle_load_balance) {
      // The walk's levels end in kEvNewidleStep (OnNewidleStep), which
      // runs a task or enters idle.
      if (StartNewidleWalk(cpu)) return;
    } else {
      lb_.NewidleBalance(cpu);
      if (c.nr_running > 0) return Schedule(cpu);
    }
  }
  c.idle_stamp_ns = now_ns_;
  return EnterIdleState(cpu);
}

void SimulatorImpl::EnterIdleState(int cpu) {
  // update_idle_core (and a policy's own idle-entry work) runs on the CPU
  // going idle, in the idle task before cpuidle: its probes of the
  // siblings and the shared lines it reads and writes delay the idle
  // state's start, and a wake-up that comes meanwhile waits for them
  // (IdleExitLatency counts from idle_enter_ns).
  scan_probes_ = 0;
  line_cpu_ = cpu;
  line_cost_ns_ = 0;
  policies_.placement->OnCpuIdle(*sched_view_, cpu);
  // The dequeue work of the task that slept (its uclamp_rq_dec()) comes
  // first.
  const int64_t entry_work_ns = scan_probes_ * config_.probe_cost_ns +
                                line_cost_ns_ + dequeue_debt_ns_[cpu];
  dequeue_debt_ns_[cpu] = 0;
  scan_probes_ = 0;
  line_cpu_ = -1;
  line_cost_ns_ = 0;
  return SelectAndEnterIdle(cpu, entry_work_ns);
}

void SimulatorImpl::SelectAndEnterIdle(int cpu, int64_t entry_work_ns) {
  Cpu& c = cpus_[cpu];
  platform::IdleDevice& dev = *idle_devices_[cpu];
  bool stop_tick = true;
  // idle=halt: no cpuidle governor; default_idle() halts with the tick
  // stopped (kernel/sched/idle.c cpuidle_idle_call() without a driver).
  const int halt = topo_.idle_halt_state();
  int s = halt >= 0 ? halt : policies_.idle->Select(dev, &stop_tick);
  const int n = static_cast<int>(topo_.cstates().size());
  if (n == 0) {
    // No cpuidle driver: the CPU idles in an unmodelled halt.
    s = -1;
  } else if (platform::core::CheckIdleAnswer(dev, s) !=
             platform::core::IdleAnswer::kOk) {
    return FailCat("idle governor '", policies_.idle->name(), "' chose state ",
                   s, " on CPU ", cpu, "; valid: an enabled state in 0..",
                   n - 1);
  }
  freq_.AccountEnergy(cpu);
  idle_.Enter(cpu, s, entry_work_ns);
  if (c.polling && config_.poll_time_limit) {
    c.idle_timer =
        QueuePush(SimTime::FromNanoseconds(now_ns_ + idle_.PollLimitNs(cpu)),
                  kBandTimer, kEvPollTimeout, cpu, -1);
  }
  if (stop_tick) {
    if (c.tick_running) {
      ClearTick(cpu);
      c.tick_running = false;
    }
  } else {
    StartTick(cpu);
  }
  if (sink_) sink_->OnIdle(now_ns_, cpu, s);
  return;
}

int SimulatorImpl::EndIdlePeriod(int cpu, bool by_poll, int64_t exit_ns) {
  Cpu& c = cpus_[cpu];
  freq_.AccountEnergy(cpu);
  const int s = idle_.Leave(cpu, by_poll, exit_ns);
  QueueCancel(c.idle_timer);
  c.idle_timer = EventHandle();
  if (sink_) sink_->OnIdle(now_ns_, cpu, -1);
  // idle=halt has no governor to tell.
  return topo_.idle_halt_state() < 0 ? s : -1;
}

void SimulatorImpl::LeaveIdle(int cpu, bool by_poll, int64_t exit_ns) {
  if (cpus_[cpu].mode != CpuMode::kIdle) return;
  const int s = EndIdlePeriod(cpu, by_poll, exit_ns);
  if (s >= 0) policies_.idle->Reflect(*idle_devices_[cpu], s);
}

void SimulatorImpl::LeaveIdleWithExit(int cpu, int64_t exit_ns,
                                      int64_t done_ns) {
  Cpu& c = cpus_[cpu];
  if (c.mode == CpuMode::kIdle &&
      EndIdlePeriod(cpu, /*by_poll=*/false, exit_ns) >= 0) {
    idle_.SetReflectPending(cpu);
  }
  c.exiting = true;
  PushIdleExit(done_ns, cpu);
}

void SimulatorImpl::OnIdleExitDone(int cpu) {
  Cpu& c = cpus_[cpu];
  freq_.AccountEnergy(cpu);  // the exit was charged at its own power
  c.exiting = false;
  if (idle_.TakeReflectPending(cpu)) {
    policies_.idle->Reflect(*idle_devices_[cpu], c.last_state);
  }
  DrainHeldWakeups(cpu);
  if (c.mode == CpuMode::kBusy) {
    // An interrupt-context wake-up on a CPU that is already busy cannot
    // happen here, but keep preemption right if it does.
    if (c.need_resched) {
      SettlePhase(cpu);
      return Schedule(cpu);
    }
    return;
  }
  if (c.nr_running > 0) return Schedule(cpu);
  if (c.ttwu_pending > 0) return;  // a delivery is coming
  // Nothing woken here (an interrupt's work, a timer wake-up placed on
  // another CPU): need_resched is not set, so do_idle() (kernel/sched/
  // idle.c, v6.1) loops back to cpuidle_idle_call() without schedule():
  // no newidle balance, no update_idle_core, and idle_stamp keeps the
  // start of the idle period.
  return SelectAndEnterIdle(cpu);
}

void SimulatorImpl::DrainHeldWakeups(int cpu) {
  Cpu& c = cpus_[cpu];
  // Interrupt work first (timer and IO wake-ups this CPU handles).
  if (!c.irq_pending.empty()) {
    for (size_t i = 0; i < c.irq_pending.size(); ++i) {
      TryToWakeUp(c.irq_pending[i], cpu, /*from_task=*/false, 0);
    }
    c.irq_pending.clear();
  }
  // Then the wake list.
  int task = c.pending_head;
  c.pending_head = c.pending_tail = -1;
  while (task >= 0) {
    int next = tasks_[task].next_waiter;
    tasks_[task].next_waiter = -1;
    --c.ttwu_pending;
    RefreshProbe(cpu);
    Task& p = tasks_[task];
    uint32_t flags = p.iowait ? uint32_t{platform::kUtilIowait} : 0u;
    p.iowait = false;
    EnqueueWoken(cpu, task, flags);
    task = next;
  }
}

void SimulatorImpl::OnPollTimeout(int cpu) {
  Cpu& c = cpus_[cpu];
  c.idle_timer = EventHandle();
  if (c.mode != CpuMode::kIdle || !c.polling) return;
  LeaveIdle(cpu, /*by_poll=*/false, /*exit_ns=*/0);
  c.poll_limit_hit = true;
  SelectAndEnterIdle(cpu);
}

void SimulatorImpl::OnIdleTick(int cpu) {
  Cpu& c = cpus_[cpu];
  ++c.stats.ticks;
  c.tick_running = false;
  if (c.mode != CpuMode::kIdle) {
    // Awake without a task (exiting): the tick is handled, nothing else.
    return;
  }
  // The tick interrupt ends this idle period; the CPU handles it and
  // selects a state again (simplification: its exit is not charged, but
  // the period the governor reads includes it, as the kernel's does).
  LeaveIdle(cpu, /*by_poll=*/false, idle_.PhysicalExitNs(cpu));
  return SelectAndEnterIdle(cpu);
}

}  // namespace schedsim::sim
