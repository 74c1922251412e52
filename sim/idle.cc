// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// cpuidle: entering and leaving idle states through the idle governor,
// POLL with its time limit, the tick while idle (NO_HZ), the physical exit
// cost of C-states (core states need every SMT sibling idle), and the
// per-state counters that drivers/cpuidle/cpuidle.c cpuidle_enter_state()
// keeps (usage, time, above, below; Linux 6.1).

#include <algorithm>
#include <functional>
#include <limits>

#include "absl/strings/str_cat.h"
#include "platform/core/answer_checks.h"
#include "sim/simulator_impl.h"

namespace schedsim::sim {

namespace {

// Beyond the last timer on a CPU, other kernel timers bound the sleep
// (assumed 1 s).
constexpr int64_t kNoTimerSleepNs = 1000000000;

class SimIdleDevice final : public platform::IdleDevice {
 public:
  SimIdleDevice(SimulatorImpl* sim, int cpu) : sim_(sim), cpu_(cpu) {}

  int cpu() const override { return cpu_; }
  int state_count() const override {
    return static_cast<int>(sim_->topo().cstates().size());
  }
  const topology::CState& state(int index) const override {
    return sim_->topo().cstates()[index];
  }
  const platform::IdleStateStats& stats(int index) const override {
    return sim_->cpu_state(cpu_).stats.states[index];
  }
  int64_t now_ns() const override { return sim_->now_ns(); }
  int64_t sleep_length_ns(int64_t* delta_tick_ns) const override {
    const Cpu& c = sim_->cpu_state(cpu_);
    int64_t now = sim_->now_ns();
    int64_t tick = sim_->tick_ns();
    if (delta_tick_ns != nullptr)
      *delta_tick_ns = (now / tick + 1) * tick - now;
    if (c.timers.empty()) return kNoTimerSleepNs;
    return std::max<int64_t>(c.timers.front() - now, 0);
  }
  // cpuidle_governor_latency_req() (drivers/cpuidle/governor.c, v6.1):
  // the smaller of the CPU's resume latency request and the global
  // cpu_dma_latency.
  int64_t latency_limit_ns() const override {
    int64_t limit = std::numeric_limits<int64_t>::max();
    const int64_t global = sim_->config().pm_qos_latency_ns;
    if (global >= 0) limit = global;
    const int64_t own = sim_->topo().pm_qos_resume_latency_ns(cpu_);
    if (own >= 0) limit = std::min(limit, own);
    return limit;
  }
  int64_t last_residency_ns() const override {
    return sim_->cpu_state(cpu_).last_residency_ns;
  }
  bool poll_time_limit() const override {
    return sim_->cpu_state(cpu_).poll_limit_hit;
  }
  int nr_iowait() const override { return sim_->cpu_state(cpu_).nr_iowait; }
  bool tick_stopped() const override {
    return !sim_->cpu_state(cpu_).tick_running;
  }
  // sched_cpu_util(): effective_cpu_util() of the CFS utilization; nothing
  // of RT, deadline or IRQ is left on a CPU going idle.
  int64_t cpu_util() const override { return sim_->cpu_util(cpu_); }
  int64_t cpu_capacity() const override { return sim_->topo().capacity(cpu_); }
  int64_t tick_period_ns() const override { return sim_->tick_ns(); }
  void set_poll_limit_ns(int64_t ns) override {
    sim_->set_gov_poll_limit_ns(cpu_, std::max<int64_t>(ns, 0));
  }

