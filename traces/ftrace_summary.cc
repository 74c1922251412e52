// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// TraceSummary and Summarize (ftrace.h): event counts, CPUs, span and idle
// residency of a trace, whole or in a window.

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "traces/ftrace.h"

namespace schedsim::traces {
namespace {

// The limits the text reader also applies (ftrace.cc).
constexpr int kMaxCpuId = 65535;
constexpr int64_t kMaxIdleStateIndex = 255;

}  // namespace

int64_t TraceSummary::count(EventType type) const {
  if (type == EventType::kUnknown) {
    int64_t total = 0;
    for (const auto& [name, n] : unknown_counts) total += n;
    return total;
  }
  return counts[static_cast<int>(type)];
}

absl::StatusOr<TraceSummary> Summarize(const std::string& path) {
  return Summarize(path, TimeWindow());
}

absl::StatusOr<TraceSummary> Summarize(const std::string& path,
                                       const TimeWindow& window) {
  absl::StatusOr<std::unique_ptr<FtraceReader>> reader =
      FtraceReader::Open(path);
  if (!reader.ok()) return reader.status();
  return Summarize(reader->get(), window);
}

absl::StatusOr<TraceSummary> Summarize(TraceSource* reader,
                                       const TimeWindow& window) {
  struct IdleTracker {
    bool seen = false;  // any cpu_idle event for this CPU yet
    bool open = false;
    int state = 0;
    int64_t start_ns = 0;
  };
  TraceSummary summary;
  std::vector<IdleTracker> trackers;
  std::set<int> cpus;
  int64_t trace_first_ns = -1;

  auto in_window = [&window](int64_t t) {
    return t >= window.begin_ns && t < window.end_ns;
  };
  auto clipped = [&window](int64_t begin, int64_t end) -> int64_t {
    const int64_t b = std::max(begin, window.begin_ns);
    const int64_t e = std::min(end, window.end_ns);
    return e > b ? e - b : 0;
  };
  auto close_period = [&](int cpu, int64_t end_ns) {
    IdleTracker& t = trackers[cpu];
    CpuIdleResidency& r = summary.idle[cpu];
    const int64_t ns = clipped(t.start_ns, end_ns);
    if (ns > 0 || (t.start_ns == end_ns && in_window(t.start_ns))) {
      ++r.periods;
    }
    if (static_cast<int>(r.state_ns.size()) <= t.state) {
      r.state_ns.resize(t.state + 1, 0);
    }
    r.state_ns[t.state] += ns;
    r.total_idle_ns += ns;
    t.open = false;
  };
  auto add_cpu = [&cpus](int cpu) {
    if (cpu >= 0) cpus.insert(cpu);
  };

  reader->set_return_unknown_events(true);
  TraceEvent e;
  while (true) {
    absl::StatusOr<bool> more = reader->Next(&e);
    if (!more.ok()) return more.status();
    if (!*more) break;
    if (trace_first_ns < 0) trace_first_ns = e.timestamp_ns;

    if (e.type == EventType::kCpuIdle) {
      if (e.cpu_id < 0 || e.cpu_id > kMaxCpuId) {
        return absl::InvalidArgumentError(absl::StrCat(
            reader->Where(), ": cpu_idle: cpu_id out of range (max ", kMaxCpuId,
            ")"));
      }
      if (e.state != kCpuIdleExitState && e.state > kMaxIdleStateIndex) {
        return absl::InvalidArgumentError(absl::StrCat(
            reader->Where(), ": cpu_idle: state out of range (max ",
            kMaxIdleStateIndex, " or 4294967295)"));
      }
      if (static_cast<int>(trackers.size()) <= e.cpu_id) {
        trackers.resize(e.cpu_id + 1);
        summary.idle.resize(e.cpu_id + 1);
      }
      IdleTracker& t = trackers[e.cpu_id];
      if (e.state == kCpuIdleExitState) {
        if (t.open) {
          close_period(e.cpu_id, e.timestamp_ns);
        } else if (!t.seen) {
          summary.idle[e.cpu_id].leading_unknown_ns +=
              clipped(trace_first_ns, e.timestamp_ns);
        }
      } else {
        if (t.open) close_period(e.cpu_id, e.timestamp_ns);
        t.open = true;
        t.state = static_cast<int>(e.state);
        t.start_ns = e.timestamp_ns;
      }
      t.seen = true;
    }

    if (!in_window(e.timestamp_ns)) continue;
    ++summary.total_events;
    if (summary.first_timestamp_ns < 0) {
      summary.first_timestamp_ns = e.timestamp_ns;
    }
    summary.last_timestamp_ns = e.timestamp_ns;
    if (e.type == EventType::kUnknown) {
      ++summary.unknown_counts[std::string(e.event_name)];
    } else {
      ++summary.counts[static_cast<int>(e.type)];
    }
    add_cpu(e.cpu);
    add_cpu(e.cpu_id);
    add_cpu(e.target_cpu);
    add_cpu(e.orig_cpu);
    add_cpu(e.dest_cpu);
  }

  const int64_t trace_last_ns = reader->last_timestamp_ns();
  for (size_t cpu = 0; cpu < trackers.size(); ++cpu) {
    if (trackers[cpu].open) {
      close_period(static_cast<int>(cpu), trace_last_ns);
      summary.idle[cpu].open_at_end = true;
    }
  }
  summary.cpus.assign(cpus.begin(), cpus.end());
  summary.header_cpus = reader->header_cpus();
  return summary;
}

}  // namespace schedsim::traces
