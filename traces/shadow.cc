// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "traces/shadow.h"

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
#include "sim/pelt.h"
#include "topology/cpuset.h"
#include "topology/sched_domains.h"
#include "traces/ftrace.h"

namespace schedsim::traces {
namespace {

constexpr int64_t kNsPerS = 1000000000;
// Largest CPU id accepted from a trace (bounds per-CPU arrays).
constexpr int kMaxTraceCpu = 1 << 16;
// cpuidle_poll_time: CPUIDLE_POLL_MIN (10 us); the cap is TICK_NSEC / 16.
constexpr int64_t kPollMinNs = 10000;
// The kernel's initial rq->avg_idle and its cap, 2 * sysctl_sched_
// migration_cost (500 us).
constexpr int64_t kAvgIdleMaxNs = 2 * 500000;
// RT priorities are below this (MAX_RT_PRIO).
constexpr int kMaxRtPrio = 100;

absl::Status LineError(const FtraceReader& reader, absl::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat(reader.name(), ":", reader.line_number(), ": ", what));
}

absl::Status CheckHz(int hz) {
  if (hz < 1 || hz > 10000) {
    return absl::InvalidArgumentError(
        absl::StrCat("HZ must be in 1..10000, got ", hz));
  }
  return absl::OkStatus();
}

bool Sleeping(absl::string_view prev_state) {
  return !prev_state.empty() && prev_state[0] != 'R';
}

// --- Idle ---------------------------------------------------------------

// One CPU as the trace shows it to an idle governor.
class TraceIdleDevice final : public platform::IdleDevice {
 public:
  TraceIdleDevice(int cpu, const std::vector<topology::CState>* states,
                  int64_t tick_ns, const IdleShadowOptions& options)
      : cpu_(cpu),
        states_(states),
        stats_(states->size()),
        tick_ns_(tick_ns),
        assume_timer_in_ns_(options.assume_timer_in_ns),
        latency_limit_ns_(options.latency_limit_ns < 0
                              ? std::numeric_limits<int64_t>::max()
                              : options.latency_limit_ns) {}

  void set_now_ns(int64_t now) { now_ns_ = now; }
  void set_nr_iowait(int n) { nr_iowait_ = n; }
  void set_last_residency_ns(int64_t ns) { last_residency_ns_ = ns; }
  void set_poll_time_limit(bool hit) { poll_time_limit_ = hit; }
  platform::IdleStateStats& mutable_stats(int index) { return stats_[index]; }

  int cpu() const override { return cpu_; }
  int state_count() const override { return static_cast<int>(states_->size()); }
  const topology::CState& state(int index) const override {
    return (*states_)[index];
  }
  const platform::IdleStateStats& stats(int index) const override {
    return stats_[index];
  }
  int64_t now_ns() const override { return now_ns_; }
  int64_t sleep_length_ns(int64_t* delta_tick_ns) const override {
    const int64_t to_tick = tick_ns_ - now_ns_ % tick_ns_;
    if (delta_tick_ns != nullptr) *delta_tick_ns = to_tick;
    return assume_timer_in_ns_ > 0 ? assume_timer_in_ns_ : to_tick;
  }
  int64_t latency_limit_ns() const override { return latency_limit_ns_; }
  int64_t last_residency_ns() const override { return last_residency_ns_; }
  bool poll_time_limit() const override { return poll_time_limit_; }
  int nr_iowait() const override { return nr_iowait_; }
  bool tick_stopped() const override { return false; }
  int64_t tick_period_ns() const override { return tick_ns_; }

