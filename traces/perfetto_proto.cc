// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "traces/perfetto_proto.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace schedsim::traces {
namespace {

// Protobuf wire types.
constexpr int kVarint = 0;
constexpr int kLen = 2;

// Field numbers (Perfetto's protos, see the header).
constexpr int kTracePacket = 1;              // Trace.packet
constexpr int kPacketFtraceEvents = 1;       // TracePacket.ftrace_events
constexpr int kPacketSequenceId = 10;        // .trusted_packet_sequence_id
constexpr int kBundleCpu = 1;                // FtraceEventBundle.cpu
constexpr int kBundleEvent = 2;              // FtraceEventBundle.event
constexpr int kEventTimestamp = 1;           // FtraceEvent.timestamp
constexpr int kEventPid = 2;                 // FtraceEvent.pid
constexpr int kEventSchedSwitch = 4;         // FtraceEvent.sched_switch
constexpr int kEventCpuFrequency = 11;       // .cpu_frequency
constexpr int kEventCpuIdle = 13;            // .cpu_idle
constexpr int kEventSchedWakeup = 17;        // .sched_wakeup
constexpr int kEventSchedProcessExit = 238;  // .sched_process_exit

constexpr int kPrio = 120;
constexpr uint64_t kStateS = 1;   // TASK_INTERRUPTIBLE
constexpr uint64_t kStateR = 0;   // TASK_RUNNING (preempted)
constexpr uint64_t kStateX = 16;  // EXIT_DEAD
constexpr uint64_t kIdleExit = 4294967295u;

void AppendVarint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

void AppendTag(int field, int wire_type, std::string* out) {
  AppendVarint((static_cast<uint64_t>(field) << 3) | wire_type, out);
}

void AppendVarintField(int field, uint64_t v, std::string* out) {
  AppendTag(field, kVarint, out);
  AppendVarint(v, out);
}

void AppendLenField(int field, absl::string_view bytes, std::string* out) {
  AppendTag(field, kLen, out);
  AppendVarint(bytes.size(), out);
  out->append(bytes.data(), bytes.size());
}

int PidOf(int task) { return task < 0 ? 0 : task + 1; }

}  // namespace

PerfettoProtoWriter::PerfettoProtoWriter(std::ostream* out,
                                         std::vector<std::string> task_names)
    : out_(out), names_(std::move(task_names)) {}

PerfettoProtoWriter::~PerfettoProtoWriter() { Finish(); }

void PerfettoProtoWriter::SetTaskName(int task, absl::string_view name) {
  names_.Set(task, name);
}

PerfettoProtoWriter::CpuState& PerfettoProtoWriter::Cpu(int cpu) {
  if (static_cast<size_t>(cpu) >= cpus_.size()) cpus_.resize(cpu + 1);
  return cpus_[cpu];
}

PerfettoProtoWriter::TaskState& PerfettoProtoWriter::Task(int task) {
  if (static_cast<size_t>(task) >= tasks_.size()) tasks_.resize(task + 1);
  return tasks_[task];
}

void PerfettoProtoWriter::AppendComm(int task, int cpu, std::string* out) {
  if (task < 0) {
    absl::StrAppend(out, "swapper/", cpu);
  } else {
    names_.AppendName(task, out);
  }
}

size_t PerfettoProtoWriter::AppendEvent(int cpu, int64_t time_ns, int pid,
                                        int event_field,
                                        const std::string& body) {
  scratch_.clear();
  AppendVarintField(kEventTimestamp,
                    static_cast<uint64_t>(time_ns < 0 ? 0 : time_ns),
                    &scratch_);
  AppendVarintField(kEventPid, static_cast<uint64_t>(pid), &scratch_);
  AppendTag(event_field, kLen, &scratch_);
  AppendVarint(body.size(), &scratch_);
  const size_t body_in_event = scratch_.size();
  scratch_.append(body);
  CpuState& c = Cpu(cpu);
  AppendTag(kBundleEvent, kLen, &c.bundle);
  AppendVarint(scratch_.size(), &c.bundle);
  const size_t event_at = c.bundle.size();
  c.bundle.append(scratch_);
  return event_at + body_in_event;
}

void PerfettoProtoWriter::FlushCpu(int cpu) {
  CpuState& c = Cpu(cpu);
  if (c.bundle.empty()) return;
  std::string bundle;
  AppendVarintField(kBundleCpu, static_cast<uint64_t>(cpu), &bundle);
  bundle.append(c.bundle);
  std::string packet;
  AppendLenField(kPacketFtraceEvents, bundle, &packet);
  AppendVarintField(kPacketSequenceId, kSequenceId, &packet);
  std::string framed;
  AppendLenField(kTracePacket, packet, &framed);
  out_->write(framed.data(), static_cast<std::streamsize>(framed.size()));
  c.bundle.clear();
  ++c.generation;
  ++counts_.packets;
}

