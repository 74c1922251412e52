// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// intel_cpufreq: intel_pstate in passive mode, a cpufreq driver under the
// generic governors (Linux v6.6 drivers/cpufreq/intel_pstate.c). With HWP,
// the kernel's ->target and ->fast_switch (intel_cpufreq_target,
// intel_cpufreq_fast_switch -> intel_cpufreq_update_pstate) turn the
// target frequency into a ratio (rounded by the relation), clamp it to the
// policy's min/max ratios and write, through intel_cpufreq_hwp_update(),
// an HWP request with MIN = DESIRED = that ratio and MAX = the policy
// maximum ratio (strict_target off), leaving the EPP as it is (usually the
// boot value balance_performance). ->adjust_perf
// (intel_cpufreq_adjust_perf, used by schedutil on frequency-invariant
// kernels) takes performance levels instead: DESIRED = the target level,
// MIN = the policy minimum ratio (raised by DEADLINE's bandwidth), MAX =
// the policy maximum ratio. Without HWP the driver writes the ratio into
// PERF_CTL (intel_cpufreq_perf_ctl_update), which this model treats as a
// P-state target like acpi-cpufreq's (DriverFor).
//
// Simplifications: the EPP written is balance_performance (the kernel
// keeps whatever is in the register); no DEADLINE minimum; adjust_perf
// receives a frequency already rounded up to a ratio (ResolveKhz) rather
// than utilization and capacity, which is the same level for schedutil's
// 1.25 x util / capacity x max ratio.

#ifndef SCHEDSIM_PLATFORM_DRIVERS_INTEL_CPUFREQ_H_
#define SCHEDSIM_PLATFORM_DRIVERS_INTEL_CPUFREQ_H_

#include <cstdint>

#include "platform/drivers/cpufreq_driver.h"
#include "platform/drivers/intel_pstate.h"

namespace schedsim::platform::drivers {

// The EPP of passive-mode requests (HWP_EPP_BALANCE_PERFORMANCE).
inline constexpr int kPassiveEpp = kEppBalancePerformance;

// The ratio `khz` resolves to by `relation` (RELATION_L rounds up,
// RELATION_H down, RELATION_C to nearest). REQUIRES: spec.khz_per_perf_unit
// > 0.
int64_t KhzToRatio(const topology::FrequencySpec& spec, int64_t khz,
                   Relation relation);

class IntelCpufreqDriver final : public CpufreqDriver {
 public:
  absl::string_view name() const override { return "intel_cpufreq"; }

  // intel_cpufreq_update_pstate with HWP: on every CPU of the domain MIN =
  // DESIRED = the target ratio within the policy ratios, MAX = the policy
  // maximum ratio. Returns the ratio x khz_per_perf_unit.
  int64_t Target(FreqDomain& domain, int64_t khz,
                 Relation relation) const override;

  bool has_adjust_perf() const override { return true; }
  // intel_cpufreq_adjust_perf: on every CPU DESIRED = `khz`'s ratio (`khz`
  // from ResolveKhz), MIN/MAX = the policy ratios.
  void AdjustPerf(FreqDomain& domain, int64_t khz) const override;
  // The clamped target rounded up to a ratio within the policy ratios.
  int64_t ResolveKhz(const FreqDomain& domain, int64_t khz) const override;
};

}  // namespace schedsim::platform::drivers

#endif  // SCHEDSIM_PLATFORM_DRIVERS_INTEL_CPUFREQ_H_
