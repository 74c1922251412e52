// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// rt-app workloads: the JSON task descriptions of rt-app
// (github.com/scheduler-tools/rt-app, doc/tutorial.txt) turned into task
// programs.
//
//   absl::StatusOr<RtAppWorkload> r = ParseRtApp(R"({
//       "tasks": { "thread0": { "instance": 2, "loop": -1,
//                               "run": 2000, "timer": {"ref": "t0",
//                                                      "period": 10000} } },
//       "global": { "default_policy": "SCHED_OTHER" } })",
//       "example.json", topology);
//   // r->workload: one task spec of count 2; r->warnings: notes.
//
// Supported (events run in the order of their keys, as rt-app runs them;
// keys match by prefix, so "run0", "run1" are two run events):
//   task:  "instance" (default 1), "loop" (-1 = forever, the default; else
//          >= 1), "priority" (nice for SCHED_OTHER/SCHED_IDLE, 1..99 for
//          SCHED_FIFO/SCHED_RR, default 0 and 10), "policy" (SCHED_OTHER,
//          SCHED_IDLE, SCHED_FIFO; SCHED_RR runs as SCHED_FIFO with a
//          warning), "cpus" (array of CPU numbers), "util_min"/"util_max"
//          (uclamp, 0..1024), "delay" (us before the first loop),
//          "taskgroup" (ignored with a warning, also in a phase),
//          "dl-runtime" etc. without SCHED_DEADLINE (the custom slice:
//          ignored with a warning), "phases" (an object of
//          phases, each with events and its own "loop", default 1) or the
//          events directly in the task.
//   events: "run" (us of work at maximum capacity: cycles at the machine's
//          highest frequency, so it lasts longer at lower frequencies),
//          "runtime" (us of wall-clock work regardless of frequency: stall),
//          "sleep" (us), "timer" ({"ref", "period" (us)}: see below),
//          "yield", "barrier" (a name: every task that uses it, times its
//          instances, meets there), "suspend"/"resume", "sem_post"/
//          "sem_wait", "lock"/"unlock", "fork", and the condition
//          variables "wait" ({"ref", "mutex"}), "signal", "broad" and
//          "sync" (signal, then wait): each waiting task has its own
//          channel, so a task never takes its own signal
//          (docs/workloads-compute.md, "rtapp").
//   global: "default_policy" is honoured; "duration" is ignored with a
//          warning (the experiment's duration applies); "calibration",
//          "logdir", "log_basename", "log_size", "lock_pages", "ftrace",
//          "gnuplot", "pi_enabled", "io_device", "mem_buffer_size",
//          "cumulative_slack" and "frag" are ignored; other keys warn.
//
// "timer" is periodic in rt-app (sleep until the next period boundary).
// The simulator has no absolute-deadline sleep, so a timer becomes
// sleep(period - the run + runtime since the previous timer, at the
// highest frequency), at least 0: exact when the work runs at the highest
// frequency without delay, a longer period otherwise. Each task loop
// iteration is one "loop" metric op with its duration as latency.
//
// Errors name the source (file name or "<inline json>") and the JSON path
// of the offending value: "x.json: tasks.thread0.run: expected a
// non-negative integer (us)". Unsupported rt-app events (mem, iorun),
// per-phase properties other than loop and taskgroup, a signal to one of
// several waiting tasks, and SCHED_DEADLINE ("SCHED_DEADLINE not
// modelled") are errors naming the event and its JSON path.

#ifndef SCHEDSIM_WORKLOADS_RTAPP_H_
#define SCHEDSIM_WORKLOADS_RTAPP_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "sim/workload.h"
#include "topology/topology.h"

namespace schedsim::workloads {

inline constexpr int kRtAppLoopMetric = 0;
inline constexpr int kRtAppDefaultRtPriority = 10;

struct RtAppWorkload {
  sim::Workload workload;
  std::vector<std::string> warnings;  // "<source>: <path>: <note>"
};

// Parses rt-app JSON text (C-style comments allowed, as rt-app's json-c
// parser allows them). `source` names the text in messages.
absl::StatusOr<RtAppWorkload> ParseRtApp(absl::string_view json,
                                         absl::string_view source,
                                         const topology::Topology& topology);

// Reads and parses the file at `path` (NotFound when it cannot be read).
absl::StatusOr<RtAppWorkload> LoadRtAppFile(const std::string& path,
                                            const topology::Topology& topology);

// Template substitutions (LISA's rt-app templates and the like write
// placeholders such as `__DURATION__`, often unquoted, so the template is
// not JSON until they are replaced): KEY -> VALUE, each KEY replaced
// everywhere in the text, longest keys first.
using RtAppDefines = std::map<std::string, std::string>;

// ParseRtApp and LoadRtAppFile after the substitutions. When the text
// still does not parse and holds `__NAME__` placeholders, the error names
// them and says how to give them; placeholders left in text that parses
// are a warning.
absl::StatusOr<RtAppWorkload> ParseRtApp(absl::string_view json,
                                         absl::string_view source,
                                         const topology::Topology& topology,
                                         const RtAppDefines& defines);
absl::StatusOr<RtAppWorkload> LoadRtAppFile(const std::string& path,
                                            const topology::Topology& topology,
                                            const RtAppDefines& defines);

// Parses "KEY=VALUE,KEY=VALUE" (the rtapp model's `define` parameter);
// errors name the entry without '=' or with an empty key.
absl::StatusOr<RtAppDefines> ParseRtAppDefines(absl::string_view text);

}  // namespace schedsim::workloads

#endif  // SCHEDSIM_WORKLOADS_RTAPP_H_
