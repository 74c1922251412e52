// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/replay.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/numeric/int128.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "sim/program.h"
#include "traces/ftrace.h"
#include "traces/tracecmd_dat.h"

namespace schedsim::workloads {
namespace {

using traces::EventType;
using traces::OpenTrace;
using traces::TraceEvent;
using traces::TraceSource;

constexpr int kMaxRtPrio = 100;
constexpr int kDefaultPrio = 120;
// Largest CPU id accepted (bounds per-CPU arrays).
constexpr int kMaxCpu = 1 << 16;

enum class OpKind : uint8_t { kCompute, kSleep, kIoWait };

struct PendingOp {
  OpKind kind;
  int64_t value;  // cycles or ns
};

enum class State : uint8_t {
  kUnseen,
  kRunning,
  kRunnable,
  kSleeping,
  kIoWait,
  kDead
};

struct Track {
  ReplayTask info;
  std::set<std::string> comms;
  State state = State::kUnseen;
  int cpu = -1;                // while running
  int64_t since_ns = 0;        // sleeping / iowait since
  int64_t pending_cycles = 0;  // compute not yet emitted
  std::vector<PendingOp> ops;
};

struct Cpu {
  int pid = 0;  // running; 0 = idle
  int64_t burst_start_ns = 0;
  int64_t segment_start_ns = 0;  // since the last frequency change
  int64_t burst_cycles = 0;
  int64_t khz = 0;
  int64_t first_ns = -1;  // first event recorded on the CPU
};

int64_t Cycles(int64_t ns, int64_t khz) {
  if (ns <= 0 || khz <= 0) return 0;
  return static_cast<int64_t>(absl::int128(ns) * khz / 1000000);
}

absl::Status LineError(const TraceSource& reader, absl::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat(reader.name(), ":", reader.position(), ": ", what));
}

// First cpu_frequency value of each CPU (0 when none).
absl::StatusOr<std::vector<int64_t>> FirstFrequencies(const std::string& path) {
  absl::StatusOr<std::unique_ptr<TraceSource>> reader = OpenTrace(path);
  if (!reader.ok()) return reader.status();
  std::vector<int64_t> khz;
  TraceEvent e;
  while (true) {
    absl::StatusOr<bool> more = (*reader)->Next(&e);
    if (!more.ok()) return more.status();
    if (!*more) break;
    if (e.type != EventType::kCpuFrequency) continue;
    if (e.cpu_id < 0 || e.cpu_id >= kMaxCpu) {
      return LineError(**reader,
                       absl::StrCat("CPU ", e.cpu_id, " out of range"));
    }
    if (e.cpu_id >= static_cast<int>(khz.size())) khz.resize(e.cpu_id + 1);
    if (khz[e.cpu_id] == 0) khz[e.cpu_id] = e.frequency_khz();
  }
  return khz;
}

class Replayer {
 public:
  Replayer(TraceSource* reader, const ReplayOptions& options,
           std::vector<int64_t> first_khz)
      : reader_(reader), options_(options), first_khz_(std::move(first_khz)) {}

  absl::StatusOr<Replay> Run() {
    TraceEvent e;
    while (true) {
      absl::StatusOr<bool> more = reader_->Next(&e);
      if (!more.ok()) return more.status();
      if (!*more) break;
      if (start_ns_ < 0) start_ns_ = e.timestamp_ns;
      if (e.type == EventType::kSchedSwitch) ++switches_;
      absl::Status s = Handle(e);
      if (!s.ok()) return s;
    }
    if (start_ns_ < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(reader_->name(), ": no events"));
    }
    if (switches_ == 0) {
      // Without context switches every task seen would run from the
      // trace's start to its end: work the trace does not show.
      return absl::InvalidArgumentError(absl::StrCat(
          reader_->name(),
          ": no sched_switch events: nothing to replay (the replay takes "
          "each task's run and sleep times from its context switches; record "
          "sched_switch and sched_wakeup, e.g. `trace-cmd record -e "
          "sched_switch -e sched_wakeup -e sched_waking ...` or `perf sched "
          "record`)"));
    }
    end_ns_ = std::max(reader_->last_timestamp_ns(), start_ns_);
    return Finish();
  }

