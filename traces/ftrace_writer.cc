// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "traces/ftrace_writer.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace schedsim::traces {
namespace {

// Flush the buffer past this size.
constexpr size_t kFlushBytes = size_t{1} << 20;
constexpr char kPrio[] = "120";

}  // namespace

FtraceWriter::FtraceWriter(std::ostream* out, int num_cpus,
                           std::vector<std::string> task_names)
    : out_(out),
      names_(std::move(task_names)),
      current_(std::max(num_cpus, 0), -1) {
  origin_ = out_->tellp();
  seekable_ = origin_ != std::streampos(-1);
  if (!seekable_) out_->clear();
  absl::StrAppend(&buf_, "cpus=", std::max(num_cpus, 1), "\n");
}

FtraceWriter::~FtraceWriter() { Finish(); }

void FtraceWriter::SetTaskName(int task, absl::string_view name) {
  names_.Set(task, name);
}

int& FtraceWriter::Current(int cpu) {
  if (static_cast<size_t>(cpu) >= current_.size()) current_.resize(cpu + 1, -1);
  return current_[cpu];
}

int64_t& FtraceWriter::Pending(int task) {
  if (static_cast<size_t>(task) >= pending_.size()) {
    pending_.resize(task + 1, -1);
  }
  return pending_[task];
}

int& FtraceWriter::LastCpu(int task) {
  if (static_cast<size_t>(task) >= last_cpu_.size()) {
    last_cpu_.resize(task + 1, -1);
  }
  return last_cpu_[task];
}

void FtraceWriter::AppendComm(int task, int cpu) {
  if (task < 0) {
    absl::StrAppend(&buf_, "swapper/", cpu);
    return;
  }
  AppendTaskName(task, &buf_);
}

void FtraceWriter::AppendTaskName(int task, std::string* out) {
  const size_t start = out->size();
  names_.AppendName(task, out);
  for (size_t i = start; i < out->size(); ++i) {
    char& c = (*out)[i];
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '_';
  }
}

void FtraceWriter::AppendPid(int task) {
  absl::StrAppend(&buf_, task < 0 ? 0 : task + 1);
}

void FtraceWriter::BeginLine(int64_t time_ns, int cpu,
                             absl::string_view event) {
  BeginLineAs(time_ns, cpu, cpu >= 0 ? Current(cpu) : -1, event);
}

void FtraceWriter::BeginLineAs(int64_t time_ns, int cpu, int task,
                               absl::string_view event) {
  name_scratch_.clear();
  if (task < 0) {
    name_scratch_ = "<idle>-0";
  } else {
    AppendTaskName(task, &name_scratch_);
    absl::StrAppend(&name_scratch_, "-", task + 1);
  }
  const int64_t t = std::max<int64_t>(time_ns, 0);
  absl::StrAppendFormat(&buf_, "%16s [%03d] %5d.%09d: %s: ", name_scratch_,
                        std::max(cpu, 0), t / 1000000000, t % 1000000000,
                        event);
}

void FtraceWriter::EndLine() {
  buf_.push_back('\n');
  if (buf_.size() >= kFlushBytes) Flush(false);
}

void FtraceWriter::Patch(int64_t offset, char c) {
  if (offset >= buf_base_) {
    buf_[static_cast<size_t>(offset - buf_base_)] = c;
    return;
  }
  // Flushed already (only when seekable).
  const std::streampos end = out_->tellp();
  out_->seekp(origin_ + static_cast<std::streamoff>(offset));
  out_->put(c);
  out_->seekp(end);
}

void FtraceWriter::Flush(bool all) {
  size_t n = buf_.size();
  if (!seekable_ && !all) {
    for (int64_t p : pending_) {
      if (p >= buf_base_) n = std::min(n, static_cast<size_t>(p - buf_base_));
    }
    // Nothing to gain until the oldest pending line is far behind.
    if (n < buf_.size() / 2) return;
  }
  out_->write(buf_.data(), static_cast<std::streamsize>(n));
  buf_.erase(0, n);
  buf_base_ += static_cast<int64_t>(n);
}

void FtraceWriter::Finish() {
  if (finished_) return;
  finished_ = true;
  Flush(true);
  out_->flush();
}

