// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// io_util: an IO-aware boost in the spirit of Francisco Jerez's unmerged
// intel_pstate series ("GPU-bound energy efficiency improvements for the
// intel_pstate driver", 2018 v1,
// https://marc.info/?l=linux-pm&m=152221943320908; v2, LKML Message-ID
// 20200310214203.26459-1-currojerez@riseup.net; v2.99,
// 20200428032258.2518-1-currojerez@riseup.net): raise the
// frequency for IO-alternating work only when the CPU, not the IO device,
// bounds the IO cycle.
// Model: per sampling window, a CPU with at least `min_io_wakeups` IO
// wakeups and a busy fraction of at least `cpu_bound_busy_pct` is
// CPU-bound (its bursts dominate the IO cycle, so a faster clock shortens
// it); one boost level is added per such window (hwp_boost's levels:
// (P1+min)/2, P1, max) and removed per other window.
// Simplifications (not Jerez's design): time not busy in an IO window is
// taken as device time (no device statistic, no PM QoS from drivers), and
// a step filter stands in for his variably low-pass-filtered controller.

#ifndef SCHEDSIM_GOVERNORS_CPUFREQ_IO_UTIL_H_
#define SCHEDSIM_GOVERNORS_CPUFREQ_IO_UTIL_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "governors/cpufreq/intel_pstate_hwp.h"
#include "platform/cpufreq.h"

namespace schedsim::governors {

class IoUtilGovernor final : public platform::FreqGovernor {
 public:
  // Highest boost level: (P1+min)/2, P1, max as in HWP dynamic boost.
  static constexpr int kMaxBoostLevel = 3;

  struct Options {
    // Window length; intel_pstate's 10 ms sampling interval
    // (INTEL_PSTATE_SAMPLING_INTERVAL).
    int64_t sample_period_ns = 10'000'000;
    // Busy share of an IO window from which the CPU counts as the
    // bottleneck: at 50 % a 2x clock cuts the cycle by a quarter (Amdahl).
    // Modelling choice, not from the kernel.
    int cpu_bound_busy_pct = 50;
    // IO wakeups per window that make an IO pattern; 2 as HWP dynamic
    // boost's "two in two ticks" (intel_pstate_hwp.h, step 2).
    int min_io_wakeups = 2;
    // EPP of the HWP requests (HWP parts only).
    int epp = kEppBalancePerformance;
  };

  explicit IoUtilGovernor(const Options& options) : options_(options) {}

  absl::string_view name() const override { return "io_util"; }

  // Sizes the per-CPU state and takes the first counter sample. On HWP
  // parts writes MIN/MAX from the policy limits, DESIRED 0 and the EPP.
  void Start(platform::FreqDomain& domain) override;

  // Counts kUtilIowait updates of `cpu`; when a window has passed, reads
  // its busy fraction (MPERF/TSC), moves its boost level one step and acts:
  // on HWP parts `cpu`'s MIN = the level's performance, otherwise the
  // domain's P-state = max over its recently updated CPUs of
  // max(intel_pstate's busy-percent target, the level). Does not allocate.
  void UpdateUtil(platform::FreqDomain& domain, int cpu,
                  uint32_t flags) override;

  // --- Introspection -------------------------------------------------------
  // `cpu`'s boost level, 0 (none) .. kMaxBoostLevel.
  int boost_level(int cpu) const;
  // `cpu`'s busy percentage in its last window with IO wakeups (0 if none):
  // the CPU's share of the IO cycle; 100 minus it is the estimated device
  // share.
  int cpu_share_pct(int cpu) const;

 private:
  struct CpuState {
    int64_t window_start_ns = 0;
    int64_t last_update_ns = 0;
    platform::CpuCounters prev;
    int io_wakeups = 0;
    int level = 0;
    int cpu_share_pct = 0;
    int target_pstate = 0;     // non-HWP vote, 0: none
    int written_min_perf = 0;  // HWP: MIN and MAX last written
    int written_max_perf = 0;
  };
  struct DomainState {
    int requested_pstate = 0;  // non-HWP: last written
  };

  // The MIN (HWP) or P-state floor of boost `level`.
  static int LevelPerf(int level, int min_perf, int max_perf, int guaranteed);

  Options options_;
  std::vector<CpuState> cpus_;        // by CPU id
  std::vector<DomainState> domains_;  // by domain id
};

}  // namespace schedsim::governors

#endif  // SCHEDSIM_GOVERNORS_CPUFREQ_IO_UTIL_H_
