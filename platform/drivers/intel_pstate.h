// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// What intel_pstate (Linux v6.6 drivers/cpufreq/intel_pstate.c) computes
// for an HWP request, in both of its modes; the active mode's policy
// (governors/cpufreq/intel_pstate_hwp.cc) and the passive mode's driver
// (intel_cpufreq.h) share it.
//
// In the kernel, intel_pstate_update_perf_limits() turns the policy's
// scaling_min_freq / scaling_max_freq into performance ratios
// (min_perf_ratio rounded up, max_perf_ratio rounded down, through
// intel_pstate_freq_to_hwp_rel), bounds the maximum by the HWP capability
// range and then makes sure the minimum does not exceed the maximum.
// intel_pstate_hwp_set() (active mode) writes MIN and MAX from those
// ratios into MSR_HWP_REQUEST with DESIRED 0 (the hardware chooses) and the
// EPP of energy_performance_preference; the "performance" policy sets
// MIN = MAX and EPP 0. The EPP presets are the epp_values[] table behind
// energy_performance_available_preferences: performance 0x00,
// balance_performance 0x80, balance_power 0xC0, power 0xFF.
//
// Without HWP, active mode (intel_pstate_get_cpu_pstates,
// intel_pstate_set_pstate) reads the P-state range from the MSRs (the
// lowest, the guaranteed and the turbo ratio), and writes a chosen P-state
// into IA32_PERF_CTL; the model writes it as a target of P-state x
// khz_per_perf_unit (FreqDomain::SetTargetKhz).
//
// Simplifications: no global min/max_perf_pct, no turbo-disable or
// per-CPU capability differences (hybrid parts); the HWP capabilities come
// from topology::FrequencySpec::hwp.

#ifndef SCHEDSIM_PLATFORM_DRIVERS_INTEL_PSTATE_H_
#define SCHEDSIM_PLATFORM_DRIVERS_INTEL_PSTATE_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "platform/cpufreq.h"
#include "topology/topology.h"

namespace schedsim::platform::drivers {

// EPP presets of energy_performance_preference (epp_values[]).
inline constexpr int kEppPerformance = 0x00;
inline constexpr int kEppBalancePerformance = 0x80;
inline constexpr int kEppBalancePower = 0xC0;
inline constexpr int kEppPower = 0xFF;

// Parses an EPP: a preset name ("performance", "balance_performance",
// "balance_power", "power") or a number 0..255, as the sysfs file accepts.
absl::StatusOr<int> ParseEpp(absl::string_view text);

// The HWP MIN and MAX ratios (performance units) that the policy limits
// allow. One clamping rule, the kernel's: the maximum (rounded down) is
// bounded by [hwp.lowest, hwp.highest], then the minimum (rounded up) by
// [hwp.lowest, maximum]. When scaling_min_freq rounds above
// scaling_max_freq, MIN is lowered to MAX.
struct HwpLimits {
  int min_perf = 0;
  int max_perf = 0;
};
HwpLimits HwpLimitsOf(const topology::FrequencySpec& spec,
                      int64_t policy_min_khz, int64_t policy_max_khz);
HwpLimits HwpLimitsOf(const FreqDomain& domain);

// intel_pstate_hwp_set(): the request written on every CPU of `domain`:
// MIN/MAX from the limits, DESIRED 0, `epp`; with `performance_policy`,
// MIN = MAX and EPP 0.
HwpRequest HwpSetRequest(const FreqDomain& domain, int epp,
                         bool performance_policy);

// The P-state (ratio) range of a domain without HWP, in
// spec().khz_per_perf_unit steps.
struct PstateRange {
  int min_pstate = 0;      // lowest (LFM): spec().min_khz
  int max_pstate = 0;      // guaranteed / base (P1): spec().base_khz; also
                           // the kernel's max_pstate_physical
  int turbo_pstate = 0;    // highest turbo: spec().max_turbo_khz
  int min_perf_ratio = 0;  // policy_min_khz, rounded up
  int max_perf_ratio = 0;  // policy_max_khz, rounded down
  int64_t khz_per_pstate = 0;
};

// Reads the range and the current policy limits of `domain`.
PstateRange PstateRangeOf(const FreqDomain& domain);

// intel_pstate_set_pstate(): writes `pstate` (SetTargetKhz of pstate x
// range.khz_per_pstate).
void SetPstate(FreqDomain& domain, const PstateRange& range, int pstate);

}  // namespace schedsim::platform::drivers

#endif  // SCHEDSIM_PLATFORM_DRIVERS_INTEL_PSTATE_H_
