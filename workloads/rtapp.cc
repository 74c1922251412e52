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
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "base/input_file.h"
#include "nlohmann/json.hpp"
#include "sim/program.h"
#include "workloads/model_util.h"
#include "workloads/rtapp_events.h"
#include "workloads/rtapp_jsonc.h"

namespace schedsim::workloads {
namespace {

using Json = nlohmann::ordered_json;

constexpr int64_t kMaxUs = int64_t{1} << 40;  // ~12.7 days

class Parser {
 public:
  Parser(absl::string_view source, const topology::Topology& topology)
      : source_(source), topology_(topology) {}

  absl::StatusOr<RtAppWorkload> Parse(absl::string_view text) {
    Json root;
    JsonPathTracker tracker;
    // json-c's leniency rt-app files rely on (rtapp_jsonc.h).
    std::vector<std::string> valueless;
    const std::string normalized = NormalizeJsonC(text, &valueless);
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
    for (const std::string& key : valueless) {
      out_.warnings.push_back(absl::StrCat(
          source_, ": ", key,
          ": a key without a value, read as the empty string (rt-app's "
          "json-c refuses it)"));
    }
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
      CollectWaits(name, task);
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
      // Issue 49 #16: "expected an integer (us), got 1e+18" read as if
      // 1e18 were no integer; the range and the form say what is wrong.
      return Error(
          path,
          absl::StrCat("expected an integer (", what, ") in ", lo, "..", hi,
                       ", written without a fraction or an exponent, got ",
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
      } else if (IgnoredRtAppGlobalKeys().count(key) == 0) {
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
      return Error(path,
                   "SCHED_DEADLINE not modelled (the simulator has no "
                   "deadline scheduling class)");
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
      if (IsRtAppTaskProperty(key)) {
        if (in_phase && key == "taskgroup") {
          Warn(epath, "ignored: the simulator has no task groups (cgroups)");
        } else if (in_phase && key != "loop") {
          return Error(epath, absl::StrCat("per-phase task property \"", key,
                                           "\" is not supported (a task's "
                                           "properties are fixed in the "
                                           "simulator)"));
        }
        continue;  // handled by ParseTask
      }
      switch (ClassifyRtAppEvent(key)) {
        case RtAppEvent::kRun: {
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
        case RtAppEvent::kRuntime: {
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
        case RtAppEvent::kSleep: {
          absl::StatusOr<int64_t> us = Int(value, epath, 0, kMaxUs, "us");
          if (!us.ok()) return us.status();
          if (*us > 0) b.Sleep(sim::Dist::Constant(*us * 1000));
          *timed_us += *us;
          break;
        }
        case RtAppEvent::kTimer: {
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
        case RtAppEvent::kYield:
          b.Yield();
          break;
        case RtAppEvent::kBarrier: {
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
        case RtAppEvent::kSuspend:
        case RtAppEvent::kResume:
        case RtAppEvent::kSemPost:
        case RtAppEvent::kSemWait:
        case RtAppEvent::kLock:
        case RtAppEvent::kUnlock: {
          // Each names a resource (rt-app's resources are declared by
          // their use): suspend waits on the condition its string names
          // (the task's own name when empty) until a resume of that name;
          // sem_post/sem_wait are a semaphore's post and wait; lock/unlock
          // a mutex (a channel holding one message: receive = lock).
          const RtAppEvent kind = ClassifyRtAppEvent(key);
          std::string name;
          if (kind == RtAppEvent::kSuspend && value.is_string() &&
              value.get<std::string>().empty()) {
            name = task_name;
          } else {
            absl::StatusOr<std::string> n =
                String(value, epath, "a resource name");
            if (!n.ok()) return n.status();
            name = *n;
          }
          switch (kind) {
            case RtAppEvent::kSuspend:
              b.Recv(NamedChannel(absl::StrCat("cond:", name), 0));
              *timed_us += 1;
              break;
            case RtAppEvent::kResume:
              b.Send(NamedChannel(absl::StrCat("cond:", name), 0));
              break;
            case RtAppEvent::kSemPost:
              b.Send(NamedChannel(absl::StrCat("sem:", name), 0));
              break;
            case RtAppEvent::kSemWait:
              b.Recv(NamedChannel(absl::StrCat("sem:", name), 0));
              *timed_us += 1;
              break;
            case RtAppEvent::kLock:
              b.Recv(NamedChannel(absl::StrCat("mutex:", name), 1));
              break;
            default:  // kUnlock
              b.Send(NamedChannel(absl::StrCat("mutex:", name), 1));
              break;
          }
          break;
        }
        case RtAppEvent::kWait:
        case RtAppEvent::kSignal:
        case RtAppEvent::kBroad:
        case RtAppEvent::kSync:
          if (absl::Status st = ConditionEvent(ClassifyRtAppEvent(key), value,
                                               epath, task_name, b, timed_us);
              !st.ok()) {
            return st;
          }
          break;
        case RtAppEvent::kFork: {
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
        case RtAppEvent::kUnsupported:
          return Error(epath, absl::StrCat("rt-app event \"", key,
                                           "\" is not supported (it needs a "
                                           "simulator feature)"));
        case RtAppEvent::kUnknown:
          return Error(epath, absl::StrCat("unknown key \"", key, "\""));
      }
    }
    return absl::OkStatus();
  }

  // Condition variables (wait, signal, broad, sync): each task that waits
  // on condition C has its own channel "condvar:C@TASK". A signal of C
  // sends to the one other task that waits on C, a broad to every other
  // one (a message per instance); a wait unlocks its mutex, receives from
  // its own channel and locks the mutex again. So a task never takes its
  // own signal (sync: signal, then wait), but, as with suspend, a signal
  // sent before its waiter waits is remembered, where rt-app loses it.
  void CollectWaits(const std::string& name, const Json& task) {
    if (!task.is_object()) return;
    instances_[name] =
        task.contains("instance") && task["instance"].is_number_integer()
            ? std::max<int64_t>(task["instance"].get<int64_t>(), 1)
            : 1;
    auto scan = [&](const Json& body) {
      if (!body.is_object()) return;
      for (const auto& [key, value] : body.items()) {
        const RtAppEvent kind = ClassifyRtAppEvent(key);
        if ((kind == RtAppEvent::kWait || kind == RtAppEvent::kSync) &&
            value.is_object() && value.contains("ref") &&
            value["ref"].is_string()) {
          waiters_[value["ref"].get<std::string>()].insert(name);
        }
      }
    };
    scan(task);
    if (task.contains("phases") && task["phases"].is_object()) {
      for (const auto& [phase_name, phase] : task["phases"].items()) {
        scan(phase);
      }
    }
  }

  absl::Status ConditionEvent(RtAppEvent kind, const Json& value,
                              const std::string& path, const std::string& task,
                              sim::ProgramBuilder& b, int64_t* timed_us) {
    const bool waits = kind == RtAppEvent::kWait || kind == RtAppEvent::kSync;
    absl::StatusOr<std::string> cond, mutex;
    if (waits) {
      if (!value.is_object() || !value.contains("ref") ||
          !value.contains("mutex")) {
        return Error(path,
                     "expected {\"ref\": a condition, \"mutex\": a "
                     "mutex}");
      }
      cond = String(value["ref"], path + ".ref", "a condition name");
      if (!cond.ok()) return cond.status();
      mutex = String(value["mutex"], path + ".mutex", "a mutex name");
      if (!mutex.ok()) return mutex.status();
    } else {
      cond = String(value, path, "a condition name");
      if (!cond.ok()) return cond.status();
    }
    if (kind != RtAppEvent::kWait) {  // signal, broad, sync: wake
      std::vector<std::string> others;
      for (const std::string& w : waiters_[*cond]) {
        if (w != task) others.push_back(w);
      }
      if (others.empty()) {
        Warn(path, absl::StrCat("no other task waits on \"", *cond,
                                "\": this wakes no one"));
      } else if (kind != RtAppEvent::kBroad && others.size() > 1) {
        return Error(path,
                     absl::StrCat("signal of \"", *cond,
                                  "\", which several tasks "
                                  "wait on (",
                                  absl::StrJoin(others, ", "),
                                  "), is not supported (the simulator cannot "
                                  "pick the first waiter); use broad"));
      }
      for (const std::string& w : others) {
        const int64_t n = kind == RtAppEvent::kBroad ? instances_[w] : 1;
        const int channel =
            NamedChannel(absl::StrCat("condvar:", *cond, "@", w), 0);
        if (n > 1024) {
          return Error(path,
                       absl::StrCat("a broadcast to ", n, " instances of \"", w,
                                    "\": at most 1024"));
        }
        for (int64_t i = 0; i < n; ++i) b.Send(channel);
      }
    }
    if (waits) {
      const int m = NamedChannel(absl::StrCat("mutex:", *mutex), 1);
      b.Send(m);  // pthread_cond_wait() unlocks the mutex,
      b.Recv(NamedChannel(absl::StrCat("condvar:", *cond, "@", task), 0));
      b.Recv(m);  // and locks it again once woken
      *timed_us += 1;
    }
    return absl::OkStatus();
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
    if (task.contains("dl-runtime")) {
      // With SCHED_OTHER, rt-app passes dl-runtime as sched_attr's
      // sched_runtime, which EEVDF takes as the task's slice from 6.12
      // (TaskSpec::slice_ns; config task_slices).
      absl::StatusOr<int64_t> us =
          Int(task["dl-runtime"], absl::StrCat(path, ".dl-runtime"), 0,
              100000000, "us of requested slice");
      if (!us.ok()) return us.status();
      spec.slice_ns = *us * 1000;
    }
    for (const char* key : {"dl-period", "dl-deadline"}) {
      if (task.contains(key)) {
        Warn(absl::StrCat(path, ".", key),
             "ignored: the simulator has no SCHED_DEADLINE");
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
        if (!IsRtAppTaskProperty(key)) {
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
  std::map<std::string, std::set<std::string>> waiters_;  // by condition
  std::map<std::string, int64_t> instances_;              // by task

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
  return LoadRtAppFile(path, topology, RtAppDefines());
}

absl::StatusOr<RtAppWorkload> LoadRtAppFile(const std::string& path,
                                            const topology::Topology& topology,
                                            const RtAppDefines& defines) {
  absl::StatusOr<std::string> text =
      base::ReadInputFile(path, "rt-app file", base::kMaxJsonFileBytes);
  if (!text.ok()) return text.status();
  return ParseRtApp(*text, path, topology, defines);
}

namespace {

// The distinct `__NAME__` placeholders (NAME: upper-case letters, digits,
// '_', starting with a letter) in `text`, in order of first appearance.
std::vector<std::string> Placeholders(absl::string_view text) {
  std::vector<std::string> found;
  size_t at = 0;
  while ((at = text.find("__", at)) != absl::string_view::npos) {
    size_t end = at + 2;
    if (end < text.size() && text[end] >= 'A' && text[end] <= 'Z') {
      while (end < text.size() &&
             ((text[end] >= 'A' && text[end] <= 'Z') ||
              (text[end] >= '0' && text[end] <= '9') || text[end] == '_')) {
        ++end;
      }
      // The name ran into the closing "__".
      if (end - at >= 5 && text.substr(end - 2, 2) == "__") {
        const std::string name(text.substr(at, end - at));
        if (std::find(found.begin(), found.end(), name) == found.end()) {
          found.push_back(name);
        }
        at = end;
        continue;
      }
    }
    at += 2;
  }
  return found;
}

}  // namespace

absl::StatusOr<RtAppWorkload> ParseRtApp(absl::string_view json,
                                         absl::string_view source,
                                         const topology::Topology& topology,
                                         const RtAppDefines& defines) {
  std::string text(json);
  std::vector<std::pair<std::string, std::string>> ordered(defines.begin(),
                                                           defines.end());
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const auto& a, const auto& b) {
                     return a.first.size() > b.first.size();
                   });
  for (const auto& [key, value] : ordered) {
    if (key.empty()) continue;
    text = absl::StrReplaceAll(text, {{key, value}});
  }
  const std::vector<std::string> left = Placeholders(text);
  absl::StatusOr<RtAppWorkload> parsed = ParseRtApp(text, source, topology);
  if (!parsed.ok()) {
    if (left.empty()) return parsed.status();
    return absl::InvalidArgumentError(absl::StrCat(
        source, ": template placeholder", left.size() > 1 ? "s " : " ",
        absl::StrJoin(left, ", "),
        " without a value (give each with "
        "--define=NAME=VALUE, or the rtapp model's `define` parameter "
        "\"NAME=VALUE,...\"); parsing it as it is: ",
        parsed.status().message()));
  }
  if (!left.empty()) {
    parsed->warnings.push_back(absl::StrCat(
        source, ": template placeholder", left.size() > 1 ? "s " : " ",
        absl::StrJoin(left, ", "), " left as text (no --define for them)"));
  }
  return parsed;
}

absl::StatusOr<RtAppDefines> ParseRtAppDefines(absl::string_view text) {
  RtAppDefines defines;
  if (absl::StripAsciiWhitespace(text).empty()) return defines;
  for (absl::string_view entry : absl::StrSplit(text, ',')) {
    const size_t eq = entry.find('=');
    if (eq == absl::string_view::npos || eq == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("define: expected KEY=VALUE, got '", entry, "'"));
    }
    defines[std::string(entry.substr(0, eq))] =
        std::string(entry.substr(eq + 1));
  }
  return defines;
}

}  // namespace schedsim::workloads
