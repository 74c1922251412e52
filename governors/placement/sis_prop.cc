// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/placement/sis_prop.h"

#include <algorithm>
#include <memory>

#include "platform/registry.h"

namespace schedsim::governors {

int64_t SisPropDepth(int llc_weight, int64_t wake_avg_idle_ns,
                     int64_t avg_scan_cost_ns) {
  const int64_t avg_cost_ns = avg_scan_cost_ns + 1;
  const int64_t span_avg_ns = int64_t{llc_weight} * wake_avg_idle_ns;
  if (span_avg_ns > kSisPropMinDepth * avg_cost_ns) {
    return std::min(span_avg_ns / avg_cost_ns, kSisNoDepthLimit);
  }
  return kSisPropMinDepth;
}

int SisProp::SelectIdleCpu(platform::SchedView& view,
                           const platform::WakeupRequest& request,
                           bool has_idle_core) {
  const int this_cpu = request.this_cpu;
  topology::CpuSet& cpus = LlcScanMask(view, request);
  if (has_idle_core) {
    return ScanForIdleCpu(view, request, cpus, /*has_idle_core=*/true,
                          kSisNoDepthLimit, ScanOptions())
        .cpu;
  }
  const int64_t nr = SisPropDepth(view.domains().llc_size(request.target),
                                  view.wake_avg_idle_ns(this_cpu),
                                  view.avg_scan_cost_ns(this_cpu));
  const int64_t t0_ns = view.scan_time_ns();
  const ScanResult result = ScanForIdleCpu(
      view, request, cpus, /*has_idle_core=*/false, nr, ScanOptions());
  if (result.depth_exhausted) return result.cpu;
  const int64_t time_ns = view.scan_time_ns() - t0_ns;
  const int64_t wake_avg_idle_ns = view.wake_avg_idle_ns(this_cpu);
  view.set_wake_avg_idle_ns(
      this_cpu, wake_avg_idle_ns - std::min(wake_avg_idle_ns, time_ns));
  const int64_t cost_ns = view.avg_scan_cost_ns(this_cpu);
  view.set_avg_scan_cost_ns(this_cpu,
                            cost_ns + (time_ns - cost_ns) / kSisPropAvgDivisor);
  return result.cpu;
}

namespace {

platform::PolicyInfo SisPropInfo() {
  platform::PolicyInfo info;
  info.family = platform::PolicyFamily::kPlacement;
  info.name = "sis_prop";
  info.description =
      "select_idle_sibling of Linux 6.1 with SIS_PROP on and SIS_UTIL off "
      "(kernel/sched/fair.c select_idle_cpu; the pre-6.0 default, removed "
      "in 6.7): the same steps as sis_util, but the idle-CPU scan depth is "
      "llc_weight * wake_avg_idle / (avg_scan_cost + 1) (at least 4), and "
      "each completed scan's time is subtracted from wake_avg_idle and "
      "folded into avg_scan_cost (EWMA 1/8).";
  info.make_placement = [](const platform::Params&)
      -> absl::StatusOr<std::unique_ptr<platform::PlacementPolicy>> {
    return std::make_unique<SisProp>();
  };
  return info;
}

SCHEDSIM_REGISTER_POLICY(SisPropInfo());

}  // namespace
}  // namespace schedsim::governors
