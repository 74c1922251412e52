// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/rtapp.h"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/input_file.h"
#include "nlohmann/json.hpp"
#include "sim/program.h"
#include "workloads/model_util.h"
#include "workloads/rtapp_jsonc.h"

namespace schedsim::workloads {
namespace {

using Json = nlohmann::ordered_json;

constexpr int64_t kMaxUs = int64_t{1} << 40;  // ~12.7 days

enum class EventKind {
  kRun,
  kRuntime,
  kSleep,
  kTimer,
  kYield,
  kBarrier,
  kSuspend,
  kResume,
  kSemPost,
  kSemWait,
  kFork,
  kLock,
  kUnlock,
  kUnsupported,
  kUnknown,
};

// rt-app matches event keys by prefix ("run0", "sleep1"); "runtime" must be
// tested before "run".
EventKind ClassifyEvent(const std::string& key) {
  static const std::pair<const char*, EventKind> kPrefixes[] = {
      {"runtime", EventKind::kRuntime},  {"run", EventKind::kRun},
      {"sleep", EventKind::kSleep},      {"timer", EventKind::kTimer},
      {"yield", EventKind::kYield},      {"barrier", EventKind::kBarrier},
      {"suspend", EventKind::kSuspend},  {"resume", EventKind::kResume},
      {"sem_post", EventKind::kSemPost}, {"sem_wait", EventKind::kSemWait},
      {"fork", EventKind::kFork},        {"lock", EventKind::kLock},
      {"unlock", EventKind::kUnlock},
  };
  for (const auto& [prefix, kind] : kPrefixes) {
    if (absl::StartsWith(key, prefix)) return kind;
  }
  static const char* const kUnsupportedPrefixes[] = {"wait", "signal", "broad",
                                                     "sync", "mem",    "iorun"};
  for (const char* prefix : kUnsupportedPrefixes) {
    if (absl::StartsWith(key, prefix)) return EventKind::kUnsupported;
  }
  return EventKind::kUnknown;
}

const std::set<std::string>& IgnoredGlobalKeys() {
  static const std::set<std::string>* const kKeys = new std::set<std::string>{
      "calibration", "logdir",          "log_basename",     "log_size",
      "lock_pages",  "ftrace",          "gnuplot",          "pi_enabled",
      "io_device",   "mem_buffer_size", "cumulative_slack", "frag"};
  return *kKeys;
}

// Tracks the JSON path of the value being parsed, so that an error the
// parser throws mid-value (a number too large for a double) names it.
class PathTracker {
 public:
  bool Event(nlohmann::detail::parse_event_t event, const Json& parsed) {
    using nlohmann::detail::parse_event_t;
    switch (event) {
      case parse_event_t::object_start:
      case parse_event_t::array_start:
        StartValue();
        stack_.push_back({event == parse_event_t::array_start, 0, ""});
        break;
      case parse_event_t::object_end:
      case parse_event_t::array_end:
        if (!stack_.empty()) stack_.pop_back();
        break;
      case parse_event_t::key:
        if (!stack_.empty() && parsed.is_string()) {
          stack_.back().key = parsed.get<std::string>();
        }
        break;
      case parse_event_t::value:
        StartValue();
        break;
    }
    return true;
  }
  std::string Path() const {
    std::string path;
    for (size_t i = 0; i < stack_.size(); ++i) {
      const Frame& f = stack_[i];
      if (f.array) {
        size_t index = i + 1 == stack_.size() ? f.next : f.next - 1;
        absl::StrAppend(&path, "[", index, "]");
      } else {
        absl::StrAppend(&path, path.empty() ? "" : ".", f.key);
      }
    }
    return path;
  }

 private:
  struct Frame {
    bool array;
    size_t next;
    std::string key;
  };
  void StartValue() {
    if (!stack_.empty() && stack_.back().array) ++stack_.back().next;
  }
  std::vector<Frame> stack_;
};

class Parser {
 public:
  Parser(absl::string_view source, const topology::Topology& topology)
      : source_(source), topology_(topology) {}

