// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpufreq/intel_pstate.h"

#include <algorithm>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "platform/registry.h"

namespace schedsim::governors {

using platform::CpuCounters;
using platform::FreqDomain;

int BusyPercentTargetPstate(const PstateRange& range, int32_t busy_fp,
                            int avg_pstate, bool no_turbo) {
  const int top = no_turbo ? range.max_pstate : range.turbo_pstate;
  // The 1.25 headroom in integer P-states, as get_target_pstate adds a
  // quarter of the top P-state before scaling (step 4.3 of intel_pstate.h).
  const int64_t headroom = top + (top >> 2);
  int target = static_cast<int>((headroom * busy_fp) >> kPstateFracBits);
  target = std::max(target, range.min_pstate);
  // Damping: half way up to the average P-state of the last interval.
  if (avg_pstate > target) target += (avg_pstate - target) >> 1;
  return target;
}

int ClampTargetPstate(const PstateRange& range, int target, bool no_turbo) {
  const int top = no_turbo ? range.max_pstate : range.turbo_pstate;
  const int lo = std::max(range.min_pstate, range.min_perf_ratio);
  const int hi = std::max(lo, std::min(range.max_perf_ratio, top));
  return std::clamp(target, lo, hi);
}

void IntelPstateGovernor::Start(FreqDomain& domain) {
  const topology::CpuSet& cpus = domain.cpus();
  if (static_cast<int>(cpus_.size()) < cpus.width()) {
    cpus_.resize(cpus.width());
  }
  if (static_cast<int>(domains_.size()) <= domain.id()) {
    domains_.resize(domain.id() + 1);
  }
  domains_[domain.id()] = DomainState();
  const int64_t now_ns = domain.now_ns();
  for (int cpu = cpus.First(); cpu >= 0; cpu = cpus.Next(cpu)) {
    CpuState& c = cpus_[cpu];
    c = CpuState();
    c.sample_time_ns = now_ns;
    // No callback yet: the first IO wakeup starts the boost at 1/8.
    c.last_update_ns = now_ns - domain.tick_period_ns() - 1;
    c.prev = domain.counters(cpu);
  }
}

void IntelPstateGovernor::UpdateIowaitBoost(CpuState& c, int64_t now_ns,
                                            int64_t tick_ns,
                                            uint32_t flags) const {
  const int64_t delta_ns = now_ns - c.last_update_ns;
  const bool iowait = (flags & platform::kUtilIowait) != 0;
  switch (options_.iowait_boost_mode) {
    case IowaitBoostMode::kDoubling:
      // Step 1 of intel_pstate.h: restart at 1/8 if the CPU may have idled
      // (more than a tick since the last callback), else double up to 1;
      // without the flag, halve within a tick, clear after a quiet tick.
      if (iowait) {
        if (delta_ns > tick_ns || c.iowait_boost_fp < kPstateOneEighthFp) {
          c.iowait_boost_fp = kPstateOneEighthFp;
        } else {
          c.iowait_boost_fp = std::min(c.iowait_boost_fp * 2, kPstateOneFp);
        }
      } else if (c.iowait_boost_fp != 0) {
        if (delta_ns > tick_ns) {
          c.iowait_boost_fp = 0;
        } else {
          c.iowait_boost_fp >>= 1;
        }
      }
      break;
    case IowaitBoostMode::kFull:
      // Before 2018 (intel_pstate.h): any IO wakeup boosts to 100 %; cleared
      // after more than a tick without one; halved per sample in UpdateUtil.
      if (iowait) {
        c.iowait_boost_fp = kPstateOneFp;
      } else if (c.iowait_boost_fp != 0 && delta_ns > tick_ns) {
        c.iowait_boost_fp = 0;
      }
      break;
    case IowaitBoostMode::kOff:
      break;
  }
  c.last_update_ns = now_ns;
}

void IntelPstateGovernor::UpdateUtil(FreqDomain& domain, int cpu,
                                     uint32_t flags) {
  // intel_pstate_update_util() ignores a callback made on another CPU
  // (drivers/cpufreq/intel_pstate.c, since 674e75411fc2 in v4.14, so in both
  // IO-boost forms): an IO wake-up the waker enqueued remotely boosts
  // nothing.
  if ((flags & platform::kUtilRemote) != 0) return;
  CpuState& c = cpus_[cpu];
  const int64_t now_ns = domain.now_ns();
  UpdateIowaitBoost(c, now_ns, domain.tick_period_ns(), flags);

  // Before 2018 an IO wake-up re-evaluated at once (`goto set_pstate`,
  // skipping the sampling interval) unless the last sample was already
  // 100 % busy (intel_pstate_update_util, drivers/cpufreq/intel_pstate.c,
  // v4.14); since the 2018 rework it waits for the next sample.
  const bool io_now = options_.iowait_boost_mode == IowaitBoostMode::kFull &&
                      (flags & platform::kUtilIowait) != 0;
  if (io_now && c.busy_scaled_fp >= kPstateOneFp) return;
  if (!io_now && now_ns - c.sample_time_ns < options_.sampling_interval_ns) {
    return;
  }

  // Sample (step 3 of intel_pstate.h); nothing ran or no time passed: skip.
  const CpuCounters now = domain.counters(cpu);
  const uint64_t d_aperf = now.aperf - c.prev.aperf;
  const uint64_t d_mperf = now.mperf - c.prev.mperf;
  const uint64_t d_tsc = now.tsc - c.prev.tsc;
  if (d_mperf == 0 || d_tsc == 0) return;
  c.prev = now;
  c.sample_time_ns = now_ns;

  const PstateRange range = PstateRangeOf(domain);
  // C0 residency over the interval, in 8-bit fixed point.
  int32_t busy_fp = static_cast<int32_t>(
      std::min<uint64_t>((d_mperf << kPstateFracBits) / d_tsc, kPstateOneFp));
  int32_t boost_fp = c.iowait_boost_fp;
  if (options_.iowait_boost_mode == IowaitBoostMode::kFull) {
    c.iowait_boost_fp >>= 1;  // 4.14: consumed and halved per sample
  }
  busy_fp = std::max(busy_fp, boost_fp);
  c.busy_scaled_fp = busy_fp;
  // max_pstate_physical x APERF/MPERF: the average P-state while busy.
  const int avg_pstate = static_cast<int>(
      static_cast<uint64_t>(range.max_pstate) * d_aperf / d_mperf);
  c.target_pstate = ClampTargetPstate(
      range,
      BusyPercentTargetPstate(range, busy_fp, avg_pstate, options_.no_turbo),
      options_.no_turbo);

  // The core runs at the highest request of its busy threads: CPUs of the
  // domain without a callback for a whole interval are taken as idle.
  int pstate = 0;
  const topology::CpuSet& cpus = domain.cpus();
  for (int other = cpus.First(); other >= 0; other = cpus.Next(other)) {
    const CpuState& o = cpus_[other];
    if (o.target_pstate == 0) continue;
    if (other != cpu &&
        now_ns - o.last_update_ns > options_.sampling_interval_ns) {
      continue;
    }
    pstate = std::max(pstate, o.target_pstate);
  }
  DomainState& d = domains_[domain.id()];
  if (pstate == d.requested_pstate) return;
  d.requested_pstate = pstate;
  SetPstate(domain, range, pstate);
}

double IntelPstateGovernor::iowait_boost(int cpu) const {
  return static_cast<double>(cpus_[cpu].iowait_boost_fp) / kPstateOneFp;
}

int IntelPstateGovernor::target_pstate(int cpu) const {
  return cpus_[cpu].target_pstate;
}

namespace {

platform::PolicyInfo IntelPstateInfo() {
  platform::PolicyInfo info;
  info.family = platform::PolicyFamily::kCpufreq;
  info.name = "intel_pstate";
  info.hwp = platform::HwpUse::kNeedsNoHwp;
  info.description =
      "intel_pstate active mode without HWP (Linux v6.1 "
      "drivers/cpufreq/intel_pstate.c, get_target_pstate): every sampling "
      "interval, target P-state = 1.25 x top P-state x busy fraction "
      "(MPERF/TSC), damped towards the average P-state (APERF/MPERF), with "
      "the IO-wait boost of the 2018 'Optimize IO boost in non HWP mode' "
      "patch. Acts by SetTargetKhz (P-state x 100 MHz).";
  info.params = {
      {"sampling_rate_ms", int64_t{10},
       "ms between samples (INTEL_PSTATE_SAMPLING_INTERVAL, v6.1)"},
      {"iowait_boost_mode", std::string("doubling"),
       "'doubling': 1/8 on an IO wakeup, doubled per IO wakeup within a "
       "tick, halved otherwise (since 2018); 'full': 100 % on any IO "
       "wakeup, halved per sample (4.14); 'off'"},
      {"no_turbo", false,
       "cap at the base P-state (sysfs intel_pstate/no_turbo, default 0)"},
  };
  info.make_freq = [](const platform::Params& p)
      -> absl::StatusOr<std::unique_ptr<platform::FreqGovernor>> {
    IntelPstateGovernor::Options o;
    const int64_t sampling_ms = p.GetInt("sampling_rate_ms");
    if (sampling_ms < 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "intel_pstate: sampling_rate_ms must be >= 1, got ", sampling_ms));
    }
    o.sampling_interval_ns = sampling_ms * 1'000'000;
    const std::string& mode = p.GetString("iowait_boost_mode");
    if (mode == "doubling") {
      o.iowait_boost_mode = IntelPstateGovernor::IowaitBoostMode::kDoubling;
    } else if (mode == "full") {
      o.iowait_boost_mode = IntelPstateGovernor::IowaitBoostMode::kFull;
    } else if (mode == "off") {
      o.iowait_boost_mode = IntelPstateGovernor::IowaitBoostMode::kOff;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("intel_pstate: iowait_boost_mode must be 'doubling', "
                       "'full' or 'off', got '",
                       mode, "'"));
    }
    o.no_turbo = p.GetBool("no_turbo");
    return std::make_unique<IntelPstateGovernor>(o);
  };
  return info;
}

SCHEDSIM_REGISTER_POLICY(IntelPstateInfo());

}  // namespace

}  // namespace schedsim::governors
