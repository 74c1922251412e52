// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The frequency side of the abstraction layer: what a cpufreq governor (or
// an intel_pstate-like driver in active mode) sees of one frequency domain
// (the kernel's struct cpufreq_policy plus the scheduler's utilization
// signals and the APERF/MPERF/TSC counters), and the hook through which the
// scheduler drives it (cpufreq_update_util).
//
// Frequencies are kHz, times nanoseconds, utilization in capacity units
// (SCHED_CAPACITY_SCALE = 1024 is the biggest CPU at its highest frequency).

#ifndef SCHEDSIM_PLATFORM_CPUFREQ_H_
#define SCHEDSIM_PLATFORM_CPUFREQ_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "topology/cpuset.h"
#include "topology/topology.h"

namespace schedsim::platform {

inline constexpr int64_t kCapacityScale = 1024;

// Flags passed with a utilization update (include/linux/sched/cpufreq.h).
enum UtilUpdateFlags : uint32_t {
  kUtilIowait = 1u << 0,  // SCHED_CPUFREQ_IOWAIT: a task woke from iowait
  // The callback runs on another CPU than the one whose utilization
  // changed: the waker enqueued on a busy CPU of its LLC itself
  // (cpufreq_update_util() for a remote runqueue, allowed since v4.14,
  // 674e75411fc2 "sched: cpufreq: Allow remote cpufreq callbacks"; the
  // kernel has no such flag, the driver compares smp_processor_id()).
  kUtilRemote = 1u << 1,
};

// Utilization of one CPU as schedutil's sugov_get_util reads it.
struct CpuUtil {
  int64_t util_cfs = 0;  // PELT util_avg of the fair class (with util_est)
  int64_t util_rt = 0;   // RT class
  int64_t capacity = kCapacityScale;  // arch_scale_cpu_capacity
  // Effective uclamp bounds of the runqueue (0..1024).
  int64_t uclamp_min = 0;
  int64_t uclamp_max = kCapacityScale;
  bool rt_runnable = false;  // an RT task is runnable: go to max
};

// Free-running counters of one CPU (cumulative; governors take deltas).
struct CpuCounters {
  uint64_t aperf = 0;  // cycles at the actual frequency while in C0
  uint64_t mperf = 0;  // cycles at the base (TSC) frequency while in C0
  uint64_t tsc = 0;    // cycles at the base frequency, always
};

// An IA32_HWP_REQUEST, in performance units (HwpCaps scale).
struct HwpRequest {
  int min_perf = 0;
  int max_perf = 0;
  int desired_perf = 0;  // 0: let the hardware choose
  int epp = 128;         // 0 performance .. 255 power save
};

// One frequency domain (cpufreq policy) as its governor sees it.
class FreqDomain {
 public:
  virtual ~FreqDomain() = default;

  virtual int id() const = 0;
  virtual const topology::CpuSet& cpus() const = 0;
  virtual const topology::FrequencySpec& spec() const = 0;
  // scaling_min_freq / scaling_max_freq currently in force.
  virtual int64_t policy_min_khz() const = 0;
  virtual int64_t policy_max_khz() const = 0;
  // The frequency the domain runs at now (what APERF/MPERF would show).
  virtual int64_t current_khz() const = 0;
  // The last target requested (policy->cur in the kernel).
  virtual int64_t requested_khz() const = 0;

  virtual int64_t now_ns() const = 0;
  virtual int64_t tick_period_ns() const = 0;
  virtual CpuUtil util(int cpu) const = 0;
  virtual CpuCounters counters(int cpu) const = 0;
  // arch_scale_freq_invariant(): whether util() is scaled by frequency (x86
  // since v5.7 when APERF/MPERF are usable), a property of the kernel, not
  // of the governor. schedutil's get_next_freq() reads it
  // (kernel/sched/cpufreq_schedutil.c, v6.1): invariant utilization maps
  // onto cpuinfo.max_freq, non-invariant onto policy->cur.
  virtual bool frequency_invariant() const { return true; }

  // Fast switch: ask for `khz`, clamped to the policy limits (and, without
  // HWP, to an available P-state). Takes effect after the transition
  // latency.
  virtual void SetTargetKhz(int64_t khz) = 0;
  // Writes `cpu`'s HWP request. REQUIRES: spec().has_hwp.
  virtual void SetHwpRequest(int cpu, const HwpRequest& request) = 0;
};

// A frequency governor. One object serves every domain of a machine.
class FreqGovernor {
 public:
  virtual ~FreqGovernor() = default;

  virtual absl::string_view name() const = 0;

  // Once per domain before the first update.
  virtual void Start(FreqDomain& /*domain*/) {}

  // cpufreq_update_util(): called by the scheduler when `cpu`'s
  // utilization changes (its PELT signal decays across a 1024 us period, or
  // a task's signal is attached or removed; seen at enqueue, dequeue and
  // the tick: cfs_rq_util_change() in kernel/sched/fair.c, Linux 6.1), on
  // every RT enqueue, and with kUtilIowait on every enqueue of a task that
  // slept in iowait. Must not allocate.
  virtual void UpdateUtil(FreqDomain& domain, int cpu, uint32_t flags) = 0;
};

}  // namespace schedsim::platform

#endif  // SCHEDSIM_PLATFORM_CPUFREQ_H_
