// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// haltpoll, Linux v6.1 drivers/cpuidle/governors/haltpoll.c, described in
// our own words (no kernel source copied).
//
// The kernel's algorithm. The haltpoll cpuidle driver of a KVM guest
// (drivers/cpuidle/cpuidle-haltpoll.c) has two states: 0 = poll, 1 = halt.
// haltpoll_select():
//   1. A PM QoS limit of 0: poll, keeping the tick.
//   2. A poll window (poll_limit_ns) of 0: halt.
//   3. After a poll: halt if the poll ran into its window
//      (dev->poll_time_limit), else poll again.
//   4. After a halt: poll.
// haltpoll_reflect() after a halt calls adjust_poll_limit(block_ns):
//   - a halt that ended after the window but within guest_halt_poll_ns
//     (200 us) grows the window: x guest_halt_poll_grow (2), at least
//     guest_halt_poll_grow_start (50 us), at most 200 us;
//   - a halt longer than guest_halt_poll_ns shrinks it:
//     / guest_halt_poll_shrink (2; a shrink of 0 sets it to 0), if
//     guest_halt_poll_allow_shrink.
//
// What the model simplifies: see haltpoll.h.

#include "governors/cpuidle/haltpoll.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "absl/strings/str_cat.h"
#include "platform/registry.h"

