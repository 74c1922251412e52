// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// An idle-CPU search (select_idle_sibling variant) of the kind a user
// writes, registered by name as "nearest_idle" (nearest_idle.cc): the
// target if it is idle, else prev if it is idle and shares the target's
// LLC, else the nearest idle CPU to the target: its SMT siblings first,
// then the rest of its LLC in order after it, probing at most `max_probes`
// runqueues. Not a kernel policy.

#ifndef EXAMPLES_EXTERNAL_NEAREST_IDLE_H_
#define EXAMPLES_EXTERNAL_NEAREST_IDLE_H_

#include <cstdint>

#include "schedsim/policy.h"

namespace example {

class NearestIdlePlacement final : public schedsim::PlacementPolicy {
 public:
  static constexpr int64_t kDefaultMaxProbes = 8;

  explicit NearestIdlePlacement(int64_t max_probes = kDefaultMaxProbes)
      : max_probes_(max_probes) {}
  // From the registered parameters (see nearest_idle.cc).
  explicit NearestIdlePlacement(const schedsim::Params& params)
      : max_probes_(params.GetInt("max_probes")) {}

  absl::string_view name() const override { return "nearest_idle"; }

  int SelectIdleSibling(schedsim::SchedView& view,
                        const schedsim::WakeupRequest& request) override;

 private:
  int64_t max_probes_;
};

}  // namespace example

#endif  // EXAMPLES_EXTERNAL_NEAREST_IDLE_H_
