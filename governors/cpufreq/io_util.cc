// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpufreq/io_util.h"

#include <algorithm>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "governors/cpufreq/intel_pstate.h"
#include "platform/registry.h"

namespace schedsim::governors {

using platform::CpuCounters;
using platform::FreqDomain;
using platform::HwpRequest;

int IoUtilGovernor::LevelPerf(int level, int min_perf, int max_perf,
                              int guaranteed) {
  int perf = 0;  // HwpBoostStepUp's "not boosted"
  for (int i = 0; i < level; ++i) {
    perf = HwpBoostStepUp(perf, min_perf, max_perf, guaranteed);
  }
  return perf != 0 ? perf : min_perf;
}

void IoUtilGovernor::Start(FreqDomain& domain) {
  const topology::CpuSet& cpus = domain.cpus();
  if (static_cast<int>(cpus_.size()) < cpus.width()) {
    cpus_.resize(cpus.width());
  }
  if (static_cast<int>(domains_.size()) <= domain.id()) {
    domains_.resize(domain.id() + 1);
  }
  domains_[domain.id()] = DomainState();
  const int64_t now_ns = domain.now_ns();
  const bool hwp = domain.spec().has_hwp;
  const HwpLimits limits = hwp ? HwpLimitsOf(domain) : HwpLimits();
  for (int cpu = cpus.First(); cpu >= 0; cpu = cpus.Next(cpu)) {
    CpuState& c = cpus_[cpu];
    c = CpuState();
    c.window_start_ns = now_ns;
    c.last_update_ns = now_ns;
    c.prev = domain.counters(cpu);
    if (hwp) {
      domain.SetHwpRequest(
          cpu, platform::drivers::HwpSetRequest(domain, options_.epp,
                                                /*performance_policy=*/false));
      c.written_min_perf = limits.min_perf;
      c.written_max_perf = limits.max_perf;
    }
  }
}

void IoUtilGovernor::UpdateUtil(FreqDomain& domain, int cpu, uint32_t flags) {
  CpuState& c = cpus_[cpu];
  const int64_t now_ns = domain.now_ns();
  // No callback for a whole window: the CPU idled, whatever it was
  // boosting for is over.
  if (now_ns - c.last_update_ns > options_.sample_period_ns) c.level = 0;
  c.last_update_ns = now_ns;
  if ((flags & platform::kUtilIowait) != 0) ++c.io_wakeups;
  if (now_ns - c.window_start_ns < options_.sample_period_ns) return;

  const CpuCounters now = domain.counters(cpu);
  const uint64_t d_aperf = now.aperf - c.prev.aperf;
  const uint64_t d_mperf = now.mperf - c.prev.mperf;
  const uint64_t d_tsc = now.tsc - c.prev.tsc;
  if (d_tsc == 0) return;
  const int busy_pct =
      static_cast<int>(std::min<uint64_t>(d_mperf * 100 / d_tsc, 100));
  const bool io_window = c.io_wakeups >= options_.min_io_wakeups;
  if (io_window) c.cpu_share_pct = busy_pct;
  // The CPU bounds the IO cycle: step up; the device does, or there is no
  // IO pattern: step down.
  const bool cpu_bound = io_window && busy_pct >= options_.cpu_bound_busy_pct;
  c.level = cpu_bound ? std::min(c.level + 1, kMaxBoostLevel)
                      : std::max(c.level - 1, 0);
  c.window_start_ns = now_ns;
  c.prev = now;
  c.io_wakeups = 0;

  if (domain.spec().has_hwp) {
    const HwpLimits limits = HwpLimitsOf(domain);
    const int min_perf = LevelPerf(c.level, limits.min_perf, limits.max_perf,
                                   domain.spec().hwp.guaranteed);
    if (min_perf == c.written_min_perf &&
        limits.max_perf == c.written_max_perf) {
      return;
    }
    HwpRequest req;
    req.min_perf = min_perf;
    req.max_perf = limits.max_perf;
    req.desired_perf = 0;
    req.epp = options_.epp;
    domain.SetHwpRequest(cpu, req);
    c.written_min_perf = min_perf;
    c.written_max_perf = limits.max_perf;
    return;
  }

  // Without HWP: intel_pstate's busy-percent target (no IO-wait boost),
  // floored at the boost level.
  if (d_mperf == 0) {
    c.target_pstate = 0;  // idle the whole window: no vote
  } else {
    const PstateRange range = PstateRangeOf(domain);
    const int32_t busy_fp = static_cast<int32_t>(
        std::min<uint64_t>((d_mperf << kPstateFracBits) / d_tsc, kPstateOneFp));
    const int avg_pstate = static_cast<int>(
        static_cast<uint64_t>(range.max_pstate) * d_aperf / d_mperf);
    const int lo = std::max(range.min_pstate, range.min_perf_ratio);
    const int floor_pstate =
        LevelPerf(c.level, lo,
                  ClampTargetPstate(range, range.turbo_pstate,
                                    /*no_turbo=*/false),
                  range.max_pstate);
    c.target_pstate = ClampTargetPstate(
        range,
        std::max(BusyPercentTargetPstate(range, busy_fp, avg_pstate,
                                         /*no_turbo=*/false),
                 floor_pstate),
        /*no_turbo=*/false);
  }
  int pstate = 0;
  const topology::CpuSet& cpus = domain.cpus();
  for (int other = cpus.First(); other >= 0; other = cpus.Next(other)) {
    const CpuState& o = cpus_[other];
    if (o.target_pstate == 0) continue;
    if (other != cpu && now_ns - o.last_update_ns > options_.sample_period_ns) {
      continue;
    }
    pstate = std::max(pstate, o.target_pstate);
  }
  DomainState& d = domains_[domain.id()];
  if (pstate == 0 || pstate == d.requested_pstate) return;
  d.requested_pstate = pstate;
  SetPstate(domain, PstateRangeOf(domain), pstate);
}

int IoUtilGovernor::boost_level(int cpu) const { return cpus_[cpu].level; }

int IoUtilGovernor::cpu_share_pct(int cpu) const {
  return cpus_[cpu].cpu_share_pct;
}

namespace {

platform::PolicyInfo IoUtilInfo() {
  platform::PolicyInfo info;
  info.family = platform::PolicyFamily::kCpufreq;
  info.name = "io_util";
  info.description =
      "IO-aware boost in the spirit of Francisco Jerez's unmerged "
      "intel_pstate IO-utilization series (2018-2020): per window, a CPU "
      "with repeated IO wakeups that is busy for at least "
      "cpu_bound_busy_pct of the window bounds its IO cycle and gains one "
      "boost level ((P1+min)/2, P1, max); otherwise (the device dominates, "
      "or no IO) it loses one. HWP parts: the level is the HWP MIN; "
      "otherwise it floors intel_pstate's busy-percent P-state.";
  info.params = {
      {"sample_period_ms", int64_t{10},
       "ms per window (intel_pstate's sampling interval, v6.1)"},
      {"cpu_bound_busy_pct", int64_t{50},
       "busy % of an IO window from which the CPU counts as the bottleneck "
       "(modelling choice)"},
      {"min_io_wakeups", int64_t{2},
       "IO wakeups per window that make an IO pattern (as HWP dynamic "
       "boost's two)"},
      {"epp", std::string("balance_performance"),
       "EPP of the HWP requests: performance (0), balance_performance "
       "(128), balance_power (192), power (255) or 0..255"},
  };
  info.make_freq = [](const platform::Params& p)
      -> absl::StatusOr<std::unique_ptr<platform::FreqGovernor>> {
    IoUtilGovernor::Options o;
    const int64_t period_ms = p.GetInt("sample_period_ms");
    const int64_t busy_pct = p.GetInt("cpu_bound_busy_pct");
    const int64_t wakeups = p.GetInt("min_io_wakeups");
    if (period_ms < 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "io_util: sample_period_ms must be >= 1, got ", period_ms));
    }
    if (busy_pct < 0 || busy_pct > 100) {
      return absl::InvalidArgumentError(absl::StrCat(
          "io_util: cpu_bound_busy_pct must be in 0..100, got ", busy_pct));
    }
    if (wakeups < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("io_util: min_io_wakeups must be >= 1, got ", wakeups));
    }
    absl::StatusOr<int> epp = ParseEpp(p.GetString("epp"));
    if (!epp.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("io_util: ", epp.status().message()));
    }
    o.sample_period_ns = period_ms * 1'000'000;
    o.cpu_bound_busy_pct = static_cast<int>(busy_pct);
    o.min_io_wakeups = static_cast<int>(wakeups);
    o.epp = *epp;
    return std::make_unique<IoUtilGovernor>(o);
  };
  return info;
}

SCHEDSIM_REGISTER_POLICY(IoUtilInfo());

}  // namespace

}  // namespace schedsim::governors
