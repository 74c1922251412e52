// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// DbsSampler: the sampling half of Linux v6.1
// drivers/cpufreq/cpufreq_governor.c (dbs_update_util_handler, dbs_update)
// that ondemand and conservative share (see also
// Documentation/admin-guide/pm/cpufreq.rst, v6.1): a sample is taken from
// the utilization hook once sample_delay has passed since the last one, and
// its load is the busiest CPU's busy percentage since the previous sample.
// Simplifications: busy time is C0 time from the counters (100 x
// dMPERF/dTSC) instead of get_cpu_idle_time, so iowait always counts as
// idle (io_is_busy = 0) and nice time as busy (ignore_nice_load = 0); the
// sample runs at once, not from an irq_work; the first sample comes one
// sampling period after Start (the kernel's last_sample_time starts at 0).

#ifndef SCHEDSIM_GOVERNORS_CPUFREQ_DBS_GOVERNOR_H_
#define SCHEDSIM_GOVERNORS_CPUFREQ_DBS_GOVERNOR_H_

#include <cstdint>
#include <limits>
#include <vector>

#include "platform/cpufreq.h"

namespace schedsim::governors {

// CPUFREQ_DBS_MIN_SAMPLING_INTERVAL = 2 ticks (cpufreq_governor.c, v6.1).
inline constexpr int kDbsMinSamplingTicks = 2;

// The kernel's default sampling_rate (cpufreq_dbs_governor_init,
// cpufreq_governor.c, v6.1): max(2 ticks, cpufreq_policy_transition_delay_us),
// in us.
int64_t DbsDefaultSamplingRateUs(const platform::FreqDomain& domain);

// One load sample of a domain (what dbs_update returns and leaves in
// policy_dbs->idle_periods).
struct DbsLoad {
  // Max over the domain's CPUs of the busy percentage (0..100) since the
  // previous sample.
  int load_pct = 0;
  // Whole sampling periods the least idle CPU spent idle, when every CPU
  // idled more than two periods; kNoIdlePeriods otherwise (UINT_MAX in the
  // kernel).
  int64_t idle_periods = kNoIdlePeriods;
  static constexpr int64_t kNoIdlePeriods = std::numeric_limits<int64_t>::max();
};

// Per-CPU and per-domain sampling state for every domain a governor serves.
// Indexed by CPU id and domain id; sized in Start, never allocates after.
class DbsSampler {
 public:
  // cpufreq_dbs_governor_start + gov_set_update_util: sizes the state for
  // `domain`, takes every CPU's first counter sample (prev_load = 0) and
  // sets the first sample delay. REQUIRES: sample_delay_ns >= 0.
  void Start(const platform::FreqDomain& domain, int64_t sample_delay_ns);

  // dbs_update_util_handler's time check: true when at least the domain's
  // sample delay has passed since its last sample; records `now` as the
  // new sample time when it returns true.
  bool ShouldSample(const platform::FreqDomain& domain);

  // dbs_update(): the load since the previous sample. `sampling_rate_ns` is
  // the governor's sampling rate times its rate multiplier (used for the
  // "first window after a long idle reuses the previous load" rule and for
  // idle_periods).
  DbsLoad Update(const platform::FreqDomain& domain, int64_t sampling_rate_ns);

  // gov_update_sample_delay(): the delay before the next sample.
  void set_sample_delay_ns(const platform::FreqDomain& domain, int64_t ns) {
    domains_[domain.id()].sample_delay_ns = ns;
  }
  int64_t sample_delay_ns(const platform::FreqDomain& domain) const {
    return domains_[domain.id()].sample_delay_ns;
  }

 private:
  struct CpuState {
    int64_t prev_update_ns = 0;
    uint64_t prev_mperf = 0;
    uint64_t prev_tsc = 0;
    int prev_load_pct = 0;
  };
  struct DomainState {
    int64_t last_sample_ns = 0;
    int64_t sample_delay_ns = 0;
  };
  std::vector<CpuState> cpus_;        // by CPU id
  std::vector<DomainState> domains_;  // by domain id
};

}  // namespace schedsim::governors

#endif  // SCHEDSIM_GOVERNORS_CPUFREQ_DBS_GOVERNOR_H_