  absl::StatusOr<RtAppWorkload> Parse(absl::string_view text) {
    Json root;
    PathTracker tracker;
    // json-c's leniency rt-app files rely on (rtapp_jsonc.h).
    const std::string normalized = NormalizeJsonC(text);
    try {
      root = Json::parse(
          normalized.begin(), normalized.end(),
          [&tracker](int, nlohmann::detail::parse_event_t event, Json& parsed) {
            return tracker.Event(event, parsed);
          },
          /*allow_exceptions=*/true, /*ignore_comments=*/true);
    } catch (const Json::parse_error& e) {
      return absl::InvalidArgumentError(
          absl::StrCat(source_, ": invalid JSON: ", e.what()));
    } catch (const Json::out_of_range& e) {
      // A number too large for a double (1e400): nlohmann throws this
      // rather than a parse_error.
      return Error(tracker.Path(),
                   absl::StrCat("invalid JSON: a number out of range (it must "
                                "fit a double): ",
                                e.what()));
    } catch (const Json::exception& e) {
      return absl::InvalidArgumentError(
          absl::StrCat(source_, ": invalid JSON: ", e.what()));
    }
    if (!root.is_object()) return Error("", "expected a JSON object");
    for (const auto& [key, value] : root.items()) {
      if (key != "tasks" && key != "global" && key != "resources") {
        Warn(key, "unknown top-level key ignored");
      }
    }
    if (root.contains("resources")) {
      Warn("resources", "ignored (resources are declared by their use)");
    }
    if (root.contains("global")) {
      if (absl::Status s = ParseGlobal(root["global"]); !s.ok()) return s;
    }
    if (!root.contains("tasks")) {
      return Error("", "missing \"tasks\" (an object of task descriptions)");
    }
    const Json& tasks = root["tasks"];
    if (!tasks.is_object() || tasks.empty()) {
      return Error("tasks", "expected a non-empty object of tasks");
    }
    out_.workload.metrics = {"loop"};
    // Each task object becomes one program, in file order: a fork names
    // a task that may come later.
    for (const auto& [name, task] : tasks.items()) {
      program_of_task_.emplace(name, static_cast<int>(program_of_task_.size()));
    }
    for (const auto& [name, task] : tasks.items()) {
      if (absl::Status s = ParseTask(name, task); !s.ok()) return s;
    }
    for (size_t b = 0; b < out_.workload.barriers.size(); ++b) {
      out_.workload.barriers[b].parties = barrier_parties_[b];
    }
    return std::move(out_);
  }

 private:
  absl::Status Error(const std::string& path, absl::string_view message) {
    return absl::InvalidArgumentError(absl::StrCat(
        source_, ": ", path.empty() ? "(top level)" : path, ": ", message));
  }
  void Warn(const std::string& path, absl::string_view message) {
    out_.warnings.push_back(absl::StrCat(source_, ": ", path, ": ", message));
  }

  absl::StatusOr<int64_t> Int(const Json& v, const std::string& path,
                              int64_t lo, int64_t hi, absl::string_view what) {
    if (!v.is_number_integer()) {
      return Error(path, absl::StrCat("expected an integer (", what, "), got ",
                                      v.dump()));
    }
    const int64_t x = v.is_number_unsigned()
                          ? static_cast<int64_t>(std::min<uint64_t>(
                                v.get<uint64_t>(), uint64_t{1} << 62))
                          : v.get<int64_t>();
    if (x < lo || x > hi) {
      return Error(
          path, absl::StrCat(what, " must be in ", lo, "..", hi, ", got ", x));
    }
    return x;
  }

  absl::StatusOr<std::string> String(const Json& v, const std::string& path,
                                     absl::string_view what) {
    if (!v.is_string()) {
      return Error(
          path, absl::StrCat("expected a string (", what, "), got ", v.dump()));
    }
    return v.get<std::string>();
  }

  absl::Status ParseGlobal(const Json& global) {
    if (!global.is_object()) return Error("global", "expected an object");
    for (const auto& [key, value] : global.items()) {
      const std::string path = absl::StrCat("global.", key);
      if (key == "default_policy") {
        absl::StatusOr<std::string> p = String(value, path, "a policy name");
        if (!p.ok()) return p.status();
        default_policy_ = *p;
        default_policy_path_ = path;
      } else if (key == "duration") {
        Warn(path, "ignored: the experiment's duration applies");
      } else if (IgnoredGlobalKeys().count(key) == 0) {
        Warn(path, "unknown global key ignored");
      }
    }
    return absl::OkStatus();
  }

