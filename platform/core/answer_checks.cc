// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/core/answer_checks.h"

namespace schedsim::platform::core {

bool ValidPlacementAnswer(int cpu, int num_cpus,
                          const topology::CpuSet& allowed) {
  return cpu >= 0 && cpu < num_cpus && cpu < allowed.width() &&
         allowed.Test(cpu);
}

IdleAnswer CheckIdleAnswer(const IdleDevice& dev, int index) {
  if (index < 0 || index >= dev.state_count()) return IdleAnswer::kOutOfRange;
  if (dev.state_disabled(index)) return IdleAnswer::kDisabled;
  return IdleAnswer::kOk;
}

HwpWrite CheckHwpWrite(const topology::FrequencySpec& spec,
                       const topology::CpuSet& cpus, int cpu) {
  if (!spec.has_hwp) return HwpWrite::kNoHwp;
  if (cpu < 0 || cpu >= cpus.width() || !cpus.Test(cpu)) {
    return HwpWrite::kCpuNotInDomain;
  }
  return HwpWrite::kOk;
}

}  // namespace schedsim::platform::core
