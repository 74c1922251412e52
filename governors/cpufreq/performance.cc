// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpufreq/performance.h"

#include <memory>

#include "platform/drivers/intel_pstate.h"
#include "platform/registry.h"

namespace schedsim::governors {

void PerformanceFreqGovernor::Start(platform::FreqDomain& domain) {
  if (static_cast<int>(limits_.size()) <= domain.id()) {
    limits_.resize(domain.id() + 1);
  }
  limits_[domain.id()].Reset(domain);
  Apply(domain);
}

void PerformanceFreqGovernor::UpdateUtil(platform::FreqDomain& domain, int cpu,
                                         uint32_t flags) {
  if (limits_[domain.id()].Changed(domain)) Apply(domain);
}

void PerformanceFreqGovernor::Apply(platform::FreqDomain& domain) {
  if (!domain.spec().has_hwp) {
    DriverOf(domain).Target(domain, domain.policy_max_khz(), Relation::kHigh);
    return;
  }
  // intel_pstate's performance policy (platform/drivers/intel_pstate.h).
  const platform::HwpRequest req = platform::drivers::HwpSetRequest(
      domain, platform::drivers::kEppPerformance,
      /*performance_policy=*/true);
  const topology::CpuSet& cpus = domain.cpus();
  for (int cpu = cpus.First(); cpu >= 0; cpu = cpus.Next(cpu)) {
    domain.SetHwpRequest(cpu, req);
  }
}

namespace {

platform::PolicyInfo PerformanceInfo() {
  platform::PolicyInfo info;
  info.family = platform::PolicyFamily::kCpufreq;
  info.name = "performance";
  info.description =
      "cpufreq 'performance' (Linux v6.1 drivers/cpufreq/"
      "cpufreq_performance.c): every domain at its policy maximum. On HWP "
      "parts, intel_pstate's performance request: MIN = MAX = the policy "
      "maximum ratio, EPP 0.";
  info.make_freq = [](const platform::Params&)
      -> absl::StatusOr<std::unique_ptr<platform::FreqGovernor>> {
    return std::make_unique<PerformanceFreqGovernor>();
  };
  return info;
}

SCHEDSIM_REGISTER_POLICY(PerformanceInfo());

}  // namespace

}  // namespace schedsim::governors
