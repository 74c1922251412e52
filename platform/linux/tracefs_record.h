// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Recording a few seconds of this machine's scheduler and idle events from
// tracefs into an ftrace text file, for `schedsim shadow --live`: the
// events named are enabled, the ring buffer is cleared, tracing runs for
// the duration, and the `trace` file is copied out. Every setting touched
// (tracing_on, each event's enable) is put back afterwards, also when the
// recording fails halfway.

#ifndef SCHEDSIM_PLATFORM_LINUX_TRACEFS_RECORD_H_
#define SCHEDSIM_PLATFORM_LINUX_TRACEFS_RECORD_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace schedsim::platform::host {

struct TracefsRecordOptions {
  // The tracefs mount ("/sys/kernel/tracing"; older kernels:
  // /sys/kernel/debug/tracing).
  std::string root = "/sys/kernel/tracing";
  // "system/event" names, e.g. "power/cpu_idle", "sched/sched_switch".
  std::vector<std::string> events;
  int64_t duration_ns = 0;
  // Per-CPU buffer size to ask for, KiB; 0: leave it.
  int64_t buffer_kb = 0;
  // Where the recorded `trace` text goes.
  std::string out_file;
  // Waits the duration (tests pass their own); returns early when a stop
  // was requested. Null: sleeps, stopping on SIGINT/SIGTERM.
  std::function<void(int64_t duration_ns)> wait;
};

// The events `schedsim shadow` reads: cpu_idle for cpuidle governors; the
// wake-up and switch events for placement policies.
std::vector<std::string> ShadowLiveEvents(bool cpuidle);

// Records; the error names the file that could not be read or written and
// what to do (mount tracefs, run as root).
absl::Status RecordTracefs(const TracefsRecordOptions& options);

}  // namespace schedsim::platform::host

#endif  // SCHEDSIM_PLATFORM_LINUX_TRACEFS_RECORD_H_
