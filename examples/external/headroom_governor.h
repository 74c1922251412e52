// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// A frequency governor of the kind a user writes: it asks for the
// frequency that leaves the busiest CPU of the domain `headroom_pct`
// percent of headroom,
//
//   next_khz = max_khz * util * (100 + headroom_pct) / 100 / capacity,
//
// (the highest frequency while an RT task is runnable), at most once per
// `rate_limit_ns`. Not a kernel governor; unit-tested with the scripted kit
// in headroom_governor_test.cc.

#ifndef EXAMPLES_EXTERNAL_HEADROOM_GOVERNOR_H_
#define EXAMPLES_EXTERNAL_HEADROOM_GOVERNOR_H_

#include <cstdint>
#include <vector>

#include "schedsim/policy.h"

namespace example {

class HeadroomGovernor final : public schedsim::FreqGovernor {
 public:
  explicit HeadroomGovernor(int64_t rate_limit_ns = 1000000,
                            int64_t headroom_pct = 25)
      : rate_limit_ns_(rate_limit_ns), headroom_pct_(headroom_pct) {}

  absl::string_view name() const override { return "headroom"; }

  void Start(schedsim::FreqDomain& domain) override;
  void UpdateUtil(schedsim::FreqDomain& domain, int cpu,
                  uint32_t flags) override;

  // The frequency asked for `util` (0..capacity) on `domain`.
  int64_t TargetKhz(const schedsim::FreqDomain& domain, int64_t util,
                    int64_t capacity) const;

 private:
  int64_t rate_limit_ns_;
  int64_t headroom_pct_;
  // Per domain id: the time of the last request, -1 before the first.
  std::vector<int64_t> last_update_ns_;
};

}  // namespace example

#endif  // EXAMPLES_EXTERNAL_HEADROOM_GOVERNOR_H_
