// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// A streaming reader of ftrace text: the output of `trace-cmd report` and
// the contents of /sys/kernel/tracing/trace (including the Android systrace
// variant, which adds a TGID column). The file is read one line at a time;
// it is never loaded whole.
//
// Line formats accepted (TASK may contain spaces, e.g. "Jit thread pool"):
//
//   trace-cmd report:
//       <idle>-0     [002]  2084.021443: cpu_idle:   state=4294967295 cpu_id=2
//   /sys/kernel/tracing/trace (flags column "d..3", 4 or 5 characters):
//       bash-1234    [001] d..3.  1234.567890: sched_switch: prev_comm=...
//   systrace / record-tgid (TGID in parentheses, "-----" when unknown):
//       sugov:0-5859  ( 5859) [000] ...1   538.084248: cpu_frequency: ...
//
// i.e. TASK-PID [(TGID)] [CPU] [FLAGS] SECONDS.FRACTION: EVENT: FIELDS.
// The fraction has 1 to 9 digits (µs by default, ns with `trace-cmd report
// -t`); the timestamp is converted to integer nanoseconds exactly.
//
// Skipped without error: blank lines, lines starting with '#', trace-cmd's
// header lines ("cpus=N", "version = N"), "CPU N is empty" and
// "CPU:N [LOST M EVENTS]" (counted in lost_events()). Any other line that is
// not an event is an error.
//
// Events parsed (fields as the kernel's TP_printk prints them; for
// sched_switch and sched_wakeup* also trace-cmd's pretty-printed form
// "comm:pid [prio] S ==> comm:pid [prio]" / "comm:pid [prio] success=1
// CPU:002"):
//   sched_switch       prev_comm prev_pid prev_prio prev_state
//                      next_comm next_pid next_prio
//   sched_wakeup, sched_wakeup_new, sched_waking
//                      comm pid prio [success] target_cpu
//   sched_migrate_task comm pid prio orig_cpu dest_cpu
//   cpu_idle           state cpu_id   (state 4294967295 = leaving idle)
//   cpu_frequency      state cpu_id   (state = kHz)
//   sched_process_fork comm pid child_comm child_pid
//   sched_process_exit comm pid prio
// Fields after the last expected one (added by newer kernels, e.g.
// sched_process_exit's group_dead) are ignored. Any other event is skipped
// and counted by name (unknown_events()). A malformed line of a known event
// is an error naming the file, the line and what was expected:
//   trace.txt:1234: sched_switch: expected 'next_pid=<int>'
//
// Summarize() computes event counts, CPUs seen, the time span and per-CPU
// idle residency from cpu_idle (see TraceSummary for the exact rules).

#ifndef SCHEDSIM_TRACES_FTRACE_H_
#define SCHEDSIM_TRACES_FTRACE_H_

#include <array>
#include <cstdint>
#include <fstream>
#include <functional>
#include <istream>
#include <limits>
#include <map>
#include <memory>
#include <streambuf>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace schedsim::traces {

enum class EventType : uint8_t {
  kSchedSwitch,
  kSchedWakeup,
  kSchedWakeupNew,
  kSchedWaking,
  kSchedMigrateTask,
  kCpuIdle,
  kCpuFrequency,
  kSchedProcessFork,
  kSchedProcessExit,
  // Any other event; returned only by a reader with
  // set_return_unknown_events(true). Its fields are not parsed.
  kUnknown,
};
// The number of known event types (kUnknown excluded).
inline constexpr int kNumEventTypes = 9;

// The ftrace event name ("sched_switch", ...).
absl::string_view EventTypeName(EventType type);

// cpu_idle's state value for "leaving idle" ((u32)-1, PWR_EVENT_EXIT).
inline constexpr int64_t kCpuIdleExitState = 4294967295;

// One parsed event. String views point into the reader's line buffer: they
// are valid only until the next call to FtraceReader::Next() (or until the
// visitor returns). Fields an event does not have are -1 / empty; which
// fields are set depends on `type` (see the table in the file comment).
struct TraceEvent {
  int64_t timestamp_ns = 0;
  // The CPU that recorded the event (the "[002]" column).
  int cpu = -1;
  EventType type = EventType::kSchedSwitch;
  // The event name as written ("sched_switch", "sched_load_se", ...) and
  // the unparsed field text after it.
  absl::string_view event_name;
  absl::string_view fields;

  // The task that was current when the event was recorded (the TASK-PID
  // column) and its TGID (-1 when absent or "-----").
  absl::string_view common_comm;
  int common_pid = -1;
  int common_tgid = -1;

  // sched_switch.
  absl::string_view prev_comm;
  int prev_pid = -1;
  int prev_prio = -1;
  absl::string_view prev_state;  // "R", "R+", "S", "D", "x", ...
  absl::string_view next_comm;
  int next_pid = -1;
  int next_prio = -1;

  // sched_wakeup*, sched_waking, sched_migrate_task, sched_process_exit;
  // the parent for sched_process_fork.
  absl::string_view comm;
  int pid = -1;
  int prio = -1;
  int target_cpu = -1;  // sched_wakeup*, sched_waking
  int success = -1;     // only when the line has it (older kernels)
  int orig_cpu = -1;    // sched_migrate_task
  int dest_cpu = -1;

