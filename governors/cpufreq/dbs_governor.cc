// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpufreq/dbs_governor.h"

#include <algorithm>

#include "governors/cpufreq/cpufreq_common.h"

namespace schedsim::governors {

int64_t DbsDefaultSamplingRateUs(const platform::FreqDomain& domain) {
  const int64_t min_us = kDbsMinSamplingTicks * domain.tick_period_ns() / 1000;
  return std::max(min_us, TransitionDelayUs(domain.spec()));
}

void DbsSampler::Start(const platform::FreqDomain& domain,
                       int64_t sample_delay_ns) {
  const topology::CpuSet& cpus = domain.cpus();
  if (static_cast<int>(cpus_.size()) < cpus.width()) {
    cpus_.resize(cpus.width());
  }
  if (static_cast<int>(domains_.size()) <= domain.id()) {
    domains_.resize(domain.id() + 1);
  }
  const int64_t now = domain.now_ns();
  for (int cpu = cpus.First(); cpu >= 0; cpu = cpus.Next(cpu)) {
    const platform::CpuCounters k = domain.counters(cpu);
    CpuState& c = cpus_[cpu];
    c.prev_update_ns = now;
    c.prev_mperf = k.mperf;
    c.prev_tsc = k.tsc;
    c.prev_load_pct = 0;
  }
  DomainState& d = domains_[domain.id()];
  d.last_sample_ns = now;
  d.sample_delay_ns = sample_delay_ns;
}

bool DbsSampler::ShouldSample(const platform::FreqDomain& domain) {
  DomainState& d = domains_[domain.id()];
  const int64_t now = domain.now_ns();
  if (now - d.last_sample_ns < d.sample_delay_ns) return false;
  d.last_sample_ns = now;
  return true;
}

DbsLoad DbsSampler::Update(const platform::FreqDomain& domain,
                           int64_t sampling_rate_ns) {
  DbsLoad out;
  const int64_t now = domain.now_ns();
  const topology::CpuSet& cpus = domain.cpus();
  for (int cpu = cpus.First(); cpu >= 0; cpu = cpus.Next(cpu)) {
    CpuState& c = cpus_[cpu];
    const platform::CpuCounters k = domain.counters(cpu);
    const int64_t elapsed_ns = now - c.prev_update_ns;
    const uint64_t dtsc = k.tsc - c.prev_tsc;
    const uint64_t dmperf = std::min(k.mperf - c.prev_mperf, dtsc);
    c.prev_update_ns = now;
    c.prev_tsc = k.tsc;
    c.prev_mperf = k.mperf;

    int load = 0;
    if (elapsed_ns <= 0 || dtsc == 0) {
      // Called twice with no time in between: reuse the previous load.
      load = c.prev_load_pct;
    } else {
      // Idle time in ns: the wall time not spent in C0.
      const int64_t idle_ns = static_cast<int64_t>(
          static_cast<unsigned __int128>(elapsed_ns) * (dtsc - dmperf) / dtsc);
      if (idle_ns > 2 * sampling_rate_ns && c.prev_load_pct > 0) {
        // The first window after the CPU went completely idle reuses the
        // previous window's load, once.
        load = c.prev_load_pct;
        c.prev_load_pct = 0;
      } else {
        load = static_cast<int>(100 * dmperf / dtsc);
        c.prev_load_pct = load;
      }
      if (idle_ns > 2 * sampling_rate_ns && sampling_rate_ns > 0) {
        out.idle_periods =
            std::min(out.idle_periods, idle_ns / sampling_rate_ns);
      }
    }
    out.load_pct = std::max(out.load_pct, load);
  }
  return out;
}

}  // namespace schedsim::governors
