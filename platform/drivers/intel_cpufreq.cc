// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/drivers/intel_cpufreq.h"

#include <algorithm>

namespace schedsim::platform::drivers {

namespace {

void WriteAll(FreqDomain& domain, const HwpRequest& req) {
  const topology::CpuSet& cpus = domain.cpus();
  for (int cpu = cpus.First(); cpu >= 0; cpu = cpus.Next(cpu)) {
    domain.SetHwpRequest(cpu, req);
  }
}

}  // namespace

int64_t KhzToRatio(const topology::FrequencySpec& spec, int64_t khz,
                   Relation relation) {
  const int64_t unit = spec.khz_per_perf_unit;
  switch (relation) {
    case Relation::kLow:
      return (khz + unit - 1) / unit;
    case Relation::kHigh:
      return khz / unit;
    case Relation::kClosest:
      return (khz + unit / 2) / unit;
  }
  return khz / unit;
}

int64_t IntelCpufreqDriver::Target(FreqDomain& domain, int64_t khz,
                                   Relation relation) const {
  khz = ClampToPolicy(domain, khz);
  const topology::FrequencySpec& spec = domain.spec();
  const HwpLimits limits = HwpLimitsOf(domain);
  HwpRequest req;
  req.min_perf = static_cast<int>(std::clamp<int64_t>(
      KhzToRatio(spec, khz, relation), limits.min_perf, limits.max_perf));
  req.desired_perf = req.min_perf;
  req.max_perf = limits.max_perf;
  req.epp = kPassiveEpp;
  WriteAll(domain, req);
  return req.desired_perf * spec.khz_per_perf_unit;
}

void IntelCpufreqDriver::AdjustPerf(FreqDomain& domain, int64_t khz) const {
  const HwpLimits limits = HwpLimitsOf(domain);
  HwpRequest req;
  req.min_perf = limits.min_perf;
  req.max_perf = limits.max_perf;
  req.desired_perf = static_cast<int>(khz / domain.spec().khz_per_perf_unit);
  req.epp = kPassiveEpp;
  WriteAll(domain, req);
}

int64_t IntelCpufreqDriver::ResolveKhz(const FreqDomain& domain,
                                       int64_t khz) const {
  khz = ClampToPolicy(domain, khz);
  const HwpLimits limits = HwpLimitsOf(domain);
  const int64_t ratio =
      std::clamp<int64_t>(KhzToRatio(domain.spec(), khz, Relation::kLow),
                          limits.min_perf, limits.max_perf);
  return ratio * domain.spec().khz_per_perf_unit;
}

}  // namespace schedsim::platform::drivers
