// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The "ondemand" cpufreq governor, Linux v6.1 cpufreq_ondemand.c (od_update)
// on cpufreq_governor.c's sampling (dbs_governor.h): every sampling period, a
// load above up_threshold goes to the policy maximum (the next period stretched
// by sampling_down_factor), any other load to min_f + load x (max_f - min_f) /
// 100 of the cpuinfo range. Simplifications: load is C0 time from the
// counters (dbs_governor.h), so iowait is idle (io_is_busy = 0 only) and nice
// time busy; powersave_bias asks for the reduced frequency instead of
// alternating between the table frequencies around it; limit changes are
// seen at the next utilization update.

#ifndef SCHEDSIM_GOVERNORS_CPUFREQ_ONDEMAND_H_
#define SCHEDSIM_GOVERNORS_CPUFREQ_ONDEMAND_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "governors/cpufreq/cpufreq_common.h"
#include "governors/cpufreq/dbs_governor.h"
#include "platform/cpufreq.h"

namespace schedsim::governors {

// MICRO_FREQUENCY_UP_THRESHOLD: od_init's up_threshold when idle micro
// accounting (NO_HZ) is available, as on every x86 distribution kernel
// (cpufreq_ondemand.c od_init(), v6.1).
inline constexpr int kOndemandMicroUpThresholdPct = 95;
// DEF_FREQUENCY_UP_THRESHOLD: the value without NO_HZ (cpufreq_ondemand.c).
inline constexpr int kOndemandDefUpThresholdPct = 80;
// MIN_/MAX_FREQUENCY_UP_THRESHOLD: the sysfs range (cpufreq_ondemand.c).
inline constexpr int kOndemandMinUpThresholdPct = 1;
inline constexpr int kOndemandMaxUpThresholdPct = 100;
// DEF_ and MAX_SAMPLING_DOWN_FACTOR (cpufreq_ondemand.c, v6.1).
inline constexpr int kOndemandDefSamplingDownFactor = 1;
inline constexpr int kOndemandMaxSamplingDownFactor = 100000;
// powersave_bias is per mille; sysfs caps it at 1000 (store_powersave_bias).
inline constexpr int kOndemandMaxPowersaveBiasPermille = 1000;

class OndemandGovernor final : public platform::FreqGovernor {
 public:
  struct Options {
    // Period between samples; <= 0: the kernel default, max(2 ticks,
    // transition delay) (DbsDefaultSamplingRateUs).
    int64_t sampling_rate_us = -1;
    int64_t up_threshold_pct = kOndemandMicroUpThresholdPct;
    int64_t sampling_down_factor = kOndemandDefSamplingDownFactor;
    int64_t powersave_bias_permille = 0;  // default_powersave_bias = 0
  };

  // InvalidArgument naming the option when one is outside the range sysfs
  // accepts.
  static absl::Status Validate(const Options& options);

  // REQUIRES: Validate(options).ok().
  explicit OndemandGovernor(const Options& options) : options_(options) {}

  absl::string_view name() const override { return "ondemand"; }

  // cpufreq_dbs_governor_start: sizes the state, takes the first counter
  // sample and schedules the first sample one sampling period later.
  void Start(platform::FreqDomain& domain) override;

  // dbs_update_util_handler: when the sample delay has passed, samples the
  // load (max over the domain's CPUs) and asks for a new frequency
  // (od_update). Applies the policy limits first if they changed. Ignores
  // `cpu` and `flags`. Does not allocate.
  void UpdateUtil(platform::FreqDomain& domain, int cpu,
                  uint32_t flags) override;

  // --- Introspection (tests, traces) ---------------------------------------
  // The load (percent) of the domain's last sample.
  int load_pct(int domain_id) const { return domains_[domain_id].load_pct; }
  // The domain's sampling period in us.
  int64_t sampling_rate_us(int domain_id) const {
    return domains_[domain_id].sampling_rate_ns / 1000;
  }
  // The delay before the domain's next sample (sampling_rate x rate_mult).
  int64_t sample_delay_ns(const platform::FreqDomain& domain) const {
    return sampler_.sample_delay_ns(domain);
  }

 private:
  struct DomainState {
    int64_t sampling_rate_ns = 0;
    int64_t rate_mult = 1;  // sampling_down_factor while at the maximum
    int64_t cur_khz = 0;    // policy->cur
    int load_pct = 0;
    LimitsWatch limits;
  };

  // od_update; returns the delay before the next sample.
  int64_t Sample(platform::FreqDomain& domain, DomainState& d);
  // __cpufreq_driver_target: nothing when `khz` (clamped) is already
  // policy->cur.
  void Target(platform::FreqDomain& domain, DomainState& d, int64_t khz,
              Relation relation);
  int64_t Bias(int64_t khz) const;

  Options options_;
  DbsSampler sampler_;
  std::vector<DomainState> domains_;  // by domain id
};

}  // namespace schedsim::governors

#endif  // SCHEDSIM_GOVERNORS_CPUFREQ_ONDEMAND_H_
