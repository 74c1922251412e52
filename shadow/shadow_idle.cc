// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// ShadowIdle: an idle governor shown each idle period of a trace through a
// TraceIdleDevice (trace_idle_device.h), its choice scored against the
// measured residency.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "platform/core/answer_checks.h"
#include "platform/core/poll_limit.h"
#include "shadow/shadow.h"
#include "shadow/shadow_common.h"
#include "shadow/trace_idle_device.h"
#include "sim/pelt.h"
#include "topology/cpuset.h"
#include "topology/sched_domains.h"
#include "traces/ftrace.h"
#include "traces/tracecmd_dat.h"

namespace schedsim::traces {
namespace {

using shadow_internal::CheckHz;
using shadow_internal::kNsPerS;
using shadow_internal::LineError;
using shadow_internal::TraceIdleDevice;

// Largest CPU id accepted from a trace (bounds per-CPU arrays).
constexpr int kMaxTraceCpu = 1 << 16;

// The next enabled state deeper than `index`, or -1.
int NextDeeperEnabled(const std::vector<topology::CState>& states, int index) {
  for (size_t d = index + 1; d < states.size(); ++d) {
    if (!states[d].disabled) return static_cast<int>(d);
  }
  return -1;
}

// The deepest enabled state whose target residency `residency_ns` reached
// (the first enabled state when none did).
int OracleState(const std::vector<topology::CState>& states,
                int64_t residency_ns) {
  int best = -1;
  for (size_t i = 0; i < states.size(); ++i) {
    if (states[i].disabled) continue;
    if (best < 0 || states[i].target_residency_ns <= residency_ns) {
      best = static_cast<int>(i);
    }
  }
  return best;
}

void AddCost(const std::vector<topology::CState>& states, int index,
             int64_t residency_ns, int oracle, IdleCost* cost) {
  const topology::CState& s = states[index];
  if (residency_ns < s.target_residency_ns) {
    ++cost->too_deep;
  } else {
    const int d = NextDeeperEnabled(states, index);
    if (d >= 0 && residency_ns >= states[d].target_residency_ns) {
      ++cost->too_shallow;
    }
  }
  cost->exit_latency_ns += s.exit_latency_ns;
  if (index == oracle) ++cost->oracle;
}

void AddInto(const IdleCost& from, IdleCost* to) {
  to->too_deep += from.too_deep;
  to->too_shallow += from.too_shallow;
  to->exit_latency_ns += from.exit_latency_ns;
  to->oracle += from.oracle;
}

std::string StateName(const std::vector<topology::CState>& states, int i) {
  return absl::StrCat(i, " (", states[i].name, ")");
}

class IdleShadow {
 public:
  IdleShadow(TraceSource* reader, const topology::Topology& machine,
             platform::IdleGovernor* governor, const IdleShadowOptions& options)
      : reader_(reader),
        states_(machine.cstates()),
        governor_(governor),
        options_(options),
        tick_ns_(kNsPerS / options.hz),
        poll_limit_ns_(platform::core::PollTimeLimitNs(states_, tick_ns_)) {
    report_.governor = std::string(governor->name());
    report_.machine = machine.name();
    report_.states = states_;
    report_.options = options;
  }

