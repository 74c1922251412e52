// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpufreq/schedutil.h"

#include <algorithm>
#include <limits>
#include <memory>

#include "absl/strings/str_cat.h"
#include "platform/registry.h"

namespace schedsim::governors {

namespace {

// Idle cycles (TSC minus MPERF) still counted as "no idle" by the busy
// test: counter rounding (2 cycles) plus 10 ppm of the interval. Assumed;
// any real idle period is far longer.
constexpr uint64_t kBusySlackCycles = 2;
constexpr uint64_t kBusySlackPpmDivisor = 100000;

int64_t CapacityOf(const platform::CpuUtil& u) {
  return u.capacity > 0 ? u.capacity : platform::kCapacityScale;
}

bool UclampInUse(const platform::CpuUtil& u) {
  return u.uclamp_min != 0 || u.uclamp_max != platform::kCapacityScale;
}

}  // namespace

int64_t SugovUclampUtil(int64_t util, const platform::CpuUtil& u) {
  if (u.uclamp_min >= u.uclamp_max) return u.uclamp_min;
  return std::clamp(util, u.uclamp_min, u.uclamp_max);
}

int64_t SugovEffectiveUtil(const platform::CpuUtil& u) {
  const int64_t capacity = CapacityOf(u);
  if (!UclampInUse(u) && u.rt_runnable) return capacity;
  int64_t util = std::clamp<int64_t>(u.util_cfs, 0, capacity) +
                 std::max<int64_t>(u.util_rt, 0);
  if (UclampInUse(u)) util = SugovUclampUtil(util, u);
  return std::min(util, capacity);
}

bool SugovUclampCapped(const platform::CpuUtil& u) {
  if (!UclampInUse(u)) return false;
  return u.uclamp_max != platform::kCapacityScale &&
         u.util_cfs + u.util_rt >= u.uclamp_max;
}

int64_t SugovNextFreqKhz(int64_t util, int64_t capacity, int64_t ref_khz) {
  const int64_t boosted = util + (util >> 2);  // map_util_perf: 1.25 x
  return ref_khz * boosted / capacity;
}

absl::Status SchedutilGovernor::Validate(const Options& o) {
  if (o.rate_limit_us < -1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "schedutil: rate_limit_us must be >= 0, or -1 for the kernel "
        "default, got ",
        o.rate_limit_us));
  }
  return absl::OkStatus();
}

void SchedutilGovernor::Start(platform::FreqDomain& domain) {
  const topology::CpuSet& cpus = domain.cpus();
  if (static_cast<int>(cpus_.size()) < cpus.width()) {
    cpus_.resize(cpus.width());
  }
  if (static_cast<int>(domains_.size()) <= domain.id()) {
    domains_.resize(domain.id() + 1);
  }
  const int64_t now = domain.now_ns();
  for (int cpu = cpus.First(); cpu >= 0; cpu = cpus.Next(cpu)) {
    CpuState& c = cpus_[cpu];
    const platform::CpuCounters k = domain.counters(cpu);
    c = CpuState();
    c.last_update_ns = now;
    c.saved_mperf = k.mperf;
    c.saved_tsc = k.tsc;
  }
  DomainState& d = domains_[domain.id()];
  d = DomainState();
  const int64_t rate_us = options_.rate_limit_us >= 0
                              ? options_.rate_limit_us
                              : TransitionDelayUs(domain.spec());
  d.rate_limit_ns = rate_us * 1000;
  // The kernel starts from last_freq_update_time = 0, long before now: the
  // first update is never rate limited.
  d.last_freq_update_ns = std::numeric_limits<int64_t>::min() / 2;
  d.cur_khz = domain.requested_khz();
  d.single = cpus.Count() == 1;
  d.limits.Reset(domain);
}

