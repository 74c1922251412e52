// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpufreq/userspace.h"

#include <memory>

#include "absl/strings/str_cat.h"
#include "platform/registry.h"

namespace schedsim::governors {

void UserspaceFreqGovernor::Start(platform::FreqDomain& domain) {
  if (static_cast<int>(domains_.size()) <= domain.id()) {
    domains_.resize(domain.id() + 1);
  }
  DomainState& d = domains_[domain.id()];
  d.setspeed_khz = setspeed_khz_ > 0 ? setspeed_khz_ : domain.requested_khz();
  d.limits.Reset(domain);
  Apply(domain);
}

void UserspaceFreqGovernor::UpdateUtil(platform::FreqDomain& domain, int cpu,
                                       uint32_t flags) {
  if (domains_[domain.id()].limits.Changed(domain)) Apply(domain);
}

void UserspaceFreqGovernor::Apply(platform::FreqDomain& domain) {
  const int64_t setspeed = domains_[domain.id()].setspeed_khz;
  if (domain.policy_max_khz() < setspeed) {
    DriverOf(domain).Target(domain, domain.policy_max_khz(), Relation::kHigh);
  } else if (domain.policy_min_khz() > setspeed) {
    DriverOf(domain).Target(domain, domain.policy_min_khz(), Relation::kLow);
  } else {
    DriverOf(domain).Target(domain, setspeed, Relation::kLow);
  }
}

namespace {

platform::PolicyInfo UserspaceInfo() {
  platform::PolicyInfo info;
  info.family = platform::PolicyFamily::kCpufreq;
  info.name = "userspace";
  info.description =
      "cpufreq 'userspace' (Linux v6.1 drivers/cpufreq/cpufreq_userspace.c):"
      " every domain at a fixed frequency (scaling_setspeed), clamped to the "
      "policy limits.";
  info.params = {
      {"setspeed_khz", int64_t{-1},
       "kHz to run at (sysfs scaling_setspeed), clamped to the policy limits; "
       "-1 keeps the frequency each domain had at start (the kernel's "
       "default, policy->cur)"},
  };
  info.make_freq = [](const platform::Params& p)
      -> absl::StatusOr<std::unique_ptr<platform::FreqGovernor>> {
    const int64_t khz = p.GetInt("setspeed_khz");
    if (khz == 0 || khz < -1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "userspace: setspeed_khz must be a frequency in kHz (> 0) or -1, "
          "got ",
          khz));
    }
    return std::make_unique<UserspaceFreqGovernor>(khz);
  };
  return info;
}

SCHEDSIM_REGISTER_POLICY(UserspaceInfo());

}  // namespace

}  // namespace schedsim::governors
