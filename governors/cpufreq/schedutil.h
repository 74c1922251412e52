// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The "schedutil" cpufreq governor, Linux v6.1 kernel/sched/cpufreq_schedutil.c
// (with effective_cpu_util() of kernel/sched/core.c and uclamp_rq_util_with()
// of kernel/sched/sched.h; Documentation/scheduler/schedutil.rst): on each
// utilization update, at most once per rate limit, ask for 1.25 x max_freq x
// util / capacity, util = the busiest CPU's CFS + RT utilization,
// uclamp-clamped (capacity while RT is runnable), floored by its iowait
// boost. In our own words (no kernel source copied):
//   1. Utilization (sugov_get_util -> effective_cpu_util): full capacity if
//      uclamp is not in use and an RT task is runnable; else CFS
//      (max(util_avg, util_est), at most capacity) + RT, clamped by the
//      runqueue's uclamp, plus IRQ and DEADLINE terms, at most capacity.
//   2. Frequency (get_next_freq): max_freq x (util + util/4) / capacity
//      (map_util_perf, map_util_freq), then the driver's next supported
//      frequency at or above it; a shared policy uses its CPU with the
//      largest util / capacity.
//   3. Rate limit: rate_limit_us defaults to
//      cpufreq_policy_transition_delay_us() (drivers/cpufreq/cpufreq.c: the
//      driver's transition_delay_us, else min(latency x 1000, 10 ms), else
//      1 ms); an update is allowed once that much time passed or the
//      limits changed.
//   4. Busy hold (single-CPU policies): a CPU that has not idled since the
//      last update keeps its frequency rather than lowering it, unless
//      uclamp caps it.
//   5. iowait boost (IOWAIT_BOOST_MIN = 1024/8): an IOWAIT update starts the
//      boost at 128 or doubles it (at most 1024, once per update period);
//      more than a tick without an update resets it; each frequency
//      computation without a new IOWAIT update halves it (0 below 128); the
//      boost, scaled to capacity and uclamp-clamped, floors the
//      utilization.
//   6. Drivers with fast_switch (intel_cpufreq, amd-pstate) are programmed
//      from scheduler context, others through an irq_work and a kthread.
// Simplifications: no DEADLINE or IRQ utilization; uclamp is "in
// use" on a runqueue with non-default clamps (the kernel's key is global);
// "has not idled" (single-CPU domains) is read from MPERF/TSC; targets are
// compared before the driver resolves them (no resolve_freq); on HWP the
// adjust_perf request is written only when it changes.

#ifndef SCHEDSIM_GOVERNORS_CPUFREQ_SCHEDUTIL_H_
#define SCHEDSIM_GOVERNORS_CPUFREQ_SCHEDUTIL_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "governors/cpufreq/cpufreq_common.h"
#include "platform/cpufreq.h"

namespace schedsim::governors {

// IOWAIT_BOOST_MIN = SCHED_CAPACITY_SCALE / 8, v6.1 (step 5 above).
inline constexpr int64_t kSugovIowaitBoostMin = platform::kCapacityScale / 8;

// effective_cpu_util(cpu, util_cfs, FREQUENCY_UTIL) over what CpuUtil
// carries (step 1 above): full capacity when an RT task is runnable and
// uclamp is not in use; otherwise min(util_cfs, capacity) + util_rt,
// clamped by the runqueue's uclamp, at most capacity.
int64_t SugovEffectiveUtil(const platform::CpuUtil& u);

// uclamp_rq_util_with(rq, util, NULL) (kernel/sched/sched.h, v6.1): clamp(util,
// min, max), or the minimum when min >= max.
int64_t SugovUclampUtil(int64_t util, const platform::CpuUtil& u);

// uclamp_rq_is_capped(): uclamp in use, max clamp below 1024, and
// util_cfs + util_rt at or above it.
bool SugovUclampCapped(const platform::CpuUtil& u);

// get_next_freq() before resolution (step 2 above):
// ref_khz x (util + util/4) / capacity, in integer arithmetic as the
// kernel (map_util_perf, map_util_freq). REQUIRES: capacity > 0.
int64_t SugovNextFreqKhz(int64_t util, int64_t capacity, int64_t ref_khz);

class SchedutilGovernor final : public platform::FreqGovernor {
 public:
  struct Options {
    // Minimum time between frequency changes; < 0: the kernel default,
    // cpufreq_policy_transition_delay_us (TransitionDelayUs). 0: none.
    int64_t rate_limit_us = -1;
    // false: no iowait boost.
    bool iowait_boost = true;
  };

