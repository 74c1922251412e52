// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Streaming a simulation's trace events: the sched_switch, sched_wakeup,
// sched_migrate_task, cpu_idle and cpu_frequency events of ftrace, and task
// exits. Implement TraceSink to receive them, or use a TraceWriter, which
// writes a trace file format:
//   * kChromeJson: the Chrome JSON trace event format, which
//     ui.perfetto.dev and chrome://tracing open (one track per CPU with the
//     running tasks, wake-up arrows, frequency and idle-state counters);
//   * kCsv: one CSV row per event (time_ns,event,cpu,task,arg1,arg2).
// docs/traces.md describes both.
//
//   std::ofstream out("run.json");
//   std::unique_ptr<schedsim::TraceWriter> w = schedsim::TraceWriter::Create(
//       schedsim::TraceFormat::kChromeJson, &out, sim->task_names(),
//       sim->machine().num_cpus());
//   sim->SetTraceSink(w.get());
//   ... RunFor ...
//   sim->SetTraceSink(nullptr);
//   w->Finish(sim->now_ns());

#ifndef SCHEDSIM_INCLUDE_SCHEDSIM_TRACE_H_
#define SCHEDSIM_INCLUDE_SCHEDSIM_TRACE_H_

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace schedsim {

// Receives trace events as the simulation makes them, in time order. Task
// ids index Metrics::tasks; -1 is the idle task. Every hook does nothing by
// default. Hooks run inside the simulation loop: keep them cheap.
class TraceSink {
 public:
  virtual ~TraceSink() = default;
  // `cpu` switched from task `prev` to task `next`.
  virtual void OnSwitch(int64_t /*time_ns*/, int /*cpu*/, int /*prev*/,
                        int /*next*/) {}
  // `task` became runnable on `cpu`, woken from `waker_cpu`.
  virtual void OnWakeup(int64_t /*time_ns*/, int /*task*/, int /*cpu*/,
                        int /*waker_cpu*/) {}
  virtual void OnMigrate(int64_t /*time_ns*/, int /*task*/, int /*from_cpu*/,
                         int /*to_cpu*/) {}
  // `cpu` entered idle state `state`, or left idle (state -1).
  virtual void OnIdle(int64_t /*time_ns*/, int /*cpu*/, int /*state*/) {}
  virtual void OnFrequency(int64_t /*time_ns*/, int /*cpu*/, int64_t /*khz*/) {}
  virtual void OnTaskExit(int64_t /*time_ns*/, int /*task*/) {}
};

enum class TraceFormat { kChromeJson, kCsv };

// A TraceSink that writes a trace file format to a stream.
class TraceWriter : public TraceSink {
 public:
  // `out` is not owned and must outlive the writer. `task_names[id]` names
  // task id (Simulation::task_names()); tasks without a name show as
  // "task <id>". `num_cpus` > 0 declares CPUs 0..num_cpus-1 up front
  // (Chrome JSON: their tracks appear even when idle throughout).
  static std::unique_ptr<TraceWriter> Create(
      TraceFormat format, std::ostream* out,
      std::vector<std::string> task_names = {}, int num_cpus = 0);

  // Names (or renames) task `task` from now on.
  virtual void SetTaskName(int task, absl::string_view name) = 0;
  // Ends the trace at `end_ns` (Chrome JSON: closes the running slices and
  // the document; CSV: writes pending rows) and flushes. Later events are
  // ignored (Chrome JSON). The destructor finishes a trace not finished.
  virtual void Finish(int64_t end_ns) = 0;
};

}  // namespace schedsim

#endif  // SCHEDSIM_INCLUDE_SCHEDSIM_TRACE_H_