 private:
  SimulatorImpl* sim_;
  int cpu_;
};

}  // namespace

std::unique_ptr<platform::IdleDevice> MakeSimIdleDevice(SimulatorImpl* sim,
                                                        int cpu) {
  return std::make_unique<SimIdleDevice>(sim, cpu);
}

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
  c.mode = CpuMode::kIdle;
  RefreshProbe(cpu);
  ++llcs_[c.llc].nr_idle;
  c.idle_state = s;
  c.idle_enter_ns = now_ns_ + entry_work_ns;
  c.poll_limit_hit = false;
  c.polling = s >= 0 && topo_.cstates()[s].polling();
  if (s >= 0) ++c.stats.states[s].usage;
  if (c.polling && config_.poll_time_limit) {
    // cpuidle_poll_time(): the governor's dev->poll_limit_ns when it set
    // one (haltpoll's window), else the core's limit.
    const int64_t limit_ns =
        gov_poll_limit_ns_[cpu] > 0 ? gov_poll_limit_ns_[cpu] : poll_limit_ns_;
    c.idle_timer = QueuePush(SimTime::FromNanoseconds(now_ns_ + limit_ns),
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

int64_t SimulatorImpl::PhysicalExitNs(int cpu) const {
  const Cpu& c = cpus_[cpu];
  if (c.mode != CpuMode::kIdle || c.idle_state < 0) return 0;
  const std::vector<topology::CState>& states = topo_.cstates();
  if (guest_ != nullptr && !states[c.idle_state].polling()) {
    return GuestHaltExitNs(cpu);
  }
  int s = c.idle_state;
  // A core C-state is reached only when every SMT sibling is in a core
  // state too, a cluster state (an Arm cluster power-down, PSCI
  // platform-coordinated) only when every CPU of the cluster (the LLC) is
  // in a cluster state; otherwise the CPU sits in the deepest state below.
  for (const uint32_t flag :
       {topology::CState::kClusterState, topology::CState::kCoreState}) {
    if (!(states[s].flags & flag)) continue;
    const topology::CpuSet& group = flag == topology::CState::kCoreState
                                        ? topo_.smt_siblings(cpu)
                                        : topo_.llc_span(cpu);
    bool all = true;
    for (int sib = group.First(); sib >= 0; sib = group.Next(sib)) {
      if (sib == cpu) continue;
      const Cpu& sc = cpus_[sib];
      if (sc.mode != CpuMode::kIdle || sc.idle_state < 0 ||
          !(states[sc.idle_state].flags & flag)) {
        all = false;
        break;
      }
    }
    if (!all) {
      while (s > 0 && (states[s].flags & flag)) --s;
    }
  }
  int64_t exit = states[s].physical_exit_ns;
  // Woken during the entry: finish entering first (the entry of the state
  // the thread really reached).
  int64_t entry_left = c.idle_enter_ns + states[s].physical_entry_ns - now_ns_;
  return exit + std::max<int64_t>(entry_left, 0);
}

void SimulatorImpl::LeaveIdle(int cpu, bool by_poll) {
  Cpu& c = cpus_[cpu];
  if (c.mode != CpuMode::kIdle) return;
  freq_.AccountEnergy(cpu);
  const int s = c.idle_state;
  int64_t residency = std::max<int64_t>(now_ns_ - c.idle_enter_ns, 0);
  int64_t counted = std::max<int64_t>(
      now_ns_ - std::max(c.idle_enter_ns, stats_start_ns_), 0);
  c.stats.idle_ns += counted;
  if (s >= 0) {
    const std::vector<topology::CState>& states = topo_.cstates();
    platform::IdleStateStats& st = c.stats.states[s];
    st.time_ns += counted;
    if (residency < states[s].target_residency_ns) {
      ++st.above;
    } else {
      for (size_t d = s + 1; d < states.size(); ++d) {
        if (states[d].disabled) continue;
        if (residency >= states[d].target_residency_ns) ++st.below;
        break;
      }
    }
  }
  if (guest_ != nullptr && s >= 0) NoteGuestIdleEnd(cpu, s, residency, by_poll);
  c.last_residency_ns = residency;
  c.last_state = s;
  c.mode = CpuMode::kAwake;
  RefreshProbe(cpu);
  --llcs_[c.llc].nr_idle;
  c.idle_state = -1;
  c.polling = false;
  QueueCancel(c.idle_timer);
  c.idle_timer = EventHandle();
  NoteIdleEnd(c);
  if (s >= 0 && topo_.idle_halt_state() < 0) {
    policies_.idle->Reflect(*idle_devices_[cpu], s);
  }
  if (sink_) sink_->OnIdle(now_ns_, cpu, -1);
}

void SimulatorImpl::NoteIdleEnd(Cpu& c) {
  // SIS_PROP's avg_idle (ttwu_do_wakeup): EWMA 1/8 of idle durations,
  // clamped at 2 * max_idle_balance_cost.
  if (c.idle_stamp_ns > 0) {
    int64_t delta = now_ns_ - c.idle_stamp_ns;
    int64_t max_ns = 2 * config_.sched_migration_cost_ns;
    c.avg_idle_ns += (delta - c.avg_idle_ns) / 8;
    if (c.avg_idle_ns > max_ns) c.avg_idle_ns = max_ns;
    c.wake_stamp_jiffies = now_ns_ / tick_ns_;
    c.wake_avg_idle_ns = c.avg_idle_ns / 2;
    c.idle_stamp_ns = 0;
  }
}

void SimulatorImpl::OnIdleExitDone(int cpu) {
  Cpu& c = cpus_[cpu];
  freq_.AccountEnergy(cpu);  // the exit was charged at its own power
  c.exiting = false;
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
  return EnterIdle(cpu);
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
  LeaveIdle(cpu, /*by_poll=*/false);
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
  // selects a state again.
  LeaveIdle(cpu, /*by_poll=*/false);
  return SelectAndEnterIdle(cpu);
}

}  // namespace schedsim::sim
