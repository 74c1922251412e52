// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/drivers/cpufreq_driver.h"

#include <algorithm>

#include "platform/drivers/acpi_cpufreq.h"
#include "platform/drivers/intel_cpufreq.h"

namespace schedsim::platform::drivers {

int64_t ClampToPolicy(const FreqDomain& domain, int64_t khz) {
  return std::clamp(khz, domain.policy_min_khz(), domain.policy_max_khz());
}

const CpufreqDriver& DriverFor(const topology::FrequencySpec& spec) {
  static const AcpiCpufreqDriver* const acpi = new AcpiCpufreqDriver();
  static const IntelCpufreqDriver* const intel = new IntelCpufreqDriver();
  if (spec.has_hwp) return *intel;
  return *acpi;
}

int64_t ApplyPolicyLimits(const CpufreqDriver& driver, FreqDomain& domain,
                          int64_t cur_khz) {
  if (domain.policy_max_khz() < cur_khz) {
    return driver.Target(domain, domain.policy_max_khz(), Relation::kHigh);
  }
  if (domain.policy_min_khz() > cur_khz) {
    return driver.Target(domain, domain.policy_min_khz(), Relation::kLow);
  }
  return cur_khz;
}

}  // namespace schedsim::platform::drivers
