// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpufreq/intel_pstate_hwp.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "platform/registry.h"

namespace schedsim::governors {

using platform::FreqDomain;
using platform::HwpRequest;

namespace {
// No IO wakeup seen yet. The kernel starts from 0 with time since boot,
// which is never within two ticks of 0; simulated time starts at 0.
constexpr int64_t kNeverNs = std::numeric_limits<int64_t>::min();
}  // namespace

int HwpBoostStepUp(int boost_min, int min_limit, int max_limit,
                   int guaranteed) {
  if (max_limit == min_limit || boost_min >= max_limit) return boost_min;
  const int from = boost_min != 0 ? boost_min : min_limit;
  // Half way between the minimum and P1, then P1, then the maximum.
  const int level1 = (guaranteed + min_limit) / 2;
  if (from < level1) return level1;
  if (from < guaranteed) return guaranteed;
  if (from == guaranteed && max_limit != guaranteed) return max_limit;
  return boost_min;
}

void IntelPstateHwpGovernor::Start(FreqDomain& domain) {
  const topology::CpuSet& cpus = domain.cpus();
  if (static_cast<int>(cpus_.size()) < cpus.width()) {
    cpus_.resize(cpus.width());
  }
  if (static_cast<int>(domains_.size()) <= domain.id()) {
    domains_.resize(domain.id() + 1);
  }
  const int64_t now_ns = domain.now_ns();
  for (int cpu = cpus.First(); cpu >= 0; cpu = cpus.Next(cpu)) {
    CpuState& c = cpus_[cpu];
    c = CpuState();
    c.last_update_ns = now_ns;
    c.last_io_update_ns = kNeverNs;
  }
  ApplyPolicy(domain);
}

void IntelPstateHwpGovernor::ApplyPolicy(FreqDomain& domain) {
  DomainState& d = domains_[domain.id()];
  d.policy_min_khz = domain.policy_min_khz();
  d.policy_max_khz = domain.policy_max_khz();
  // intel_pstate_hwp_set (platform/drivers/intel_pstate.h).
  const HwpRequest req = platform::drivers::HwpSetRequest(
      domain, options_.epp, options_.performance_policy);
  const topology::CpuSet& cpus = domain.cpus();
  for (int cpu = cpus.First(); cpu >= 0; cpu = cpus.Next(cpu)) {
    CpuState& c = cpus_[cpu];
    c.cached = req;
    c.boost_min = 0;  // a policy change ends any boost
    domain.SetHwpRequest(cpu, req);
  }
}

void IntelPstateHwpGovernor::BoostUp(FreqDomain& domain, int cpu,
                                     int64_t now_ns) {
  CpuState& c = cpus_[cpu];
  const int next =
      HwpBoostStepUp(c.boost_min, c.cached.min_perf, c.cached.max_perf,
                     domain.spec().hwp.guaranteed);
  if (next == c.boost_min) return;  // no step: the hold time is not renewed
  c.boost_min = next;
  HwpRequest req = c.cached;
  req.min_perf = next;
  domain.SetHwpRequest(cpu, req);
  c.last_update_ns = now_ns;
}

void IntelPstateHwpGovernor::BoostDown(FreqDomain& domain, int cpu,
                                       int64_t now_ns) {
  CpuState& c = cpus_[cpu];
  // Strictly more than the hold time since the previous callback (the CPU
  // was idle that long): back to the unboosted request at once.
  if (c.boost_min != 0 &&
      now_ns - c.last_update_ns > options_.hwp_boost_hold_time_ns) {
    domain.SetHwpRequest(cpu, c.cached);
    c.boost_min = 0;
  }
  c.last_update_ns = now_ns;
}

void IntelPstateHwpGovernor::UpdateUtil(FreqDomain& domain, int cpu,
                                        uint32_t flags) {
  const DomainState& d = domains_[domain.id()];
  if (domain.policy_min_khz() != d.policy_min_khz ||
      domain.policy_max_khz() != d.policy_max_khz) {
    ApplyPolicy(domain);
  }
  if (!options_.hwp_boost) return;

  const int64_t now_ns = domain.now_ns();
  CpuState& c = cpus_[cpu];
  if ((flags & platform::kUtilIowait) != 0) {
    // One IO wakeup proves nothing (the flag is common); two within two
    // ticks make a boost candidate.
    const bool candidate =
        c.last_io_update_ns != kNeverNs &&
        now_ns - c.last_io_update_ns < 2 * domain.tick_period_ns();
    c.last_io_update_ns = now_ns;
    if (candidate) BoostUp(domain, cpu, now_ns);
  } else {
    BoostDown(domain, cpu, now_ns);
  }
}

int IntelPstateHwpGovernor::boost_min_perf(int cpu) const {
  return cpus_[cpu].boost_min;
}

namespace {

platform::PolicyInfo IntelPstateHwpInfo() {
  platform::PolicyInfo info;
  info.family = platform::PolicyFamily::kCpufreq;
  info.name = "intel_pstate_hwp";
  info.hwp = platform::HwpUse::kNeedsHwp;
  info.description =
      "intel_pstate active mode with HWP (Linux v6.1 "
      "drivers/cpufreq/intel_pstate.c, intel_pstate_hwp_set): HWP requests "
      "with MIN/MAX from the policy limits, DESIRED 0 (hardware chooses) "
      "and the EPP; optionally HWP dynamic boost (v4.18, commit "
      "e0efd5be63e8): two IO wakeups within two ticks raise MIN to "
      "(P1+min)/2, then P1, then max, one step per further IO wakeup, and "
      "the unboosted request returns after a 3 ms gap between callbacks.";
  info.params = {
      {"epp", std::string("balance_performance"),
       "energy_performance_preference: performance (0), balance_performance "
       "(128), balance_power (192), power (255) or a number 0..255"},
      {"policy", std::string("powersave"),
       "scaling_governor: 'powersave' (MIN/MAX from the limits) or "
       "'performance' (MIN = MAX, EPP 0)"},
      {"hwp_boost", false,
       "sysfs intel_pstate/hwp_dynamic_boost (kernel default: on for "
       "Skylake(-X) server profiles in v6.1, any server profile in v6.12)"},
      {"hwp_boost_hold_time_ns", int64_t{3'000'000},
       "ns without a callback after which the boost ends "
       "(hwp_boost_hold_time_ns, v4.18)"},
  };
  info.make_freq = [](const platform::Params& p)
      -> absl::StatusOr<std::unique_ptr<platform::FreqGovernor>> {
    IntelPstateHwpGovernor::Options o;
    absl::StatusOr<int> epp = ParseEpp(p.GetString("epp"));
    if (!epp.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("intel_pstate_hwp: ", epp.status().message()));
    }
    o.epp = *epp;
    const std::string& policy = p.GetString("policy");
    if (policy != "powersave" && policy != "performance") {
      return absl::InvalidArgumentError(
          absl::StrCat("intel_pstate_hwp: policy must be 'powersave' or "
                       "'performance', got '",
                       policy, "'"));
    }
    o.performance_policy = policy == "performance";
    o.hwp_boost = p.GetBool("hwp_boost");
    o.hwp_boost_hold_time_ns = p.GetInt("hwp_boost_hold_time_ns");
    if (o.hwp_boost_hold_time_ns < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("intel_pstate_hwp: hwp_boost_hold_time_ns must be "
                       ">= 0, got ",
                       o.hwp_boost_hold_time_ns));
    }
    return std::make_unique<IntelPstateHwpGovernor>(o);
  };
  return info;
}

SCHEDSIM_REGISTER_POLICY(IntelPstateHwpInfo());

}  // namespace

}  // namespace schedsim::governors
