// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// sis_prop: select_idle_sibling of Linux 6.1 with SIS_PROP on and SIS_UTIL
// off (kernel/sched/fair.c @v6.1 select_idle_cpu; SIS_PROP was the default
// before v6.0 and was removed in v6.7 by commit 984ffb6a4366). The model
// in one sentence: without an idle-core hint, the scan depth is
// proportional to the waking CPU's expected idle time over the LLC's
// average scan cost, and every completed scan feeds its cost back into both.
//
// Simplifications: those of sis_common.h. The jiffy aging of wake_avg_idle
// (one halving per jiffy since the CPU last woke) is the view's: SchedView::
// wake_avg_idle_ns() returns the aged value (the simulator ages it on read;
// the view does not expose wake_stamp). The scan time is the view's
// simulated probing time (scan_time_ns() after minus before), standing for
// cpu_clock().

#ifndef SCHEDSIM_GOVERNORS_PLACEMENT_SIS_PROP_H_
#define SCHEDSIM_GOVERNORS_PLACEMENT_SIS_PROP_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "governors/placement/sis_common.h"
#include "platform/placement.h"

namespace schedsim::governors {

// Depth when span_avg <= kSisPropMinDepth * avg_cost, and the factor of
// that test (fair.c @v6.1 select_idle_cpu: "nr = 4").
inline constexpr int64_t kSisPropMinDepth = 4;
// update_avg() weight: avg += (sample - avg) / 8 (kernel/sched/sched.h
// @v6.1 update_avg).
inline constexpr int64_t kSisPropAvgDivisor = 8;

// SIS_PROP's depth (select_idle_cpu(), fair.c v6.1): span_avg = llc_weight *
// wake_avg_idle; nr = span_avg / avg_cost if span_avg > 4 * avg_cost, else
// 4, where avg_cost = avg_scan_cost + 1. nr counts like the kernel's (at
// most nr - 1 CPUs are probed).
int64_t SisPropDepth(int llc_weight, int64_t wake_avg_idle_ns,
                     int64_t avg_scan_cost_ns);

class SisProp final : public SisBase {
 public:
  absl::string_view name() const override { return "sis_prop"; }

 protected:
  // select_idle_cpu with SIS_PROP: without has_idle_core, read this_cpu's
  // wake_avg_idle and this_cpu's LLC avg_scan_cost, scan at SisPropDepth()
  // and, unless the depth ran out (the kernel returns early then), charge
  // the scan time: wake_avg_idle -= min(wake_avg_idle, time);
  // avg_scan_cost += (time - avg_scan_cost) / 8. With has_idle_core: the
  // full core scan, no accounting.
  int SelectIdleCpu(platform::SchedView& view,
                    const platform::WakeupRequest& request,
                    bool has_idle_core) override;
};

}  // namespace schedsim::governors

#endif  // SCHEDSIM_GOVERNORS_PLACEMENT_SIS_PROP_H_
