// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The host's adaptive halt polling of a KVM vCPU, Linux v6.1
// virt/kvm/kvm_main.c, described in our own words (no kernel source
// copied). When a guest executes HLT, kvm_vcpu_halt() polls for a wake-up
// for up to the vCPU's window (vcpu->halt_poll_ns), then blocks the vCPU
// thread (kvm_vcpu_block(): the host schedules it out). Afterwards, with
// halt_ns the whole halt (polling included) and max the largest window
// (the halt_poll_ns module parameter, kvm->max_halt_poll_ns):
//   - max 0: the window is 0;
//   - halt_ns within the window: unchanged;
//   - a non-zero window and halt_ns above max: shrink_halt_poll_ns();
//   - a window below max and halt_ns below max: grow_halt_poll_ns().
// grow_halt_poll_ns(): x halt_poll_ns_grow, at least halt_poll_ns_grow_start,
// at most max; a grow of 0 leaves the window. shrink_halt_poll_ns():
// / halt_poll_ns_shrink (0: to 0), and to 0 below halt_poll_ns_grow_start.
// Not modelled: invalid wake-ups (!vcpu_valid_wakeup(), which shrink),
// and polling cut short because another host task became runnable
// (single_task_running(); each vCPU has its host CPU to itself here).
//
//   KvmHaltPoll p = {200000, 2, 10000, 0};
//   window = KvmAdjustHaltPollNs(window, halt_ns, p);

#ifndef SCHEDSIM_SIM_KVM_HALT_POLL_H_
#define SCHEDSIM_SIM_KVM_HALT_POLL_H_

#include <algorithm>
#include <cstdint>

namespace schedsim::sim {

// The module parameters of kvm_main.c (SimConfig::kvm_halt_poll_*).
struct KvmHaltPoll {
  int64_t max_ns = 200000;        // halt_poll_ns (x86 KVM_HALT_POLL_NS_DEFAULT)
  int64_t grow = 2;               // halt_poll_ns_grow
  int64_t grow_start_ns = 10000;  // halt_poll_ns_grow_start
  int64_t shrink = 0;             // halt_poll_ns_shrink (v6.1 default)
};

// grow_halt_poll_ns().
inline int64_t KvmGrowHaltPollNs(int64_t window_ns, const KvmHaltPoll& p) {
  if (p.grow == 0) return window_ns;
  int64_t v = std::max(window_ns * p.grow, p.grow_start_ns);
  return std::min(v, p.max_ns);
}

// shrink_halt_poll_ns().
inline int64_t KvmShrinkHaltPollNs(int64_t window_ns, const KvmHaltPoll& p) {
  int64_t v = p.shrink == 0 ? 0 : window_ns / p.shrink;
  return v < p.grow_start_ns ? 0 : v;
}

// The window after a halt of `halt_ns` (kvm_vcpu_halt(), a valid wake-up).
inline int64_t KvmAdjustHaltPollNs(int64_t window_ns, int64_t halt_ns,
                                   const KvmHaltPoll& p) {
  if (p.max_ns == 0) return 0;
  if (halt_ns <= window_ns) return window_ns;
  if (window_ns > 0 && halt_ns > p.max_ns) {
    return KvmShrinkHaltPollNs(window_ns, p);
  }
  if (window_ns < p.max_ns && halt_ns < p.max_ns) {
    return KvmGrowHaltPollNs(window_ns, p);
  }
  return window_ns;
}

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_KVM_HALT_POLL_H_