 private:
  absl::StatusOr<Cpu*> GetCpu(int cpu) {
    if (cpu < 0 || cpu >= kMaxCpu) {
      return LineError(*reader_, absl::StrCat("CPU ", cpu, " out of range"));
    }
    if (cpu >= static_cast<int>(cpus_.size())) {
      const size_t old = cpus_.size();
      cpus_.resize(cpu + 1);
      for (size_t c = old; c < cpus_.size(); ++c) {
        cpus_[c].khz = c < first_khz_.size() && first_khz_[c] > 0
                           ? first_khz_[c]
                           : options_.nominal_khz;
      }
    }
    return &cpus_[cpu];
  }

  Track& GetTrack(int pid, absl::string_view comm, int prio) {
    Track& t = tracks_[pid];
    if (t.state == State::kUnseen && t.info.pid == 0) {
      t.info.pid = pid;
      t.info.prio = kDefaultPrio;
    }
    if (!comm.empty()) {
      t.info.comm = std::string(comm);
      t.comms.insert(t.info.comm);
    }
    if (prio >= 0) t.info.prio = prio;
    return t;
  }

  static void Emit(Track& t, OpKind kind, int64_t value) {
    if (value <= 0) return;
    if (kind != OpKind::kCompute && !t.ops.empty() &&
        t.ops.back().kind == kind) {
      t.ops.back().value += value;  // merge adjacent sleeps of one kind
      return;
    }
    t.ops.push_back({kind, value});
  }
  static void FlushCompute(Track& t) {
    Emit(t, OpKind::kCompute, t.pending_cycles);
    t.pending_cycles = 0;
  }

  // First sight of a task at `now`: asleep since the start of the trace.
  void FirstSeen(Track& t, int64_t now) {
    if (t.state != State::kUnseen) return;
    t.info.first_ns = now;
    Emit(t, OpKind::kSleep, now - start_ns_);
    t.state = State::kRunnable;
  }

  // A blocked task becomes runnable at `now`.
  void Wake(Track& t, int64_t now) {
    if (t.state == State::kUnseen) {
      FirstSeen(t, now);
      return;
    }
    if (t.state != State::kSleeping && t.state != State::kIoWait) return;
    const int64_t ns = std::max<int64_t>(now - t.since_ns, 0);
    if (t.state == State::kSleeping) {
      t.info.sleep_ns += ns;
      Emit(t, OpKind::kSleep, ns);
    } else {
      t.info.iowait_ns += ns;
      Emit(t, OpKind::kIoWait, ns);
    }
    ++t.info.sleeps;
    t.state = State::kRunnable;
  }

  // Ends the burst running on `cpu` at `now`; its task becomes runnable.
  void EndBurst(Cpu& cpu, int cpu_id, int64_t now) {
    if (cpu.pid <= 0) return;
    auto it = tracks_.find(cpu.pid);
    cpu.burst_cycles += Cycles(now - cpu.segment_start_ns, cpu.khz);
    if (it != tracks_.end() && it->second.state == State::kRunning &&
        it->second.cpu == cpu_id) {
      Track& t = it->second;
      t.info.run_ns += std::max<int64_t>(now - cpu.burst_start_ns, 0);
      t.info.cycles += cpu.burst_cycles;
      t.pending_cycles += cpu.burst_cycles;
      ++t.info.bursts;
      t.state = State::kRunnable;
      t.cpu = -1;
    }
    cpu.pid = 0;
    cpu.burst_cycles = 0;
  }

  void StartBurst(Cpu& cpu, int cpu_id, Track& t, int64_t since) {
    cpu.pid = t.info.pid;
    cpu.burst_start_ns = since;
    cpu.segment_start_ns = since;
    cpu.burst_cycles = 0;
    t.state = State::kRunning;
    t.cpu = cpu_id;
  }

