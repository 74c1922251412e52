// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "traces/chrome_json.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace schedsim::traces {
namespace {

// Length of the valid UTF-8 sequence at the start of `s`, 0 if invalid.
size_t Utf8SequenceLength(absl::string_view s) {
  const auto byte = [&s](size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char c = byte(0);
  size_t n = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
  } else {
    return 0;
  }
  if (s.size() < n) return 0;
  for (size_t i = 1; i < n; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return 0;
  }
  // Overlong, surrogate and out-of-range forms.
  if (c == 0xE0 && byte(1) < 0xA0) return 0;
  if (c == 0xED && byte(1) > 0x9F) return 0;
  if (c == 0xF0 && byte(1) < 0x90) return 0;
  if (c == 0xF4 && byte(1) > 0x8F) return 0;
  return n;
}

}  // namespace

void AppendJsonEscaped(absl::string_view text, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      out->push_back('\\');
      out->push_back(static_cast<char>(c));
    } else if (c < 0x20) {
      out->append("\\u00");
      out->push_back(kHex[c >> 4]);
      out->push_back(kHex[c & 0xF]);
    } else if (c >= 0x80) {
      const size_t n = Utf8SequenceLength(text.substr(i));
      if (n == 0) {
        out->append("\\ufffd");  // not UTF-8: the replacement character
      } else {
        out->append(text.data() + i, n);
        i += n;
        continue;
      }
    } else {
      out->push_back(static_cast<char>(c));
    }
    ++i;
  }
}

ChromeJsonWriter::ChromeJsonWriter(std::ostream* out,
                                   std::vector<std::string> task_names)
    : ChromeJsonWriter(out, std::move(task_names), Options()) {}

ChromeJsonWriter::ChromeJsonWriter(std::ostream* out,
                                   std::vector<std::string> task_names,
                                   const Options& options)
    : out_(out), names_(std::move(task_names)), options_(options) {
  *out_ << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  for (int cpu = 0; cpu < options_.num_cpus; ++cpu) Cpu(cpu);
}

ChromeJsonWriter::~ChromeJsonWriter() { Finish(); }

void ChromeJsonWriter::SetTaskName(int task, absl::string_view name) {
  names_.Set(task, name);
}

void ChromeJsonWriter::BeginRecord() {
  line_.clear();
  if (!first_record_) line_.append(",\n");
  first_record_ = false;
}

void ChromeJsonWriter::EndRecord() {
  out_->write(line_.data(), static_cast<std::streamsize>(line_.size()));
}

void ChromeJsonWriter::AppendPidTid(int cpu) {
  const int pid = kCpuPidBase + cpu;
  absl::StrAppend(&line_, "\"pid\":", pid, ",\"tid\":", pid);
}

void ChromeJsonWriter::AppendPidEventTid(int cpu) {
  absl::StrAppend(&line_, "\"pid\":", kCpuPidBase + cpu,
                  ",\"tid\":", kEventTidBase + cpu);
}

void ChromeJsonWriter::AppendTs(const char* key, int64_t ns) {
  absl::StrAppend(&line_, "\"", key, "\":");
  if (ns < 0) {
    line_.push_back('-');
    // -(INT64_MIN) overflows; such times do not occur in a trace.
    ns = ns == INT64_MIN ? INT64_MAX : -ns;
  }
  const int64_t frac = ns % 1000;
  absl::StrAppend(&line_, ns / 1000, ".");
  line_.push_back(static_cast<char>('0' + frac / 100));
  line_.push_back(static_cast<char>('0' + frac / 10 % 10));
  line_.push_back(static_cast<char>('0' + frac % 10));
}

void ChromeJsonWriter::AppendTaskName(int task) {
  name_scratch_.clear();
  names_.AppendName(task, &name_scratch_);
  AppendJsonEscaped(name_scratch_, &line_);
}

ChromeJsonWriter::CpuState& ChromeJsonWriter::Cpu(int cpu) {
  if (cpu < 0) cpu = 0;  // defensive: a negative CPU is not a CPU
  if (static_cast<size_t>(cpu) >= cpus_.size()) cpus_.resize(cpu + 1);
  CpuState& state = cpus_[cpu];
  if (!state.declared && !finished_) {
    state.declared = true;
    BeginRecord();
    line_.append("{\"ph\":\"M\",\"name\":\"process_name\",");
    AppendPidTid(cpu);
    absl::StrAppend(&line_, ",\"args\":{\"name\":\"CPU ", cpu, "\"}},\n");
    line_.append("{\"ph\":\"M\",\"name\":\"process_sort_index\",");
    AppendPidTid(cpu);
    absl::StrAppend(&line_, ",\"args\":{\"sort_index\":", cpu, "}},\n");
    line_.append("{\"ph\":\"M\",\"name\":\"thread_name\",");
    AppendPidTid(cpu);
    absl::StrAppend(&line_, ",\"args\":{\"name\":\"CPU ", cpu, "\"}},\n");
    line_.append("{\"ph\":\"M\",\"name\":\"thread_name\",");
    AppendPidEventTid(cpu);
    absl::StrAppend(&line_, ",\"args\":{\"name\":\"CPU ", cpu, " events\"}}");
    EndRecord();
  }
  return cpus_[cpu];
}

void ChromeJsonWriter::Seen(int64_t time_ns) {
  if (!any_event_) {
    any_event_ = true;
    first_ns_ = time_ns;
  }
  last_ns_ = time_ns;
}

