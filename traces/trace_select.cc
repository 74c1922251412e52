// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "traces/trace_select.h"

#include <algorithm>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "topology/cpuset.h"

namespace schedsim::traces {
namespace {

// "150", "72.5", "0.000001" milliseconds -> nanoseconds, exactly; false when
// `text` is not that (at most 6 decimals, at most 10^9 ms).
bool ParseMillisToNs(absl::string_view text, int64_t* ns) {
  if (text.empty()) return false;
  absl::string_view whole = text;
  absl::string_view frac;
  const size_t dot = text.find('.');
  if (dot != absl::string_view::npos) {
    whole = text.substr(0, dot);
    frac = text.substr(dot + 1);
    if (frac.empty() || frac.size() > 6) return false;
  }
  if (whole.empty() || whole.size() > 9) return false;
  for (char c : whole) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return false;
  }
  for (char c : frac) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return false;
  }
  int64_t ms = 0;
  if (!absl::SimpleAtoi(whole, &ms)) return false;
  int64_t sub = 0;
  if (!frac.empty()) {
    std::string padded(frac);
    padded.resize(6, '0');
    if (!absl::SimpleAtoi(padded, &sub)) return false;
  }
  *ns = ms * 1000000 + sub;
  return true;
}

}  // namespace

absl::Status ParseTraceWindow(absl::string_view text, TraceSelection* out) {
  const std::vector<absl::string_view> parts = absl::StrSplit(text, ':');
  int64_t from = 0;
  int64_t to = 0;
  if (parts.size() != 2 || !ParseMillisToNs(parts[0], &from) ||
      !ParseMillisToNs(parts[1], &to)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "expected FROM_MS:TO_MS (milliseconds of simulated time, e.g. "
        "50:150 or 72.5:73), got '",
        text, "'"));
  }
  if (from >= to) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the window's FROM must be before its TO, got '", text, "'"));
  }
  out->from_ns = from;
  out->to_ns = to;
  return absl::OkStatus();
}

absl::Status ParseTraceCpus(absl::string_view text, int num_cpus,
                            TraceSelection* out) {
  if (absl::StripAsciiWhitespace(text).empty()) {
    return absl::InvalidArgumentError(
        "expected a CPU list such as 0-15 or 0,2,64-127, got ''");
  }
  absl::StatusOr<topology::CpuSet> set =
      topology::CpuSet::ParseList(text, num_cpus);
  if (!set.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", text, "': ", set.status().message(), " (CPUs 0-",
                     num_cpus - 1, ")"));
  }
  out->cpus.assign(num_cpus, false);
  for (int c = set->First(); c >= 0; c = set->Next(c)) out->cpus[c] = true;
  return absl::OkStatus();
}

SelectingTraceSink::SelectingTraceSink(NamedTraceSink* out,
                                       TraceSelection selection)
    : out_(out), sel_(std::move(selection)) {}

SelectingTraceSink::CpuState& SelectingTraceSink::Cpu(int cpu) {
  if (static_cast<size_t>(cpu) >= cpus_.size()) cpus_.resize(cpu + 1);
  return cpus_[cpu];
}

void SelectingTraceSink::Open() {
  opened_ = true;
  if (sel_.from_ns == std::numeric_limits<int64_t>::min()) return;
  const int64_t t = sel_.from_ns;
  for (size_t c = 0; c < cpus_.size(); ++c) {
    const int cpu = static_cast<int>(c);
    if (!sel_.Selected(cpu)) continue;
    const CpuState& s = cpus_[c];
    if (s.khz >= 0) {
      out_->OnFrequency(t, cpu, s.khz);
      ++passed_;
    }
    if (s.idle_state >= 0) {
      out_->OnIdle(t, cpu, s.idle_state);
      ++passed_;
    }
    if (s.task >= 0) {
      out_->OnSwitch(t, cpu, -1, s.task);
      ++passed_;
    }
  }
}

bool SelectingTraceSink::InWindow(int64_t time_ns) {
  if (time_ns < sel_.from_ns) return false;
  if (!opened_) Open();  // the state before this event
  return time_ns < sel_.to_ns;
}

void SelectingTraceSink::SetTaskName(int task, absl::string_view name) {
  out_->SetTaskName(task, name);
}

void SelectingTraceSink::OnSwitch(int64_t time_ns, int cpu, int prev,
                                  int next) {
  const bool in = InWindow(time_ns);
  if (cpu >= 0) Cpu(cpu).task = next;
  if (next >= 0) {
    if (static_cast<size_t>(next) >= last_cpu_.size()) {
      last_cpu_.resize(next + 1, -1);
    }
    last_cpu_[next] = cpu;
  }
  if (in && sel_.Selected(cpu)) {
    out_->OnSwitch(time_ns, cpu, prev, next);
    ++passed_;
  } else {
    ++dropped_;
  }
}

void SelectingTraceSink::OnWakeup(int64_t time_ns, int task, int cpu,
                                  int waker_cpu) {
  if (InWindow(time_ns) && sel_.Selected(cpu)) {
    out_->OnWakeup(time_ns, task, cpu,
                   sel_.Selected(waker_cpu) ? waker_cpu : -1);
    ++passed_;
  } else {
    ++dropped_;
  }
}

void SelectingTraceSink::OnMigrate(int64_t time_ns, int task, int from_cpu,
                                   int to_cpu) {
  if (InWindow(time_ns) && sel_.Selected(to_cpu)) {
    out_->OnMigrate(time_ns, task, from_cpu, to_cpu);
    ++passed_;
  } else {
    ++dropped_;
  }
}

void SelectingTraceSink::OnIdle(int64_t time_ns, int cpu, int state) {
  const bool in = InWindow(time_ns);
  if (cpu >= 0) Cpu(cpu).idle_state = state;
  if (in && sel_.Selected(cpu)) {
    out_->OnIdle(time_ns, cpu, state);
    ++passed_;
  } else {
    ++dropped_;
  }
}

void SelectingTraceSink::OnFrequency(int64_t time_ns, int cpu, int64_t khz) {
  const bool in = InWindow(time_ns);
  if (cpu >= 0) Cpu(cpu).khz = khz;
  if (in && sel_.Selected(cpu)) {
    out_->OnFrequency(time_ns, cpu, khz);
    ++passed_;
  } else {
    ++dropped_;
  }
}

void SelectingTraceSink::OnTaskExit(int64_t time_ns, int task) {
  const int last = task >= 0 && static_cast<size_t>(task) < last_cpu_.size()
                       ? last_cpu_[task]
                       : -1;
  const bool cpu_ok = sel_.cpus.empty() || (last >= 0 && sel_.Selected(last));
  if (InWindow(time_ns) && cpu_ok) {
    out_->OnTaskExit(time_ns, task);
    ++passed_;
  } else {
    ++dropped_;
  }
}

int64_t SelectingTraceSink::Finish(int64_t end_ns) {
  if (!opened_ && end_ns > sel_.from_ns) Open();
  return std::min(end_ns, sel_.to_ns);
}

}  // namespace schedsim::traces
