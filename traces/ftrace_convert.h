// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// FtraceConverter: replays parsed ftrace events (TraceEvent) as calls on a
// sim::TraceSink, so a recorded trace can be written by the same writers as
// a simulation (ChromeJsonWriter for Perfetto, CsvWriter):
//
//   std::ofstream out("trace.json");
//   ChromeJsonWriter writer(&out, {});
//   absl::Status status = ConvertFtraceFile("trace.txt", &writer);
//
// Mapping (t = the event's timestamp):
//   sched_switch        OnSwitch(t, recording cpu, prev, next)
//   sched_wakeup(_new)  OnWakeup(t, task, target_cpu, waker_cpu = recording
//                       cpu); sched_waking is ignored unless
//                       Options::wakeups_from_waking, which then uses
//                       sched_waking instead of sched_wakeup(_new)
//   sched_migrate_task  OnMigrate(t, task, orig_cpu, dest_cpu)
//   cpu_idle            OnIdle(t, cpu_id, state index or -1 on exit)
//   cpu_frequency       OnFrequency(t, cpu_id, state = kHz)
//   sched_process_exit  OnTaskExit(t, task)
//   sched_process_fork  only names the child
// Task ids: pid 0 (each CPU's idle task, "swapper/N") is -1; other pids get
// dense ids 0, 1, 2, ... in order of first appearance (pids may be large;
// the writers index names by id). A NamedTraceSink is told each task's name
// as "comm-pid" when first seen and again when its comm changes (exec).

#ifndef SCHEDSIM_TRACES_FTRACE_CONVERT_H_
#define SCHEDSIM_TRACES_FTRACE_CONVERT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "sim/trace_sink.h"
#include "traces/ftrace.h"
#include "traces/named_trace_sink.h"

namespace schedsim::traces {

class FtraceConverter {
 public:
  struct Options {
    // Take wakeups from sched_waking (and ignore sched_wakeup and
    // sched_wakeup_new), for traces that record only sched_waking.
    bool wakeups_from_waking = false;
  };

  // `sink` receives the events; `names` (may be null, may be the same
  // object as `sink`) receives task names. Neither is owned.
  FtraceConverter(sim::TraceSink* sink, NamedTraceSink* names);
  FtraceConverter(sim::TraceSink* sink, NamedTraceSink* names,
                  const Options& options);

  // Converts one event.
  void Convert(const TraceEvent& event);

  // The task id of `pid` (-1 for pid 0), assigning the next id to a new pid
  // and (re)naming it if `comm` is not empty and differs from its name.
  int TaskId(int pid, absl::string_view comm);

  // pid of each task id.
  const std::vector<int>& task_pids() const { return pids_; }
  // Timestamp of the last event converted (-1 before the first).
  int64_t last_timestamp_ns() const { return last_ns_; }

 private:
  sim::TraceSink* sink_;
  NamedTraceSink* names_;
  Options options_;
  absl::flat_hash_map<int, int> ids_;  // pid -> task id
  std::vector<int> pids_;
  std::vector<std::string> comms_;  // by task id
  std::string name_scratch_;
  int64_t last_ns_ = -1;
};

// Converts every known event of the trace file `path` (ftrace text, `perf
// script` text or trace-cmd .dat) into calls on `sink` (which also receives
// the task names). A trace with sched_waking and no sched_wakeup (`perf
// sched record` on current kernels) is converted with wakeups_from_waking.
// Reads the file twice. Does not call Finish() on a ChromeJsonWriter: the
// caller does, e.g. at the trace's last timestamp.
absl::Status ConvertFtraceFile(const std::string& path, NamedTraceSink* sink);

}  // namespace schedsim::traces

#endif  // SCHEDSIM_TRACES_FTRACE_CONVERT_H_