namespace schedsim::governors {

namespace {

using platform::IdleDevice;

constexpr int kPollState = 0;  // the haltpoll driver's states
constexpr int kHaltState = 1;

// The halt state, or the first enabled one deeper than poll if it is
// disabled; -1 if none.
int HaltIndex(const IdleDevice& dev) {
  for (int i = kHaltState; i < dev.state_count(); ++i) {
    if (!dev.state_disabled(i)) return i;
  }
  return -1;
}

}  // namespace

HaltpollGovernor::PerCpu& HaltpollGovernor::CpuState(const IdleDevice& dev) {
  int cpu = dev.cpu();
  if (cpu < 0 || cpu >= static_cast<int>(cpus_.size()) || !cpus_[cpu].enabled) {
    std::fprintf(stderr, "haltpoll: CPU %d used before Enable()\n", cpu);
    std::abort();
  }
  return cpus_[cpu];
}

void HaltpollGovernor::Enable(IdleDevice& dev) {
  int cpu = dev.cpu();
  if (cpu >= static_cast<int>(cpus_.size())) cpus_.resize(cpu + 1);
  cpus_[cpu] = PerCpu();
  cpus_[cpu].enabled = true;
}

// adjust_poll_limit (the file comment).
void HaltpollGovernor::AdjustPollLimit(PerCpu& c, int64_t block_ns) const {
  const int64_t max_ns = options_.guest_halt_poll_ns;
  if (block_ns > c.poll_limit_ns && block_ns <= max_ns) {
    // Woken soon after the window: polling a little longer would have
    // caught it.
    int64_t grown_ns = c.poll_limit_ns * options_.grow;
    grown_ns = std::max(grown_ns, options_.grow_start_ns);
    c.poll_limit_ns = std::min(grown_ns, max_ns);
  } else if (block_ns > max_ns && options_.allow_shrink) {
    c.poll_limit_ns =
        options_.shrink == 0 ? 0 : c.poll_limit_ns / options_.shrink;
  }
}

void HaltpollGovernor::AccountPoll(const IdleDevice& dev, PerCpu& c) const {
  const int64_t window_ns = c.poll_limit_ns;
  const int64_t residency_ns = c.residency_ns;
  const bool limit_hit = dev.poll_time_limit();
  if (window_ns > 0 && residency_ns > window_ns) {
    // The kernel's poll would have ended at the window, followed by a halt.
    if (limit_hit) {
      c.pending_halt_ns = residency_ns - window_ns;  // still idle: halting
      c.last = Last::kPollExpired;
    } else {
      AdjustPollLimit(c, residency_ns - window_ns);  // that halt is over
      c.last = Last::kHalt;
    }
  } else {
    c.last = limit_hit ? Last::kPollExpired : Last::kPoll;
  }
}

void HaltpollGovernor::Reflect(IdleDevice& dev, int index) {
  PerCpu& c = CpuState(dev);
  c.residency_ns = dev.last_residency_ns();
  if (index == kPollState) {
    c.needs_account = true;
    return;
  }
  AdjustPollLimit(c, c.pending_halt_ns + c.residency_ns);
  c.pending_halt_ns = 0;
  c.last = Last::kHalt;
}

int HaltpollGovernor::Select(IdleDevice& dev, bool* stop_tick) {
  PerCpu& c = CpuState(dev);
  if (c.needs_account) {
    AccountPoll(dev, c);
    c.needs_account = false;
  }
  if (dev.state_count() == 0) return 0;  // no driver
  const int64_t latency_req_ns = dev.latency_limit_ns();
  const int halt = HaltIndex(dev);
  const bool poll_ok = !dev.state_disabled(kPollState);

  auto poll = [&]() {
    if (!poll_ok && halt >= 0) return halt;
    *stop_tick = false;
    // dev->poll_limit_ns = the window (adjust_poll_limit()): the POLL
    // state's time limit where the backend can bound it.
    dev.set_poll_limit_ns(c.poll_limit_ns);
    return kPollState;
  };
  // Halt unless it breaks the PM QoS limit or there is no halt state.
  auto halt_or_poll = [&]() {
    if (halt < 0 ||
        (poll_ok && dev.state(halt).exit_latency_ns > latency_req_ns)) {
      return poll();
    }
    return halt;
  };

  if (latency_req_ns == 0) return poll();
  if (c.poll_limit_ns == 0) return halt_or_poll();
  switch (c.last) {
    case Last::kPoll:
      return poll();  // woken while polling: poll again
    case Last::kPollExpired:
      return halt_or_poll();
    case Last::kNone:
    case Last::kHalt:
      break;
  }
  return poll();
}

namespace {

platform::PolicyInfo HaltpollInfo() {
  platform::PolicyInfo info;
  info.family = platform::PolicyFamily::kCpuidle;
  info.name = "haltpoll";
  info.description =
      "Linux v6.1 drivers/cpuidle/governors/haltpoll.c (KVM guests, rating "
      "9): poll (state 0) for up to a per-CPU window, then halt (state 1); "
      "after a halt the window grows (x grow, at least grow_start, at most "
      "guest_halt_poll_ns) if the halt ended within guest_halt_poll_ns and "
      "beyond the window, and shrinks (/ shrink) after a longer halt.";
  HaltpollGovernor::Options d;
  info.params = {
      {"guest_halt_poll_ns", d.guest_halt_poll_ns,
       "largest poll window and longest halt that still grows it; ns, "
       "default 200000 (haltpoll module parameter guest_halt_poll_ns)"},
      {"guest_halt_poll_grow", d.grow,
       "window multiplier on growth; factor, default 2 (module parameter "
       "guest_halt_poll_grow)"},
      {"guest_halt_poll_shrink", d.shrink,
       "window divisor after a halt longer than guest_halt_poll_ns, 0 resets "
       "the window to 0; divisor, default 2 (module parameter "
       "guest_halt_poll_shrink)"},
      {"guest_halt_poll_grow_start", d.grow_start_ns,
       "smallest window after a growth; ns, default 50000 (module parameter "
       "guest_halt_poll_grow_start)"},
      {"guest_halt_poll_allow_shrink", d.allow_shrink,
       "whether long halts shrink the window; bool, default true (module "
       "parameter guest_halt_poll_allow_shrink)"},
  };
  info.make_idle = [](const platform::Params& p)
      -> absl::StatusOr<std::unique_ptr<platform::IdleGovernor>> {
    // The kernel's parameters are unsigned ints.
    constexpr int64_t kUintMax = 0xffffffffLL;
    for (const char* name :
         {"guest_halt_poll_ns", "guest_halt_poll_grow",
          "guest_halt_poll_shrink", "guest_halt_poll_grow_start"}) {
      int64_t v = p.GetInt(name);
      if (v < 0 || v > kUintMax) {
        return absl::InvalidArgumentError(
            absl::StrCat("cpuidle policy 'haltpoll': ", name, " = ", v,
                         "; expected 0 to ", kUintMax));
      }
    }
    HaltpollGovernor::Options options;
    options.guest_halt_poll_ns = p.GetInt("guest_halt_poll_ns");
    options.grow = p.GetInt("guest_halt_poll_grow");
    options.shrink = p.GetInt("guest_halt_poll_shrink");
    options.grow_start_ns = p.GetInt("guest_halt_poll_grow_start");
    options.allow_shrink = p.GetBool("guest_halt_poll_allow_shrink");
    return std::make_unique<HaltpollGovernor>(options);
  };
  return info;
}

SCHEDSIM_REGISTER_POLICY(HaltpollInfo());

}  // namespace

}  // namespace schedsim::governors
