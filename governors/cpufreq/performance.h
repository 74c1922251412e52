// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The "performance" cpufreq governor, Linux v6.1
// drivers/cpufreq/cpufreq_performance.c (cpufreq_gov_performance_limits): pin
// every domain to its policy maximum. On HWP parts it writes what
// intel_pstate's own "performance" policy writes
// (drivers/cpufreq/intel_pstate.c intel_pstate_hwp_set(), v6.1;
// intel_pstate_hwp.h): MIN = MAX = the
// policy maximum ratio (HIGHEST unless scaling_max_freq is lower), DESIRED
// 0, EPP 0 -- a deliberate choice over the generic governor under
// intel_cpufreq, which would write MIN = DESIRED = MAX ratio and leave EPP.
// Simplification: limit changes are noticed at the next utilization update
// (FreqGovernor has no ->limits() hook).

#ifndef SCHEDSIM_GOVERNORS_CPUFREQ_PERFORMANCE_H_
#define SCHEDSIM_GOVERNORS_CPUFREQ_PERFORMANCE_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "governors/cpufreq/cpufreq_common.h"
#include "platform/cpufreq.h"

namespace schedsim::governors {

class PerformanceFreqGovernor final : public platform::FreqGovernor {
 public:
  absl::string_view name() const override { return "performance"; }

  // cpufreq_gov_performance_limits at governor start: asks for the policy
  // maximum (the driver's Target, or the HWP request above on every
  // CPU).
  void Start(platform::FreqDomain& domain) override;

  // Does nothing unless the domain's policy limits changed since the last
  // call, when it asks for the new maximum. Does not allocate.
  void UpdateUtil(platform::FreqDomain& domain, int cpu,
                  uint32_t flags) override;

 private:
  void Apply(platform::FreqDomain& domain);

  std::vector<LimitsWatch> limits_;  // by domain id
};

}  // namespace schedsim::governors

#endif  // SCHEDSIM_GOVERNORS_CPUFREQ_PERFORMANCE_H_
