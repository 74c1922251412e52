// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// FtraceWriter: a trace sink that writes ftrace text in the layout of
// `trace-cmd report -t` (nanosecond timestamps), with the fields as the
// kernel's TP_printk prints them, so that FtraceReader, `schedsim shadow`,
// the replay model and the converter read a simulated run like a recorded
// one:
//
//   cpus=4
//          <idle>-0     [001]     0.001000000: cpu_idle: state=4294967295
//          cpu_id=1 <idle>-0     [001]     0.001000250: sched_switch:
//          prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==>
//          next_comm=worker next_pid=3 next_prio=120
//
// Event per sink call (the recording CPU in brackets, the TASK-PID column
// is the task running there as last seen, `<idle>-0` when idle or not yet
// seen):
//   OnSwitch     sched_switch       [cpu], TASK-PID = prev
//   OnWakeup     sched_wakeup       [waker_cpu] comm pid prio target_cpu
//   OnMigrate    sched_migrate_task [to_cpu] comm pid prio orig_cpu dest_cpu
//   OnIdle       cpu_idle           [cpu] state (4294967295 = -1) cpu_id
//   OnFrequency  cpu_frequency      [cpu] state (kHz) cpu_id
//   OnTaskExit   sched_process_exit [the task's last CPU] comm pid prio
// Task id N is pid N + 1 (pid 0 is the idle task, named swapper/CPU), its
// comm the name given (control characters replaced by '_'); every prio is
// 120 (the sink is not told the scheduling class).
//
// prev_state is not told by the sink either: it is derived from what the
// task does next. A task switched out is written S (blocked) until it is
// switched in again without a wakeup in between, which makes it R (it was
// preempted or yielded); a task switched out after its OnTaskExit is X. So
// a task still waiting on a runqueue at the end shows S, and IO waits show
// S, not D. The S is corrected in the text already produced: in the
// writer's buffer, or, once flushed, by seeking back in the stream when it
// is seekable (a file, a stringstream). On a stream that cannot seek, the
// writer keeps the text from the oldest uncorrected switch on in memory.
//
// The sim has no fork event: forked tasks appear at their first switch (no
// sched_wakeup_new or sched_process_fork lines).

#ifndef SCHEDSIM_TRACES_FTRACE_WRITER_H_
#define SCHEDSIM_TRACES_FTRACE_WRITER_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "traces/named_trace_sink.h"

namespace schedsim::traces {

class FtraceWriter : public NamedTraceSink {
 public:
  // Lines written, by event.
  struct Counts {
    int64_t switches = 0;          // all sched_switch lines
    int64_t switches_to_task = 0;  // those whose next is not the idle task
    int64_t wakeups = 0;
    int64_t migrations = 0;
    int64_t idle_enters = 0;  // cpu_idle with a state index
    int64_t idle_exits = 0;   // cpu_idle state=4294967295
    int64_t frequencies = 0;
    int64_t exits = 0;
  };

  // `out` is not owned and must outlive the writer. `num_cpus` goes to the
  // `cpus=N` header line. `task_names[id]` names task id.
  FtraceWriter(std::ostream* out, int num_cpus,
               std::vector<std::string> task_names);
  ~FtraceWriter() override;

  FtraceWriter(const FtraceWriter&) = delete;
  FtraceWriter& operator=(const FtraceWriter&) = delete;

  void SetTaskName(int task, absl::string_view name) override;

  void OnSwitch(int64_t time_ns, int cpu, int prev, int next) override;
  void OnWakeup(int64_t time_ns, int task, int cpu, int waker_cpu) override;
  void OnMigrate(int64_t time_ns, int task, int from_cpu, int to_cpu) override;
  void OnIdle(int64_t time_ns, int cpu, int state) override;
  void OnFrequency(int64_t time_ns, int cpu, int64_t khz) override;
  void OnTaskExit(int64_t time_ns, int task) override;

  // Writes everything held and flushes the stream. Later events are
  // ignored. The destructor calls it.
  void Finish();

  const Counts& counts() const { return counts_; }

 private:
  // Starts a line: TASK-PID of `cpu`'s current task, [cpu], the timestamp
  // and the event name.
  void BeginLine(int64_t time_ns, int cpu, absl::string_view event);
  void BeginLineAs(int64_t time_ns, int cpu, int task, absl::string_view event);
  void EndLine();
  void AppendComm(int task, int cpu);
  // The task's name, control characters replaced by '_'.
  void AppendTaskName(int task, std::string* out);
  void AppendPid(int task);
  int& Current(int cpu);
  int64_t& Pending(int task);
  int& LastCpu(int task);
  // Replaces the byte at text offset `offset` (from the first byte
  // written) with `c`.
  void Patch(int64_t offset, char c);
  // Writes the buffer (or, when the stream cannot seek, its part before
  // the oldest pending prev_state) to the stream.
  void Flush(bool all);

  std::ostream* out_;
  TaskNames names_;
  bool seekable_ = false;
  bool finished_ = false;
  std::streampos origin_;         // the stream's position at construction
  std::string buf_;               // text not yet written to the stream
  int64_t buf_base_ = 0;          // offset of buf_[0] in the text
  std::vector<int> current_;      // by CPU: running task, -1 idle or unknown
  std::vector<int64_t> pending_;  // by task: offset of an S to correct, or -1
  std::vector<int> last_cpu_;     // by task: CPU last seen on, -1 none
  std::vector<bool> exited_;      // by task
  std::string name_scratch_;
  Counts counts_;
};

}  // namespace schedsim::traces

#endif  // SCHEDSIM_TRACES_FTRACE_WRITER_H_
