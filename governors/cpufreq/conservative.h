// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The "conservative" cpufreq governor, Linux v6.1
// drivers/cpufreq/cpufreq_conservative.c (cs_dbs_update) on the sampling
// of cpufreq_governor.c (dbs_governor.h): every sampling period, a load above
// up_threshold raises the requested frequency by freq_step percent of the
// policy maximum, a load below down_threshold (checked every
// sampling_down_factor periods) lowers it by one step, and each whole
// period a CPU slept through without a sample takes one step off.
// Simplifications: load is C0 time from APERF/MPERF/TSC (see
// dbs_governor.h): iowait is idle, nice time busy; limit changes are
// noticed at the next utilization update.

#ifndef SCHEDSIM_GOVERNORS_CPUFREQ_CONSERVATIVE_H_
#define SCHEDSIM_GOVERNORS_CPUFREQ_CONSERVATIVE_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "governors/cpufreq/cpufreq_common.h"
#include "governors/cpufreq/dbs_governor.h"
#include "platform/cpufreq.h"

namespace schedsim::governors {

// Defaults and limits of cpufreq_conservative.c (v6.1):
// DEF_FREQUENCY_UP_THRESHOLD, DEF_FREQUENCY_DOWN_THRESHOLD,
// DEF_FREQUENCY_STEP (percent of policy->max; also the step in kHz when
// that percentage rounds to 0), DEF_ and MAX_SAMPLING_DOWN_FACTOR.
inline constexpr int kConservativeDefUpThresholdPct = 80;
inline constexpr int kConservativeDefDownThresholdPct = 20;
inline constexpr int kConservativeDefFreqStepPct = 5;
inline constexpr int kConservativeDefSamplingDownFactor = 1;
inline constexpr int kConservativeMaxSamplingDownFactor = 10;

class ConservativeGovernor final : public platform::FreqGovernor {
 public:
  struct Options {
    // Period between samples; <= 0: the kernel default, max(2 ticks,
    // transition delay) (DbsDefaultSamplingRateUs).
    int64_t sampling_rate_us = -1;
    int64_t up_threshold_pct = kConservativeDefUpThresholdPct;
    int64_t down_threshold_pct = kConservativeDefDownThresholdPct;
    int64_t freq_step_pct = kConservativeDefFreqStepPct;  // 0: never change
    int64_t sampling_down_factor = kConservativeDefSamplingDownFactor;
  };

  // InvalidArgument naming the option when one is outside the range sysfs
  // accepts (down_threshold in [1, up_threshold), up_threshold <= 100,
  // freq_step <= 100, sampling_down_factor in [1, 10]).
  static absl::Status Validate(const Options& options);

  // REQUIRES: Validate(options).ok().
  explicit ConservativeGovernor(const Options& options) : options_(options) {}

  absl::string_view name() const override { return "conservative"; }

  // cpufreq_dbs_governor_start + cs_start: requested frequency = the
  // domain's requested_khz(), first sample one period later.
  void Start(platform::FreqDomain& domain) override;

  // dbs_update_util_handler: when the sampling period has passed, samples
  // the load and steps the frequency (cs_dbs_update). Applies the policy
  // limits first if they changed. Does not allocate.
  void UpdateUtil(platform::FreqDomain& domain, int cpu,
                  uint32_t flags) override;

  // --- Introspection (tests, traces) ---------------------------------------
  // The frequency the governor last asked for (its requested_freq, kHz;
  // before resolution to an available frequency).
  int64_t requested_khz(int domain_id) const {
    return domains_[domain_id].requested_khz;
  }
  int load_pct(int domain_id) const { return domains_[domain_id].load_pct; }

 private:
  struct DomainState {
    int64_t sampling_rate_ns = 0;
    int64_t requested_khz = 0;  // dbs_info->requested_freq
    int64_t cur_khz = 0;        // policy->cur
    int64_t down_skip = 0;
    int load_pct = 0;
    LimitsWatch limits;
  };

  void Sample(platform::FreqDomain& domain, DomainState& d);

  Options options_;
  DbsSampler sampler_;
  std::vector<DomainState> domains_;  // by domain id
};

}  // namespace schedsim::governors

#endif  // SCHEDSIM_GOVERNORS_CPUFREQ_CONSERVATIVE_H_
