// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/placement/prev.h"

#include <memory>

#include "governors/placement/sis_common.h"
#include "platform/registry.h"

namespace schedsim::governors {

int PrevPlacement::SelectIdleSibling(platform::SchedView& view,
                                     const platform::WakeupRequest& request) {
  const int cpu = TargetOrIdlePrev(view, request);
  return cpu >= 0 ? cpu : TargetOrFallback(view, request);
}

namespace {

platform::PolicyInfo PrevInfo() {
  platform::PolicyInfo info;
  info.family = platform::PolicyFamily::kPlacement;
  info.name = "prev";
  info.description =
      "select_idle_sibling without any scan (steps 1-2 of Linux 6.1 "
      "kernel/sched/fair.c select_idle_sibling): target if idle, else prev "
      "if idle and sharing target's LLC, else target.";
  info.make_placement = [](const platform::Params&)
      -> absl::StatusOr<std::unique_ptr<platform::PlacementPolicy>> {
    return std::make_unique<PrevPlacement>();
  };
  return info;
}

SCHEDSIM_REGISTER_POLICY(PrevInfo());

}  // namespace
}  // namespace schedsim::governors
