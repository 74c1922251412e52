// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// A reader of trace-cmd's binary trace files (`trace.dat`, written by
// `trace-cmd record` / `trace-cmd extract`, file versions 6 and 7, with or
// without compression) through Debian's libtracecmd and libtraceevent. It
// returns the same TraceEvent as the text reader of traces/ftrace.h, so code
// written for `trace-cmd report` text reads .dat files unchanged:
//
//   absl::Status s = ReadTraceFile(path, [&](const TraceEvent& e) {
//     ...;  // .dat or text, chosen by the file's first bytes
//     return absl::OkStatus();
//   });
//
// Records are returned in timestamp order across CPUs (a merge of the
// per-CPU buffers; equal timestamps in CPU order), with the timestamps the
// file's trace clock gives, in ns for the default "local" clock. Only the
// top-level buffer is read (not instances recorded with `-B`).
//
// Fields come from the binary record through the event's format (the
// kernel's field layout saved in the file), not from text:
//   sched_switch        prev_comm prev_pid prev_prio prev_state
//                       next_comm next_pid next_prio
//   sched_wakeup, sched_wakeup_new, sched_waking
//                       comm pid prio [success] target_cpu
//   sched_migrate_task  comm pid prio orig_cpu dest_cpu
//   cpu_idle            state cpu_id
//   cpu_frequency       state cpu_id
//   sched_process_fork  parent_comm parent_pid child_comm child_pid
//                       (as comm, pid, child_comm, child_pid)
//   sched_process_exit  comm pid prio
// `prev_state` is the letter string the kernel's own TP_printk (the format's
// "print fmt", saved in the file) gives for the value ("S", "R+", "I", ...);
// `fields` is that TP_printk text ("prev_comm=sh prev_pid=12 ..."), i.e.
// what /sys/kernel/tracing/trace and `trace-cmd report -N` print. Plugins
// are not loaded (their pretty-printed forms and their prev_state letters
// are out of date for recent kernels). `common_comm` is looked up in the
// file's saved command lines like `trace-cmd report` does ("<idle>" for pid
// 0, "<...>" when unknown); `common_tgid` is -1.
//
// A known event whose format lacks a field above, or whose record is too
// short for it, is an InvalidArgument / DataLoss error naming the file, the
// CPU and the event. Other events are counted by name (unknown_events()).

#ifndef SCHEDSIM_TRACES_TRACECMD_DAT_H_
#define SCHEDSIM_TRACES_TRACECMD_DAT_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "traces/ftrace.h"

namespace schedsim::traces {

// The first 10 bytes of every trace-cmd file: 0x17 0x08 'D' "tracing".
inline constexpr absl::string_view kTraceCmdMagic("\x17\x08\x44tracing", 10);

enum class TraceFileFormat {
  kFtraceText,  // anything else; read by FtraceReader
  kTraceCmdDat,
};

// Looks at the first bytes of `path`. NotFound when it cannot be opened.
// A file shorter than the magic (including an empty one) is kFtraceText.
absl::StatusOr<TraceFileFormat> DetectTraceFileFormat(const std::string& path);

// Reads the events of one trace-cmd file:
//
//   auto reader = TraceCmdReader::Open("trace.dat");
//   if (!reader.ok()) return reader.status();
//   TraceEvent event;
//   while (true) {
//     absl::StatusOr<bool> more = (*reader)->Next(&event);
//     if (!more.ok()) return more.status();
//     if (!*more) break;
//     ...
//   }
class TraceCmdReader final : public TraceSource {
 public:
  // Opens `path` and reads its headers. Errors name the file: NotFound
  // (cannot be opened), InvalidArgument (not a trace-cmd file: no magic),
  // DataLoss (truncated or corrupt headers, or CPU data past the end of the
  // file).
  static absl::StatusOr<std::unique_ptr<TraceCmdReader>> Open(
      const std::string& path);

  ~TraceCmdReader();
  TraceCmdReader(const TraceCmdReader&) = delete;
  TraceCmdReader& operator=(const TraceCmdReader&) = delete;

  // Reads the next known event (the earliest remaining record of any CPU)
  // into `*event`: true if one was read, false at the end. The string views
  // of `*event` stay valid until the next call or the reader's destruction.
  absl::StatusOr<bool> Next(TraceEvent* event) override;

  // When true, Next() also returns unknown events (type kUnknown, with
  // event_name, fields, timestamp, cpu and the common fields set). They are
  // counted in unknown_events() either way. Default false.
  void set_return_unknown_events(bool value) override {
    return_unknown_events_ = value;
  }

  const std::string& name() const override { return name_; }
  // "NAME: record N" (N = records(), 1-based).
  std::string Where() const override;
  int64_t position() const override { return records_; }
  // The CPU count of the file's header.
  int header_cpus() const override { return cpus_; }
  // The file version (6, 7) as the header gives it.
  int file_version() const { return file_version_; }
  // Records read so far (known and unknown).
  int64_t records() const { return records_; }
  // Events of unknown types seen so far, by event name.
  const std::map<std::string, int64_t, std::less<>>& unknown_events()
      const override {
    return unknown_events_;
  }
  // Timestamp of the last record read, of any type; -1 before the first.
  int64_t last_timestamp_ns() const override { return last_timestamp_ns_; }
  // Events the kernel dropped before records read so far, as the ring
  // buffer reports them (trace-cmd report's "[LOST N EVENTS]"), and the
  // number of places where it dropped an unknown number.
  int64_t lost_events() const override { return lost_events_; }
  int64_t lost_unknown() const { return lost_unknown_; }

 private:
  struct Impl;
  explicit TraceCmdReader(std::unique_ptr<Impl> impl, std::string name);

  std::unique_ptr<Impl> impl_;
  std::string name_;
  int cpus_ = 0;
  int file_version_ = 0;
  bool return_unknown_events_ = false;
  int64_t records_ = 0;
  int64_t last_timestamp_ns_ = -1;
  int64_t lost_events_ = 0;
  int64_t lost_unknown_ = 0;
  std::map<std::string, int64_t, std::less<>> unknown_events_;
};

// Calls `visitor` for every known event of the trace-cmd file `dat_path`,
// in timestamp order. Stops at the first error, of the reader or of the
// visitor. `unknown_events`, when given, receives the counts of unknown
// events by name (also on error: those seen so far).
absl::Status ForEachTraceCmdEvent(
    const std::string& dat_path,
    absl::FunctionRef<absl::Status(const TraceEvent&)> visitor,
    std::map<std::string, int64_t, std::less<>>* unknown_events = nullptr);

// Opens a trace of either format, chosen by its first bytes: a
// TraceCmdReader for a trace-cmd .dat file (kTraceCmdMagic), else an
// FtraceReader (text). Errors name the file.
absl::StatusOr<std::unique_ptr<TraceSource>> OpenTrace(const std::string& path);

// ForEachTraceCmdEvent for a trace-cmd file (by its magic bytes), else
// ForEachFtraceEvent (text).
absl::Status ReadTraceFile(
    const std::string& path,
    absl::FunctionRef<absl::Status(const TraceEvent&)> visitor);

}  // namespace schedsim::traces

#endif  // SCHEDSIM_TRACES_TRACECMD_DAT_H_