  absl::Status Handle(const TraceEvent& e) {
    absl::StatusOr<Cpu*> rec = GetCpu(e.cpu);
    if (!rec.ok()) return rec.status();
    const int64_t now = e.timestamp_ns;
    if ((*rec)->first_ns < 0) {
      // The CPU's first event: the task it names (the one switched away
      // from, or the current one) has been running since tracing began.
      Cpu& cpu = **rec;
      cpu.first_ns = now;
      const bool is_switch = e.type == EventType::kSchedSwitch;
      const int pid = is_switch ? e.prev_pid : e.common_pid;
      if (pid > 0) {
        Track& t = GetTrack(pid, is_switch ? e.prev_comm : e.common_comm, -1);
        if (t.state == State::kUnseen) {
          t.info.first_ns = now;
          Emit(t, OpKind::kSleep, now - start_ns_);
          StartBurst(cpu, e.cpu, t, now);
        }
      }
    }
    switch (e.type) {
      case EventType::kCpuFrequency: {
        absl::StatusOr<Cpu*> c = GetCpu(e.cpu_id);
        if (!c.ok()) return c.status();
        Cpu& cpu = **c;
        if (cpu.pid > 0) {
          cpu.burst_cycles += Cycles(now - cpu.segment_start_ns, cpu.khz);
          cpu.segment_start_ns = now;
        }
        if (e.frequency_khz() > 0) cpu.khz = e.frequency_khz();
        return absl::OkStatus();
      }
      case EventType::kSchedSwitch: {
        Cpu& cpu = **rec;
        if (e.prev_pid > 0) {
          Track& prev = GetTrack(e.prev_pid, e.prev_comm, e.prev_prio);
          if (prev.state == State::kUnseen) {
            // Running since before its CPU's first event, which did not
            // name it: count from that event.
            prev.info.first_ns = cpu.first_ns;
            Emit(prev, OpKind::kSleep, cpu.first_ns - start_ns_);
            EndBurst(cpu, e.cpu, now);
            StartBurst(cpu, e.cpu, prev, cpu.first_ns);
          }
          EndBurst(cpu, e.cpu, now);
          const char s = e.prev_state.empty() ? 'R' : e.prev_state[0];
          if (s == 'R') {
            // Preempted: still runnable; the next burst continues the
            // compute phase.
          } else if (s == 'X' || s == 'x' || s == 'Z') {
            FlushCompute(prev);
            prev.state = State::kDead;
            prev.info.exited = true;
          } else {
            FlushCompute(prev);
            prev.state = s == 'D' ? State::kIoWait : State::kSleeping;
            prev.since_ns = now;
          }
        } else {
          EndBurst(cpu, e.cpu, now);
        }
        if (e.next_pid > 0) {
          Track& next = GetTrack(e.next_pid, e.next_comm, e.next_prio);
          if (next.state == State::kRunning && next.cpu >= 0) {
            // Seen running elsewhere (lost events): end that burst.
            EndBurst(cpus_[next.cpu], next.cpu, now);
          }
          Wake(next, now);
          if (next.state != State::kDead) StartBurst(cpu, e.cpu, next, now);
        }
        return absl::OkStatus();
      }
      case EventType::kSchedWakeup:
      case EventType::kSchedWakeupNew:
      case EventType::kSchedWaking: {
        if (e.pid <= 0) return absl::OkStatus();
        Wake(GetTrack(e.pid, e.comm, e.prio), now);
        return absl::OkStatus();
      }
      case EventType::kSchedProcessFork: {
        if (e.child_pid <= 0) return absl::OkStatus();
        FirstSeen(GetTrack(e.child_pid, e.child_comm, -1), now);
        return absl::OkStatus();
      }
      case EventType::kSchedProcessExit: {
        if (e.pid <= 0) return absl::OkStatus();
        GetTrack(e.pid, e.comm, e.prio).info.exited = true;
        return absl::OkStatus();
      }
      default:
        return absl::OkStatus();
    }
  }

  bool Selected(const Track& t) const {
    if (options_.tasks.empty()) {
      return std::find(options_.exclude_comms.begin(),
                       options_.exclude_comms.end(),
                       t.info.comm) == options_.exclude_comms.end();
    }
    for (const std::string& sel : options_.tasks) {
      int pid = 0;
      if (absl::SimpleAtoi(sel, &pid) && pid == t.info.pid) return true;
      if (t.comms.count(sel) > 0) return true;
    }
    return false;
  }

