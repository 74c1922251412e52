// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpufreq/ondemand.h"

#include <algorithm>
#include <memory>

#include "absl/strings/str_cat.h"
#include "platform/registry.h"

namespace schedsim::governors {

absl::Status OndemandGovernor::Validate(const Options& o) {
  if (o.sampling_rate_us == 0 || o.sampling_rate_us < -1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ondemand: sampling_rate_us must be > 0, or -1 for the kernel "
        "default, got ",
        o.sampling_rate_us));
  }
  if (o.up_threshold_pct < kOndemandMinUpThresholdPct ||
      o.up_threshold_pct > kOndemandMaxUpThresholdPct) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ondemand: up_threshold_pct must be in [", kOndemandMinUpThresholdPct,
        ", ", kOndemandMaxUpThresholdPct, "], got ", o.up_threshold_pct));
  }
  if (o.sampling_down_factor < 1 ||
      o.sampling_down_factor > kOndemandMaxSamplingDownFactor) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ondemand: sampling_down_factor must be in [1, ",
        kOndemandMaxSamplingDownFactor, "], got ", o.sampling_down_factor));
  }
  if (o.powersave_bias_permille < 0 ||
      o.powersave_bias_permille > kOndemandMaxPowersaveBiasPermille) {
    return absl::InvalidArgumentError(
        absl::StrCat("ondemand: powersave_bias_permille must be in [0, ",
                     kOndemandMaxPowersaveBiasPermille, "], got ",
                     o.powersave_bias_permille));
  }
  return absl::OkStatus();
}

void OndemandGovernor::Start(platform::FreqDomain& domain) {
  if (static_cast<int>(domains_.size()) <= domain.id()) {
    domains_.resize(domain.id() + 1);
  }
  DomainState& d = domains_[domain.id()];
  const int64_t rate_us = options_.sampling_rate_us > 0
                              ? options_.sampling_rate_us
                              : DbsDefaultSamplingRateUs(domain);
  d.sampling_rate_ns = rate_us * 1000;
  d.rate_mult = 1;
  d.cur_khz = domain.requested_khz();
  d.load_pct = 0;
  d.limits.Reset(domain);
  sampler_.Start(domain, d.sampling_rate_ns);
}

void OndemandGovernor::UpdateUtil(platform::FreqDomain& domain, int cpu,
                                  uint32_t flags) {
  DomainState& d = domains_[domain.id()];
  if (d.limits.Changed(domain)) {
    // cpufreq_dbs_governor_limits: apply the limits, sample at once.
    d.cur_khz = ApplyPolicyLimits(DriverOf(domain), domain, d.cur_khz);
    sampler_.set_sample_delay_ns(domain, 0);
  }
  if (!sampler_.ShouldSample(domain)) return;
  sampler_.set_sample_delay_ns(domain, Sample(domain, d));
}

int64_t OndemandGovernor::Sample(platform::FreqDomain& domain, DomainState& d) {
  const DbsLoad load =
      sampler_.Update(domain, d.sampling_rate_ns * d.rate_mult);
  d.load_pct = load.load_pct;
  const int64_t max_khz = domain.policy_max_khz();
  if (load.load_pct > options_.up_threshold_pct) {
    // dbs_freq_increase(policy, policy->max), with the longer period.
    if (d.cur_khz < max_khz) d.rate_mult = options_.sampling_down_factor;
    if (options_.powersave_bias_permille > 0) {
      Target(domain, d, Bias(max_khz), Relation::kLow);
    } else if (d.cur_khz != max_khz) {
      Target(domain, d, max_khz, Relation::kHigh);
    }
  } else {
    // Proportional to load over the cpuinfo range.
    const topology::FrequencySpec& spec = domain.spec();
    int64_t next_khz = spec.min_khz + load.load_pct *
                                          (spec.max_turbo_khz - spec.min_khz) /
                                          100;
    d.rate_mult = 1;
    if (options_.powersave_bias_permille > 0) next_khz = Bias(next_khz);
    Target(domain, d, next_khz, Relation::kClosest);
  }
  return d.sampling_rate_ns * d.rate_mult;
}

void OndemandGovernor::Target(platform::FreqDomain& domain, DomainState& d,
                              int64_t khz, Relation relation) {
  khz = std::clamp(khz, domain.policy_min_khz(), domain.policy_max_khz());
  if (khz == d.cur_khz) return;
  d.cur_khz = DriverOf(domain).Target(domain, khz, relation);
}

int64_t OndemandGovernor::Bias(int64_t khz) const {
  return khz - khz * options_.powersave_bias_permille / 1000;
}

namespace {

platform::PolicyInfo OndemandInfo() {
  platform::PolicyInfo info;
  info.family = platform::PolicyFamily::kCpufreq;
  info.name = "ondemand";
  info.description =
      "cpufreq 'ondemand' (Linux v6.1 drivers/cpufreq/cpufreq_ondemand.c, "
      "cpufreq_governor.c): every sampling period, load = the busiest CPU's "
      "C0 percentage (MPERF/TSC) since the last sample; above up_threshold "
      "go to the policy maximum, else to min + load x (max - min) / 100 of "
      "the cpuinfo range.";
  info.params = {
      {"sampling_rate_us", int64_t{-1},
       "us between samples (sysfs sampling_rate); -1: the kernel default "
       "max(2 ticks, transition delay) (cpufreq_dbs_governor_init, v6.1)"},
      {"up_threshold_pct", int64_t{kOndemandMicroUpThresholdPct},
       "load in percent above which the maximum is asked for (sysfs "
       "up_threshold, 1..100); 95 = MICRO_FREQUENCY_UP_THRESHOLD, od_init's "
       "value on NO_HZ kernels (80 = DEF_FREQUENCY_UP_THRESHOLD without)"},
      {"sampling_down_factor", int64_t{kOndemandDefSamplingDownFactor},
       "multiplier of the sampling period while at the maximum (sysfs "
       "sampling_down_factor, 1..100000, default 1)"},
      {"powersave_bias_permille", int64_t{0},
       "per mille taken off every target (sysfs powersave_bias, 0..1000, "
       "default 0)"},
      {"io_is_busy", false,
       "count iowait time as busy (sysfs io_is_busy). Only false is "
       "supported: the platform layer shows C0 time, not iowait time. (The "
       "kernel's default is 1 on Intel family 6 model >= 15, else 0.)"},
  };
  info.make_freq = [](const platform::Params& p)
      -> absl::StatusOr<std::unique_ptr<platform::FreqGovernor>> {
    if (p.GetBool("io_is_busy")) {
      return absl::InvalidArgumentError(
          "ondemand: io_is_busy=true is not supported: FreqDomain gives C0 "
          "time (APERF/MPERF/TSC) but not iowait time; leave it false");
    }
    OndemandGovernor::Options o;
    o.sampling_rate_us = p.GetInt("sampling_rate_us");
    o.up_threshold_pct = p.GetInt("up_threshold_pct");
    o.sampling_down_factor = p.GetInt("sampling_down_factor");
    o.powersave_bias_permille = p.GetInt("powersave_bias_permille");
    absl::Status s = OndemandGovernor::Validate(o);
    if (!s.ok()) return s;
    return std::make_unique<OndemandGovernor>(o);
  };
  return info;
}

SCHEDSIM_REGISTER_POLICY(OndemandInfo());

}  // namespace

}  // namespace schedsim::governors
