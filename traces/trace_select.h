// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// A bounded trace: a time window and a set of CPUs (`schedsim run
// --trace-window=FROM_MS:TO_MS --trace-cpus=LIST`, docs/traces-writing.md).
//
// SelectingTraceSink sits between the simulator and a trace writer and
// passes on only the events inside the window on the selected CPUs:
//   OnSwitch, OnIdle, OnFrequency  when `cpu` is selected;
//   OnWakeup                       when the target `cpu` is selected (the
//                                  waker CPU is passed as -1 when it is not,
//                                  so no writer draws an arrow from, or
//                                  records on, a CPU outside the selection);
//   OnMigrate                      when the destination CPU is selected;
//   OnTaskExit                     when the CPU the task last ran on is.
// Events at or after the window's end are dropped. Before the window it
// follows each CPU's state (running task, idle state, frequency) without
// passing anything on, and at the first event at or after the window's
// start (or at Finish) it writes that state as events at the window's start:
// cpu_frequency, cpu_idle (when idle in a state) and a switch from the idle
// task to the running task, for each selected CPU. So a viewer shows what
// each CPU was doing from the window's first nanosecond, not from its first
// event.

#ifndef SCHEDSIM_TRACES_TRACE_SELECT_H_
#define SCHEDSIM_TRACES_TRACE_SELECT_H_

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "traces/named_trace_sink.h"

namespace schedsim::traces {

struct TraceSelection {
  // [from_ns, to_ns) in simulated time.
  int64_t from_ns = std::numeric_limits<int64_t>::min();
  int64_t to_ns = std::numeric_limits<int64_t>::max();
  // cpus[c]: CPU c is selected. Empty: every CPU.
  std::vector<bool> cpus;

  bool HasWindow() const {
    return from_ns != std::numeric_limits<int64_t>::min() ||
           to_ns != std::numeric_limits<int64_t>::max();
  }
  bool Selected(int cpu) const {
    return cpus.empty() ||
           (cpu >= 0 && static_cast<size_t>(cpu) < cpus.size() && cpus[cpu]);
  }
};

// Parses "FROM_MS:TO_MS" (milliseconds, decimals allowed, to the
// nanosecond: "50:150", "72.5:73.25") into [from_ns, to_ns). FROM < TO,
// both >= 0; errors say what was expected.
absl::Status ParseTraceWindow(absl::string_view text, TraceSelection* out);

// Parses a kernel cpulist ("0-15", "0,2,64-127") of a machine with
// `num_cpus` CPUs into out->cpus; errors name the CPU out of range.
absl::Status ParseTraceCpus(absl::string_view text, int num_cpus,
                            TraceSelection* out);

class SelectingTraceSink : public NamedTraceSink {
 public:
  // `out` is not owned and must outlive this sink.
  SelectingTraceSink(NamedTraceSink* out, TraceSelection selection);

  void SetTaskName(int task, absl::string_view name) override;
  void OnSwitch(int64_t time_ns, int cpu, int prev, int next) override;
  void OnWakeup(int64_t time_ns, int task, int cpu, int waker_cpu) override;
  void OnMigrate(int64_t time_ns, int task, int from_cpu, int to_cpu) override;
  void OnIdle(int64_t time_ns, int cpu, int state) override;
  void OnFrequency(int64_t time_ns, int cpu, int64_t khz) override;
  void OnTaskExit(int64_t time_ns, int task) override;

  // The time the writer should end its open slices at: min(end_ns, the
  // window's end). Writes the state at the window's start first if no
  // event has reached the window yet and end_ns is past its start.
  int64_t Finish(int64_t end_ns);

  // Events passed on (the state written at the window's start included).
  int64_t passed() const { return passed_; }
  // Events dropped (outside the window or on CPUs not selected).
  int64_t dropped() const { return dropped_; }

 private:
  struct CpuState {
    int task = -1;
    int idle_state = -1;
    int64_t khz = -1;
  };
  CpuState& Cpu(int cpu);
  // True when an event at `time_ns` is inside the window (opening it first
  // when this is the first such event).
  bool InWindow(int64_t time_ns);
  void Open();

  NamedTraceSink* out_;
  TraceSelection sel_;
  std::vector<CpuState> cpus_;
  std::vector<int> last_cpu_;  // by task, -1 if never switched in
  bool opened_ = false;
  int64_t passed_ = 0;
  int64_t dropped_ = 0;
};

// Passes every event on to each of its sinks, in order (null ones skipped).
class TeeTraceSink : public sim::TraceSink {
 public:
  explicit TeeTraceSink(std::vector<sim::TraceSink*> sinks) {
    for (sim::TraceSink* s : sinks) {
      if (s != nullptr) sinks_.push_back(s);
    }
  }
  void OnSwitch(int64_t t, int cpu, int prev, int next) override {
    for (sim::TraceSink* s : sinks_) s->OnSwitch(t, cpu, prev, next);
  }
  void OnWakeup(int64_t t, int task, int cpu, int waker_cpu) override {
    for (sim::TraceSink* s : sinks_) s->OnWakeup(t, task, cpu, waker_cpu);
  }
  void OnMigrate(int64_t t, int task, int from_cpu, int to_cpu) override {
    for (sim::TraceSink* s : sinks_) s->OnMigrate(t, task, from_cpu, to_cpu);
  }
  void OnIdle(int64_t t, int cpu, int state) override {
    for (sim::TraceSink* s : sinks_) s->OnIdle(t, cpu, state);
  }
  void OnFrequency(int64_t t, int cpu, int64_t khz) override {
    for (sim::TraceSink* s : sinks_) s->OnFrequency(t, cpu, khz);
  }
  void OnTaskExit(int64_t t, int task) override {
    for (sim::TraceSink* s : sinks_) s->OnTaskExit(t, task);
  }

 private:
  std::vector<sim::TraceSink*> sinks_;
};

}  // namespace schedsim::traces

#endif  // SCHEDSIM_TRACES_TRACE_SELECT_H_