void ChromeJsonWriter::WriteSlice(int cpu, int task, int64_t start_ns,
                                  int64_t end_ns) {
  BeginRecord();
  line_.append("{\"ph\":\"X\",\"cat\":\"sched\",\"name\":\"");
  AppendTaskName(task);
  line_.append("\",");
  AppendPidTid(cpu);
  line_.push_back(',');
  AppendTs("ts", start_ns);
  line_.push_back(',');
  AppendTs("dur", end_ns > start_ns ? end_ns - start_ns : 0);
  absl::StrAppend(&line_, ",\"args\":{\"task\":", task, "}}");
  EndRecord();
  ++slices_;
}

void ChromeJsonWriter::WriteInstant(int64_t time_ns, int cpu,
                                    absl::string_view what, int task) {
  BeginRecord();
  absl::StrAppend(&line_, "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"", what,
                  "\",\"name\":\"", what, " ");
  AppendTaskName(task);
  line_.append("\",");
  AppendPidEventTid(cpu);
  line_.push_back(',');
  AppendTs("ts", time_ns);
  absl::StrAppend(&line_, ",\"args\":{\"task\":", task);
  // The caller appends further args, closes both braces and calls
  // EndRecord().
}

void ChromeJsonWriter::OnSwitch(int64_t time_ns, int cpu, int prev, int next) {
  if (finished_) return;
  Seen(time_ns);
  CpuState& state = Cpu(cpu);
  if (state.task >= 0) {
    WriteSlice(cpu, state.task, state.start_ns, time_ns);
  } else if (!state.switched && prev >= 0) {
    // Running since before the trace began: show it from the first event.
    WriteSlice(cpu, prev, first_ns_, time_ns);
  }
  state.switched = true;
  state.task = next;
  state.start_ns = time_ns;
  if (next >= 0) {
    if (static_cast<size_t>(next) >= last_cpu_.size()) {
      last_cpu_.resize(next + 1, -1);
    }
    last_cpu_[next] = cpu;
  }
}

void ChromeJsonWriter::OnWakeup(int64_t time_ns, int task, int cpu,
                                int waker_cpu) {
  if (finished_) return;
  Seen(time_ns);
  Cpu(cpu);
  const bool flow =
      options_.wakeup_flows && waker_cpu >= 0 && Cpu(waker_cpu).task >= 0;
  WriteInstant(time_ns, cpu, "wakeup", task);
  absl::StrAppend(&line_, ",\"waker_cpu\":", waker_cpu, "}}");
  EndRecord();
  ++instants_;
  if (!flow) return;
  const int64_t id = next_flow_id_++;
  BeginRecord();
  line_.append("{\"ph\":\"s\",\"cat\":\"wakeup\",\"name\":\"wakeup\",");
  AppendPidTid(waker_cpu);
  line_.push_back(',');
  AppendTs("ts", time_ns);
  absl::StrAppend(&line_, ",\"id\":", id, "},\n");
  line_.append("{\"ph\":\"f\",\"cat\":\"wakeup\",\"name\":\"wakeup\",");
  AppendPidTid(cpu);
  line_.push_back(',');
  AppendTs("ts", time_ns);
  absl::StrAppend(&line_, ",\"id\":", id, "}");
  EndRecord();
  ++flows_;
}

void ChromeJsonWriter::OnMigrate(int64_t time_ns, int task, int from_cpu,
                                 int to_cpu) {
  if (finished_) return;
  Seen(time_ns);
  Cpu(to_cpu);
  WriteInstant(time_ns, to_cpu, "migrate", task);
  absl::StrAppend(&line_, ",\"from_cpu\":", from_cpu, ",\"to_cpu\":", to_cpu,
                  "}}");
  EndRecord();
  ++instants_;
}

void ChromeJsonWriter::OnIdle(int64_t time_ns, int cpu, int state) {
  if (finished_) return;
  Seen(time_ns);
  Cpu(cpu);
  BeginRecord();
  line_.append("{\"ph\":\"C\",\"name\":\"cpuidle\",");
  AppendPidTid(cpu);
  line_.push_back(',');
  AppendTs("ts", time_ns);
  absl::StrAppend(&line_, ",\"args\":{\"state\":", state, "}}");
  EndRecord();
  ++counters_;
}

void ChromeJsonWriter::OnFrequency(int64_t time_ns, int cpu, int64_t khz) {
  if (finished_) return;
  Seen(time_ns);
  Cpu(cpu);
  BeginRecord();
  line_.append("{\"ph\":\"C\",\"name\":\"cpufreq\",");
  AppendPidTid(cpu);
  line_.push_back(',');
  AppendTs("ts", time_ns);
  absl::StrAppend(&line_, ",\"args\":{\"khz\":", khz, "}}");
  EndRecord();
  ++counters_;
}

void ChromeJsonWriter::OnTaskExit(int64_t time_ns, int task) {
  if (finished_) return;
  Seen(time_ns);
  int cpu = 0;
  if (task >= 0 && static_cast<size_t>(task) < last_cpu_.size() &&
      last_cpu_[task] >= 0) {
    cpu = last_cpu_[task];
  }
  Cpu(cpu);
  WriteInstant(time_ns, cpu, "exit", task);
  line_.append("}}");
  EndRecord();
  ++instants_;
}

void ChromeJsonWriter::Finish(int64_t end_ns) {
  if (finished_) return;
  for (size_t cpu = 0; cpu < cpus_.size(); ++cpu) {
    CpuState& state = cpus_[cpu];
    if (state.task >= 0) {
      WriteSlice(static_cast<int>(cpu), state.task, state.start_ns, end_ns);
      state.task = -1;
    }
  }
  finished_ = true;
  *out_ << "\n]}\n";
  out_->flush();
}

void ChromeJsonWriter::Finish() { Finish(last_ns_); }

}  // namespace schedsim::traces