  absl::StatusOr<Replay> Finish() {
    for (size_t c = 0; c < cpus_.size(); ++c) {
      EndBurst(cpus_[c], static_cast<int>(c), end_ns_);
    }
    for (const std::string& sel : options_.tasks) {
      bool found = false;
      for (const auto& [pid, t] : tracks_) {
        int want = 0;
        if ((absl::SimpleAtoi(sel, &want) && want == pid) ||
            t.comms.count(sel) > 0) {
          found = true;
          break;
        }
      }
      if (!found) {
        return absl::InvalidArgumentError(
            absl::StrCat("task '", sel, "' matches no task (pid or comm) of ",
                         reader_->name()));
      }
    }
    // Deterministic order: by pid.
    std::map<int, Track*> by_pid;
    for (auto& [pid, t] : tracks_) by_pid[pid] = &t;
    Replay r;
    r.start_ns = start_ns_;
    r.end_ns = end_ns_;
    for (auto& [pid, tp] : by_pid) {
      Track& t = *tp;
      FlushCompute(t);
      if (!Selected(t) || t.info.cycles <= 0) {
        r.excluded_pids.push_back(pid);
        continue;
      }
      if (options_.loop) {
        if (t.state == State::kSleeping || t.state == State::kIoWait) {
          Emit(t,
               t.state == State::kSleeping ? OpKind::kSleep : OpKind::kIoWait,
               end_ns_ - t.since_ns);
        }
      }
      const std::string name = absl::StrCat(t.info.comm, "-", pid);
      sim::ProgramBuilder b(name);
      if (options_.loop) b.Loop(0);
      for (const PendingOp& op : t.ops) {
        switch (op.kind) {
          case OpKind::kCompute:
            b.Compute(sim::Dist::Constant(op.value));
            break;
          case OpKind::kSleep:
            b.Sleep(sim::Dist::Constant(op.value));
            break;
          case OpKind::kIoWait:
            b.IoWait(sim::Dist::Constant(op.value));
            break;
        }
      }
      if (options_.loop) b.EndLoop();
      b.Exit();
      absl::StatusOr<sim::Program> program = b.Build();
      if (!program.ok()) return program.status();
      sim::TaskSpec spec;
      spec.name = name;
      spec.program = static_cast<int>(r.workload.programs.size());
      const int prio = t.info.prio;
      if (prio < kMaxRtPrio && options_.rt_as_fifo) {
        spec.policy = sim::SchedPolicy::kFifo;
        spec.rt_priority = std::clamp(kMaxRtPrio - 1 - prio, 1, 99);
      } else if (prio >= kMaxRtPrio) {
        spec.nice = std::clamp(prio - kDefaultPrio, -20, 19);
      }
      r.workload.programs.push_back(*std::move(program));
      r.workload.tasks.push_back(std::move(spec));
      r.tasks.push_back(t.info);
    }
    if (r.tasks.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(reader_->name(),
                       ": no task to replay (no task ran in the trace, "
                       "or all were left out)"));
    }
    return r;
  }

  TraceSource* reader_;
  ReplayOptions options_;
  std::vector<int64_t> first_khz_;
  std::vector<Cpu> cpus_;
  absl::flat_hash_map<int, Track> tracks_;
  int64_t start_ns_ = -1;
  int64_t end_ns_ = 0;
  int64_t switches_ = 0;
};

}  // namespace

int64_t Replay::total_run_ns() const {
  int64_t sum = 0;
  for (const ReplayTask& t : tasks) sum += t.run_ns;
  return sum;
}

absl::StatusOr<Replay> ReplayTrace(const std::string& path,
                                   const ReplayOptions& options) {
  if (options.nominal_khz <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("nominal_khz must be > 0, got ", options.nominal_khz));
  }
  absl::StatusOr<std::vector<int64_t>> first_khz = FirstFrequencies(path);
  if (!first_khz.ok()) return first_khz.status();
  absl::StatusOr<std::unique_ptr<TraceSource>> reader = OpenTrace(path);
  if (!reader.ok()) return reader.status();
  (*reader)->set_return_unknown_events(true);
  Replayer replayer(reader->get(), options, *std::move(first_khz));
  return replayer.Run();
}

absl::StatusOr<sim::Workload> ReplayWorkload(const std::string& path,
                                             const ReplayOptions& options) {
  absl::StatusOr<Replay> replay = ReplayTrace(path, options);
  if (!replay.ok()) return replay.status();
  return std::move(replay->workload);
}

}  // namespace schedsim::workloads