  // Applies `policy` to `spec`; `priority` is the task's "priority" if set.
  absl::Status ApplyPolicy(const std::string& policy, const std::string& path,
                           const Json* priority, const std::string& prio_path,
                           sim::TaskSpec& spec) {
    if (policy == "SCHED_OTHER" || policy == "SCHED_IDLE") {
      spec.policy = policy == "SCHED_OTHER" ? sim::SchedPolicy::kNormal
                                            : sim::SchedPolicy::kIdle;
      if (priority != nullptr) {
        absl::StatusOr<int64_t> nice =
            Int(*priority, prio_path, -20, 19, "a nice value");
        if (!nice.ok()) return nice.status();
        spec.nice = static_cast<int>(*nice);
      }
      return absl::OkStatus();
    }
    if (policy == "SCHED_FIFO" || policy == "SCHED_RR") {
      if (policy == "SCHED_RR") {
        Warn(path, "SCHED_RR runs as SCHED_FIFO (no RR time slice)");
      }
      spec.policy = sim::SchedPolicy::kFifo;
      spec.rt_priority = kRtAppDefaultRtPriority;
      if (priority != nullptr) {
        absl::StatusOr<int64_t> prio =
            Int(*priority, prio_path, 1, 99, "an RT priority");
        if (!prio.ok()) return prio.status();
        spec.rt_priority = static_cast<int>(*prio);
      }
      return absl::OkStatus();
    }
    if (policy == "SCHED_DEADLINE") {
      return Error(path, "SCHED_DEADLINE is not supported by the simulator");
    }
    return Error(path, absl::StrCat("unknown policy \"", policy,
                                    "\"; known: SCHED_OTHER, SCHED_IDLE, "
                                    "SCHED_FIFO, SCHED_RR"));
  }

  absl::Status ParseCpus(const Json& v, const std::string& path,
                         sim::TaskSpec& spec) {
    if (!v.is_array() || v.empty()) {
      return Error(path, "expected a non-empty array of CPU numbers");
    }
    std::vector<std::string> cpus;
    for (size_t i = 0; i < v.size(); ++i) {
      absl::StatusOr<int64_t> cpu = Int(
          v[i], absl::StrCat(path, "[", i, "]"), 0, topology_.num_cpus() - 1,
          absl::StrCat("a CPU of ", topology_.name()));
      if (!cpu.ok()) return cpu.status();
      cpus.push_back(absl::StrCat(*cpu));
    }
    spec.affinity = absl::StrJoin(cpus, ",");
    return absl::OkStatus();
  }

