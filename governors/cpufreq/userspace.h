// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The "userspace" cpufreq governor, Linux v6.1
// drivers/cpufreq/cpufreq_userspace.c: every domain at the frequency the
// user wrote to scaling_setspeed (here the parameter setspeed_khz), kept
// within the policy limits (RELATION_L inside them, the nearer limit
// outside). Without a setspeed it keeps the frequency the domain had when
// the governor started, as the kernel does (*setspeed = policy->cur).
// Simplifications: one setspeed for every domain (sysfs has one per
// policy); limit changes are noticed at the next utilization update.

#ifndef SCHEDSIM_GOVERNORS_CPUFREQ_USERSPACE_H_
#define SCHEDSIM_GOVERNORS_CPUFREQ_USERSPACE_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "governors/cpufreq/cpufreq_common.h"
#include "platform/cpufreq.h"

namespace schedsim::governors {

class UserspaceFreqGovernor final : public platform::FreqGovernor {
 public:
  // `setspeed_khz` <= 0: keep each domain's frequency at start.
  explicit UserspaceFreqGovernor(int64_t setspeed_khz)
      : setspeed_khz_(setspeed_khz) {}

  absl::string_view name() const override { return "userspace"; }

  // cpufreq_userspace_policy_start + _limits: records the setspeed (the
  // parameter, or the domain's requested_khz()) and asks for it within the
  // policy limits.
  void Start(platform::FreqDomain& domain) override;

  // Re-applies the setspeed when the policy limits changed since the last
  // call; otherwise does nothing. Does not allocate.
  void UpdateUtil(platform::FreqDomain& domain, int cpu,
                  uint32_t flags) override;

  // The setspeed recorded for `domain_id` (kHz).
  int64_t setspeed_khz(int domain_id) const {
    return domains_[domain_id].setspeed_khz;
  }

 private:
  struct DomainState {
    int64_t setspeed_khz = 0;
    LimitsWatch limits;
  };
  void Apply(platform::FreqDomain& domain);

  int64_t setspeed_khz_;
  std::vector<DomainState> domains_;  // by domain id
};

}  // namespace schedsim::governors

#endif  // SCHEDSIM_GOVERNORS_CPUFREQ_USERSPACE_H_
