// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpufreq/conservative.h"

#include <algorithm>
#include <memory>

#include "absl/strings/str_cat.h"
#include "platform/registry.h"

namespace schedsim::governors {

absl::Status ConservativeGovernor::Validate(const Options& o) {
  if (o.sampling_rate_us == 0 || o.sampling_rate_us < -1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "conservative: sampling_rate_us must be > 0, or -1 for the kernel "
        "default, got ",
        o.sampling_rate_us));
  }
  if (o.up_threshold_pct > 100 || o.up_threshold_pct <= o.down_threshold_pct) {
    return absl::InvalidArgumentError(
        absl::StrCat("conservative: up_threshold_pct must be <= 100 and above "
                     "down_threshold_pct (",
                     o.down_threshold_pct, "), got ", o.up_threshold_pct));
  }
  if (o.down_threshold_pct < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("conservative: down_threshold_pct must be >= 1, got ",
                     o.down_threshold_pct));
  }
  if (o.freq_step_pct < 0 || o.freq_step_pct > 100) {
    return absl::InvalidArgumentError(
        absl::StrCat("conservative: freq_step_pct must be in [0, 100], got ",
                     o.freq_step_pct));
  }
  if (o.sampling_down_factor < 1 ||
      o.sampling_down_factor > kConservativeMaxSamplingDownFactor) {
    return absl::InvalidArgumentError(absl::StrCat(
        "conservative: sampling_down_factor must be in [1, ",
        kConservativeMaxSamplingDownFactor, "], got ", o.sampling_down_factor));
  }
  return absl::OkStatus();
}

void ConservativeGovernor::Start(platform::FreqDomain& domain) {
  if (static_cast<int>(domains_.size()) <= domain.id()) {
    domains_.resize(domain.id() + 1);
  }
  DomainState& d = domains_[domain.id()];
  const int64_t rate_us = options_.sampling_rate_us > 0
                              ? options_.sampling_rate_us
                              : DbsDefaultSamplingRateUs(domain);
  d.sampling_rate_ns = rate_us * 1000;
  d.cur_khz = domain.requested_khz();
  d.requested_khz = d.cur_khz;
  d.down_skip = 0;
  d.load_pct = 0;
  d.limits.Reset(domain);
  sampler_.Start(domain, d.sampling_rate_ns);
}

void ConservativeGovernor::UpdateUtil(platform::FreqDomain& domain, int cpu,
                                      uint32_t flags) {
  DomainState& d = domains_[domain.id()];
  if (d.limits.Changed(domain)) {
    // cpufreq_dbs_governor_limits: apply the limits, sample at once.
    d.cur_khz = ApplyPolicyLimits(DriverOf(domain), domain, d.cur_khz);
    sampler_.set_sample_delay_ns(domain, 0);
  }
  if (!sampler_.ShouldSample(domain)) return;
  Sample(domain, d);
  sampler_.set_sample_delay_ns(domain, d.sampling_rate_ns);
}

void ConservativeGovernor::Sample(platform::FreqDomain& domain,
                                  DomainState& d) {
  const DbsLoad load = sampler_.Update(domain, d.sampling_rate_ns);
  d.load_pct = load.load_pct;
  if (options_.freq_step_pct == 0) return;
  const int64_t min_khz = domain.policy_min_khz();
  const int64_t max_khz = domain.policy_max_khz();

  // Out of range: the limits changed meanwhile; restart from policy->cur.
  int64_t requested = d.requested_khz;
  if (requested > max_khz || requested < min_khz) {
    requested = d.cur_khz;
    d.requested_khz = requested;
  }
  int64_t step_khz = options_.freq_step_pct * max_khz / 100;
  if (step_khz == 0) step_khz = kConservativeDefFreqStepPct;

  // One step down per whole period the domain slept through.
  if (load.idle_periods != DbsLoad::kNoIdlePeriods) {
    // requested > min + periods x step, without overflowing the product.
    const int64_t room_khz = requested - min_khz;
    if (room_khz > 0 && load.idle_periods <= (room_khz - 1) / step_khz) {
      requested -= load.idle_periods * step_khz;
    } else {
      requested = min_khz;
    }
  }

  if (load.load_pct > options_.up_threshold_pct) {
    d.down_skip = 0;
    if (requested == max_khz) return;
    requested = std::min(requested + step_khz, max_khz);
    d.cur_khz = DriverOf(domain).Target(domain, requested, Relation::kHigh);
    d.requested_khz = requested;
    return;
  }
  // Only every sampling_down_factor-th sample may lower the frequency.
  if (++d.down_skip < options_.sampling_down_factor) return;
  d.down_skip = 0;
  if (load.load_pct < options_.down_threshold_pct) {
    if (requested == min_khz) return;
    requested = requested > step_khz ? requested - step_khz : min_khz;
    d.cur_khz = DriverOf(domain).Target(domain, requested, Relation::kLow);
    d.requested_khz = requested;
  }
}

namespace {

platform::PolicyInfo ConservativeInfo() {
  platform::PolicyInfo info;
  info.family = platform::PolicyFamily::kCpufreq;
  info.name = "conservative";
  info.description =
      "cpufreq 'conservative' (Linux v6.1 drivers/cpufreq/"
      "cpufreq_conservative.c, cpufreq_governor.c): every sampling period, "
      "load (the busiest CPU's C0 percentage) above up_threshold raises the "
      "frequency by freq_step percent of the policy maximum, below "
      "down_threshold lowers it by one step.";
  info.params = {
      {"sampling_rate_us", int64_t{-1},
       "us between samples (sysfs sampling_rate); -1: the kernel default "
       "max(2 ticks, transition delay) (cpufreq_dbs_governor_init, v6.1)"},
      {"up_threshold_pct", int64_t{kConservativeDefUpThresholdPct},
       "load in percent above which the frequency steps up (sysfs "
       "up_threshold, DEF_FREQUENCY_UP_THRESHOLD = 80)"},
      {"down_threshold_pct", int64_t{kConservativeDefDownThresholdPct},
       "load in percent below which it steps down (sysfs down_threshold, "
       "DEF_FREQUENCY_DOWN_THRESHOLD = 20; >= 1 and < up_threshold_pct)"},
      {"freq_step_pct", int64_t{kConservativeDefFreqStepPct},
       "step in percent of the policy maximum (sysfs freq_step, "
       "DEF_FREQUENCY_STEP = 5; 0 never changes the frequency)"},
      {"sampling_down_factor", int64_t{kConservativeDefSamplingDownFactor},
       "steps down are considered every this many samples (sysfs "
       "sampling_down_factor, 1..10, default 1)"},
  };
  info.make_freq = [](const platform::Params& p)
      -> absl::StatusOr<std::unique_ptr<platform::FreqGovernor>> {
    ConservativeGovernor::Options o;
    o.sampling_rate_us = p.GetInt("sampling_rate_us");
    o.up_threshold_pct = p.GetInt("up_threshold_pct");
    o.down_threshold_pct = p.GetInt("down_threshold_pct");
    o.freq_step_pct = p.GetInt("freq_step_pct");
    o.sampling_down_factor = p.GetInt("sampling_down_factor");
    absl::Status s = ConservativeGovernor::Validate(o);
    if (!s.ok()) return s;
    return std::make_unique<ConservativeGovernor>(o);
  };
  return info;
}

SCHEDSIM_REGISTER_POLICY(ConservativeInfo());

}  // namespace

}  // namespace schedsim::governors
