// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/governor_loop.h"

#include <time.h>

#include <cerrno>
#include <csignal>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "platform/linux/stop_signals.h"

namespace schedsim::platform::host {
namespace {

class MonotonicClock final : public LoopClock {
 public:
  int64_t NowNs() override {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
  }
  void SleepUntilNs(int64_t deadline_ns) override {
    struct timespec ts;
    ts.tv_sec = deadline_ns / 1'000'000'000;
    ts.tv_nsec = deadline_ns % 1'000'000'000;
    while (!ScopedStopSignals::StopRequested()) {
      const int rc =
          clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr);
      if (rc != EINTR) return;
    }
  }
};

}  // namespace

LoopClock& MonotonicLoopClock() {
  static MonotonicClock* clock = new MonotonicClock();
  return *clock;
}

absl::StatusOr<GovernorLoopResult> RunGovernorLoop(
    FreqGovernor& governor, LinuxCpufreq& cpufreq,
    const GovernorLoopOptions& options) {
  if (options.period_ns <= 0 || options.duration_ns < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "RunGovernorLoop: period_ns must be > 0 (got ", options.period_ns,
        ") and duration_ns >= 0 (got ", options.duration_ns, ")"));
  }
  LoopClock& clock =
      options.clock != nullptr ? *options.clock : MonotonicLoopClock();
  GovernorLoopResult result;

  const auto drain = [&]() -> absl::Status {
    for (const auto& d : cpufreq.domains()) {
      for (const LinuxFreqAction& a : d->TakeActions()) {
        ++result.actions;
        if (options.log != nullptr) *options.log << FormatAction(a);
      }
    }
    if (options.log != nullptr) {
      options.log->flush();
      // The reader went away (SIGPIPE is ignored: EPIPE): stop, restore.
      if (options.log->fail() && !ScopedStopSignals::StopRequested()) {
        ScopedStopSignals::RequestStop(SIGPIPE);
      }
    }
    for (const auto& d : cpufreq.domains()) {
      if (!d->status().ok()) return d->status();
    }
    return absl::OkStatus();
  };

  const int64_t start_ns = clock.NowNs();
  absl::Status s = cpufreq.Sample(0);
  if (!s.ok()) return s;
  for (const auto& d : cpufreq.domains()) governor.Start(*d);
  s = drain();
  if (!s.ok()) return s;

  int64_t next_ns = start_ns + options.period_ns;
  while (!ScopedStopSignals::StopRequested()) {
    if (options.duration_ns > 0 && next_ns - start_ns > options.duration_ns) {
      break;
    }
    clock.SleepUntilNs(next_ns);
    if (ScopedStopSignals::StopRequested()) break;
    const int64_t now_ns = clock.NowNs();
    s = cpufreq.Sample(now_ns - start_ns);
    if (!s.ok()) return s;
    for (const auto& d : cpufreq.domains()) {
      const topology::CpuSet& cpus = d->cpus();
      for (int cpu = cpus.First(); cpu >= 0; cpu = cpus.Next(cpu)) {
        const CpuObservation& o = cpufreq.observation(cpu);
        if (!o.online) continue;
        const uint32_t flags =
            options.iowait_flag && o.iowait ? kUtilIowait : 0u;
        governor.UpdateUtil(*d, cpu, flags);
      }
    }
    s = drain();
    if (!s.ok()) return s;
    ++result.periods;
    if (options.after_period) options.after_period(result.periods);
    next_ns += options.period_ns;
    // Overran (a slow sample, a stopped process): skip the missed periods.
    if (next_ns <= now_ns) next_ns = now_ns + options.period_ns;
  }
  result.stop_signal = ScopedStopSignals::StopSignal();
  return result;
}

}  // namespace schedsim::platform::host