  // cpu_idle and cpu_frequency: the raw `state` value and `cpu_id`.
  int64_t state = -1;
  int cpu_id = -1;

  // sched_process_fork.
  absl::string_view child_comm;
  int child_pid = -1;

  // cpu_idle: the idle state index entered, -1 when leaving idle.
  int idle_state() const {
    return state == kCpuIdleExitState ? -1 : static_cast<int>(state);
  }
  // cpu_frequency: the new frequency.
  int64_t frequency_khz() const { return state; }
};

// A trace read one event at a time, whatever its file format: the text
// reader below (FtraceReader) and trace-cmd's binary .dat reader
// (TraceCmdReader, traces/tracecmd_dat.h) both are one. OpenTrace()
// (tracecmd_dat.h) opens either by the file's first bytes, so the commands
// that read a trace (shadow, replay, the converter) take both.
class TraceSource {
 public:
  virtual ~TraceSource() = default;
  // Reads the next known event into `*event`: true if one was read, false
  // at the end, an error naming the file (and line or record) otherwise.
  // The string views of `*event` stay valid until the next call.
  virtual absl::StatusOr<bool> Next(TraceEvent* event) = 0;
  // When true, Next() also returns unknown events (type kUnknown). They
  // are counted in unknown_events() either way. Default false.
  virtual void set_return_unknown_events(bool value) = 0;
  // The file's name, as errors name it.
  virtual const std::string& name() const = 0;
  // Where the last event came from, for an error about it: "FILE:LINE" in
  // a text trace, "FILE: record N" in a .dat file.
  virtual std::string Where() const = 0;
  // Grows with every event read: the line number (text) or the record
  // number (.dat) of the last one.
  virtual int64_t position() const = 0;
  // Events of unknown types seen so far, by event name.
  virtual const std::map<std::string, int64_t, std::less<>>& unknown_events()
      const = 0;
  // Timestamp of the last event read, of any type; -1 before the first.
  virtual int64_t last_timestamp_ns() const = 0;
  // The CPU count the file's header gives; -1 if none.
  virtual int header_cpus() const = 0;
  // Events the kernel dropped before the events read so far.
  virtual int64_t lost_events() const = 0;
};

// Reads events one at a time:
//
//   auto reader = FtraceReader::Open("trace.txt");
//   if (!reader.ok()) return reader.status();
//   TraceEvent event;
//   while (true) {
//     absl::StatusOr<bool> more = (*reader)->Next(&event);
//     if (!more.ok()) return more.status();
//     if (!*more) break;
//     ...
//   }
class FtraceReader final : public TraceSource {
 public:
  // Opens `path`, which must be a regular file (base::OpenInputFile); the
  // error is NotFound when it does not exist, InvalidArgument when it is a
  // FIFO, a device or a directory. A line longer than
  // base::kMaxTraceLineBytes is an error naming the line.
  static absl::StatusOr<std::unique_ptr<FtraceReader>> Open(
      const std::string& path);

  // Reads from `in` (not owned; must outlive the reader). `name` is used in
  // error messages.
  FtraceReader(std::istream* in, std::string name);

  FtraceReader(const FtraceReader&) = delete;
  FtraceReader& operator=(const FtraceReader&) = delete;

  // Reads the next known event into `*event`: true if one was read, false
  // at the end of the input, an InvalidArgument error for a malformed line.
  absl::StatusOr<bool> Next(TraceEvent* event) override;

  // When true, Next() also returns unknown events (type kUnknown, with
  // event_name, fields, timestamp and the common fields set). They are
  // counted in unknown_events() either way. Default false.
  void set_return_unknown_events(bool value) override {
    return_unknown_events_ = value;
  }

  // The name used in error messages and the number of the last line read
  // (1-based).
  const std::string& name() const override { return name_; }
  int64_t line_number() const { return line_number_; }
  int64_t position() const override { return line_number_; }
  // "NAME:LINE".
  std::string Where() const override;

  // Events of unknown types skipped so far, by event name.
  const std::map<std::string, int64_t, std::less<>>& unknown_events()
      const override {
    return unknown_events_;
  }
  // Timestamp of the last event line read, of any type (known or not); -1
  // before the first.
  int64_t last_timestamp_ns() const override { return last_timestamp_ns_; }
  // The CPU count in the header ("cpus=6" of trace-cmd, "#P:8" of the
  // tracefs header); -1 if none was seen.
  int header_cpus() const override { return header_cpus_; }
  // Sum of M over "CPU:N [LOST M EVENTS]" lines.
  int64_t lost_events() const override { return lost_events_; }

 private:
  FtraceReader(std::unique_ptr<std::streambuf> buf, std::string name);
  // Reads the next line into line_ (without its '\n'): false at the end,
  // an error for a read error or a line longer than the limit.
  absl::StatusOr<bool> ReadLine();