  absl::StatusOr<IdleShadowReport> Run() {
    TraceEvent e;
    while (true) {
      absl::StatusOr<bool> more = reader_->Next(&e);
      if (!more.ok()) return more.status();
      if (!*more) break;
      if (report_.first_ns < 0) report_.first_ns = e.timestamp_ns;
      absl::Status s = Handle(e);
      if (!s.ok()) return s;
    }
    report_.last_ns = reader_->last_timestamp_ns();
    report_.trace_cpus = reader_->header_cpus();
    for (size_t c = 0; c < cpus_.size(); ++c) {
      Cpu& cpu = cpus_[c];
      if (cpu.open) {
        ++report_.open_at_end;
        Close(static_cast<int>(c), report_.last_ns);
      }
    }
    const int n = static_cast<int>(states_.size());
    report_.total.confusion.assign(n, std::vector<int64_t>(n, 0));
    for (Cpu& cpu : cpus_) {
      if (cpu.device == nullptr) continue;
      IdleShadowCpu& t = report_.total;
      t.periods += cpu.report.periods;
      t.idle_ns += cpu.report.idle_ns;
      t.agreements += cpu.report.agreements;
      for (int r = 0; r < n; ++r) {
        for (int g = 0; g < n; ++g) {
          t.confusion[r][g] += cpu.report.confusion[r][g];
        }
      }
      AddInto(cpu.report.governor, &t.governor);
      AddInto(cpu.report.kernel, &t.kernel);
      report_.cpus.push_back(std::move(cpu.report));
    }
    return std::move(report_);
  }

 private:
  struct Cpu {
    std::unique_ptr<TraceIdleDevice> device;
    IdleShadowCpu report;
    bool open = false;
    int64_t enter_ns = 0;
    int recorded = -1;
    int chosen = -1;
    int nr_iowait = 0;
  };

  absl::StatusOr<Cpu*> GetCpu(int cpu) {
    if (cpu < 0 || cpu >= kMaxTraceCpu) {
      return LineError(*reader_, absl::StrCat("CPU ", cpu, " out of range"));
    }
    if (cpu >= static_cast<int>(cpus_.size())) cpus_.resize(cpu + 1);
    return &cpus_[cpu];
  }

  absl::Status Handle(const TraceEvent& e) {
    switch (e.type) {
      case EventType::kCpuIdle:
        return HandleIdle(e);
      case EventType::kSchedSwitch:
        if (e.prev_pid > 0 && absl::StartsWith(e.prev_state, "D")) {
          absl::StatusOr<Cpu*> c = GetCpu(e.cpu);
          if (!c.ok()) return c.status();
          if (iowait_cpu_.emplace(e.prev_pid, e.cpu).second) {
            ++(*c)->nr_iowait;
          }
        }
        if (e.next_pid > 0) EndIowait(e.next_pid);
        return absl::OkStatus();
      case EventType::kSchedWakeup:
      case EventType::kSchedWakeupNew:
      case EventType::kSchedWaking:
      case EventType::kSchedProcessExit:
        EndIowait(e.pid);
        return absl::OkStatus();
      default:
        return absl::OkStatus();
    }
  }

  void EndIowait(int pid) {
    auto it = iowait_cpu_.find(pid);
    if (it == iowait_cpu_.end()) return;
    --cpus_[it->second].nr_iowait;
    iowait_cpu_.erase(it);
  }

  absl::Status HandleIdle(const TraceEvent& e) {
    absl::StatusOr<Cpu*> got = GetCpu(e.cpu_id);
    if (!got.ok()) return got.status();
    Cpu& c = **got;
    const int state = e.idle_state();
    if (state < 0) {
      if (c.open) {
        Close(e.cpu_id, e.timestamp_ns);
      } else {
        ++report_.unmatched_exits;
      }
      return absl::OkStatus();
    }
    const int n = static_cast<int>(states_.size());
    if (state >= n) {
      return LineError(
          *reader_,
          absl::StrCat("cpu_idle state ", e.state, " on CPU ", e.cpu_id,
                       " is beyond the idle state table of ", report_.machine,
                       " (", n, " states: 0..", n - 1, ")"));
    }
    if (c.open) Close(e.cpu_id, e.timestamp_ns);
    if (c.device == nullptr) {
      c.device = std::make_unique<TraceIdleDevice>(e.cpu_id, &states_, tick_ns_,
                                                   options_);
      c.report.cpu = e.cpu_id;
      c.report.confusion.assign(n, std::vector<int64_t>(n, 0));
      governor_->Enable(*c.device);
    }
    c.device->set_now_ns(e.timestamp_ns);
    c.device->set_nr_iowait(std::max(c.nr_iowait, 0));
    bool stop_tick = true;
    const int chosen = governor_->Select(*c.device, &stop_tick);
    const platform::core::IdleAnswer answer =
        platform::core::CheckIdleAnswer(*c.device, chosen);
    if (answer == platform::core::IdleAnswer::kOutOfRange) {
      return LineError(
          *reader_, absl::StrCat("governor ", report_.governor,
                                 " chose idle state ", chosen, " on CPU ",
                                 e.cpu_id, "; the table has ", n, " states"));
    }
    if (answer == platform::core::IdleAnswer::kDisabled) {
      return LineError(*reader_, absl::StrCat("governor ", report_.governor,
                                              " chose the disabled idle state ",
                                              StateName(states_, chosen),
                                              " on CPU ", e.cpu_id));
    }
    c.open = true;
    c.enter_ns = e.timestamp_ns;
    c.recorded = state;
    c.chosen = chosen;
    return absl::OkStatus();
  }

