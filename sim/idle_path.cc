// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The idle path's decisions and accounting (sim/idle_path.h): the
// cpuidle device the governors see, the per-state counters of
// drivers/cpuidle/cpuidle.c cpuidle_enter_state() (usage, time, above,
// below; Linux 6.1), the physical exit of C-states, and a KVM guest's
// halts (kvm_vcpu_halt(), virt/kvm/kvm_main.c, v6.1).

#include "sim/idle_path.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <vector>

#include "platform/core/poll_limit.h"

namespace schedsim::sim {

namespace {

class SimIdleDevice final : public platform::IdleDevice {
 public:
  SimIdleDevice(const EngineState& state, const topology::Topology& topo,
                const int64_t& now_ns, IdlePath* idle, int cpu)
      : state_(state), topo_(topo), now_ns_(now_ns), idle_(idle), cpu_(cpu) {}

  int cpu() const override { return cpu_; }
  int state_count() const override {
    return static_cast<int>(topo_.cstates().size());
  }
  const topology::CState& state(int index) const override {
    return topo_.cstates()[index];
  }
  const platform::IdleStateStats& stats(int index) const override {
    return state_.cpu_state(cpu_).stats.states[index];
  }
  int64_t now_ns() const override { return now_ns_; }
  int64_t sleep_length_ns(int64_t* delta_tick_ns) const override {
    return idle_->SleepLengthNs(cpu_, delta_tick_ns);
  }
  int64_t latency_limit_ns() const override {
    return idle_->LatencyLimitNs(cpu_);
  }
  int64_t last_residency_ns() const override {
    return state_.cpu_state(cpu_).last_residency_ns;
  }
  bool poll_time_limit() const override {
    return state_.cpu_state(cpu_).poll_limit_hit;
  }
  int nr_iowait() const override { return state_.cpu_state(cpu_).nr_iowait; }
  bool tick_stopped() const override {
    return !state_.cpu_state(cpu_).tick_running;
  }
  // sched_cpu_util(): effective_cpu_util() of the CFS utilization; nothing
  // of RT, deadline or IRQ is left on a CPU going idle.
  int64_t cpu_util() const override {
    return state_.CpuUtil(cpu_, topo_.capacity(cpu_));
  }
  int64_t cpu_capacity() const override { return topo_.capacity(cpu_); }
  int64_t tick_period_ns() const override { return idle_->tick_ns(); }
  void set_poll_limit_ns(int64_t ns) override {
    idle_->SetGovPollLimitNs(cpu_, ns);
  }

