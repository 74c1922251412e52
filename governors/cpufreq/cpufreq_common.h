// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// What the cpufreq core does for every generic governor (performance,
// powersave, userspace, ondemand, conservative, schedutil) on the governor
// side of the driver seam, modelled on Linux v6.1 drivers/cpufreq/cpufreq.c
// (cpufreq_policy_transition_delay_us) and the limits bookkeeping of
// drivers/cpufreq/cpufreq_governor.c. The driver logic
// (__cpufreq_driver_target, fast_switch, adjust_perf,
// cpufreq_policy_apply_limits, the HWP requests of intel_cpufreq) is in
// platform/drivers/. None of these allocates.

#ifndef SCHEDSIM_GOVERNORS_CPUFREQ_CPUFREQ_COMMON_H_
#define SCHEDSIM_GOVERNORS_CPUFREQ_CPUFREQ_COMMON_H_

#include <cstdint>

#include "platform/cpufreq.h"
#include "platform/drivers/cpufreq_driver.h"
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

// cpufreq_policy_transition_delay_us() of Linux v6.1 for a part: the
// driver's own transition_delay_us when the driver is known
// ("intel_pstate"/"intel_cpufreq": 5000 us with HWP, 500 us without;
// "amd-pstate": 1000 us), else min(transition latency in us x 1000,
// 10000) us, else 1000 us. (v6.12 uses 1.5 x the latency instead; set the
// governor's parameter to model it.)
int64_t TransitionDelayUs(const topology::FrequencySpec& spec);

// The driver seam (platform/drivers/cpufreq_driver.h): a governor computes
// a target and hands it to DriverOf(domain).
using platform::drivers::ApplyPolicyLimits;
using platform::drivers::CpufreqDriver;
using platform::drivers::DriverOf;
using platform::drivers::Relation;

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
