// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// What the cpufreq core and the cpufreq driver do for every generic
// governor (performance, powersave, userspace, ondemand, conservative,
// schedutil), modelled on Linux v6.1 drivers/cpufreq/cpufreq.c
// (cpufreq_policy_transition_delay_us, __cpufreq_driver_target,
// cpufreq_policy_apply_limits) and the passive mode of intel_pstate
// (intel_cpufreq, drivers/cpufreq/intel_pstate.c: intel_cpufreq_update_pstate)
// and drivers/cpufreq/cpufreq_governor.c. The governors call these helpers;
// none of them allocates.

#ifndef SCHEDSIM_GOVERNORS_CPUFREQ_CPUFREQ_COMMON_H_
#define SCHEDSIM_GOVERNORS_CPUFREQ_CPUFREQ_COMMON_H_

#include <cstdint>

#include "platform/cpufreq.h"
#include "topology/topology.h"

namespace schedsim::governors {

// --- Default transition delay ------------------------------------------------
// LATENCY_MULTIPLIER (include/linux/cpufreq.h): transition latency in us
// times 1000 gives the default delay in us (cpufreq_policy_transition_delay_us,
// drivers/cpufreq/cpufreq.c, v6.1).
inline constexpr int64_t kCpufreqLatencyMultiplier = 1000;
// The 10 ms cap of cpufreq_policy_transition_delay_us, v6.1.
inline constexpr int64_t kCpufreqMaxTransitionDelayUs = 10000;
// No latency known: LATENCY_MULTIPLIER us = 1 ms, v6.1.
inline constexpr int64_t kCpufreqFallbackTransitionDelayUs = 1000;
// intel_cpufreq's transition_delay_us: 5000 with HWP, 500 without
// (drivers/cpufreq/intel_pstate.c intel_cpufreq_cpu_init(), v6.1).
inline constexpr int64_t kIntelCpufreqHwpDelayUs = 5000;
inline constexpr int64_t kIntelCpufreqDelayUs = 500;
// AMD_PSTATE_TRANSITION_DELAY, drivers/cpufreq/amd-pstate.c, v6.1.
inline constexpr int64_t kAmdPstateDelayUs = 1000;

// EPP "balance_performance" (0x80, arch/x86/include/asm/msr-index.h
// HWP_EPP_BALANCE_PERFORMANCE): what passive-mode HWP requests carry, since
// intel_cpufreq does not change EPP and 0x80 is the usual boot value.
inline constexpr int kPassiveEppBalancePerformance = 0x80;
// EPP "performance" (0x00, HWP_EPP_PERFORMANCE).
inline constexpr int kPerformanceEpp = 0;

// cpufreq_policy_transition_delay_us() of Linux v6.1 for a part: the
// driver's own transition_delay_us when the driver is known
// ("intel_pstate"/"intel_cpufreq": 5000 us with HWP, 500 us without;
// "amd-pstate": 1000 us), else min(transition latency in us x 1000,
// 10000) us, else 1000 us. (v6.12 uses 1.5 x the latency instead; set the
// governor's parameter to model it.)
int64_t TransitionDelayUs(const topology::FrequencySpec& spec);

// CPUFREQ_RELATION_*: which neighbour a target between two available
// frequencies resolves to.
enum class Relation {
  kLow,      // RELATION_L: lowest frequency at or above the target
  kHigh,     // RELATION_H: highest frequency at or below the target
  kClosest,  // RELATION_C / RELATION_CE: the closest
};

// A domain's policy limits (scaling_min_freq, scaling_max_freq) in HWP
// performance units: the minimum rounded up, the maximum rounded down,
// both within [hwp.lowest, hwp.highest] and max >= min.
// REQUIRES: domain.spec().khz_per_perf_unit > 0.
struct PerfLimits {
  int min_perf = 0;
  int max_perf = 0;
};
PerfLimits PolicyPerfLimits(const platform::FreqDomain& domain);

// __cpufreq_driver_target(policy, khz, relation) as the driver carries it
// out, clamped to the policy limits first (as __resolve_freq does):
//   * no HWP (acpi-cpufreq, intel_cpufreq without HWP): SetTargetKhz; the
//     domain resolves to an available P-state (it always resolves with
//     RELATION_L: see docs/policies/cpufreq.md, interface gaps);
//   * HWP (intel_cpufreq, passive mode): on every CPU of the domain an HWP
//     request MIN = DESIRED = the target ratio (rounded by `relation`),
//     MAX = the policy maximum ratio (strict_target off), EPP
//     balance_performance (intel_cpufreq_update_pstate(), v6.1).
// Returns the frequency the policy now runs at (the kernel's policy->cur):
// domain.requested_khz() without HWP, the ratio x khz_per_perf_unit with.
int64_t DriverTarget(platform::FreqDomain& domain, int64_t khz,
                     Relation relation);

// cpufreq_policy_apply_limits(): after the limits changed, moves a policy
// running at `cur_khz` into them (to the maximum with RELATION_H if above
// it, to the minimum with RELATION_L if below). Returns the new
// policy->cur (`cur_khz` when nothing was requested).
int64_t ApplyPolicyLimits(platform::FreqDomain& domain, int64_t cur_khz);

// Remembers a domain's policy limits to notice a change. The kernel calls
// a governor's ->limits() when scaling_{min,max}_freq change; FreqGovernor
// has no such hook, so governors poll this from UpdateUtil.
class LimitsWatch {
 public:
  void Reset(const platform::FreqDomain& domain) {
    min_khz_ = domain.policy_min_khz();
    max_khz_ = domain.policy_max_khz();
  }
  // True (once) when the limits differ from those last seen.
  bool Changed(const platform::FreqDomain& domain) {
    if (domain.policy_min_khz() == min_khz_ &&
        domain.policy_max_khz() == max_khz_) {
      return false;
    }
    Reset(domain);
    return true;
  }

 private:
  int64_t min_khz_ = 0;
  int64_t max_khz_ = 0;
};

}  // namespace schedsim::governors

#endif  // SCHEDSIM_GOVERNORS_CPUFREQ_CPUFREQ_COMMON_H_