 private:
  const EngineState& state_;
  const topology::Topology& topo_;
  const int64_t& now_ns_;
  IdlePath* idle_;
  int cpu_;
};

}  // namespace

void IdlePath::Init(int64_t tick_ns) {
  tick_ns_ = tick_ns;
  poll_limit_ns_ = platform::core::PollTimeLimitNs(topo_.cstates(), tick_ns);
  gov_poll_limit_ns_.assign(topo_.num_cpus(), 0);
  reflect_pending_.assign(topo_.num_cpus(), 0);
  // A KVM guest: the host polls after a HLT unless the guest's
  // cpuidle-haltpoll driver (absent with idle=halt) turned it off.
  guest_ = topo_.guest();
  host_polls_ = guest_ != nullptr && config_.kvm_halt_poll_ns > 0 &&
                (!config_.kvm_poll_control || topo_.idle_halt_state() >= 0);
  kvm_.max_ns = config_.kvm_halt_poll_ns;
  kvm_.grow = config_.kvm_halt_poll_ns_grow;
  kvm_.grow_start_ns = config_.kvm_halt_poll_ns_grow_start;
  kvm_.shrink = config_.kvm_halt_poll_ns_shrink;
  kvm_window_ns_.assign(guest_ != nullptr ? topo_.num_cpus() : 0, 0);
  guest_stats_ = GuestTotals();
}

std::unique_ptr<platform::IdleDevice> IdlePath::MakeDevice(int cpu) {
  return std::make_unique<SimIdleDevice>(s_, topo_, now_ns_, this, cpu);
}

int64_t IdlePath::SleepLengthNs(int cpu, int64_t* delta_tick_ns) const {
  const Cpu& c = s_.cpus_[cpu];
  const int64_t now = now_ns_;
  if (delta_tick_ns != nullptr) {
    *delta_tick_ns = (now / tick_ns_ + 1) * tick_ns_ - now;
  }
  if (c.timers.empty()) return kNoTimerSleepNs;
  return std::max<int64_t>(c.timers.front() - now, 0);
}

int64_t IdlePath::LatencyLimitNs(int cpu) const {
  int64_t limit = std::numeric_limits<int64_t>::max();
  const int64_t global = config_.pm_qos_latency_ns;
  if (global >= 0) limit = global;
  const int64_t own = topo_.pm_qos_resume_latency_ns(cpu);
  if (own >= 0) limit = std::min(limit, own);
  return limit;
}

void IdlePath::Enter(int cpu, int state, int64_t entry_work_ns) {
  Cpu& c = s_.cpus_[cpu];
  c.mode = CpuMode::kIdle;
  s_.RefreshProbe(cpu);
  ++s_.llcs_[c.llc].nr_idle;
  c.idle_state = state;
  c.idle_enter_ns = now_ns_ + entry_work_ns;
  c.poll_limit_hit = false;
  c.polling = state >= 0 && topo_.cstates()[state].polling();
  if (state >= 0) ++c.stats.states[state].usage;
}

int IdlePath::Leave(int cpu, bool by_poll, int64_t exit_ns) {
  Cpu& c = s_.cpus_[cpu];
  const int s = c.idle_state;
  const int64_t residency = std::max<int64_t>(now_ns_ - c.idle_enter_ns, 0);
  const int64_t counted = std::max<int64_t>(
      now_ns_ - std::max(c.idle_enter_ns, stats_start_ns_), 0);
  c.stats.idle_ns += counted;
  // What cpuidle_enter_state() measures (drivers/cpuidle/cpuidle.c, v6.1):
  // from before the state's enter callback to after it returned, so the
  // exit (an IPI's flight, the physical exit) is in it.
  const int64_t measured = residency + std::max<int64_t>(exit_ns, 0);
  if (s >= 0) {
    const std::vector<topology::CState>& states = topo_.cstates();
    platform::IdleStateStats& st = c.stats.states[s];
    st.time_ns += counted;
    if (measured < states[s].target_residency_ns) {
      // Too deep, counted only when an enabled shallower state existed.
      for (int d = s - 1; d >= 0; --d) {
        if (states[d].disabled) continue;
        ++st.above;
        break;
      }
    } else if (measured > states[s].exit_latency_ns) {
      // Too shallow: the next enabled state's target residency was reached
      // by the period less the state's advertised exit latency.
      for (size_t d = s + 1; d < states.size(); ++d) {
        if (states[d].disabled) continue;
        if (measured - states[s].exit_latency_ns >=
            states[d].target_residency_ns) {
          ++st.below;
        }
        break;
      }
    }
  }
  if (guest_ != nullptr && s >= 0) NoteGuestIdleEnd(cpu, s, residency, by_poll);
  c.last_residency_ns = measured;
  c.last_state = s;
  c.mode = CpuMode::kAwake;
  s_.RefreshProbe(cpu);
  --s_.llcs_[c.llc].nr_idle;
  c.idle_state = -1;
  c.polling = false;
  return s;
}

void IdlePath::NoteIdleEnd(int cpu) {
  Cpu& c = s_.cpus_[cpu];
  if (c.idle_stamp_ns > 0) {
    const int64_t delta = now_ns_ - c.idle_stamp_ns;
    const int64_t max_ns = 2 * config_.sched_migration_cost_ns;
    c.avg_idle_ns += (delta - c.avg_idle_ns) / 8;
    if (c.avg_idle_ns > max_ns) c.avg_idle_ns = max_ns;
    c.wake_stamp_jiffies = now_ns_ / tick_ns_;
    c.wake_avg_idle_ns = c.avg_idle_ns / 2;
    c.idle_stamp_ns = 0;
  }
}

int64_t IdlePath::PhysicalExitNs(int cpu) const {
  const Cpu& c = s_.cpus_[cpu];
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
      const Cpu& sc = s_.cpus_[sib];
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
  const int64_t exit = states[s].physical_exit_ns;
  // Woken during the entry: finish entering first (the entry of the state
  // the thread really reached).
  const int64_t entry_left =
      c.idle_enter_ns + states[s].physical_entry_ns - now_ns_;
  return exit + std::max<int64_t>(entry_left, 0);
}

int64_t IdlePath::GuestHaltExitNs(int cpu) const {
  const Cpu& c = s_.cpus_[cpu];
  const int64_t halt_ns = std::max<int64_t>(now_ns_ - c.idle_enter_ns, 0);
  const int64_t window_ns = host_polls_ ? kvm_window_ns_[cpu] : 0;
  int64_t ns = config_.kvm_hlt_exit_ns;
  // kvm_vcpu_halt(): the wake-up came while the host polled (v6.1 counts
  // a poll successful while the vCPU was never scheduled out).
  if (window_ns > 0 && halt_ns <= window_ns) return ns;
  // kvm_vcpu_block(): the vCPU thread was scheduled out after the window
  // and its host CPU went idle for the rest. The host's idle state is
  // taken as the deepest enabled one whose target residency the rest
  // reaches (an ideal host governor; the host's SMT sibling idle).
  const int64_t rest_ns = halt_ns - window_ns;
  const std::vector<topology::CState>& hs = guest_->host_cstates;
  int s = -1;
  for (int i = 0; i < static_cast<int>(hs.size()); ++i) {
    if (!hs[i].disabled && hs[i].target_residency_ns <= rest_ns) s = i;
  }
  if (s >= 0) {
    ns += hs[s].physical_exit_ns +
          std::max<int64_t>(hs[s].physical_entry_ns - rest_ns, 0);
  }
  // The host's wake-up of the vCPU thread and the switch back to it.
  return ns + config_.wakeup_cost_ns + config_.context_switch_ns;
}

void IdlePath::NoteGuestIdleEnd(int cpu, int state, int64_t residency_ns,
                                bool woken) {
  GuestTotals& g = guest_stats_;
  if (topo_.cstates()[state].polling()) {
    ++g.polls;
    if (woken) ++g.poll_successes;
    return;
  }
  ++g.halt_exits;
  g.halt_wake_ns += GuestHaltExitNs(cpu);
  if (!host_polls_) {
    ++g.host_wakeups;
    return;
  }
  int64_t& window_ns = kvm_window_ns_[cpu];
  if (window_ns > 0) ++g.host_attempted_polls;
  if (window_ns > 0 && residency_ns <= window_ns) {
    ++g.host_successful_polls;
  } else {
    ++g.host_wakeups;
  }
  window_ns = KvmAdjustHaltPollNs(window_ns, residency_ns, kvm_);
}

void IdlePath::CloseOpenIdle(int cpu, CpuStats& cs) const {
  const Cpu& c = s_.cpus_[cpu];
  if (c.mode != CpuMode::kIdle || c.idle_state < 0) return;
  const int64_t open = now_ns_ - std::max(c.idle_enter_ns, stats_start_ns_);
  if (open > 0) {
    cs.idle_ns += open;
    cs.states[c.idle_state].time_ns += open;
  }
}

}  // namespace schedsim::sim
