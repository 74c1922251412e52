// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// PerfettoProtoWriter: a trace sink that writes Perfetto's own protobuf
// trace format (a `perfetto.protos.Trace`: a sequence of TracePackets), which
// ui.perfetto.dev and trace_processor open as a kernel trace: CPU tracks
// with the scheduling slices, and the "cpufreq" and "cpuidle" counter
// tracks, drawn natively (not as the Chrome JSON's processes).
//
// Each packet carries an FtraceEventBundle (TracePacket field 1) of one CPU
// with that CPU's events in time order, as Perfetto's own ftrace data source
// records them; the protobuf wire format is written by hand (no libprotobuf
// at run time). The messages and field numbers used are those of Perfetto's
// protos/perfetto/trace/trace_packet.proto,
// protos/perfetto/trace/ftrace/{ftrace_event_bundle,ftrace_event,sched,power}.proto;
// tests/data/perfetto_protos/ declares that subset (the test decodes the
// output against it with protoc).
//
// Events per sink call (bundle CPU in brackets; the FtraceEvent's pid is the
// task running on that CPU as last seen, 0 when idle):
//   OnSwitch     sched_switch       [cpu]
//   OnWakeup     sched_wakeup       [waker_cpu, or cpu when -1] target_cpu
//   OnIdle       cpu_idle           [cpu] state (4294967295 = leaving idle)
//   OnFrequency  cpu_frequency      [cpu] state (kHz)
//   OnTaskExit   sched_process_exit [the task's last CPU, 0 if never seen]
//   OnMigrate    not written: Perfetto has no sched_migrate_task message
//                (the next switch shows the new CPU).
// Task id N is pid N + 1, the idle task pid 0 named swapper/CPU; every prio
// is 120. prev_state follows FtraceWriter (traces/ftrace_writer.h): a task
// switched out is S (1) until it is switched in again without a wakeup,
// which makes it R (0), and X (16) after its OnTaskExit. The correction is
// made in the CPU's bundle while it is held; a bundle is written when it
// reaches kBundleBytes, so a task preempted and run again after its CPU's
// bundle went out stays S.

#ifndef SCHEDSIM_TRACES_PERFETTO_PROTO_H_
#define SCHEDSIM_TRACES_PERFETTO_PROTO_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "traces/named_trace_sink.h"

namespace schedsim::traces {

class PerfettoProtoWriter : public NamedTraceSink {
 public:
  // A CPU's bundle is written once it holds this many bytes.
  static constexpr size_t kBundleBytes = 32 * 1024;
  // TracePacket.trusted_packet_sequence_id of every packet.
  static constexpr uint32_t kSequenceId = 1;

  struct Counts {
    int64_t switches = 0;
    int64_t wakeups = 0;
    int64_t idles = 0;
    int64_t frequencies = 0;
    int64_t exits = 0;
    int64_t migrations_skipped = 0;
    int64_t packets = 0;
  };

  // `out` is not owned and must outlive the writer.
  PerfettoProtoWriter(std::ostream* out, std::vector<std::string> task_names);
  ~PerfettoProtoWriter() override;

  PerfettoProtoWriter(const PerfettoProtoWriter&) = delete;
  PerfettoProtoWriter& operator=(const PerfettoProtoWriter&) = delete;

  void SetTaskName(int task, absl::string_view name) override;
  void OnSwitch(int64_t time_ns, int cpu, int prev, int next) override;
  void OnWakeup(int64_t time_ns, int task, int cpu, int waker_cpu) override;
  void OnMigrate(int64_t time_ns, int task, int from_cpu, int to_cpu) override;
  void OnIdle(int64_t time_ns, int cpu, int state) override;
  void OnFrequency(int64_t time_ns, int cpu, int64_t khz) override;
  void OnTaskExit(int64_t time_ns, int task) override;

  // Writes the held bundles and flushes the stream. Later events are
  // ignored.
  void Finish();

  const Counts& counts() const { return counts_; }

 private:
  struct CpuState {
    std::string bundle;       // encoded FtraceEvent fields (field 2) so far
    uint64_t generation = 0;  // bumped each time `bundle` is written out
    int task = -1;            // running task, -1 if idle or not seen
  };
  struct TaskState {
    int last_cpu = -1;
    bool exited = false;
    // Where the prev_state byte of its last switch-out sits, while that
    // CPU's bundle is held: cpu, generation, offset; cpu -1 if none.
    int patch_cpu = -1;
    uint64_t patch_generation = 0;
    size_t patch_offset = 0;
  };

  CpuState& Cpu(int cpu);
  TaskState& Task(int task);
  // Appends one FtraceEvent (timestamp, pid, then `body` as field
  // `event_field`) to `cpu`'s bundle; returns the offset of `body` in it.
  size_t AppendEvent(int cpu, int64_t time_ns, int pid, int event_field,
                     const std::string& body);
  void FlushCpu(int cpu);
  void AppendComm(int task, int cpu, std::string* out);

  std::ostream* out_;
  TaskNames names_;
  std::vector<CpuState> cpus_;
  std::vector<TaskState> tasks_;
  std::string body_;
  std::string scratch_;
  bool finished_ = false;
  Counts counts_;
};

}  // namespace schedsim::traces

#endif  // SCHEDSIM_TRACES_PERFETTO_PROTO_H_
