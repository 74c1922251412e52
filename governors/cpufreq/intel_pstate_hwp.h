// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// intel_pstate in active mode with HWP, Linux v6.1
// drivers/cpufreq/intel_pstate.c (intel_pstate_hwp_set; HWP dynamic boost
// from commit e0efd5be63e8, v4.18: intel_pstate_hwp_boost_up/_down,
// intel_pstate_update_util_hwp_local): writes HWP requests with MIN/MAX
// from the policy limits, DESIRED 0 and the chosen EPP, and with hwp_boost
// raises MIN in three steps on repeated IO wakeups. In our own words (no
// kernel source copied):
//   intel_pstate_hwp_set(), on each policy update: (1.1) MIN and MAX from
//   scaling_min/max_freq, the turbo state and min/max_perf_pct; (1.2) the
//   "performance" policy sets MIN = MAX and EPP 0; (1.3) write MIN and MAX
//   into MSR_HWP_REQUEST with DESIRED 0 (the hardware chooses) and the EPP.
//   Without hwp_boost there is no scheduler callback at all.
//   hwp_boost (commit e0efd5be63e8 "cpufreq: intel_pstate: Add HWP boost
//   utility and sched util hooks", Srinivas Pandruvada, v4.18):
//   1. The scheduler's cpufreq_update_util() callback ORs its flags into
//      the CPU's; only the local CPU acts on them.
//   2. With SCHED_CPUFREQ_IOWAIT: the flags are cleared, and the wakeup is
//      a boost candidate only if the previous IOWAIT callback on this CPU
//      was less than two ticks ago; the time is remembered.
//   3. intel_pstate_hwp_boost_up() raises only MIN, one level per
//      candidate: (P1 + min)/2, then P1 (GUARANTEED_PERF), then the
//      maximum (no level between P1 and P0), and records the time.
//   4. intel_pstate_hwp_boost_down(), on any callback without IOWAIT:
//      restores the unboosted request if more than hwp_boost_hold_time_ns
//      (3 ms) passed since the last update, then records the time.
//   5. The kernel enables it by default on Skylake and Skylake-X in an
//      Enterprise or Performance Server ACPI profile (v6.1; any server
//      profile in v6.12).
// Simplifications: every callback counts as local; policy-limit changes are
// noticed at the next callback (no limits hook); the never-merged RFC boosts
// (busy-task migration, high utilization) are not modelled.

#ifndef SCHEDSIM_GOVERNORS_CPUFREQ_INTEL_PSTATE_HWP_H_
#define SCHEDSIM_GOVERNORS_CPUFREQ_INTEL_PSTATE_HWP_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "platform/cpufreq.h"
#include "platform/drivers/intel_pstate.h"

namespace schedsim::governors {

// The EPP presets, the EPP parser and the HWP limits are the driver's
// (platform/drivers/intel_pstate.h).
using platform::drivers::HwpLimits;
using platform::drivers::HwpLimitsOf;
using platform::drivers::kEppBalancePerformance;
using platform::drivers::kEppBalancePower;
using platform::drivers::kEppPerformance;
using platform::drivers::kEppPower;
using platform::drivers::ParseEpp;

// One step of intel_pstate_hwp_boost_up (step 3 above): the next boosted
// MIN after `boost_min` (0: not boosted yet) for the unboosted request
// [`min_limit`, `max_limit`] and GUARANTEED_PERF `guaranteed`:
// (guaranteed + min_limit) / 2, then guaranteed, then max_limit (no level
// between P1 and P0). Returns `boost_min` unchanged when there is no
// further step (min == max, already at max, or above P1 below max).
int HwpBoostStepUp(int boost_min, int min_limit, int max_limit, int guaranteed);

class IntelPstateHwpGovernor final : public platform::FreqGovernor {
 public:
  struct Options {
    // EPP written into every request. Default balance_performance (0x80).
    int epp = kEppBalancePerformance;
    // The kernel's "performance" policy: MIN = MAX and EPP 0 (step 1.2
    // above).
    bool performance_policy = false;
    // sysfs intel_pstate/hwp_dynamic_boost. Off by default here; the kernel
    // turns it on for Skylake(-X) in a server ACPI profile (v6.1) or any
    // server profile (v6.12).
    bool hwp_boost = false;
    // hwp_boost_hold_time_ns = 3 ms (step 4 above).
    int64_t hwp_boost_hold_time_ns = 3'000'000;
  };

  explicit IntelPstateHwpGovernor(const Options& options) : options_(options) {}

  absl::string_view name() const override { return "intel_pstate_hwp"; }

  // intel_pstate_hwp_set for every CPU of `domain`: writes MIN/MAX from the
  // policy limits, DESIRED 0 and the EPP. REQUIRES: domain.spec().has_hwp
  // (the simulator fails the run otherwise).
  void Start(platform::FreqDomain& domain) override;

  // The scheduler hook (steps 1-4 of the file comment). Without hwp_boost the
  // kernel installs none; here it only re-applies changed policy limits. With
  // hwp_boost: a kUtilIowait update less than two ticks after the previous
  // one on `cpu` raises `cpu`'s MIN by one step; any other update restores
  // the unboosted request if more than the hold time passed since the last
  // update, and then records the time. Does not allocate.
  void UpdateUtil(platform::FreqDomain& domain, int cpu,
                  uint32_t flags) override;

  // --- Introspection -------------------------------------------------------
  // `cpu`'s boosted MIN, or 0 when not boosted.
  int boost_min_perf(int cpu) const;

 private:
  struct CpuState {
    platform::HwpRequest cached;  // the unboosted request (hwp_req_cached)
    int boost_min = 0;            // hwp_boost_min, 0: not boosted
    int64_t last_update_ns = 0;
    int64_t last_io_update_ns = 0;
  };
  struct DomainState {
    int64_t policy_min_khz = 0;
    int64_t policy_max_khz = 0;
  };

  void ApplyPolicy(platform::FreqDomain& domain);
  void BoostUp(platform::FreqDomain& domain, int cpu, int64_t now_ns);
  void BoostDown(platform::FreqDomain& domain, int cpu, int64_t now_ns);

  Options options_;
  std::vector<CpuState> cpus_;        // by CPU id
  std::vector<DomainState> domains_;  // by domain id
};

}  // namespace schedsim::governors

#endif  // SCHEDSIM_GOVERNORS_CPUFREQ_INTEL_PSTATE_HWP_H_
