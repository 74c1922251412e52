// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The "haltpoll" cpuidle governor for KVM guests, Linux v6.1
// drivers/cpuidle/governors/haltpoll.c (the steps: haltpoll.cc): poll (state 0)
// for up to a per-CPU window, then halt (state 1); after a halt, grow the
// window when the wake-up came soon after it, shrink it after a long halt.
// Simplifications: registered on any machine (the kernel only in a guest);
// the window is handed to the device as the POLL time limit
// (IdleDevice::set_poll_limit_ns, dev->poll_limit_ns), and where a backend
// cannot bound POLL by it a poll that outlasted the window counts as
// window + halt on the governor's books while the CPU physically polled on
// (see Select); a non-zero PM QoS limit below the halt state's exit
// latency also means polling.

#ifndef SCHEDSIM_GOVERNORS_CPUIDLE_HALTPOLL_H_
#define SCHEDSIM_GOVERNORS_CPUIDLE_HALTPOLL_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "platform/cpuidle.h"

namespace schedsim::governors {

class HaltpollGovernor final : public platform::IdleGovernor {
 public:
  // Module parameters of haltpoll.c (Linux v6.1) with their defaults.
  struct Options {
    // guest_halt_poll_ns: the largest poll window, and the longest halt
    // that still grows it.
    int64_t guest_halt_poll_ns = 200'000;
    // guest_halt_poll_grow: window multiplier on growth.
    int64_t grow = 2;
    // guest_halt_poll_shrink: window divisor on shrink (0: to zero).
    int64_t shrink = 2;
    // guest_halt_poll_grow_start: the window after the first growth.
    int64_t grow_start_ns = 50'000;
    // guest_halt_poll_allow_shrink.
    bool allow_shrink = true;
  };

  HaltpollGovernor() = default;
  explicit HaltpollGovernor(const Options& options) : options_(options) {}

  absl::string_view name() const override { return "haltpoll"; }

  // haltpoll_enable_device: the CPU's window starts at 0 (halt). Sizes the
  // per-CPU array (the only allocation).
  void Enable(platform::IdleDevice& dev) override;

  // haltpoll_select: 0 (poll, tick kept) when the PM QoS limit is 0; else
  // 1 (halt) with a zero window; else after a poll, poll again unless the
  // window ran out; after a halt, poll.
  // A POLL period that outlasted the window is accounted here (the
  // simulator reports dev.poll_time_limit() only now): the kernel would
  // have stopped polling at the window and halted, so if the CPU was woken
  // after the window the window is adjusted as after a halt of the excess
  // and the governor polls next; if the device's own poll limit ended it,
  // the CPU halts now and the excess counts towards that halt.
  // REQUIRES: Enable(dev) was called for dev.cpu(). Does not allocate.
  int Select(platform::IdleDevice& dev, bool* stop_tick) override;

  // haltpoll_reflect: after a halt, adjusts the window by the halt's
  // residency (adjust_poll_limit).
  void Reflect(platform::IdleDevice& dev, int index) override;

  // --- Inspection (tests, traces) -------------------------------------------
  // The current poll window of `cpu` (dev->poll_limit_ns).
  int64_t poll_limit_ns(int cpu) const { return cpus_[cpu].poll_limit_ns; }

 private:
  // What the kernel's last state would have been.
  enum class Last : uint8_t { kNone, kPoll, kPollExpired, kHalt };

  struct PerCpu {
    bool enabled = false;
    bool needs_account = false;  // a POLL period to account at Select
    Last last = Last::kNone;
    int64_t poll_limit_ns = 0;
    int64_t residency_ns = 0;
    int64_t pending_halt_ns = 0;  // halt time the CPU spent polling
  };

  PerCpu& CpuState(const platform::IdleDevice& dev);
  void AccountPoll(const platform::IdleDevice& dev, PerCpu& c) const;
  void AdjustPollLimit(PerCpu& c, int64_t block_ns) const;

  Options options_;
  std::vector<PerCpu> cpus_;  // by CPU id, grown in Enable
};

}  // namespace schedsim::governors

#endif  // SCHEDSIM_GOVERNORS_CPUIDLE_HALTPOLL_H_
