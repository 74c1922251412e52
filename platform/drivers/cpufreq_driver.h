// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The cpufreq driver seam: what a generic governor hands its request to,
// modelled on the kernel's struct cpufreq_driver and the cpufreq core's
// entry points into it (drivers/cpufreq/cpufreq.c, Linux v6.6):
//   * cpufreq_driver_fast_switch(policy, target): clamps the target to the
//     policy limits and lets the driver's ->fast_switch program it from
//     scheduler context (schedutil's sugov_fast_switch);
//   * __cpufreq_driver_target(policy, target, relation): the same clamp,
//     then the driver's ->target_index (table drivers, after resolving the
//     target with CPUFREQ_RELATION_L/H/C) or ->target; schedutil's
//     deferred path (sugov_deferred_update, a kthread) ends here too;
//   * cpufreq_driver_adjust_perf(cpu, min_perf, target_perf, capacity):
//     drivers that take a performance level rather than a frequency
//     (intel_cpufreq with HWP) skip the frequency step;
//   * ->verify, run when the limits change (cpufreq_set_policy): the policy
//     limits are clamped to what the driver supports; the limits hook of a
//     governor (->limits, cpufreq_policy_apply_limits) then moves the
//     running frequency into them.
// The governors (governors/cpufreq/) compute a frequency or a performance
// level and call a CpufreqDriver; the driver turns it into what the
// hardware is written (platform/cpufreq.h: FreqDomain::SetTargetKhz, a
// P-state, or FreqDomain::SetHwpRequest), so a governor never knows the
// driver. The backends of FreqDomain (sim/, platform/testing/,
// platform/linux/) take the table resolution and the limit checks from
// here too.
//
// Simplifications: one driver per part, chosen from the part's HWP
// capability (DriverFor); the fast and the deferred paths both act at once
// (the backend charges the transition latency); drivers keep no state, so
// one object serves every domain.

#ifndef SCHEDSIM_PLATFORM_DRIVERS_CPUFREQ_DRIVER_H_
#define SCHEDSIM_PLATFORM_DRIVERS_CPUFREQ_DRIVER_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "platform/cpufreq.h"
#include "topology/topology.h"

namespace schedsim::platform::drivers {

// CPUFREQ_RELATION_*: which neighbour a target between two available
// frequencies resolves to.
enum class Relation {
  kLow,      // RELATION_L: lowest frequency at or above the target
  kHigh,     // RELATION_H: highest frequency at or below the target
  kClosest,  // RELATION_C / RELATION_CE: the closest
};

// The clamp of cpufreq_driver_fast_switch / __cpufreq_driver_target: `khz`
// within [policy_min_khz, policy_max_khz] (std::clamp; the limits are
// min <= max).
int64_t ClampToPolicy(const FreqDomain& domain, int64_t khz);

class CpufreqDriver {
 public:
  virtual ~CpufreqDriver() = default;

  // The kernel driver's name ("acpi-cpufreq", "intel_cpufreq").
  virtual absl::string_view name() const = 0;

  // __cpufreq_driver_target(): asks for `khz` (clamped to the policy
  // limits first) resolved by `relation`. Returns the frequency the policy
  // now runs at (the kernel's policy->cur).
  virtual int64_t Target(FreqDomain& domain, int64_t khz,
                         Relation relation) const = 0;

  // cpufreq_driver_fast_switch(): Target with RELATION_L, as both modelled
  // drivers' ->fast_switch resolve. Returns the new policy->cur.
  int64_t FastSwitch(FreqDomain& domain, int64_t khz) const {
    return Target(domain, khz, Relation::kLow);
  }

  // cpufreq_driver_has_adjust_perf(): the driver takes performance levels.
  virtual bool has_adjust_perf() const { return false; }

  // cpufreq_driver_adjust_perf(), for a target already resolved by
  // ResolveKhz. REQUIRES: has_adjust_perf().
  virtual void AdjustPerf(FreqDomain& /*domain*/, int64_t /*khz*/) const {}

  // What a target resolves to before it is written (schedutil compares
  // these to skip unchanged requests): `khz` clamped to the policy limits,
  // and, on a driver with performance levels, rounded up to a whole level
  // within the policy's levels.
  virtual int64_t ResolveKhz(const FreqDomain& domain, int64_t khz) const {
    return ClampToPolicy(domain, khz);
  }
};

// The driver of a part: intel_cpufreq (passive intel_pstate) with HWP,
// acpi-cpufreq's P-state path otherwise (intel_cpufreq without HWP writes
// a P-state the same way in this model). A static object.
const CpufreqDriver& DriverFor(const topology::FrequencySpec& spec);
inline const CpufreqDriver& DriverOf(const FreqDomain& domain) {
  return DriverFor(domain.spec());
}

// cpufreq_policy_apply_limits(): after the limits changed, moves a policy
// running at `cur_khz` into them (to the maximum with RELATION_H if above
// it, to the minimum with RELATION_L if below). Returns the new
// policy->cur (`cur_khz` when nothing was requested).
int64_t ApplyPolicyLimits(const CpufreqDriver& driver, FreqDomain& domain,
                          int64_t cur_khz);

}  // namespace schedsim::platform::drivers

#endif  // SCHEDSIM_PLATFORM_DRIVERS_CPUFREQ_DRIVER_H_
