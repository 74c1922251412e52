// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The idle side of the abstraction layer: what a cpuidle governor sees of one
// CPU (the kernel's struct cpuidle_device and its driver's state table) and
// the governor's hooks (struct cpuidle_governor: enable, select, reflect).
// The simulator, a real Linux machine (shadow evaluation) and the scripted
// test kit implement IdleDevice; governors implement IdleGovernor.
//
// All times are nanoseconds. Latencies and residencies are the ADVERTISED
// table values (what the kernel's governors see); what the hardware really
// costs is the backend's business.

#ifndef SCHEDSIM_PLATFORM_CPUIDLE_H_
#define SCHEDSIM_PLATFORM_CPUIDLE_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "topology/topology.h"

namespace schedsim::platform {

// Per-state counters, as in /sys/devices/system/cpu/cpuN/cpuidle/stateK.
struct IdleStateStats {
  uint64_t usage = 0;   // times entered
  int64_t time_ns = 0;  // total residency
  uint64_t above = 0;   // residency shorter than the state's target
                        // residency, a shallower state enabled ("too deep")
  uint64_t below = 0;   // residency less the exit latency long enough for
                        // the next enabled state ("too shallow")
  uint64_t rejected = 0;
};

// One CPU as its idle governor sees it.
class IdleDevice {
 public:
  virtual ~IdleDevice() = default;

  virtual int cpu() const = 0;
  // The driver's state table; state 0 is POLL on intel_idle and acpi_idle.
  virtual int state_count() const = 0;
  virtual const topology::CState& state(int index) const = 0;
  // Disabled by the user (sysfs `disable`) or by the driver.
  virtual bool state_disabled(int index) const { return state(index).disabled; }
  virtual const IdleStateStats& stats(int index) const = 0;

  // The current time.
  virtual int64_t now_ns() const = 0;
  // tick_nohz_get_sleep_length(): time until the next timer event assuming
  // the tick is stopped; *delta_tick_ns gets the time until the next tick.
  virtual int64_t sleep_length_ns(int64_t* delta_tick_ns) const = 0;
  // cpuidle_governor_latency_req(): the PM QoS limit in force for this CPU
  // (min of the CPU's resume latency and the global cpu_dma_latency).
  virtual int64_t latency_limit_ns() const = 0;
  // Measured residency of the idle period that just ended (valid in
  // Reflect): from the state's entry to the end of its exit, as
  // cpuidle_enter_state() (drivers/cpuidle/cpuidle.c, v6.1) measures it.
  virtual int64_t last_residency_ns() const = 0;
  // True when the last POLL period ended by its time limit rather than by a
  // wake-up (dev->poll_time_limit).
  virtual bool poll_time_limit() const { return false; }
  // nr_iowait_cpu(): tasks that went to sleep in iowait from this CPU and
  // have not woken yet (menu 6.1 uses it).
  virtual int nr_iowait() const { return 0; }
  // sched_cpu_util() (kernel/sched/fair.c): the CPU's utilization as the
  // scheduler's PELT sees it when the CPU goes idle, 0..cpu_capacity();
  // teo version 6.3 reads it. 0 where unknown (traces).
  virtual int64_t cpu_util() const { return 0; }
  // arch_scale_cpu_capacity(): the CPU's capacity, 1024 for the biggest.
  virtual int64_t cpu_capacity() const { return 1024; }
  // True if the periodic tick is already stopped on this CPU.
  virtual bool tick_stopped() const { return false; }
  // TICK_NSEC of the machine.
  virtual int64_t tick_period_ns() const = 0;
  // dev->poll_limit_ns: a governor's time limit for the POLL state of this
  // CPU, which cpuidle_poll_time() (drivers/cpuidle/cpuidle.c, v6.1)
  // returns instead of its own when non-zero; haltpoll sets it to its
  // window (drivers/cpuidle/governors/haltpoll.c adjust_poll_limit()). 0 =
  // the cpuidle core's limit. A backend that cannot bound POLL ignores it
  // (the governor then accounts the overrun itself).
  virtual void set_poll_limit_ns(int64_t /*ns*/) {}
};

// A cpuidle governor. One object serves every CPU of a machine (keep
// per-CPU state in arrays sized in Enable). Hooks must not allocate after
// Enable.
class IdleGovernor {
 public:
  virtual ~IdleGovernor() = default;

  virtual absl::string_view name() const = 0;

  // cpuidle_governor::enable: once per CPU before its first Select.
  virtual void Enable(IdleDevice& /*dev*/) {}

  // cpuidle_governor::select: called each time `dev` is about to go idle.
  // Returns the index of an enabled state; sets *stop_tick to false to keep
  // the periodic tick running (which bounds the idle period by the next
  // tick). The caller checks the answer: an out-of-range or disabled index
  // stops the run with an error.
  virtual int Select(IdleDevice& dev, bool* stop_tick) = 0;

  // cpuidle_governor::reflect: called after the wake-up's exit with the
  // state that was entered (cpuidle_idle_call() calls cpuidle_reflect()
  // once cpuidle_enter_state() returned); dev.last_residency_ns() is the
  // measured residency.
  virtual void Reflect(IdleDevice& /*dev*/, int /*index*/) {}
};

}  // namespace schedsim::platform

#endif  // SCHEDSIM_PLATFORM_CPUIDLE_H_