void SchedutilGovernor::UpdateUtil(platform::FreqDomain& domain, int cpu,
                                   uint32_t flags) {
  DomainState& d = domains_[domain.id()];
  CpuState& c = cpus_[cpu];
  const int64_t now = domain.now_ns();
  const int64_t tick = domain.tick_period_ns();
  if (options_.iowait_boost) IowaitBoost(c, now, tick, flags);
  c.last_update_ns = now;

  // sugov_should_update_freq: a limits change bypasses the rate limit.
  if (d.limits.Changed(domain)) d.limits_changed = true;
  if (d.limits_changed) {
    d.limits_changed = false;
    d.need_freq_update = true;
  } else if (now - d.last_freq_update_ns < d.rate_limit_ns) {
    return;
  }

  int64_t next_khz = 0;
  if (d.single) {
    const platform::CpuUtil u = domain.util(cpu);
    const int64_t capacity = CapacityOf(u);
    int64_t util = SugovEffectiveUtil(u);
    if (options_.iowait_boost) {
      util = IowaitApply(c, now, tick, util, u, capacity);
    }
    next_khz = NextKhz(domain, d, util, capacity);
    // Do not lower the frequency of a CPU that has not idled since the last
    // evaluation, unless uclamp caps it.
    if (!SugovUclampCapped(u) && CpuIsBusy(domain, cpu, c) &&
        next_khz < d.next_khz && !d.need_freq_update) {
      next_khz = d.next_khz;
    }
  } else {
    // sugov_next_freq_shared: the busiest CPU of the domain.
    const int64_t capacity = CapacityOf(domain.util(cpu));
    int64_t util = 0;
    const topology::CpuSet& cpus = domain.cpus();
    for (int j = cpus.First(); j >= 0; j = cpus.Next(j)) {
      const platform::CpuUtil u = domain.util(j);
      int64_t util_j = SugovEffectiveUtil(u);
      if (options_.iowait_boost) {
        util_j = IowaitApply(cpus_[j], now, tick, util_j, u, capacity);
      }
      util = std::max(util, util_j);
    }
    next_khz = NextKhz(domain, d, util, capacity);
  }

  // sugov_update_next_freq: only a change is written (and restarts the
  // rate limit), unless the limits changed.
  if (d.need_freq_update) {
    d.need_freq_update = false;
  } else if (next_khz == d.next_khz) {
    return;
  }
  d.next_khz = next_khz;
  d.last_freq_update_ns = now;
  Write(domain, d, next_khz);
}

void SchedutilGovernor::IowaitBoost(CpuState& c, int64_t now_ns,
                                    int64_t tick_ns, uint32_t flags) const {
  const bool set = (flags & platform::kUtilIowait) != 0;
  // More than a tick since this CPU's last update: start over.
  if (c.iowait_boost > 0 && IowaitReset(c, now_ns, tick_ns, set)) return;
  if (!set) return;
  // At most one step per frequency evaluation.
  if (c.iowait_boost_pending) return;
  c.iowait_boost_pending = true;
  if (c.iowait_boost > 0) {
    c.iowait_boost = std::min(c.iowait_boost * 2, platform::kCapacityScale);
    return;
  }
  c.iowait_boost = kSugovIowaitBoostMin;
}

bool SchedutilGovernor::IowaitReset(CpuState& c, int64_t now_ns,
                                    int64_t tick_ns, bool set) const {
  if (now_ns - c.last_update_ns <= tick_ns) return false;
  c.iowait_boost = set ? kSugovIowaitBoostMin : 0;
  c.iowait_boost_pending = set;
  return true;
}

int64_t SchedutilGovernor::IowaitApply(CpuState& c, int64_t now_ns,
                                       int64_t tick_ns, int64_t util,
                                       const platform::CpuUtil& u,
                                       int64_t capacity) const {
  if (c.iowait_boost == 0) return util;
  if (IowaitReset(c, now_ns, tick_ns, false)) return util;
  // No new iowait wakeup since the last evaluation: decay.
  if (!c.iowait_boost_pending) {
    c.iowait_boost >>= 1;
    if (c.iowait_boost < kSugovIowaitBoostMin) {
      c.iowait_boost = 0;
      return util;
    }
  }
  c.iowait_boost_pending = false;
  int64_t boost = c.iowait_boost * capacity / platform::kCapacityScale;
  if (UclampInUse(u)) boost = SugovUclampUtil(boost, u);
  return std::max(util, boost);
}

