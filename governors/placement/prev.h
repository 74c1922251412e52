// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// prev: select_idle_sibling reduced to its first two checks (Linux 6.1
// kernel/sched/fair.c select_idle_sibling() steps 1-2 as numbered in
// sis_common.h, SisBase::SelectIdleSibling), a no-scan baseline. The model in
// one sentence: the target if it is idle, else prev if it is idle and shares
// the target's LLC, else the target, without probing any other CPU.
//
// Simplifications: no kthread stacking, no recent_used_cpu (left
// untouched), no SMT sibling and no LLC scan; "idle" is the kernel's
// available_idle || sched_idle; a disallowed target is replaced as in
// sis_common.h (TargetOrFallback).

#ifndef SCHEDSIM_GOVERNORS_PLACEMENT_PREV_H_
#define SCHEDSIM_GOVERNORS_PLACEMENT_PREV_H_

#include "absl/strings/string_view.h"
#include "platform/placement.h"

namespace schedsim::governors {

class PrevPlacement final : public platform::PlacementPolicy {
 public:
  absl::string_view name() const override { return "prev"; }

  // At most two probes (target, then prev). Never allocates.
  int SelectIdleSibling(platform::SchedView& view,
                        const platform::WakeupRequest& request) override;
};

}  // namespace schedsim::governors

#endif  // SCHEDSIM_GOVERNORS_PLACEMENT_PREV_H_
