// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/placement.h"

namespace schedsim::platform {

void PlacementPolicy::OnCpuIdle(SchedView& view, int cpu) {
  if (!view.smt_active() || view.has_idle_cores(cpu)) return;
  const topology::CpuSet& core = view.topology().smt_siblings(cpu);
  for (int sibling = core.First(); sibling >= 0; sibling = core.Next(sibling)) {
    if (sibling == cpu) continue;
    if (!view.available_idle(sibling)) return;
  }
  view.set_idle_cores(cpu, true);
}

}  // namespace schedsim::platform
