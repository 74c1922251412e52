// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/drivers/intel_pstate.h"

#include <algorithm>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace schedsim::platform::drivers {

absl::StatusOr<int> ParseEpp(absl::string_view text) {
  if (text == "performance") return kEppPerformance;
  if (text == "balance_performance") return kEppBalancePerformance;
  if (text == "balance_power") return kEppBalancePower;
  if (text == "power") return kEppPower;
  int value = 0;
  if (absl::SimpleAtoi(text, &value) && value >= 0 && value <= 255) {
    return value;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "epp must be performance, balance_performance, balance_power, power "
      "or a number 0..255, got '",
      text, "'"));
}

HwpLimits HwpLimitsOf(const topology::FrequencySpec& spec,
                      int64_t policy_min_khz, int64_t policy_max_khz) {
  const int64_t unit = spec.khz_per_perf_unit > 0 ? spec.khz_per_perf_unit : 1;
  const int lowest = spec.hwp.lowest;
  const int highest = std::max(spec.hwp.highest, lowest);
  HwpLimits l;
  l.max_perf =
      std::clamp(static_cast<int>(policy_max_khz / unit), lowest, highest);
  l.min_perf = std::clamp(static_cast<int>((policy_min_khz + unit - 1) / unit),
                          lowest, l.max_perf);
  return l;
}

HwpLimits HwpLimitsOf(const FreqDomain& domain) {
  return HwpLimitsOf(domain.spec(), domain.policy_min_khz(),
                     domain.policy_max_khz());
}

HwpRequest HwpSetRequest(const FreqDomain& domain, int epp,
                         bool performance_policy) {
  const HwpLimits limits = HwpLimitsOf(domain);
  HwpRequest req;
  req.min_perf = limits.min_perf;
  req.max_perf = limits.max_perf;
  req.desired_perf = 0;  // autonomous selection within [MIN, MAX]
  req.epp = epp;
  if (performance_policy) {
    req.min_perf = req.max_perf;
    req.epp = kEppPerformance;
  }
  return req;
}

PstateRange PstateRangeOf(const FreqDomain& domain) {
  const topology::FrequencySpec& spec = domain.spec();
  PstateRange r;
  r.khz_per_pstate = spec.khz_per_perf_unit > 0 ? spec.khz_per_perf_unit : 1;
  const int64_t unit = r.khz_per_pstate;
  r.min_pstate = static_cast<int>(spec.min_khz / unit);
  r.max_pstate = static_cast<int>(spec.base_khz / unit);
  r.turbo_pstate =
      static_cast<int>(std::max(spec.max_turbo_khz, spec.base_khz) / unit);
  // Rounded inwards so that the P-state frequency stays within the limits.
  r.min_perf_ratio =
      static_cast<int>((domain.policy_min_khz() + unit - 1) / unit);
  r.max_perf_ratio = static_cast<int>(domain.policy_max_khz() / unit);
  return r;
}

void SetPstate(FreqDomain& domain, const PstateRange& range, int pstate) {
  domain.SetTargetKhz(pstate * range.khz_per_pstate);
}

}  // namespace schedsim::platform::drivers