  // Appends the events of `body` (a task or a phase) to `b`. Adds the
  // time-taking part to *timed_us (a wait for another task, suspend or
  // sem_wait, counts 1 us: it blocks until that task's time has passed).
  absl::Status ParseEvents(const Json& body, const std::string& path,
                           bool in_phase, const std::string& task_name,
                           int task_index, int instances,
                           sim::ProgramBuilder& b, int64_t* timed_us) {
    int64_t since_timer_us = 0;
    for (const auto& [key, value] : body.items()) {
      const std::string epath = absl::StrCat(path, ".", key);
      if (IsTaskProperty(key)) {
        if (in_phase && key != "loop") {
          return Error(epath, "per-phase task properties are not supported");
        }
        continue;  // handled by ParseTask
      }
      switch (ClassifyEvent(key)) {
        case EventKind::kRun: {
          absl::StatusOr<int64_t> us =
              Int(value, epath, 0, kMaxUs, "us of work at maximum capacity");
          if (!us.ok()) return us.status();
          const int64_t cycles =
              UsAtMaxToCycles(static_cast<double>(*us), topology_);
          if (cycles > 0) b.Compute(sim::Dist::Constant(cycles));
          since_timer_us += *us;
          *timed_us += *us;
          break;
        }
        case EventKind::kRuntime: {
          absl::StatusOr<int64_t> us =
              Int(value, epath, 0, kMaxUs, "us of wall-clock work");
          if (!us.ok()) return us.status();
          if (*us > 0) {
            b.Compute(sim::Dist::Constant(0), sim::Dist::Constant(*us * 1000));
          }
          since_timer_us += *us;
          *timed_us += *us;
          break;
        }
        case EventKind::kSleep: {
          absl::StatusOr<int64_t> us = Int(value, epath, 0, kMaxUs, "us");
          if (!us.ok()) return us.status();
          if (*us > 0) b.Sleep(sim::Dist::Constant(*us * 1000));
          *timed_us += *us;
          break;
        }
        case EventKind::kTimer: {
          if (!value.is_object() || !value.contains("period")) {
            return Error(epath,
                         "expected {\"ref\": name, \"period\": us, ...}");
          }
          for (const auto& [tkey, tvalue] : value.items()) {
            if (tkey != "ref" && tkey != "period" && tkey != "mode") {
              Warn(absl::StrCat(epath, ".", tkey), "unknown timer key ignored");
            }
          }
          absl::StatusOr<int64_t> period =
              Int(value["period"], absl::StrCat(epath, ".period"), 1, kMaxUs,
                  "the timer period in us");
          if (!period.ok()) return period.status();
          const int64_t sleep_us =
              *period > since_timer_us ? *period - since_timer_us : 0;
          if (sleep_us > 0) b.Sleep(sim::Dist::Constant(sleep_us * 1000));
          *timed_us += *period;
          since_timer_us = 0;
          break;
        }
        case EventKind::kYield:
          b.Yield();
          break;
        case EventKind::kBarrier: {
          absl::StatusOr<std::string> name =
              String(value, epath, "a barrier name");
          if (!name.ok()) return name.status();
          auto [it, added] = barrier_index_.emplace(
              *name, static_cast<int>(out_.workload.barriers.size()));
          if (added) {
            sim::BarrierSpec spec;
            spec.name = *name;
            out_.workload.barriers.push_back(spec);
            barrier_parties_.push_back(0);
            barrier_users_.emplace_back();
          }
          if (barrier_users_[it->second].insert(task_index).second) {
            barrier_parties_[it->second] += instances;
          }
          b.Barrier(it->second);
          break;
        }
        case EventKind::kSuspend:
        case EventKind::kResume:
        case EventKind::kSemPost:
        case EventKind::kSemWait:
        case EventKind::kLock:
        case EventKind::kUnlock: {
          // Each names a resource (rt-app's resources are declared by
          // their use): suspend waits on the condition its string names
          // (the task's own name when empty) until a resume of that name;
          // sem_post/sem_wait are a semaphore's post and wait; lock/unlock
          // a mutex (a channel holding one message: receive = lock).
          const EventKind kind = ClassifyEvent(key);
          std::string name;
          if (kind == EventKind::kSuspend && value.is_string() &&
              value.get<std::string>().empty()) {
            name = task_name;
          } else {
            absl::StatusOr<std::string> n =
                String(value, epath, "a resource name");
            if (!n.ok()) return n.status();
            name = *n;
          }
          switch (kind) {
            case EventKind::kSuspend:
              b.Recv(NamedChannel(absl::StrCat("cond:", name), 0));
              *timed_us += 1;
              break;
            case EventKind::kResume:
              b.Send(NamedChannel(absl::StrCat("cond:", name), 0));
              break;
            case EventKind::kSemPost:
              b.Send(NamedChannel(absl::StrCat("sem:", name), 0));
              break;
            case EventKind::kSemWait:
              b.Recv(NamedChannel(absl::StrCat("sem:", name), 0));
              *timed_us += 1;
              break;
            case EventKind::kLock:
              b.Recv(NamedChannel(absl::StrCat("mutex:", name), 1));
              break;
            default:  // kUnlock
              b.Send(NamedChannel(absl::StrCat("mutex:", name), 1));
              break;
          }
          break;
        }
        case EventKind::kFork: {
          absl::StatusOr<std::string> name =
              String(value, epath, "a task name");
          if (!name.ok()) return name.status();
          auto it = program_of_task_.find(*name);
          if (it == program_of_task_.end()) {
            return Error(epath,
                         absl::StrCat("no task \"", *name, "\" to fork"));
          }
          b.Fork(it->second);
          break;
        }
        case EventKind::kUnsupported:
          return Error(epath, absl::StrCat("rt-app event \"", key,
                                           "\" is not supported (it needs a "
                                           "simulator feature)"));
        case EventKind::kUnknown:
          return Error(epath, absl::StrCat("unknown key \"", key, "\""));
      }
    }
    return absl::OkStatus();
  }

