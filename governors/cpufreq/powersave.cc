// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpufreq/powersave.h"

#include <memory>

#include "platform/registry.h"

namespace schedsim::governors {

void PowersaveFreqGovernor::Start(platform::FreqDomain& domain) {
  if (static_cast<int>(limits_.size()) <= domain.id()) {
    limits_.resize(domain.id() + 1);
  }
  limits_[domain.id()].Reset(domain);
  DriverOf(domain).Target(domain, domain.policy_min_khz(), Relation::kLow);
}

void PowersaveFreqGovernor::UpdateUtil(platform::FreqDomain& domain, int cpu,
                                       uint32_t flags) {
  if (limits_[domain.id()].Changed(domain)) {
    DriverOf(domain).Target(domain, domain.policy_min_khz(), Relation::kLow);
  }
}

namespace {

platform::PolicyInfo PowersaveInfo() {
  platform::PolicyInfo info;
  info.family = platform::PolicyFamily::kCpufreq;
  info.name = "powersave";
  info.description =
      "generic cpufreq 'powersave' (Linux v6.1 drivers/cpufreq/"
      "cpufreq_powersave.c): every domain at its policy minimum. On HWP "
      "parts through intel_cpufreq: MIN = DESIRED = the minimum ratio. "
      "(intel_pstate's own 'powersave' is the policy 'intel_pstate'.)";
  info.make_freq = [](const platform::Params&)
      -> absl::StatusOr<std::unique_ptr<platform::FreqGovernor>> {
    return std::make_unique<PowersaveFreqGovernor>();
  };
  return info;
}

SCHEDSIM_REGISTER_POLICY(PowersaveInfo());

}  // namespace

}  // namespace schedsim::governors