  // InvalidArgument when rate_limit_us < -1.
  static absl::Status Validate(const Options& options);

  // REQUIRES: Validate(options).ok().
  explicit SchedutilGovernor(const Options& options) : options_(options) {}

  absl::string_view name() const override { return "schedutil"; }

  // sugov_start: sizes the per-CPU and per-domain state, sets the rate
  // limit, clears the boosts; the first update may change the frequency.
  void Start(platform::FreqDomain& domain) override;

  // sugov_update_single_freq (one-CPU domains) / sugov_update_shared:
  // updates `cpu`'s iowait boost from `flags`; if the rate limit allows
  // (or the policy limits changed), computes the next frequency and, when
  // it differs from the last one, asks for it:
  //   * a driver without adjust_perf (acpi-cpufreq), or not frequency
  //     invariant: cpufreq_driver_fast_switch (CpufreqDriver::FastSwitch;
  //     on HWP, intel_cpufreq's MIN = DESIRED = the target ratio);
  //   * a driver with adjust_perf (intel_cpufreq with HWP), frequency
  //     invariant: cpufreq_driver_adjust_perf, an HWP request on each CPU
  //     with DESIRED = ceil(HIGHEST x 1.25 util / capacity), MIN/MAX = the
  //     policy ratios (platform/drivers/intel_cpufreq.h).
  // Does not allocate.
  void UpdateUtil(platform::FreqDomain& domain, int cpu,
                  uint32_t flags) override;

  // --- Introspection (tests, traces) ---------------------------------------
  // `cpu`'s iowait boost in capacity units (0, or 128 .. 1024).
  int64_t iowait_boost(int cpu) const { return cpus_[cpu].iowait_boost; }
  // The domain's last target (kHz, clamped to the policy; HWP: the ratio x
  // khz_per_perf_unit); 0 before the first.
  int64_t next_khz(int domain_id) const { return domains_[domain_id].next_khz; }
  int64_t rate_limit_us(int domain_id) const {
    return domains_[domain_id].rate_limit_ns / 1000;
  }

 private:
  struct CpuState {
    int64_t last_update_ns = 0;
    int64_t iowait_boost = 0;  // capacity units
    bool iowait_boost_pending = false;
    // Counters at the last busy test (sugov_cpu_is_busy's saved_idle_calls).
    uint64_t saved_mperf = 0;
    uint64_t saved_tsc = 0;
  };
  struct DomainState {
    int64_t rate_limit_ns = 0;
    int64_t last_freq_update_ns = 0;
    int64_t next_khz = 0;  // sg_policy->next_freq
    int64_t cur_khz = 0;   // policy->cur
    bool single = false;   // one CPU: sugov_update_single_freq
    bool limits_changed = false;
    bool need_freq_update = false;
    LimitsWatch limits;
  };

  // sugov_iowait_boost / sugov_iowait_reset / sugov_iowait_apply.
  void IowaitBoost(CpuState& c, int64_t now_ns, int64_t tick_ns,
                   uint32_t flags) const;
  bool IowaitReset(CpuState& c, int64_t now_ns, int64_t tick_ns,
                   bool set) const;
  int64_t IowaitApply(CpuState& c, int64_t now_ns, int64_t tick_ns,
                      int64_t util, const platform::CpuUtil& u,
                      int64_t capacity) const;
  // sugov_cpu_is_busy: no idle since the last test.
  bool CpuIsBusy(const platform::FreqDomain& domain, int cpu,
                 CpuState& c) const;
  // The next target from `util`, clamped to the policy limits (and, on
  // HWP, rounded up to a whole ratio within the policy ratios).
  int64_t NextKhz(const platform::FreqDomain& domain, const DomainState& d,
                  int64_t util, int64_t capacity) const;
  void Write(platform::FreqDomain& domain, DomainState& d, int64_t khz) const;

  Options options_;
  std::vector<CpuState> cpus_;        // by CPU id
  std::vector<DomainState> domains_;  // by domain id
};

}  // namespace schedsim::governors

#endif  // SCHEDSIM_GOVERNORS_CPUFREQ_SCHEDUTIL_H_
