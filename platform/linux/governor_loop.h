// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// RunGovernorLoop: drives a frequency governor on the real machine through
// the Linux backend, the way the kernel drives cpufreq governors from the
// scheduler, but from a user-space loop:
//
//   1. Sample once (the baseline) and Start() the governor on every
//      domain (cpufreq policy).
//   2. Every period: sleep until the next period boundary; Sample(); for
//      each domain, for each of its online CPUs, UpdateUtil(domain, cpu,
//      flags) with kUtilIowait when the CPU's iowait time grew; log every
//      action the domains recorded; stop at the first failed action.
//   3. Return when the duration has elapsed, or when SIGINT/SIGTERM asked
//      to stop (ScopedStopSignals, which the caller installs).
//
// The loop never restores settings: the caller's SettingsSnapshot does,
// from the main thread, after the loop returns.

#ifndef SCHEDSIM_PLATFORM_LINUX_GOVERNOR_LOOP_H_
#define SCHEDSIM_PLATFORM_LINUX_GOVERNOR_LOOP_H_

#include <cstdint>
#include <functional>
#include <ostream>

#include "absl/status/statusor.h"
#include "platform/cpufreq.h"
#include "platform/linux/linux_cpufreq.h"

namespace schedsim::platform::host {

// Time for the loop. Tests substitute one that does not sleep.
class LoopClock {
 public:
  virtual ~LoopClock() = default;
  // A monotonic time in ns.
  virtual int64_t NowNs() = 0;
  // Returns at `deadline_ns` (NowNs() scale), or earlier once
  // ScopedStopSignals::StopRequested().
  virtual void SleepUntilNs(int64_t deadline_ns) = 0;
};

// CLOCK_MONOTONIC with clock_nanosleep; a signal interrupts the sleep.
LoopClock& MonotonicLoopClock();

struct GovernorLoopOptions {
  int64_t period_ns = 10'000'000;
  // Run this long (whole periods: duration / period of them); 0: until
  // SIGINT or SIGTERM.
  int64_t duration_ns = 0;
  // Pass kUtilIowait for CPUs whose /proc/stat iowait time grew.
  bool iowait_flag = true;
  LoopClock* clock = nullptr;   // null: MonotonicLoopClock()
  std::ostream* log = nullptr;  // every action, FormatAction(); null: none
  // Called after each period with the number of periods done (tests use
  // it to change the machine or raise a signal).
  std::function<void(int64_t periods)> after_period;
};

struct GovernorLoopResult {
  int64_t periods = 0;
  int64_t actions = 0;
  int stop_signal = 0;  // the signal that ended the run; 0: the duration
};

// REQUIRES: options.period_ns > 0, options.duration_ns >= 0.
// Errors: a failed Sample() (naming the file), or the first failed action
// of a domain (naming the file), after logging it.
absl::StatusOr<GovernorLoopResult> RunGovernorLoop(
    FreqGovernor& governor, LinuxCpufreq& cpufreq,
    const GovernorLoopOptions& options);

}  // namespace schedsim::platform::host

#endif  // SCHEDSIM_PLATFORM_LINUX_GOVERNOR_LOOP_H_
