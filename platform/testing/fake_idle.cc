// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/testing/fake_idle.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "platform/core/answer_checks.h"
#include "platform/core/poll_limit.h"
#include "topology/presets.h"

namespace schedsim::platform::testing {

FakeIdleDevice::FakeIdleDevice(int cpu, std::vector<topology::CState> states,
                               int64_t tick_period_ns)
    : cpu_(cpu),
      states_(std::move(states)),
      stats_(states_.size()),
      tick_period_ns_(tick_period_ns) {}

FakeIdleDevice FakeIdleDevice::ForPreset(const std::string& machine, int cpu) {
  absl::StatusOr<topology::Topology> t = topology::MakePreset(machine);
  if (!t.ok()) {
    std::fprintf(stderr, "FakeIdleDevice: %s\n",
                 std::string(t.status().message()).c_str());
    std::abort();
  }
  return FakeIdleDevice(cpu, t->cstates());
}

int64_t FakeIdleDevice::sleep_length_ns(int64_t* delta_tick_ns) const {
  if (delta_tick_ns != nullptr) {
    *delta_tick_ns =
        (now_ns_ / tick_period_ns_ + 1) * tick_period_ns_ - now_ns_;
  }
  return next_timer_in_ns_;
}

int FakeIdleDevice::IdlePeriod(IdleGovernor& governor, int64_t idle_ns) {
  bool stop_tick = true;
  int s = governor.Select(*this, &stop_tick);
  if (core::CheckIdleAnswer(*this, s) != core::IdleAnswer::kOk) {
    std::fprintf(stderr, "FakeIdleDevice: governor chose invalid state %d\n",
                 s);
    std::abort();
  }
  last_state_ = s;
  last_stop_tick_ = stop_tick;
  selections_.push_back(s);
  int64_t delta_tick = 0;
  sleep_length_ns(&delta_tick);
  int64_t residency = std::min(idle_ns, next_timer_in_ns_);
  if (!stop_tick) residency = std::min(residency, delta_tick);
  // POLL stops at its time limit (platform/core/poll_limit.h).
  poll_time_limit_ = false;
  if (states_[s].polling()) {
    const int64_t limit = core::PollTimeLimitNs(states_, tick_period_ns_);
    if (residency > limit) {
      residency = limit;
      poll_time_limit_ = true;
    }
  }
  IdleStateStats& st = stats_[s];
  ++st.usage;
  st.time_ns += residency;
  // cpuidle_enter_state()'s rules (drivers/cpuidle/cpuidle.c, v6.1):
  // `above` needs an enabled shallower state; `below` compares the period
  // less the state's exit latency with the next enabled state's target.
  if (residency < states_[s].target_residency_ns) {
    for (int d = s - 1; d >= 0; --d) {
      if (states_[d].disabled) continue;
      ++st.above;
      break;
    }
  } else if (residency > states_[s].exit_latency_ns) {
    for (size_t d = s + 1; d < states_.size(); ++d) {
      if (states_[d].disabled) continue;
      if (residency - states_[s].exit_latency_ns >=
          states_[d].target_residency_ns) {
        ++st.below;
      }
      break;
    }
  }
  last_residency_ns_ = residency;
  now_ns_ += residency;
  next_timer_in_ns_ = std::max<int64_t>(next_timer_in_ns_ - residency, 0);
  governor.Reflect(*this, s);
  return s;
}

}  // namespace schedsim::platform::testing
