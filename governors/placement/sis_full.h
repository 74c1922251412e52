// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// sis_full: select_idle_sibling with no limit on the idle-CPU scan: Linux
// 6.1 kernel/sched/fair.c select_idle_cpu() with both scan limits off
// (sched_feat NO_SIS_UTIL and NO_SIS_PROP in kernel/sched/features.h; the
// steps: sis_common.h). nr stays INT_MAX, so the scan walks every allowed
// CPU of the target's LLC, starting after the target, until it finds an
// idle core (when has_idle_cores is set) or an idle CPU. It is what a
// change removing SIS_PROP's or SIS_UTIL's limit is compared against, and
// what kernels before SIS_PROP's depth limit (v4.13, commit 1ad3aaf3fcd2
// "sched/core: Implement new approach to scale select_idle_cpu()") did
// with SIS_PROP off.
//
// Simplifications: those of sis_common.h.

#ifndef SCHEDSIM_GOVERNORS_PLACEMENT_SIS_FULL_H_
#define SCHEDSIM_GOVERNORS_PLACEMENT_SIS_FULL_H_

#include "absl/strings/string_view.h"
#include "governors/placement/sis_common.h"
#include "platform/placement.h"

namespace schedsim::governors {

class SisFull final : public SisBase {
 public:
  absl::string_view name() const override { return "sis_full"; }

 protected:
  // select_idle_cpu without SIS_UTIL or SIS_PROP: cpus = LLC ∩ allowed,
  // nr = INT_MAX; the shared main loop.
  int SelectIdleCpu(platform::SchedView& view,
                    const platform::WakeupRequest& request,
                    bool has_idle_core) override;
};

}  // namespace schedsim::governors

#endif  // SCHEDSIM_GOVERNORS_PLACEMENT_SIS_FULL_H_