void PerfettoProtoWriter::OnSwitch(int64_t time_ns, int cpu, int prev,
                                   int next) {
  if (finished_ || cpu < 0) return;
  // A task switched in again without a wakeup since its switch-out was
  // preempted: its S becomes R while the bundle is still held.
  if (next >= 0) {
    TaskState& t = Task(next);
    if (t.patch_cpu >= 0 && Cpu(t.patch_cpu).generation == t.patch_generation) {
      Cpu(t.patch_cpu).bundle[t.patch_offset] = static_cast<char>(kStateR);
    }
    t.patch_cpu = -1;
    t.last_cpu = cpu;
  }
  body_.clear();
  scratch_.clear();  // free until AppendEvent
  AppendComm(prev, cpu, &scratch_);
  AppendLenField(1, scratch_, &body_);
  scratch_.clear();
  AppendVarintField(2, static_cast<uint64_t>(PidOf(prev)), &body_);
  AppendVarintField(3, kPrio, &body_);
  AppendTag(4, kVarint, &body_);
  const size_t state_at = body_.size();
  const bool exited = prev >= 0 && Task(prev).exited;
  AppendVarint(prev < 0 ? kStateR : (exited ? kStateX : kStateS), &body_);
  AppendComm(next, cpu, &scratch_);
  AppendLenField(5, scratch_, &body_);
  scratch_.clear();
  AppendVarintField(6, static_cast<uint64_t>(PidOf(next)), &body_);
  AppendVarintField(7, kPrio, &body_);
  const size_t body_at =
      AppendEvent(cpu, time_ns, PidOf(prev), kEventSchedSwitch, body_);
  if (prev >= 0 && !exited) {
    TaskState& t = Task(prev);
    t.patch_cpu = cpu;
    t.patch_generation = Cpu(cpu).generation;
    t.patch_offset = body_at + state_at;
  }
  Cpu(cpu).task = next;
  ++counts_.switches;
  if (Cpu(cpu).bundle.size() >= kBundleBytes) FlushCpu(cpu);
}

void PerfettoProtoWriter::OnWakeup(int64_t time_ns, int task, int cpu,
                                   int waker_cpu) {
  if (finished_ || task < 0 || cpu < 0) return;
  Task(task).patch_cpu = -1;  // it blocked: its S stays
  const int on = waker_cpu >= 0 ? waker_cpu : cpu;
  body_.clear();
  scratch_.clear();
  AppendComm(task, cpu, &scratch_);
  AppendLenField(1, scratch_, &body_);
  scratch_.clear();
  AppendVarintField(2, static_cast<uint64_t>(PidOf(task)), &body_);
  AppendVarintField(3, kPrio, &body_);
  AppendVarintField(4, 1, &body_);  // success
  AppendVarintField(5, static_cast<uint64_t>(cpu), &body_);
  AppendEvent(on, time_ns, PidOf(Cpu(on).task), kEventSchedWakeup, body_);
  ++counts_.wakeups;
  if (Cpu(on).bundle.size() >= kBundleBytes) FlushCpu(on);
}

void PerfettoProtoWriter::OnMigrate(int64_t, int, int, int) {
  if (!finished_) ++counts_.migrations_skipped;
}

void PerfettoProtoWriter::OnIdle(int64_t time_ns, int cpu, int state) {
  if (finished_ || cpu < 0) return;
  body_.clear();
  AppendVarintField(1, state < 0 ? kIdleExit : static_cast<uint64_t>(state),
                    &body_);
  AppendVarintField(2, static_cast<uint64_t>(cpu), &body_);
  AppendEvent(cpu, time_ns, PidOf(Cpu(cpu).task), kEventCpuIdle, body_);
  ++counts_.idles;
  if (Cpu(cpu).bundle.size() >= kBundleBytes) FlushCpu(cpu);
}

void PerfettoProtoWriter::OnFrequency(int64_t time_ns, int cpu, int64_t khz) {
  if (finished_ || cpu < 0) return;
  body_.clear();
  AppendVarintField(1, static_cast<uint64_t>(khz < 0 ? 0 : khz), &body_);
  AppendVarintField(2, static_cast<uint64_t>(cpu), &body_);
  AppendEvent(cpu, time_ns, PidOf(Cpu(cpu).task), kEventCpuFrequency, body_);
  ++counts_.frequencies;
  if (Cpu(cpu).bundle.size() >= kBundleBytes) FlushCpu(cpu);
}

void PerfettoProtoWriter::OnTaskExit(int64_t time_ns, int task) {
  if (finished_ || task < 0) return;
  TaskState& t = Task(task);
  t.exited = true;
  const int cpu = t.last_cpu >= 0 ? t.last_cpu : 0;
  body_.clear();
  scratch_.clear();
  AppendComm(task, cpu, &scratch_);
  AppendLenField(1, scratch_, &body_);
  scratch_.clear();
  AppendVarintField(2, static_cast<uint64_t>(PidOf(task)), &body_);
  AppendVarintField(3, static_cast<uint64_t>(PidOf(task)), &body_);  // tgid
  AppendVarintField(4, kPrio, &body_);
  AppendEvent(cpu, time_ns, PidOf(task), kEventSchedProcessExit, body_);
  ++counts_.exits;
  if (Cpu(cpu).bundle.size() >= kBundleBytes) FlushCpu(cpu);
}

void PerfettoProtoWriter::Finish() {
  if (finished_) return;
  finished_ = true;
  for (size_t c = 0; c < cpus_.size(); ++c) FlushCpu(static_cast<int>(c));
  out_->flush();
}

}  // namespace schedsim::traces
