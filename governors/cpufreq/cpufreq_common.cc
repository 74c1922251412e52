// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpufreq/cpufreq_common.h"

#include <algorithm>

namespace schedsim::governors {

int64_t TransitionDelayUs(const topology::FrequencySpec& spec) {
  if (spec.driver == "intel_pstate" || spec.driver == "intel_cpufreq") {
    return spec.has_hwp ? kIntelCpufreqHwpDelayUs : kIntelCpufreqDelayUs;
  }
  if (spec.driver == "amd-pstate") return kAmdPstateDelayUs;
  const int64_t latency_us = spec.transition_latency_ns / 1000;
  if (latency_us > 0) {
    return std::min(latency_us * kCpufreqLatencyMultiplier,
                    kCpufreqMaxTransitionDelayUs);
  }
  return kCpufreqFallbackTransitionDelayUs;
}

PerfLimits PolicyPerfLimits(const platform::FreqDomain& domain) {
  const topology::FrequencySpec& spec = domain.spec();
  const int64_t unit = spec.khz_per_perf_unit;
  const int lowest = spec.hwp.lowest;
  const int highest = std::max(spec.hwp.highest, lowest);
  PerfLimits l;
  l.min_perf = static_cast<int>((domain.policy_min_khz() + unit - 1) / unit);
  l.max_perf = static_cast<int>(domain.policy_max_khz() / unit);
  l.min_perf = std::clamp(l.min_perf, lowest, highest);
  l.max_perf = std::clamp(l.max_perf, l.min_perf, highest);
  return l;
}

int64_t DriverTarget(platform::FreqDomain& domain, int64_t khz,
                     Relation relation) {
  khz = std::clamp(khz, domain.policy_min_khz(), domain.policy_max_khz());
  const topology::FrequencySpec& spec = domain.spec();
  if (!spec.has_hwp) {
    domain.SetTargetKhz(khz);
    return domain.requested_khz();
  }
  const int64_t unit = spec.khz_per_perf_unit;
  int64_t perf = 0;
  switch (relation) {
    case Relation::kLow:
      perf = (khz + unit - 1) / unit;
      break;
    case Relation::kHigh:
      perf = khz / unit;
      break;
    case Relation::kClosest:
      perf = (khz + unit / 2) / unit;
      break;
  }
  const PerfLimits limits = PolicyPerfLimits(domain);
  platform::HwpRequest req;
  req.min_perf = static_cast<int>(
      std::clamp<int64_t>(perf, limits.min_perf, limits.max_perf));
  req.desired_perf = req.min_perf;
  req.max_perf = limits.max_perf;
  req.epp = kPassiveEppBalancePerformance;
  const topology::CpuSet& cpus = domain.cpus();
  for (int cpu = cpus.First(); cpu >= 0; cpu = cpus.Next(cpu)) {
    domain.SetHwpRequest(cpu, req);
  }
  return req.desired_perf * unit;
}

int64_t ApplyPolicyLimits(platform::FreqDomain& domain, int64_t cur_khz) {
  if (domain.policy_max_khz() < cur_khz) {
    return DriverTarget(domain, domain.policy_max_khz(), Relation::kHigh);
  }
  if (domain.policy_min_khz() > cur_khz) {
    return DriverTarget(domain, domain.policy_min_khz(), Relation::kLow);
  }
  return cur_khz;
}

}  // namespace schedsim::governors
