// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// A KVM guest's halts (docs/model-idle-frequency.md, "Guests"): the VM
// exit of a HLT, the host's adaptive halt polling of kvm_vcpu_halt()
// (virt/kvm/kvm_main.c, v6.1; the window rules in sim/kvm_halt_poll.h),
// the host's wake-up of a vCPU it scheduled out, and the counters KVM and
// cpuidle-haltpoll keep. Moved whole from idle.cc and simulator_init.cc.

#include <algorithm>
#include <vector>

#include "sim/simulator_impl.h"

namespace schedsim::sim {

void SimulatorImpl::InitGuest() {
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

int64_t SimulatorImpl::GuestHaltExitNs(int cpu) const {
  const Cpu& c = cpus_[cpu];
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

void SimulatorImpl::NoteGuestIdleEnd(int cpu, int state, int64_t residency_ns,
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

}  // namespace schedsim::sim
