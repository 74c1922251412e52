// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// sis_util: select_idle_sibling as Linux 6.1 ships it (kernel/sched/fair.c
// @v6.1 select_idle_sibling() and select_idle_cpu(), features SIS_UTIL on
// and SIS_PROP off in kernel/sched/features.h; the steps: sis_common.h).
// The model in one sentence: after the target, prev and
// recent_used_cpu checks, scan the target's LLC starting after the target,
// for a fully idle core when the LLC hint says there is one (whole LLC),
// else for any idle CPU, at most nr_idle_scan CPUs, and no scan at all when
// nr_idle_scan is 0 (even with has_idle_cores set).
//
// Simplifications: those of sis_common.h; nr_idle_scan itself comes from
// the view (the simulator's load balancer computes it as
// kernel/sched/fair.c update_idle_cpu_scan() does; the depths it gives:
// docs/kernel-behaviour.md, "SIS_UTIL scan depth").

#ifndef SCHEDSIM_GOVERNORS_PLACEMENT_SIS_UTIL_H_
#define SCHEDSIM_GOVERNORS_PLACEMENT_SIS_UTIL_H_

#include "absl/strings/string_view.h"
#include "governors/placement/sis_common.h"
#include "platform/placement.h"

namespace schedsim::governors {

class SisUtil final : public SisBase {
 public:
  absl::string_view name() const override { return "sis_util"; }

 protected:
  // select_idle_cpu with SIS_UTIL: cpus = LLC ∩ allowed; nr =
  // nr_idle_scan(target) + 1; nr == 1 returns -1 before any probe; then
  // the shared main loop (has_idle_core: full core scan, else at most
  // nr_idle_scan CPUs).
  int SelectIdleCpu(platform::SchedView& view,
                    const platform::WakeupRequest& request,
                    bool has_idle_core) override;
};

}  // namespace schedsim::governors

#endif  // SCHEDSIM_GOVERNORS_PLACEMENT_SIS_UTIL_H_
