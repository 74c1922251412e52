// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The generic "powersave" cpufreq governor, Linux v6.1
// drivers/cpufreq/cpufreq_powersave.c (cpufreq_gov_powersave_limits): pin every
// domain to its policy minimum. intel_pstate's own "powersave" policy is a
// different thing (its active-mode algorithm, intel_pstate_update_util() and
// intel_pstate_hwp_set() in drivers/cpufreq/intel_pstate.c) and is the separate
// policy "intel_pstate"; this is the generic governor.
// On HWP parts the minimum goes through intel_cpufreq (passive mode):
// MIN = DESIRED = the policy minimum ratio, MAX = the policy maximum ratio
// (intel_cpufreq_update_pstate(); IntelCpufreqDriver::Target in
// platform/drivers/intel_cpufreq.h).
// Simplification: limit changes are noticed at the next utilization update
// (FreqGovernor has no ->limits() hook).

#ifndef SCHEDSIM_GOVERNORS_CPUFREQ_POWERSAVE_H_
#define SCHEDSIM_GOVERNORS_CPUFREQ_POWERSAVE_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "governors/cpufreq/cpufreq_common.h"
#include "platform/cpufreq.h"

namespace schedsim::governors {

class PowersaveFreqGovernor final : public platform::FreqGovernor {
 public:
  absl::string_view name() const override { return "powersave"; }

  // cpufreq_gov_powersave_limits at governor start: asks for the policy
  // minimum (RELATION_L).
  void Start(platform::FreqDomain& domain) override;

  // Does nothing unless the domain's policy limits changed since the last
  // call, when it asks for the new minimum. Does not allocate.
  void UpdateUtil(platform::FreqDomain& domain, int cpu,
                  uint32_t flags) override;

 private:
  std::vector<LimitsWatch> limits_;  // by domain id
};

}  // namespace schedsim::governors

#endif  // SCHEDSIM_GOVERNORS_CPUFREQ_POWERSAVE_H_