 private:
  int cpu_;
  const std::vector<topology::CState>* states_;
  std::vector<platform::IdleStateStats> stats_;
  int64_t tick_ns_;
  int64_t assume_timer_in_ns_;
  int64_t latency_limit_ns_;
  int64_t now_ns_ = 0;
  int64_t last_residency_ns_ = 0;
  int nr_iowait_ = 0;
  bool poll_time_limit_ = false;
};

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

// cpuidle_poll_time() with no per-device poll limit.
int64_t PollLimitNs(const std::vector<topology::CState>& states,
                    int64_t tick_ns) {
  const int64_t cap = tick_ns / 16;
  for (size_t i = 1; i < states.size(); ++i) {
    if (states[i].disabled) continue;
    if (states[i].target_residency_ns < kPollMinNs) continue;
    return std::min(states[i].target_residency_ns, cap);
  }
  return tick_ns;
}

std::string StateName(const std::vector<topology::CState>& states, int i) {
  return absl::StrCat(i, " (", states[i].name, ")");
}

class IdleShadow {
 public:
  IdleShadow(FtraceReader* reader, const topology::Topology& machine,
             platform::IdleGovernor* governor, const IdleShadowOptions& options)
      : reader_(reader),
        states_(machine.cstates()),
        governor_(governor),
        options_(options),
        tick_ns_(kNsPerS / options.hz),
        poll_limit_ns_(PollLimitNs(states_, tick_ns_)) {
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
    if (chosen < 0 || chosen >= n) {
      return LineError(
          *reader_, absl::StrCat("governor ", report_.governor,
                                 " chose idle state ", chosen, " on CPU ",
                                 e.cpu_id, "; the table has ", n, " states"));
    }
    if (c.device->state_disabled(chosen)) {
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

  FtraceReader* reader_;
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
  absl::StatusOr<std::unique_ptr<FtraceReader>> reader =
      FtraceReader::Open(trace_path);
  if (!reader.ok()) return reader.status();
  (*reader)->set_return_unknown_events(true);
  IdleShadow shadow(reader->get(), machine, &governor, options);
  return shadow.Run();
}

// --- Placement ------------------------------------------------------------

namespace {

// What the first pass finds.
struct Prepass {
  int trace_cpus = 0;
  // Per CPU: the task running at its first event (-1: no event).
  std::vector<int> first_pid;
  // Line of a sched_waking that a sched_wakeup completes -> that wake-up's
  // target_cpu.
  absl::flat_hash_map<int64_t, int> waking_target;
  // Lines of the sched_wakeup events that complete a sched_waking.
  absl::flat_hash_set<int64_t> linked_wakeups;
  // Lines of decision events that look synchronous.
  absl::flat_hash_set<int64_t> sync_lines;
};

// Checks every CPU an event names is a CPU of `machine`.
absl::Status CheckCpus(const FtraceReader& reader, const TraceEvent& e,
                       const topology::Topology& machine, int* max_cpu) {
  int cpus[4] = {e.cpu, -1, -1, -1};
  switch (e.type) {
    case EventType::kSchedWakeup:
    case EventType::kSchedWakeupNew:
    case EventType::kSchedWaking:
      cpus[1] = e.target_cpu;
      break;
    case EventType::kSchedMigrateTask:
      cpus[1] = e.orig_cpu;
      cpus[2] = e.dest_cpu;
      break;
    case EventType::kCpuIdle:
    case EventType::kCpuFrequency:
      cpus[1] = e.cpu_id;
      break;
    default:
      break;
  }
  for (int cpu : cpus) {
    if (cpu < 0) continue;
    if (cpu >= machine.num_cpus()) {
      return LineError(
          reader,
          absl::StrCat("CPU ", cpu, " is not a CPU of machine ", machine.name(),
                       " (", machine.num_cpus(), " CPUs)"));
    }
    *max_cpu = std::max(*max_cpu, cpu);
  }
  return absl::OkStatus();
}

bool IsWakeup(EventType t) {
  return t == EventType::kSchedWakeup || t == EventType::kSchedWakeupNew;
}

absl::StatusOr<Prepass> RunPrepass(const std::string& path,
                                   const topology::Topology& machine,
                                   const PlacementShadowOptions& options) {
  absl::StatusOr<std::unique_ptr<FtraceReader>> opened =
      FtraceReader::Open(path);
  if (!opened.ok()) return opened.status();
  FtraceReader& reader = **opened;
  reader.set_return_unknown_events(true);
  Prepass p;
  p.first_pid.assign(machine.num_cpus(), -1);
  int max_cpu = -1;
  // pid -> line of its pending sched_waking.
  absl::flat_hash_map<int, int64_t> pending_waking;
  // Per CPU: the last decision recorded on it by a task, a sync candidate.
  struct Candidate {
    int64_t line = -1;
    int waker = -1;
    int64_t time_ns = 0;
  };
  std::vector<Candidate> candidates(machine.num_cpus());
  TraceEvent e;
  while (true) {
    absl::StatusOr<bool> more = reader.Next(&e);
    if (!more.ok()) return more.status();
    if (!*more) break;
    absl::Status s = CheckCpus(reader, e, machine, &max_cpu);
    if (!s.ok()) return s;
    if (e.cpu >= 0 && p.first_pid[e.cpu] < 0) {
      p.first_pid[e.cpu] =
          e.type == EventType::kSchedSwitch ? e.prev_pid : e.common_pid;
    }
    const int64_t line = reader.line_number();
    bool decision = false;
    if (e.type == EventType::kSchedWaking) {
      pending_waking[e.pid] = line;
      decision = true;
    } else if (IsWakeup(e.type)) {
      auto it = pending_waking.find(e.pid);
      if (it != pending_waking.end()) {
        p.waking_target[it->second] = e.target_cpu;
        p.linked_wakeups.insert(line);
        pending_waking.erase(it);
      } else {
        decision =
            e.type == EventType::kSchedWakeup || options.include_wakeup_new;
      }
    } else if (e.type == EventType::kSchedSwitch && e.cpu >= 0) {
      Candidate& c = candidates[e.cpu];
      if (c.line >= 0 && e.prev_pid == c.waker && Sleeping(e.prev_state) &&
          e.timestamp_ns - c.time_ns <= options.sync_window_ns) {
        p.sync_lines.insert(c.line);
      }
      c = Candidate();
    }
    if (decision && e.cpu >= 0 && e.common_pid > 0 && e.common_pid != e.pid) {
      candidates[e.cpu] = Candidate{line, e.common_pid, e.timestamp_ns};
    }
  }
  if (reader.header_cpus() > machine.num_cpus()) {
    return absl::InvalidArgumentError(absl::StrCat(
        reader.name(), ": the trace has ", reader.header_cpus(),
        " CPUs but machine ", machine.name(), " has ", machine.num_cpus()));
  }
  p.trace_cpus = std::max(reader.header_cpus(), max_cpu + 1);
  if (p.trace_cpus <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(reader.name(), ": no events"));
  }
  return p;
}

// The scheduler state rebuilt from the trace, as a SchedView.
class TraceSchedView final : public platform::SchedView {
 public:
  TraceSchedView(const topology::Topology& machine,
                 const topology::SchedDomains& domains,
                 const PlacementShadowOptions& options)
      : topology_(machine),
        domains_(domains),
        probe_cost_ns_(options.probe_cost_ns),
        tick_ns_(kNsPerS / options.hz),
        cpus_(machine.num_cpus()),
        llcs_(machine.num_llcs()) {}

  struct Cpu {
    int current = 0;  // pid running; 0 = the idle task
    int queued = 0;   // runnable tasks waiting
    sim::PeltSignal util;
    int64_t idle_stamp_ns = 0;  // when it last went idle; 0 = busy
    int64_t avg_idle_ns = kAvgIdleMaxNs;
    int64_t wake_avg_idle_ns = kAvgIdleMaxNs / 2;
    int64_t wake_stamp_jiffies = 0;
  };
  struct Llc {
    bool has_idle_cores = false;
    int64_t avg_scan_cost_ns = 0;
  };

  void Start(int64_t now_ns, const std::vector<int>& first_pid) {
    now_ns_ = now_ns;
    for (size_t c = 0; c < cpus_.size(); ++c) {
      Cpu& cpu = cpus_[c];
      cpu.current = std::max(first_pid[c], 0);
      cpu.util.last_update_ns = now_ns;
      cpu.wake_stamp_jiffies = now_ns / tick_ns_;
      if (cpu.current == 0) cpu.idle_stamp_ns = now_ns;
    }
  }
  void set_now_ns(int64_t now) { now_ns_ = std::max(now_ns_, now); }
  Cpu& cpu(int c) { return cpus_[c]; }

  // The CPU starts running `pid` (0: the idle task). Returns true when it
  // went from a task to the idle task.
  bool SetCurrent(int c, int pid) {
    Cpu& cpu = cpus_[c];
    sim::PeltUpdate(cpu.util, now_ns_, cpu.current != 0,
                    sim::kSchedCapacityScale);
    const bool was_idle = cpu.current == 0;
    cpu.current = pid;
    if (was_idle && pid != 0 && cpu.idle_stamp_ns > 0) {
      // ttwu_do_wakeup's avg_idle update.
      const int64_t delta = now_ns_ - cpu.idle_stamp_ns;
      cpu.avg_idle_ns += (delta - cpu.avg_idle_ns) / 8;
      cpu.avg_idle_ns = std::min(cpu.avg_idle_ns, kAvgIdleMaxNs);
      cpu.wake_stamp_jiffies = now_ns_ / tick_ns_;
      cpu.wake_avg_idle_ns = cpu.avg_idle_ns / 2;
      cpu.idle_stamp_ns = 0;
    }
    if (!was_idle && pid == 0) {
      cpu.idle_stamp_ns = now_ns_;
      return true;
    }
    return false;
  }

  // Idle at this instant, without counting a probe.
  bool IsIdle(int c) const {
    return cpus_[c].current == 0 && cpus_[c].queued == 0;
  }
  int64_t Util(int c) {
    Cpu& cpu = cpus_[c];
    sim::PeltUpdate(cpu.util, now_ns_, cpu.current != 0,
                    sim::kSchedCapacityScale);
    return std::min<int64_t>(cpu.util.util_avg, sim::kSchedCapacityScale);
  }
  // SIS_UTIL's update_idle_cpu_scan for the LLC of every CPU.
  void UpdateIdleScan() {
    nr_idle_scan_.assign(cpus_.size(), 0);
    for (size_t c = 0; c < cpus_.size(); ++c) {
      const int cpu = static_cast<int>(c);
      const topology::SchedDomain* sd =
          domains_.HighestFlagDomain(cpu, topology::kSdSharePkgResources);
      if (sd == nullptr) {
        nr_idle_scan_[c] = 1;
        continue;
      }
      const int64_t weight = sd->span.Count();
      int64_t sum = 0;
      for (int o = sd->span.First(); o >= 0; o = sd->span.Next(o)) {
        sum += Util(o);
      }
      const int64_t x = sum / weight;
      const int64_t pct = sd->imbalance_pct;
      const int64_t tmp =
          std::min<int64_t>(x * x * pct * pct / (10000 * 1024), 1024);
      nr_idle_scan_[c] = static_cast<int>((1024 - tmp) * weight / 1024);
    }
  }
  void BeginSearch() {
    probes_ = 0;
    UpdateIdleScan();
  }
  int64_t probes() const { return probes_; }

  // --- SchedView
  const topology::Topology& topology() const override { return topology_; }
  const topology::SchedDomains& domains() const override { return domains_; }
  bool smt_active() const override { return topology_.threads_per_core() > 1; }
  int64_t now_ns() const override { return now_ns_; }
  bool available_idle(int c) override {
    ++probes_;
    return IsIdle(c);
  }
  bool sched_idle(int c) override { return false; }
  int nr_running(int c) override {
    ++probes_;
    return (cpus_[c].current != 0 ? 1 : 0) + cpus_[c].queued;
  }
  int64_t cpu_util(int c) override {
    ++probes_;
    return Util(c);
  }
  bool ttwu_pending(int c) override { return false; }
  bool has_idle_cores(int c) const override {
    return llcs_[topology_.place(c).llc].has_idle_cores;
  }
  void set_idle_cores(int c, bool value) override {
    llcs_[topology_.place(c).llc].has_idle_cores = value;
  }
  int nr_idle_scan(int c) const override {
    return nr_idle_scan_.empty() ? 0 : nr_idle_scan_[c];
  }
  int64_t avg_idle_ns(int c) const override { return cpus_[c].avg_idle_ns; }
  int64_t wake_avg_idle_ns(int c) override {
    Cpu& cpu = cpus_[c];
    const int64_t jiffies = now_ns_ / tick_ns_;
    while (cpu.wake_stamp_jiffies < jiffies && cpu.wake_avg_idle_ns > 0) {
      ++cpu.wake_stamp_jiffies;
      cpu.wake_avg_idle_ns /= 2;
    }
    return cpu.wake_avg_idle_ns;
  }
  void set_wake_avg_idle_ns(int c, int64_t value) override {
    cpus_[c].wake_avg_idle_ns = value;
  }
  int64_t avg_scan_cost_ns(int c) const override {
    return llcs_[topology_.place(c).llc].avg_scan_cost_ns;
  }
  void set_avg_scan_cost_ns(int c, int64_t value) override {
    llcs_[topology_.place(c).llc].avg_scan_cost_ns = value;
  }
  int64_t scan_time_ns() const override { return probes_ * probe_cost_ns_; }

 private:
  const topology::Topology& topology_;
  const topology::SchedDomains& domains_;
  int64_t probe_cost_ns_;
  int64_t tick_ns_;
  int64_t now_ns_ = 0;
  int64_t probes_ = 0;
  std::vector<Cpu> cpus_;
  std::vector<Llc> llcs_;
  std::vector<int> nr_idle_scan_;
};

enum class TaskState : uint8_t { kUnknown, kRunning, kQueued, kSleeping };

struct TaskInfo {
  int id = 0;
  int last_cpu = -1;
  TaskState state = TaskState::kUnknown;
  int queued_cpu = -1;
  int recent_used_cpu = -1;
};

class PlacementShadow {
 public:
  PlacementShadow(const topology::Topology& machine,
                  const topology::SchedDomains& domains,
                  platform::PlacementPolicy* policy,
                  const PlacementShadowOptions& options, Prepass prepass)
      : policy_(policy),
        options_(options),
        pre_(std::move(prepass)),
        view_(machine, domains, options),
        allowed_(machine.num_cpus()) {
    for (int c = 0; c < pre_.trace_cpus; ++c) allowed_.Set(c);
    report_.policy = std::string(policy->name());
    report_.machine = machine.name();
    report_.options = options;
    report_.trace_cpus = pre_.trace_cpus;
    report_.confusion.assign(pre_.trace_cpus,
                             std::vector<int64_t>(pre_.trace_cpus, 0));
  }

  absl::StatusOr<PlacementShadowReport> Run(FtraceReader* reader) {
    reader_ = reader;
    TraceEvent e;
    bool started = false;
    while (true) {
      absl::StatusOr<bool> more = reader->Next(&e);
      if (!more.ok()) return more.status();
      if (!*more) break;
      if (!started) {
        view_.Start(e.timestamp_ns, pre_.first_pid);
        started = true;
      }
      view_.set_now_ns(e.timestamp_ns);
      absl::Status s = Handle(e);
      if (!s.ok()) return s;
    }
    return std::move(report_);
  }

 private:
  TaskInfo& Task(int pid) {
    auto [it, inserted] = tasks_.try_emplace(pid);
    if (inserted) it->second.id = static_cast<int>(tasks_.size()) - 1;
    return it->second;
  }

  void Dequeue(TaskInfo& t) {
    if (t.state == TaskState::kQueued && t.queued_cpu >= 0) {
      --view_.cpu(t.queued_cpu).queued;
    }
    t.queued_cpu = -1;
  }
  void Enqueue(TaskInfo& t, int cpu) {
    Dequeue(t);
    t.state = TaskState::kQueued;
    t.queued_cpu = cpu;
    ++view_.cpu(cpu).queued;
  }

  absl::Status Handle(const TraceEvent& e) {
    const int64_t line = reader_->line_number();
    switch (e.type) {
      case EventType::kSchedSwitch: {
        if (e.prev_pid > 0) {
          TaskInfo& prev = Task(e.prev_pid);
          prev.last_cpu = e.cpu;
          if (Sleeping(e.prev_state)) {
            Dequeue(prev);
            prev.state = TaskState::kSleeping;
          } else {
            Enqueue(prev, e.cpu);
          }
        }
        if (e.next_pid > 0) {
          TaskInfo& next = Task(e.next_pid);
          Dequeue(next);
          next.state = TaskState::kRunning;
          next.last_cpu = e.cpu;
        }
        if (view_.SetCurrent(e.cpu, std::max(e.next_pid, 0))) {
          policy_->OnCpuIdle(view_, e.cpu);
        }
        return absl::OkStatus();
      }
      case EventType::kSchedMigrateTask: {
        TaskInfo& t = Task(e.pid);
        t.last_cpu = e.dest_cpu;
        if (t.state == TaskState::kQueued) Enqueue(t, e.dest_cpu);
        return absl::OkStatus();
      }
      case EventType::kSchedProcessExit: {
        TaskInfo& t = Task(e.pid);
        Dequeue(t);
        t.state = TaskState::kSleeping;
        return absl::OkStatus();
      }
      case EventType::kSchedWaking: {
        ++report_.waking_events;
        auto it = pre_.waking_target.find(line);
        if (it == pre_.waking_target.end()) {
          ++report_.skipped_unmatched_waking;
          return absl::OkStatus();
        }
        return Decide(e, line, /*prev=*/e.target_cpu, /*kernel=*/it->second);
      }
      case EventType::kSchedWakeup:
      case EventType::kSchedWakeupNew: {
        ++report_.wakeup_events;
        if (!pre_.linked_wakeups.contains(line)) {
          if (e.type == EventType::kSchedWakeupNew &&
              !options_.include_wakeup_new) {
            ++report_.skipped_wakeup_new;
          } else {
            absl::Status s = Decide(e, line, Task(e.pid).last_cpu,
                                    /*kernel=*/e.target_cpu);
            if (!s.ok()) return s;
          }
        }
        TaskInfo& t = Task(e.pid);
        if (t.state != TaskState::kRunning) Enqueue(t, e.target_cpu);
        t.last_cpu = e.target_cpu;
        return absl::OkStatus();
      }
      default:
        return absl::OkStatus();
    }
  }

  absl::Status Decide(const TraceEvent& e, int64_t line, int prev, int kernel) {
    if (e.prio >= 0 && e.prio < kMaxRtPrio) {
      ++report_.skipped_rt;
      return absl::OkStatus();
    }
    if (PinnedKthreadCpu(e.comm) == kernel) {
      ++report_.skipped_pinned;
      return absl::OkStatus();
    }
    if (prev < 0) {
      ++report_.skipped_no_prev;
      return absl::OkStatus();
    }
    const int this_cpu = e.cpu;
    const bool sync = pre_.sync_lines.contains(line);
    const bool waker_target =
        options_.target == WakeTarget::kWaker ||
        (options_.target == WakeTarget::kSyncWaker && sync);
    const int target = waker_target ? this_cpu : prev;
    TaskInfo& task = Task(e.pid);
    platform::WakeupRequest request;
    request.task = task.id;
    request.this_cpu = this_cpu;
    request.prev_cpu = prev;
    request.target = target;
    request.wake_flags = platform::kWfTtwu | (sync ? platform::kWfSync : 0u);
    request.allowed = &allowed_;
    request.recent_used_cpu = &task.recent_used_cpu;
    request.waker_is_per_cpu_kthread =
        e.common_pid > 0 && PinnedKthreadCpu(e.common_comm) == this_cpu;

    const bool kernel_idle = view_.IsIdle(kernel);
    view_.BeginSearch();
    const int chosen = policy_->SelectIdleSibling(view_, request);
    if (chosen < 0 || chosen >= pre_.trace_cpus) {
      return LineError(
          *reader_,
          absl::StrCat("placement policy ", report_.policy, " chose CPU ",
                       chosen, ", not one of the trace's CPUs 0-",
                       pre_.trace_cpus - 1));
    }
    const bool policy_idle = view_.IsIdle(chosen);
    PlacementShadowReport& r = report_;
    ++r.evaluated;
    r.probes += view_.probes();
    if (sync) ++r.sync_wakeups;
    if (waker_target) ++r.waker_targets;
    if (chosen == kernel) ++r.agreements;
    ++r.confusion[kernel][chosen];
    if (policy_idle) ++r.policy_idle;
    if (kernel_idle) ++r.kernel_idle;
    if (policy_idle && kernel_idle) ++r.both_idle;
    if (policy_idle && !kernel_idle) ++r.policy_idle_kernel_busy;
    if (!policy_idle && kernel_idle) ++r.kernel_idle_policy_busy;
    if (!policy_idle && !kernel_idle) ++r.both_busy;
    Classify(chosen, request, &r.policy_chose_target, &r.policy_chose_prev,
             &r.policy_chose_this, &r.policy_chose_other);
    Classify(kernel, request, &r.kernel_chose_target, &r.kernel_chose_prev,
             &r.kernel_chose_this, &r.kernel_chose_other);
    return absl::OkStatus();
  }

  static void Classify(int cpu, const platform::WakeupRequest& request,
                       int64_t* target, int64_t* prev, int64_t* this_cpu,
                       int64_t* other) {
    if (cpu == request.target) {
      ++*target;
    } else if (cpu == request.prev_cpu) {
      ++*prev;
    } else if (cpu == request.this_cpu) {
      ++*this_cpu;
    } else {
      ++*other;
    }
  }

  platform::PlacementPolicy* policy_;
  PlacementShadowOptions options_;
  Prepass pre_;
  TraceSchedView view_;
  topology::CpuSet allowed_;
  FtraceReader* reader_ = nullptr;
  absl::flat_hash_map<int, TaskInfo> tasks_;
  PlacementShadowReport report_;
};

}  // namespace

const char* WakeTargetName(WakeTarget target) {
  switch (target) {
    case WakeTarget::kSyncWaker:
      return "sync";
    case WakeTarget::kPrev:
      return "prev";
    case WakeTarget::kWaker:
      return "waker";
  }
  return "?";
}

double PlacementShadowReport::agreement_pct() const {
  return evaluated == 0 ? 0.0 : 100.0 * agreements / evaluated;
}

int PinnedKthreadCpu(absl::string_view comm) {
  static constexpr absl::string_view kPrefixes[] = {
      "kworker/", "ksoftirqd/", "migration/", "cpuhp/", "watchdog/", "rcuc/"};
  for (absl::string_view prefix : kPrefixes) {
    if (!absl::StartsWith(comm, prefix)) continue;
    absl::string_view rest = comm.substr(prefix.size());
    size_t digits = 0;
    while (digits < rest.size() && absl::ascii_isdigit(rest[digits])) {
      ++digits;
    }
    if (digits == 0 || digits > 6) return -1;
    absl::string_view after = rest.substr(digits);
    // Bound kworkers are kworker/N:ID[H]; the others end at the number.
    if (prefix == "kworker/" ? !absl::StartsWith(after, ":") : !after.empty()) {
      return -1;
    }
    int cpu = -1;
    if (!absl::SimpleAtoi(rest.substr(0, digits), &cpu)) return -1;
    return cpu;
  }
  return -1;
}

absl::StatusOr<PlacementShadowReport> ShadowPlacement(
    const std::string& trace_path, const topology::Topology& machine,
    platform::PlacementPolicy& policy, const PlacementShadowOptions& options) {
  absl::Status hz = CheckHz(options.hz);
  if (!hz.ok()) return hz;
  if (options.sync_window_ns < 0 || options.probe_cost_ns < 0) {
    return absl::InvalidArgumentError(
        "sync_window_ns and probe_cost_ns must be >= 0");
  }
  absl::StatusOr<topology::SchedDomains> domains =
      topology::BuildSchedDomains(machine);
  if (!domains.ok()) return domains.status();
  absl::StatusOr<Prepass> prepass = RunPrepass(trace_path, machine, options);
  if (!prepass.ok()) return prepass.status();
  absl::StatusOr<std::unique_ptr<FtraceReader>> reader =
      FtraceReader::Open(trace_path);
  if (!reader.ok()) return reader.status();
  (*reader)->set_return_unknown_events(true);
  policy.Attach(machine, *domains);
  PlacementShadow shadow(machine, *domains, &policy, options,
                         *std::move(prepass));
  return shadow.Run(reader->get());
}

}  // namespace schedsim::traces