  static bool IsTaskProperty(const std::string& key) {
    static const std::set<std::string>* const kKeys = new std::set<std::string>{
        "instance",      "loop",       "priority",  "policy",     "cpus",
        "util_min",      "util_max",   "delay",     "taskgroup",  "phases",
        "nodes_membind", "dl-runtime", "dl-period", "dl-deadline"};
    return kKeys->count(key) > 0;
  }

  absl::StatusOr<int64_t> Loop(const Json& parent, const std::string& path,
                               int64_t fallback) {
    if (!parent.contains("loop")) return fallback;
    const std::string lpath = absl::StrCat(path, ".loop");
    absl::StatusOr<int64_t> loop =
        Int(parent["loop"], lpath, -1, 2147483647, "-1 (forever) or >= 1");
    if (!loop.ok()) return loop.status();
    if (*loop == 0) return Error(lpath, "loop must be -1 (forever) or >= 1");
    return *loop;
  }

  absl::Status ParseTask(const std::string& name, const Json& task) {
    const std::string path = absl::StrCat("tasks.", name);
    if (!task.is_object()) return Error(path, "expected an object");
    const int task_index = static_cast<int>(out_.workload.tasks.size());
    sim::TaskSpec spec;
    spec.name = name;
    spec.program = static_cast<int>(out_.workload.programs.size());
    int64_t instances = 1;
    if (task.contains("instance")) {
      absl::StatusOr<int64_t> n =
          Int(task["instance"], absl::StrCat(path, ".instance"), 0, 100000,
              "an instance count (0: the task starts only when forked)");
      if (!n.ok()) return n.status();
      instances = *n;
    }
    spec.count = static_cast<int>(instances);
    absl::StatusOr<int64_t> loop = Loop(task, path, -1);
    if (!loop.ok()) return loop.status();

    std::string policy =
        default_policy_.empty() ? "SCHED_OTHER" : default_policy_;
    std::string policy_path =
        default_policy_.empty() ? path : default_policy_path_;
    if (task.contains("policy")) {
      policy_path = absl::StrCat(path, ".policy");
      absl::StatusOr<std::string> p =
          String(task["policy"], policy_path, "a policy name");
      if (!p.ok()) return p.status();
      policy = *p;
    }
    const Json* priority =
        task.contains("priority") ? &task["priority"] : nullptr;
    if (absl::Status s = ApplyPolicy(policy, policy_path, priority,
                                     absl::StrCat(path, ".priority"), spec);
        !s.ok()) {
      return s;
    }
    if (task.contains("cpus")) {
      if (absl::Status s =
              ParseCpus(task["cpus"], absl::StrCat(path, ".cpus"), spec);
          !s.ok()) {
        return s;
      }
    }
    for (const char* key : {"util_min", "util_max"}) {
      if (!task.contains(key)) continue;
      absl::StatusOr<int64_t> u = Int(task[key], absl::StrCat(path, ".", key),
                                      0, 1024, "a utilization clamp");
      if (!u.ok()) return u.status();
      (std::string(key) == "util_min" ? spec.uclamp_min : spec.uclamp_max) =
          static_cast<int>(*u);
    }
    if (task.contains("taskgroup")) {
      Warn(absl::StrCat(path, ".taskgroup"),
           "ignored: the simulator has no task groups (cgroups)");
    }
    if (task.contains("nodes_membind")) {
      Warn(absl::StrCat(path, ".nodes_membind"), "ignored");
    }
    for (const char* key : {"dl-runtime", "dl-period", "dl-deadline"}) {
      if (task.contains(key)) {
        return Error(absl::StrCat(path, ".", key),
                     "SCHED_DEADLINE is not supported by the simulator");
      }
    }

    sim::ProgramBuilder b(absl::StrCat("rtapp/", name));
    if (task.contains("delay")) {
      absl::StatusOr<int64_t> delay =
          Int(task["delay"], absl::StrCat(path, ".delay"), 0, kMaxUs, "us");
      if (!delay.ok()) return delay.status();
      if (*delay > 0) b.Sleep(sim::Dist::Constant(*delay * 1000));
    }
    b.Loop(*loop < 0 ? 0 : *loop).Stamp();
    int64_t timed_us = 0;
    if (task.contains("phases")) {
      const Json& phases = task["phases"];
      const std::string ppath = absl::StrCat(path, ".phases");
      if (!phases.is_object() || phases.empty()) {
        return Error(ppath, "expected a non-empty object of phases");
      }
      for (const auto& [key, value] : task.items()) {
        if (!IsTaskProperty(key)) {
          return Error(absl::StrCat(path, ".", key),
                       "events go inside the phases when a task has phases");
        }
      }
      for (const auto& [phase_name, phase] : phases.items()) {
        const std::string phpath = absl::StrCat(ppath, ".", phase_name);
        if (!phase.is_object()) return Error(phpath, "expected an object");
        absl::StatusOr<int64_t> ploop = Loop(phase, phpath, 1);
        if (!ploop.ok()) return ploop.status();
        const bool looped = *ploop != 1;
        if (looped) b.Loop(*ploop < 0 ? 0 : *ploop);
        int64_t phase_us = 0;
        if (absl::Status s = ParseEvents(phase, phpath, /*in_phase=*/true, name,
                                         task_index, spec.count, b, &phase_us);
            !s.ok()) {
          return s;
        }
        if (looped && phase_us == 0) {
          return Error(phpath,
                       "a looping phase must run, sleep or wait for a timer");
        }
        timed_us += phase_us;
        if (looped) b.EndLoop();
      }
    } else {
      if (absl::Status s = ParseEvents(task, path, /*in_phase=*/false, name,
                                       task_index, spec.count, b, &timed_us);
          !s.ok()) {
        return s;
      }
    }
    if (timed_us == 0) {
      return Error(path,
                   "the task neither runs nor sleeps (a loop that takes no "
                   "time)");
    }
    b.Mark(kRtAppLoopMetric).EndLoop().Exit();
    absl::StatusOr<sim::Program> program = b.Build();
    if (!program.ok()) {
      return Error(path, program.status().message());
    }
    out_.workload.programs.push_back(*std::move(program));
    out_.workload.tasks.push_back(std::move(spec));
    return absl::OkStatus();
  }