bool SchedutilGovernor::CpuIsBusy(const platform::FreqDomain& domain, int cpu,
                                  CpuState& c) const {
  const platform::CpuCounters k = domain.counters(cpu);
  const uint64_t dtsc = k.tsc - c.saved_tsc;
  const uint64_t dmperf = k.mperf - c.saved_mperf;
  c.saved_tsc = k.tsc;
  c.saved_mperf = k.mperf;
  const uint64_t idle_cycles = dtsc > dmperf ? dtsc - dmperf : 0;
  return idle_cycles <= kBusySlackCycles + dtsc / kBusySlackPpmDivisor;
}

int64_t SchedutilGovernor::NextKhz(const platform::FreqDomain& domain,
                                   const DomainState& d, int64_t util,
                                   int64_t capacity) const {
  const topology::FrequencySpec& spec = domain.spec();
  const int64_t ref_khz =
      domain.frequency_invariant() ? spec.max_turbo_khz : d.cur_khz;
  return DriverOf(domain).ResolveKhz(domain,
                                     SugovNextFreqKhz(util, capacity, ref_khz));
}

void SchedutilGovernor::Write(platform::FreqDomain& domain, DomainState& d,
                              int64_t khz) const {
  const CpufreqDriver& driver = DriverOf(domain);
  if (!driver.has_adjust_perf() || !domain.frequency_invariant()) {
    // sugov_fast_switch -> cpufreq_driver_fast_switch (the deferred path,
    // sugov_deferred_update -> __cpufreq_driver_target with RELATION_L,
    // asks for the same).
    d.cur_khz = driver.FastSwitch(domain, khz);
    return;
  }
  // sugov_update_single_perf -> cpufreq_driver_adjust_perf.
  driver.AdjustPerf(domain, khz);
  d.cur_khz = khz;
}

namespace {

platform::PolicyInfo SchedutilInfo() {
  platform::PolicyInfo info;
  info.family = platform::PolicyFamily::kCpufreq;
  info.name = "schedutil";
  info.description =
      "cpufreq 'schedutil' (Linux v6.1 kernel/sched/cpufreq_schedutil.c): on "
      "each utilization update, at most once per rate limit, ask for 1.25 x "
      "max_freq x util / capacity, util = the busiest CPU's CFS + RT "
      "utilization clamped by uclamp (capacity while RT is runnable), "
      "floored by the iowait boost (1/8, doubled per iowait wakeup, halved "
      "otherwise). HWP parts: intel_cpufreq's adjust_perf (DESIRED).";
  info.params = {
      {"rate_limit_us", int64_t{-1},
       "us between frequency changes (sysfs schedutil/rate_limit_us); -1: "
       "the kernel default cpufreq_policy_transition_delay_us (v6.1): the "
       "driver's transition_delay_us (intel_cpufreq 5000 with HWP, 500 "
       "without; amd-pstate 1000), else min(latency_us x 1000, 10000), "
       "else 1000"},
      {"iowait_boost", true,
       "boost the utilization of CPUs woken from iowait (IOWAIT_BOOST_MIN = "
       "128, doubled per iowait wakeup up to 1024, halved without, dropped "
       "after a tick of inactivity); false disables it"},
  };
  info.make_freq = [](const platform::Params& p)
      -> absl::StatusOr<std::unique_ptr<platform::FreqGovernor>> {
    SchedutilGovernor::Options o;
    o.rate_limit_us = p.GetInt("rate_limit_us");
    o.iowait_boost = p.GetBool("iowait_boost");
    absl::Status s = SchedutilGovernor::Validate(o);
    if (!s.ok()) return s;
    return std::make_unique<SchedutilGovernor>(o);
  };
  return info;
}

SCHEDSIM_REGISTER_POLICY(SchedutilInfo());

}  // namespace

}  // namespace schedsim::governors
