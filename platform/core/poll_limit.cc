// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/core/poll_limit.h"

#include <algorithm>

namespace schedsim::platform::core {

int64_t PollTimeLimitNs(const std::vector<topology::CState>& states,
                        int64_t tick_ns) {
  int64_t limit = tick_ns / kPollMaxTickDivisor;
  for (const topology::CState& s : states) {
    if (!s.disabled && !s.polling() &&
        s.target_residency_ns >= kPollMinResidencyNs) {
      return std::min(limit, s.target_residency_ns);
    }
  }
  return limit;
}

}  // namespace schedsim::platform::core
