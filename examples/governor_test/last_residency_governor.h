// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// An example idle governor written against platform/cpuidle.h, for
// docs/testing-governors.md: it predicts that the next idle period lasts as
// long as the last one and picks the deepest enabled state whose target
// residency fits that prediction, the time to the next timer and the PM QoS
// limit. Not a kernel governor.

#ifndef SCHEDSIM_EXAMPLES_GOVERNOR_TEST_LAST_RESIDENCY_GOVERNOR_H_
#define SCHEDSIM_EXAMPLES_GOVERNOR_TEST_LAST_RESIDENCY_GOVERNOR_H_

#include <algorithm>
#include <cstdint>
#include <vector>

#include "platform/cpuidle.h"

namespace example {

class LastResidencyGovernor final : public schedsim::platform::IdleGovernor {
 public:
  absl::string_view name() const override { return "last_residency"; }

  void Enable(schedsim::platform::IdleDevice& dev) override {
    if (dev.cpu() >= static_cast<int>(last_ns_.size())) {
      last_ns_.resize(dev.cpu() + 1, 0);
    }
    // Start optimistic: no history means "as long as the timer allows".
    last_ns_[dev.cpu()] = INT64_MAX;
  }

  int Select(schedsim::platform::IdleDevice& dev, bool* stop_tick) override {
    int64_t delta_tick = 0;
    int64_t predicted =
        std::min(last_ns_[dev.cpu()], dev.sleep_length_ns(&delta_tick));
    int pick = 0;
    for (int i = 1; i < dev.state_count(); ++i) {
      const schedsim::topology::CState& s = dev.state(i);
      if (dev.state_disabled(i)) continue;
      if (s.target_residency_ns > predicted) break;
      if (s.exit_latency_ns > dev.latency_limit_ns()) break;
      pick = i;
    }
    *stop_tick = predicted > delta_tick;
    return pick;
  }

  void Reflect(schedsim::platform::IdleDevice& dev, int index) override {
    last_ns_[dev.cpu()] = dev.last_residency_ns();
  }

 private:
  std::vector<int64_t> last_ns_;
};

}  // namespace example

#endif  // SCHEDSIM_EXAMPLES_GOVERNOR_TEST_LAST_RESIDENCY_GOVERNOR_H_
