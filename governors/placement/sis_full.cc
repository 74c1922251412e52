// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/placement/sis_full.h"

#include <memory>

#include "platform/registry.h"

namespace schedsim::governors {

int SisFull::SelectIdleCpu(platform::SchedView& view,
                           const platform::WakeupRequest& request,
                           bool has_idle_core) {
  topology::CpuSet& cpus = LlcScanMask(view, request);
  return ScanForIdleCpu(view, request, cpus, has_idle_core, kSisNoDepthLimit,
                        ScanOptions())
      .cpu;
}

namespace {

platform::PolicyInfo SisFullInfo() {
  platform::PolicyInfo info;
  info.family = platform::PolicyFamily::kPlacement;
  info.name = "sis_full";
  info.description =
      "select_idle_sibling of Linux 6.1 (kernel/sched/fair.c) with no scan "
      "limit (NO_SIS_UTIL, NO_SIS_PROP): the same steps as sis_util, then "
      "an LLC scan starting after the target that walks every allowed CPU "
      "until it finds an idle core (has_idle_cores) or an idle CPU.";
  info.make_placement = [](const platform::Params&)
      -> absl::StatusOr<std::unique_ptr<platform::PlacementPolicy>> {
    return std::make_unique<SisFull>();
  };
  return info;
}

SCHEDSIM_REGISTER_POLICY(SisFullInfo());

}  // namespace
}  // namespace schedsim::governors