void FtraceWriter::OnSwitch(int64_t time_ns, int cpu, int prev, int next) {
  if (finished_) return;
  ++counts_.switches;
  if (next >= 0) ++counts_.switches_to_task;
  BeginLineAs(time_ns, cpu, prev, "sched_switch");
  buf_.append("prev_comm=");
  AppendComm(prev, cpu);
  buf_.append(" prev_pid=");
  AppendPid(prev);
  absl::StrAppend(&buf_, " prev_prio=", kPrio, " prev_state=");
  if (prev < 0) {
    buf_.push_back('R');
  } else if (static_cast<size_t>(prev) < exited_.size() && exited_[prev]) {
    buf_.push_back('X');
  } else {
    Pending(prev) = buf_base_ + static_cast<int64_t>(buf_.size());
    buf_.push_back('S');
  }
  buf_.append(" ==> next_comm=");
  AppendComm(next, cpu);
  buf_.append(" next_pid=");
  AppendPid(next);
  absl::StrAppend(&buf_, " next_prio=", kPrio);
  if (next >= 0) {
    // A task switched in is alive: an id that exited before was reused by
    // a fork (the simulator reuses an exited task's slot).
    if (static_cast<size_t>(next) < exited_.size()) exited_[next] = false;
    int64_t& pending = Pending(next);
    // Switched in again without a wakeup: it was runnable.
    if (pending >= 0) Patch(pending, 'R');
    pending = -1;
    LastCpu(next) = cpu;
  }
  Current(cpu) = next;
  EndLine();
}

void FtraceWriter::OnWakeup(int64_t time_ns, int task, int cpu, int waker_cpu) {
  if (finished_) return;
  ++counts_.wakeups;
  if (task >= 0) Pending(task) = -1;  // it was blocked: the S stays
  BeginLine(time_ns, waker_cpu >= 0 ? waker_cpu : cpu, "sched_wakeup");
  buf_.append("comm=");
  AppendComm(task, cpu);
  buf_.append(" pid=");
  AppendPid(task);
  absl::StrAppendFormat(&buf_, " prio=%s target_cpu=%03d", kPrio, cpu);
  EndLine();
}

void FtraceWriter::OnMigrate(int64_t time_ns, int task, int from_cpu,
                             int to_cpu) {
  if (finished_) return;
  ++counts_.migrations;
  BeginLine(time_ns, to_cpu, "sched_migrate_task");
  buf_.append("comm=");
  AppendComm(task, to_cpu);
  buf_.append(" pid=");
  AppendPid(task);
  absl::StrAppend(&buf_, " prio=", kPrio, " orig_cpu=", from_cpu,
                  " dest_cpu=", to_cpu);
  EndLine();
}

void FtraceWriter::OnIdle(int64_t time_ns, int cpu, int state) {
  if (finished_) return;
  ++(state >= 0 ? counts_.idle_enters : counts_.idle_exits);
  BeginLineAs(time_ns, cpu, -1, "cpu_idle");
  absl::StrAppend(
      &buf_, "state=", state >= 0 ? static_cast<uint32_t>(state) : 4294967295u,
      " cpu_id=", cpu);
  EndLine();
}

void FtraceWriter::OnFrequency(int64_t time_ns, int cpu, int64_t khz) {
  if (finished_) return;
  ++counts_.frequencies;
  BeginLine(time_ns, cpu, "cpu_frequency");
  absl::StrAppend(&buf_, "state=", std::max<int64_t>(khz, 0), " cpu_id=", cpu);
  EndLine();
}

void FtraceWriter::OnTaskExit(int64_t time_ns, int task) {
  if (finished_ || task < 0) return;
  ++counts_.exits;
  if (static_cast<size_t>(task) >= exited_.size()) exited_.resize(task + 1);
  exited_[task] = true;
  const int cpu = LastCpu(task);
  BeginLineAs(time_ns, cpu, task, "sched_process_exit");
  buf_.append("comm=");
  AppendComm(task, cpu);
  buf_.append(" pid=");
  AppendPid(task);
  absl::StrAppend(&buf_, " prio=", kPrio);
  EndLine();
}

}  // namespace schedsim::traces