  // Parses line_ (a non-skipped line). Returns true if it held a known
  // event (written to `*event`), false for an unknown event.
  absl::StatusOr<bool> ParseLine(TraceEvent* event);
  // Handles header/comment/blank lines; true if `line` was one.
  bool SkipNonEventLine(absl::string_view line);
  // In a systrace HTML file, true for every line outside its ftrace text
  // block (the page, its JavaScript, the JSON blocks).
  bool SkipHtmlLine(absl::string_view line);
  absl::Status Error(absl::string_view what) const;

  std::unique_ptr<std::streambuf> buf_;  // set when opened by path
  std::unique_ptr<std::istream> file_;   // reads buf_
  std::istream* in_;
  std::vector<char> read_buf_;  // ReadLine's buffer
  std::string name_;
  std::string line_;
  int64_t line_number_ = 0;
  int64_t last_timestamp_ns_ = -1;
  int header_cpus_ = -1;
  // The last event line was an unknown event (print, bprint,
  // tracing_mark_write, ...), whose free-text payload may go on over the
  // lines that follow; ParseLine found such a continuation line.
  bool after_free_text_ = false;
  bool continuation_ = false;
  // A systrace HTML file: outside the trace-data blocks, in the ftrace text
  // block, or in another block (JSON).
  enum class Html : uint8_t { kNo, kOutside, kText, kOtherBlock };
  Html html_ = Html::kNo;
  bool seen_content_ = false;  // a non-blank line was read
  int64_t lost_events_ = 0;
  bool return_unknown_events_ = false;
  std::map<std::string, int64_t, std::less<>> unknown_events_;
};

// Calls `visitor` for every known event of `path`, in file order. Stops at
// the first error, of the reader or of the visitor.
absl::Status ForEachFtraceEvent(
    const std::string& path,
    absl::FunctionRef<absl::Status(const TraceEvent&)> visitor);

// A time window [begin_ns, end_ns) in trace time.
struct TimeWindow {
  int64_t begin_ns = std::numeric_limits<int64_t>::min();
  int64_t end_ns = std::numeric_limits<int64_t>::max();
};

// Idle residency of one CPU, from its cpu_idle events.
struct CpuIdleResidency {
  // Time in each idle state, indexed by state (the cpu_idle state value).
  std::vector<int64_t> state_ns;
  // Sum of state_ns.
  int64_t total_idle_ns = 0;
  // Number of idle periods (enter events) counted, at least partly, in the
  // window.
  int64_t periods = 0;
  // Time from the trace's first event to this CPU's first cpu_idle exit,
  // when that exit is the CPU's first cpu_idle event: the CPU was idle in an
  // unknown state when tracing started. Not part of state_ns or
  // total_idle_ns. Clipped to the window like the others.
  int64_t leading_unknown_ns = 0;
  // The CPU was still idle at the last event of the trace; its last period
  // was cut there.
  bool open_at_end = false;
};

// What Summarize() finds in a trace.
//
// Idle residency rules, per CPU (the cpu_idle `cpu_id`, not the recording
// CPU): an enter event (state = index) opens a period and the next exit
// event (state = 4294967295) on that CPU closes it; the period's time goes
// to the entered state. An enter while a period is open closes the open one
// at that time and opens a new one. An exit with no open period (the CPU was
// idle when tracing started, in an unknown state) is ignored except for
// leading_unknown_ns. A period still open at the end of the trace is cut at
// the timestamp of the trace's last event (of any type). With a window,
// every period is clipped to [begin_ns, end_ns): periods are built from the
// whole trace, so a period that started before the window counts from
// begin_ns. Event counts, CPUs and the time span cover the events with
// timestamps in the window.
struct TraceSummary {
  // Known events by type (index: static_cast<int>(EventType)) in the
  // window.
  std::array<int64_t, kNumEventTypes> counts{};
  // Unknown events by name, in the window.
  std::map<std::string, int64_t> unknown_counts;
  // All event lines in the window, known and unknown.
  int64_t total_events = 0;

  // CPU numbers seen (recording CPUs and the cpu_id, target_cpu, orig_cpu
  // and dest_cpu fields), ascending, and the CPU count of the header
  // (-1 if none).
  std::vector<int> cpus;
  int header_cpus = -1;

  // First and last event timestamps in the window (-1 if no event).
  int64_t first_timestamp_ns = -1;
  int64_t last_timestamp_ns = -1;
  int64_t span_ns() const {
    return first_timestamp_ns < 0 ? 0 : last_timestamp_ns - first_timestamp_ns;
  }

  // Indexed by CPU id (cpu_id of cpu_idle); CPUs without cpu_idle events
  // have an empty entry.
  std::vector<CpuIdleResidency> idle;

  // Count of a known type; for kUnknown, the sum of unknown_counts.
  int64_t count(EventType type) const;
};

// Summarizes the whole trace, or the events in `window`.
absl::StatusOr<TraceSummary> Summarize(const std::string& path);
absl::StatusOr<TraceSummary> Summarize(const std::string& path,
                                       const TimeWindow& window);
// The same over a reader (which it switches to returning unknown events and
// reads to the end).
absl::StatusOr<TraceSummary> Summarize(TraceSource* reader,
                                       const TimeWindow& window);

}  // namespace schedsim::traces

#endif  // SCHEDSIM_TRACES_FTRACE_H_