  std::string source_;
  const topology::Topology& topology_;
  RtAppWorkload out_;
  std::string default_policy_;
  std::string default_policy_path_;
  std::map<std::string, int> barrier_index_;
  std::map<std::string, int> program_of_task_;  // by task name
  std::map<std::string, int> channel_index_;    // cond:, sem:, mutex: NAME

  // The channel named `name` holding `initial` messages at the start,
  // created on first use: sends never block (capacity 10^6); receives wait
  // for a message.
  int NamedChannel(const std::string& name, int initial) {
    auto [it, added] = channel_index_.emplace(
        name, static_cast<int>(out_.workload.channels.size()));
    if (added) {
      sim::ChannelSpec spec;
      spec.name = name;
      spec.capacity = 1000000;
      spec.initial_messages = initial;
      out_.workload.channels.push_back(spec);
    }
    return it->second;
  }
  std::vector<int> barrier_parties_;
  std::vector<std::set<int>> barrier_users_;
};

}  // namespace

absl::StatusOr<RtAppWorkload> ParseRtApp(absl::string_view json,
                                         absl::string_view source,
                                         const topology::Topology& topology) {
  Parser parser(source, topology);
  return parser.Parse(json);
}

absl::StatusOr<RtAppWorkload> LoadRtAppFile(
    const std::string& path, const topology::Topology& topology) {
  absl::StatusOr<std::string> text =
      base::ReadInputFile(path, "rt-app file", base::kMaxJsonFileBytes);
  if (!text.ok()) return text.status();
  return ParseRtApp(*text, path, topology);
}

}  // namespace schedsim::workloads
