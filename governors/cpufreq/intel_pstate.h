// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// intel_pstate in active mode without HWP, Linux v6.1
// drivers/cpufreq/intel_pstate.c (intel_pstate_update_util,
// get_target_pstate): every 10 ms the utilization hook samples
// APERF/MPERF/TSC and asks for 1.25 x top P-state x busy fraction, damped
// towards the last average P-state, with an IO-wait boost that starts at
// 1/8 and doubles per IO wakeup within a tick. In our own words (no kernel
// source copied), per scheduler callback on the local CPU:
//   1. IO-wait boost, with delta = the time since the last callback: with
//      the IOWAIT flag, restart at 1/8 if delta is over a tick (the CPU may
//      have idled), else double it up to 1 (1/8 if it was below); without
//      the flag, clear it after more than a tick, else halve it. Then
//      remember the time.
//   2. Return if less than INTEL_PSTATE_SAMPLING_INTERVAL (10 ms) passed
//      since the last sample.
//   3. Sample the APERF, MPERF and TSC deltas; skip if MPERF or TSC did
//      not move.
//   4. The target P-state: (4.1) busy = delta MPERF / delta TSC (the C0
//      fraction), (4.2) at least the IO-wait boost, (4.3) target = top x
//      1.25 x busy (top = the turbo P-state, or the maximum with no_turbo),
//      at least the minimum P-state, (4.4) if the average P-state of the
//      period (max physical x delta APERF / delta MPERF) is above it, move
//      half way up to it, (5) clamp to the policy limits and write
//      IA32_PERF_CTL when it changed. 80 % busy already asks for the top.
// The IO-wait boost before 2018 (the 4.14-era intel_pstate.c; replaced by
// "cpufreq: intel_pstate: Optimize IO boost in non HWP mode", Srinivas
// Pandruvada, 2018): any IOWAIT callback set it to 100 % and went straight
// to sampling (step 3, skipping step 2's interval) unless the last sample
// was already 100 % busy; it was cleared after a tick without one and
// halved per 10 ms sample (IowaitBoostMode::kFull).
// A callback made on another CPU (platform::kUtilRemote) is ignored, as
// intel_pstate_update_util() does since v4.14 (674e75411fc2).
// Simplifications: the average P-state is
// the exact floor of the ratio, not the kernel's extended fixed point (may
// differ by one); SMT siblings are resolved here (the domain gets the
// highest recent vote), not by the core; Start takes the first sample.

#ifndef SCHEDSIM_GOVERNORS_CPUFREQ_INTEL_PSTATE_H_
#define SCHEDSIM_GOVERNORS_CPUFREQ_INTEL_PSTATE_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "platform/cpufreq.h"
#include "platform/drivers/intel_pstate.h"

namespace schedsim::governors {

// Fixed point with 8 fraction bits (FRAC_BITS of intel_pstate.c).
inline constexpr int kPstateFracBits = 8;
inline constexpr int32_t kPstateOneFp = 1 << kPstateFracBits;
// ONE_EIGHTH_FP: the first step of the IO-wait boost (step 1 above).
inline constexpr int32_t kPstateOneEighthFp = kPstateOneFp >> 3;

// The P-state range, the policy ratios and the PERF_CTL write are the
// driver's (platform/drivers/intel_pstate.h).
using platform::drivers::PstateRange;
using platform::drivers::PstateRangeOf;
using platform::drivers::SetPstate;

// The busy-percent target of get_target_pstate (step 4 above):
// `top` = max_pstate if `no_turbo`, else turbo_pstate; target =
// (top + top/4) x busy_fp / 2^8, at least min_pstate; if `avg_pstate` is
// above it, the target moves half way up to it. Not clamped to the policy.
int BusyPercentTargetPstate(const PstateRange& range, int32_t busy_fp,
                            int avg_pstate, bool no_turbo);

// Clamps a target to [max(min_pstate, min_perf_ratio),
// max(that, min(max_perf_ratio, top))] (step 5 above).
int ClampTargetPstate(const PstateRange& range, int target, bool no_turbo);

class IntelPstateGovernor final : public platform::FreqGovernor {
 public:
  // How an IO wakeup raises the busy fraction (the file comment).
  enum class IowaitBoostMode {
    kDoubling,  // since 2018: 1/8, doubled per IO wakeup within a tick
    kFull,      // 4.14 era: 100 % at once, halved per sample
    kOff,       // no IO-wait boost
  };

  struct Options {
    // INTEL_PSTATE_SAMPLING_INTERVAL = 10 ms (intel_pstate.c, v6.1).
    int64_t sampling_interval_ns = 10'000'000;
    IowaitBoostMode iowait_boost_mode = IowaitBoostMode::kDoubling;
    // intel_pstate/no_turbo: cap at the base P-state. Default off.
    bool no_turbo = false;
  };

  explicit IntelPstateGovernor(const Options& options) : options_(options) {}

  absl::string_view name() const override { return "intel_pstate"; }

  // Sizes the per-CPU state for `domain`'s CPUs and takes their first
  // counter sample. Mirrors intel_pstate_init_cpu + set_update_util_hook.
  void Start(platform::FreqDomain& domain) override;

  // intel_pstate_update_util: updates `cpu`'s IO-wait boost from `flags`
  // (kUtilIowait), and if a sampling interval has passed since its last
  // sample, computes its target P-state and asks the domain for the highest
  // recent target among its CPUs with SetTargetKhz (P-state x 100 MHz) when
  // that changed. Does not allocate.
  void UpdateUtil(platform::FreqDomain& domain, int cpu,
                  uint32_t flags) override;

  // --- Introspection (tests, traces) ---------------------------------------
  // `cpu`'s current IO-wait boost as a fraction of 1 (0 .. 1).
  double iowait_boost(int cpu) const;
  // `cpu`'s last target P-state (0 before its first sample).
  int target_pstate(int cpu) const;

 private:
  struct CpuState {
    int64_t last_update_ns = 0;  // last callback (for the tick test)
    int64_t sample_time_ns = 0;  // last sample
    platform::CpuCounters prev;  // counters at the last sample
    int32_t iowait_boost_fp = 0;
    int32_t busy_scaled_fp = 0;  // the last sample's busy, boost included
    int target_pstate = 0;       // 0: no vote yet
  };
  struct DomainState {
    int requested_pstate = 0;  // last value written, 0: none
  };

  void UpdateIowaitBoost(CpuState& c, int64_t now_ns, int64_t tick_ns,
                         uint32_t flags) const;

  Options options_;
  std::vector<CpuState> cpus_;        // by CPU id
  std::vector<DomainState> domains_;  // by domain id
};

}  // namespace schedsim::governors

#endif  // SCHEDSIM_GOVERNORS_CPUFREQ_INTEL_PSTATE_H_
