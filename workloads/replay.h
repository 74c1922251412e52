// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Trace replay: a sim::Workload derived from a recorded ftrace text trace,
// one task per traced task, each running a straight-line program of the
// run bursts and sleeps the trace shows for it:
//
//   ReplayOptions options;
//   options.tasks = {"surfaceflinger", "1234"};  // comm or pid; empty: all
//   absl::StatusOr<sim::Workload> w = ReplayWorkload("trace.txt", options);
//
// What a program is made of, per pid (pid 0, the idle tasks, excluded):
//   * a run burst is the time between a sched_switch to the task and the
//     next sched_switch away from it on that CPU. Bursts separated only by
//     preemption (prev_state R or R+: the task stayed runnable) are one
//     compute phase. Time is converted to cycles at the CPU's frequency of
//     the moment (the latest cpu_frequency event for that CPU, or, before
//     its first one, that first one's value), or at
//     ReplayOptions::nominal_khz on a CPU without cpu_frequency events:
//     Compute(cycles). A task running when tracing began is counted from
//     the first event recorded on its CPU;
//   * a sleep runs from a switch away with prev_state S (or any other
//     blocked state: I, T, t, P, W, ...) to the task's next wake-up
//     (sched_waking, sched_wakeup or sched_wakeup_new, whichever comes
//     first) or, without one (traces that do not record wake-ups), to its
//     next switch in: Sleep(ns). prev_state D gives IoWait(ns) instead;
//   * before its first event a task is taken to sleep from the start of
//     the trace (its first event's timestamp minus the trace's first), so
//     that every task starts at its recorded time: tasks created during the
//     trace (sched_process_fork, sched_wakeup_new) start when created;
//   * a switch away with prev_state X or Z (or sched_process_exit) ends the
//     task: the program ends with Exit. Otherwise it ends at the end of the
//     trace (a burst still running is cut there).
// With `loop`, the whole program (leading sleep included, plus a trailing
// sleep up to the end of the trace) repeats forever, so each iteration
// lasts about the trace's duration; exits are then not replayed.
//
// Tasks kept: those named in ReplayOptions::tasks (a pid, or any comm the
// task had), else every task except those whose last comm is a tracing
// tool's (ReplayOptions::exclude_comms: trace-cmd, perf, atrace, ... —
// replaying the tracer along with the workload is the problem `perf sched
// replay` has). Tasks that never ran in the trace are left out.
//
// Each task becomes a TaskSpec named "comm-pid" with its own program; a
// CFS priority p (100..139) becomes nice p - 120; an RT priority p (< 100)
// becomes SCHED_FIFO priority 99 - p (or nice 0 with rt_as_fifo false).
// Tasks start unpinned (start_cpu -1, no affinity).
//
// Approximations: inter-task dependencies are not kept. A task woken by
// another (a pipe, a futex, a binder call) sleeps for the recorded time
// instead of waiting for its waker, so when the replayed machine runs the
// waker slower or faster, the wake-up does not move with it; runqueue
// waiting is not replayed (the simulator's scheduler makes its own); the
// cycles of a burst assume CPU time scales with frequency (no memory
// stalls) and are run on the simulated machine at its own frequencies, so
// a trace from a slower part replays in less time.

#ifndef SCHEDSIM_WORKLOADS_REPLAY_H_
#define SCHEDSIM_WORKLOADS_REPLAY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "sim/workload.h"
#include "workloads/replay_options.h"

namespace schedsim::workloads {

// What was replayed of one traced task.
struct ReplayTask {
  int pid = 0;
  std::string comm;      // the last comm seen
  int prio = 120;        // the last prio seen
  int64_t first_ns = 0;  // its first event (trace time)
  // Recorded: time on CPU, the cycles it was converted to, time asleep
  // (S and other blocked states) and in D, bursts (switch-in to
  // switch-out) and sleeps.
  int64_t run_ns = 0;
  int64_t cycles = 0;
  int64_t sleep_ns = 0;
  int64_t iowait_ns = 0;
  int64_t bursts = 0;
  int64_t sleeps = 0;
  bool exited = false;
};

struct Replay {
  sim::Workload workload;
  // One per workload task (workload.tasks[i] replays tasks[i]).
  std::vector<ReplayTask> tasks;
  // Pids left out: the tracer's tasks, tasks not selected, tasks that never
  // ran.
  std::vector<int> excluded_pids;
  // The trace's first and last event timestamps.
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  int64_t duration_ns() const { return end_ns - start_ns; }
  // Sum of tasks[i].run_ns.
  int64_t total_run_ns() const;
};

// Reads the ftrace text file `path` (twice: once for the CPUs' first
// frequencies) and builds the replay. Errors: NotFound for an unreadable
// file; InvalidArgument "FILE:LINE: ..." for a malformed line;
// InvalidArgument for a selector matching no task, a trace without task
// events, or nominal_khz <= 0.
absl::StatusOr<Replay> ReplayTrace(const std::string& path,
                                   const ReplayOptions& options);

// ReplayTrace(path, options)->workload.
absl::StatusOr<sim::Workload> ReplayWorkload(const std::string& path,
                                             const ReplayOptions& options);

}  // namespace schedsim::workloads

#endif  // SCHEDSIM_WORKLOADS_REPLAY_H_