  void Close(int cpu, int64_t end_ns) {
    Cpu& c = cpus_[cpu];
    c.open = false;
    const int64_t residency = std::max<int64_t>(end_ns - c.enter_ns, 0);
    IdleShadowCpu& r = c.report;
    ++r.periods;
    r.idle_ns += residency;
    if (c.chosen == c.recorded) ++r.agreements;
    ++r.confusion[c.recorded][c.chosen];
    const int oracle = OracleState(states_, residency);
    AddCost(states_, c.chosen, residency, oracle, &r.governor);
    AddCost(states_, c.recorded, residency, oracle, &r.kernel);

    // The cpuidle core's bookkeeping for the governor's state, then
    // reflect.
    platform::IdleStateStats& st = c.device->mutable_stats(c.chosen);
    ++st.usage;
    st.time_ns += residency;
    if (residency < states_[c.chosen].target_residency_ns) {
      ++st.above;
    } else {
      const int d = NextDeeperEnabled(states_, c.chosen);
      if (d >= 0 && residency >= states_[d].target_residency_ns) ++st.below;
    }
    c.device->set_last_residency_ns(residency);
    c.device->set_poll_time_limit(states_[c.chosen].polling() &&
                                  residency > poll_limit_ns_);
    c.device->set_now_ns(end_ns);
    governor_->Reflect(*c.device, c.chosen);
  }

  TraceSource* reader_;
  const std::vector<topology::CState> states_;
  platform::IdleGovernor* governor_;
  IdleShadowOptions options_;
  int64_t tick_ns_;
  int64_t poll_limit_ns_;
  std::vector<Cpu> cpus_;
  // pid -> CPU it went to sleep in state D on.
  absl::flat_hash_map<int, int> iowait_cpu_;
  IdleShadowReport report_;
};

}  // namespace

double IdleShadowCpu::agreement_pct() const {
  return periods == 0 ? 0.0 : 100.0 * agreements / periods;
}

absl::StatusOr<IdleShadowReport> ShadowIdle(const std::string& trace_path,
                                            const topology::Topology& machine,
                                            platform::IdleGovernor& governor,
                                            const IdleShadowOptions& options) {
  absl::Status hz = CheckHz(options.hz);
  if (!hz.ok()) return hz;
  if (options.assume_timer_in_ns < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "assume_timer_in_ns must be >= 0, got ", options.assume_timer_in_ns));
  }
  if (machine.cstates().empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "machine ", machine.name(), " has no idle states to choose from"));
  }
  absl::StatusOr<std::unique_ptr<TraceSource>> reader = OpenTrace(trace_path);
  if (!reader.ok()) return reader.status();
  (*reader)->set_return_unknown_events(true);
  IdleShadow shadow(reader->get(), machine, &governor, options);
  return shadow.Run();
}

}  // namespace schedsim::traces
