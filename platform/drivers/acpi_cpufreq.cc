// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/drivers/acpi_cpufreq.h"

#include <cstdlib>

namespace schedsim::platform::drivers {

int64_t ResolveTableKhz(const std::vector<int64_t>& table, int64_t khz,
                        Relation relation, int64_t max_khz, AboveTable above) {
  int64_t best = -1;  // the chosen entry
  int64_t top = -1;   // the highest usable entry
  int64_t bottom = -1;
  for (int64_t f : table) {
    if (f > max_khz) continue;
    if (top < 0 || f > top) top = f;
    if (bottom < 0 || f < bottom) bottom = f;
    switch (relation) {
      case Relation::kLow:
        if (f >= khz && (best < 0 || f < best)) best = f;
        break;
      case Relation::kHigh:
        if (f <= khz && (best < 0 || f > best)) best = f;
        break;
      case Relation::kClosest:
        if (best < 0 || std::llabs(f - khz) < std::llabs(best - khz) ||
            (std::llabs(f - khz) == std::llabs(best - khz) && f > best)) {
          best = f;
        }
        break;
    }
  }
  if (top < 0) return khz;  // no usable entry
  if (khz > top) {
    return above == AboveTable::kBoostAboveTable ? khz : top;
  }
  if (best < 0) best = bottom;  // RELATION_H below the lowest entry
  return best;
}

int64_t AcpiCpufreqDriver::Target(FreqDomain& domain, int64_t khz,
                                  Relation /*relation*/) const {
  domain.SetTargetKhz(ClampToPolicy(domain, khz));
  return domain.requested_khz();
}

}  // namespace schedsim::platform::drivers
