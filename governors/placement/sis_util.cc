// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/placement/sis_util.h"

#include <memory>

#include "platform/registry.h"

namespace schedsim::governors {

int SisUtil::SelectIdleCpu(platform::SchedView& view,
                           const platform::WakeupRequest& request,
                           bool has_idle_core) {
  const int64_t nr = SisUtilScanLimit(view, request.target);
  if (nr == 1) return -1;  // LLC overloaded: no scan, even for a core
  topology::CpuSet& cpus = LlcScanMask(view, request);
  return ScanForIdleCpu(view, request, cpus, has_idle_core, nr, ScanOptions())
      .cpu;
}

namespace {

platform::PolicyInfo SisUtilInfo() {
  platform::PolicyInfo info;
  info.family = platform::PolicyFamily::kPlacement;
  info.name = "sis_util";
  info.description =
      "select_idle_sibling of Linux 6.1 (kernel/sched/fair.c, SIS_UTIL on, "
      "SIS_PROP off): target, cache-affine prev, per-CPU kthread stacking, "
      "recent_used_cpu, prev's SMT sibling, then an LLC scan starting after "
      "the target: a full idle-core scan when has_idle_cores is set, else "
      "at most nr_idle_scan CPUs; no scan when nr_idle_scan is 0.";
  info.make_placement = [](const platform::Params&)
      -> absl::StatusOr<std::unique_ptr<platform::PlacementPolicy>> {
    return std::make_unique<SisUtil>();
  };
  return info;
}

SCHEDSIM_REGISTER_POLICY(SisUtilInfo());

}  // namespace
}  // namespace schedsim::governors
