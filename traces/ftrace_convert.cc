// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "traces/ftrace_convert.h"

#include "absl/strings/str_cat.h"
#include "traces/tracecmd_dat.h"

namespace schedsim::traces {

FtraceConverter::FtraceConverter(sim::TraceSink* sink, NamedTraceSink* names)
    : FtraceConverter(sink, names, Options()) {}

FtraceConverter::FtraceConverter(sim::TraceSink* sink, NamedTraceSink* names,
                                 const Options& options)
    : sink_(sink), names_(names), options_(options) {}

int FtraceConverter::TaskId(int pid, absl::string_view comm) {
  if (pid <= 0) return -1;
  auto [it, inserted] = ids_.try_emplace(pid, static_cast<int>(pids_.size()));
  const int id = it->second;
  if (inserted) {
    pids_.push_back(pid);
    comms_.emplace_back();
  }
  if (!comm.empty() && comms_[id] != comm) {
    comms_[id].assign(comm.data(), comm.size());
    if (names_ != nullptr) {
      name_scratch_.clear();
      absl::StrAppend(&name_scratch_, comm, "-", pid);
      names_->SetTaskName(id, name_scratch_);
    }
  }
  return id;
}

void FtraceConverter::Convert(const TraceEvent& e) {
  last_ns_ = e.timestamp_ns;
  const int64_t t = e.timestamp_ns;
  switch (e.type) {
    case EventType::kSchedSwitch: {
      const int prev = TaskId(e.prev_pid, e.prev_comm);
      const int next = TaskId(e.next_pid, e.next_comm);
      sink_->OnSwitch(t, e.cpu, prev, next);
      break;
    }
    case EventType::kSchedWakeup:
    case EventType::kSchedWakeupNew:
      if (!options_.wakeups_from_waking) {
        sink_->OnWakeup(t, TaskId(e.pid, e.comm), e.target_cpu, e.cpu);
      }
      break;
    case EventType::kSchedWaking:
      if (options_.wakeups_from_waking) {
        sink_->OnWakeup(t, TaskId(e.pid, e.comm), e.target_cpu, e.cpu);
      }
      break;
    case EventType::kSchedMigrateTask:
      sink_->OnMigrate(t, TaskId(e.pid, e.comm), e.orig_cpu, e.dest_cpu);
      break;
    case EventType::kCpuIdle:
      sink_->OnIdle(t, e.cpu_id, e.idle_state());
      break;
    case EventType::kCpuFrequency:
      sink_->OnFrequency(t, e.cpu_id, e.frequency_khz());
      break;
    case EventType::kSchedProcessFork:
      TaskId(e.pid, e.comm);
      TaskId(e.child_pid, e.child_comm);
      break;
    case EventType::kSchedProcessExit:
      sink_->OnTaskExit(t, TaskId(e.pid, e.comm));
      break;
    case EventType::kUnknown:
      break;
  }
}

absl::Status ConvertFtraceFile(const std::string& path, NamedTraceSink* sink) {
  // A trace with sched_waking but no sched_wakeup (what `perf sched record`
  // records on current kernels) gives its wake-ups from sched_waking.
  int64_t wakeups = 0;
  int64_t wakings = 0;
  absl::Status scanned = ReadTraceFile(path, [&](const TraceEvent& event) {
    if (event.type == EventType::kSchedWakeup) ++wakeups;
    if (event.type == EventType::kSchedWaking) ++wakings;
    return absl::OkStatus();
  });
  if (!scanned.ok()) return scanned;
  FtraceConverter::Options options;
  options.wakeups_from_waking = wakeups == 0 && wakings > 0;
  FtraceConverter converter(sink, sink, options);
  return ReadTraceFile(path, [&converter](const TraceEvent& event) {
    converter.Convert(event);
    return absl::OkStatus();
  });
}

}  // namespace schedsim::traces
