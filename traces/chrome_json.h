// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// ChromeJsonWriter: a trace sink that writes the Chrome JSON trace event
// format, which ui.perfetto.dev and chrome://tracing open directly.
//
// The document is {"displayTimeUnit":"ns","traceEvents":[ ... ]}. Each CPU n
// is shown as a process named "CPU n" (pid = kCpuPidBase + n, sorted by n)
// with two threads: "CPU n" (tid = pid) for the running tasks and "CPU n
// events" (tid = kEventTidBase + n) for the instants, which are kept off the
// slice track so that a wakeup arrow ends on a task slice. They carry:
//   * one complete ("X") slice per stretch a task runs on that CPU, named by
//     the task's name, args {"task": id}; written when the slice ends (the
//     next switch on that CPU, or Finish()). A task already running at the
//     first switch seen on a CPU gets a slice from the first event's time;
//   * on the events thread, an instant ("i") "wakeup <task>" at each wakeup
//     onto that CPU, args
//     {"task", "waker_cpu"}, and, when the waking CPU was running a task, a
//     flow arrow ("s" on the waker CPU, "f" on the target CPU, bound to the
//     next slice that starts there);
//   * on the events thread, an instant "migrate <task>" on the destination
//     CPU, args {"task",
//     "from_cpu", "to_cpu"}; an instant "exit <task>" on the CPU the task
//     last ran on (CPU 0 if never seen running);
//   * counters ("C"): "cpufreq" {"khz": frequency} and "cpuidle" {"state":
//     idle state index, -1 when not idle} (tracks "cpufreq khz" and
//     "cpuidle state" in Perfetto).
// Timestamps are microseconds written with three decimals, so nanosecond
// values survive exactly.
//
// Records are written to the stream as they happen; memory held is one open
// slice per CPU, the task names and one line buffer. Call Finish() to close
// the open slices and the JSON document (the destructor does so at the last
// timestamp seen if Finish() was not called).

#ifndef SCHEDSIM_TRACES_CHROME_JSON_H_
#define SCHEDSIM_TRACES_CHROME_JSON_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "traces/named_trace_sink.h"

namespace schedsim::traces {

class ChromeJsonWriter : public NamedTraceSink {
 public:
  // pid (and tid) of CPU n is kCpuPidBase + n: pid 0 is the kernel's idle
  // task in Perfetto and would be shown as "swapper".
  static constexpr int kCpuPidBase = 1000;
  // tid of CPU n's events thread.
  static constexpr int kEventTidBase = 100000;

  struct Options {
    // Declare CPUs 0..num_cpus-1 up front (their tracks appear even if
    // nothing happens on them). Other CPUs are declared when first used.
    int num_cpus = 0;
    // Write wakeup flow arrows.
    bool wakeup_flows = true;
  };

  // `out` is not owned and must outlive the writer. `task_names[id]` is the
  // name of task id; SetTaskName() adds names later.
  ChromeJsonWriter(std::ostream* out, std::vector<std::string> task_names);
  ChromeJsonWriter(std::ostream* out, std::vector<std::string> task_names,
                   const Options& options);
  ~ChromeJsonWriter() override;

  ChromeJsonWriter(const ChromeJsonWriter&) = delete;
  ChromeJsonWriter& operator=(const ChromeJsonWriter&) = delete;

  void SetTaskName(int task, absl::string_view name) override;

  void OnSwitch(int64_t time_ns, int cpu, int prev, int next) override;
  void OnWakeup(int64_t time_ns, int task, int cpu, int waker_cpu) override;
  void OnMigrate(int64_t time_ns, int task, int from_cpu, int to_cpu) override;
  void OnIdle(int64_t time_ns, int cpu, int state) override;
  void OnFrequency(int64_t time_ns, int cpu, int64_t khz) override;
  void OnTaskExit(int64_t time_ns, int task) override;

  // Ends the open slices at `end_ns` and closes the document. Later calls
  // (and events) are ignored.
  void Finish(int64_t end_ns);
  // Finish() at the last timestamp seen.
  void Finish();

  // Records written so far, by kind.
  int64_t slices_written() const { return slices_; }
  int64_t counters_written() const { return counters_; }
  int64_t instants_written() const { return instants_; }
  int64_t flows_written() const { return flows_; }  // "s"/"f" pairs

 private:
  struct CpuState {
    bool declared = false;
    bool switched = false;  // a switch has been seen on this CPU
    int task = -1;          // running task, -1 if none
    int64_t start_ns = 0;   // start of its slice
  };

  CpuState& Cpu(int cpu);
  void Seen(int64_t time_ns);
  void BeginRecord();  // clears line_ and writes the separator
  void EndRecord();    // writes line_ to the stream
  void AppendPidTid(int cpu);
  void AppendPidEventTid(int cpu);
  void AppendTs(const char* key, int64_t ns);
  void AppendTaskName(int task);  // JSON-escaped
  void WriteSlice(int cpu, int task, int64_t start_ns, int64_t end_ns);
  void WriteInstant(int64_t time_ns, int cpu, absl::string_view what, int task);

  std::ostream* out_;
  TaskNames names_;
  Options options_;
  std::vector<CpuState> cpus_;
  std::vector<int> last_cpu_;  // by task id, -1 if never ran
  std::string line_;
  std::string name_scratch_;
  bool first_record_ = true;
  bool finished_ = false;
  bool any_event_ = false;
  int64_t first_ns_ = 0;
  int64_t last_ns_ = 0;
  int64_t next_flow_id_ = 1;
  int64_t slices_ = 0;
  int64_t counters_ = 0;
  int64_t instants_ = 0;
  int64_t flows_ = 0;
};

// Appends `text` to `*out` as the inside of a JSON string (quotes,
// backslashes and control characters escaped; other bytes as they are).
void AppendJsonEscaped(absl::string_view text, std::string* out);

}  // namespace schedsim::traces

#endif  // SCHEDSIM_TRACES_CHROME_JSON_H_
