// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// ShadowPlacement: a placement policy shown each wake-up of a trace through
// a TraceSchedView (trace_sched_view.h), its CPU compared with the kernel's;
// the first pass over the trace (RunPrepass) links wake-ups and finds the
// synchronous ones.

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
#include "shadow/shadow.h"
#include "shadow/shadow_common.h"
#include "shadow/trace_sched_view.h"
#include "sim/pelt.h"
#include "topology/cpuset.h"
#include "topology/sched_domains.h"
#include "traces/ftrace.h"
#include "traces/tracecmd_dat.h"

namespace schedsim::traces {
namespace {

using shadow_internal::CheckHz;
using shadow_internal::LineError;
using shadow_internal::TraceSchedView;

// RT priorities are below this (MAX_RT_PRIO).
constexpr int kMaxRtPrio = 100;

bool Sleeping(absl::string_view prev_state) {
  return !prev_state.empty() && prev_state[0] != 'R';
}

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
  // sched_waking lines whose answer was taken from the task's next run
  // (a trace without sched_wakeup, e.g. `perf sched record`'s).
  int64_t wakings_from_next_run = 0;
  // Lines of decision events that look synchronous.
  absl::flat_hash_set<int64_t> sync_lines;
};

// Checks every CPU an event names is a CPU of `machine`.
absl::Status CheckCpus(const TraceSource& reader, const TraceEvent& e,
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
  absl::StatusOr<std::unique_ptr<TraceSource>> opened = OpenTrace(path);
  if (!opened.ok()) return opened.status();
  TraceSource& reader = **opened;
  reader.set_return_unknown_events(true);
  Prepass p;
  p.first_pid.assign(machine.num_cpus(), -1);
  int max_cpu = -1;
  // pid -> line of its pending sched_waking.
  absl::flat_hash_map<int, int64_t> pending_waking;
  // For a trace without sched_wakeup: the kernel's answer to a pending
  // sched_waking, from the task's first sched_migrate_task after it (the
  // kernel's set_task_cpu right after select_task_rq) or else the CPU that
  // next switches it in. Used only if the trace has no sched_wakeup.
  absl::flat_hash_map<int, int> waking_migrated_to;   // pid -> dest_cpu
  absl::flat_hash_map<int64_t, int> inferred_target;  // waking line -> cpu
  int64_t sched_wakeups = 0;
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
    const int64_t line = reader.position();
    bool decision = false;
    if (e.type == EventType::kSchedWaking) {
      pending_waking[e.pid] = line;
      waking_migrated_to.erase(e.pid);
      decision = true;
    } else if (e.type == EventType::kSchedMigrateTask) {
      if (pending_waking.contains(e.pid) &&
          !waking_migrated_to.contains(e.pid)) {
        waking_migrated_to[e.pid] = e.dest_cpu;
      }
    } else if (IsWakeup(e.type)) {
      if (e.type == EventType::kSchedWakeup) ++sched_wakeups;
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
      auto pending = pending_waking.find(e.next_pid);
      if (pending != pending_waking.end()) {
        auto moved = waking_migrated_to.find(e.next_pid);
        inferred_target[pending->second] =
            moved != waking_migrated_to.end() ? moved->second : e.cpu;
        waking_migrated_to.erase(e.next_pid);
        pending_waking.erase(pending);
      }
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
  if (sched_wakeups == 0) {
    for (const auto& [line, cpu] : inferred_target) {
      p.waking_target[line] = cpu;
    }
    p.wakings_from_next_run = static_cast<int64_t>(inferred_target.size());
  }
  p.trace_cpus = std::max(reader.header_cpus(), max_cpu + 1);
  if (p.trace_cpus <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(reader.name(), ": no events"));
  }
  return p;
}

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
    report_.wakings_from_next_run = pre_.wakings_from_next_run;
    report_.confusion.assign(pre_.trace_cpus,
                             std::vector<int64_t>(pre_.trace_cpus, 0));
  }

  absl::StatusOr<PlacementShadowReport> Run(TraceSource* reader) {
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
    const int64_t line = reader_->position();
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
    // The task may run on every CPU of the trace (allowed_).
    if (!platform::core::ValidPlacementAnswer(chosen, allowed_.width(),
                                              allowed_)) {
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
  TraceSource* reader_ = nullptr;
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
  absl::StatusOr<std::unique_ptr<TraceSource>> reader = OpenTrace(trace_path);
  if (!reader.ok()) return reader.status();
  (*reader)->set_return_unknown_events(true);
  policy.Attach(machine, *domains);
  PlacementShadow shadow(machine, *domains, &policy, options,
                         *std::move(prepass));
  return shadow.Run(reader->get());
}

}  // namespace schedsim::traces
