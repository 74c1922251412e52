// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// How a recorded ftrace text trace is replayed (workloads/replay.h,
// docs/traces.md): which traced tasks become simulated tasks and how. Its
// own header because the public library re-exports it
// (include/schedsim/workload.h) and it depends on nothing else.

#ifndef SCHEDSIM_WORKLOADS_REPLAY_OPTIONS_H_
#define SCHEDSIM_WORKLOADS_REPLAY_OPTIONS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace schedsim::workloads {

struct ReplayOptions {
  // Tasks to keep: a pid ("1234") or a comm ("surfaceflinger"). Empty:
  // every task except the tracer's (exclude_comms). A selector matching no
  // task is an error.
  std::vector<std::string> tasks;
  // When `tasks` is empty, tasks whose last comm is one of these are left
  // out.
  std::vector<std::string> exclude_comms = {
      "trace-cmd", "perf", "atrace", "traced", "traced_probes", "perfetto"};
  // The frequency of CPUs without cpu_frequency events, in kHz (> 0).
  int64_t nominal_khz = 1000000;
  // Repeat each program forever (see workloads/replay.h).
  bool loop = false;
  // RT tasks (prio < 100) become SCHED_FIFO; false: SCHED_NORMAL nice 0.
  bool rt_as_fifo = true;
};

}  // namespace schedsim::workloads

#endif  // SCHEDSIM_WORKLOADS_REPLAY_OPTIONS_H_
