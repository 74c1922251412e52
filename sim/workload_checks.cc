// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Simulator::Create: the workload's checks (tasks, programs, channels,
// barriers, devices) before the machine is built (simulator_init.cc).
// Every error names the task, program op or object and what was expected.

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "sim/simulator.h"
#include "sim/simulator_impl.h"

namespace schedsim::sim {

absl::StatusOr<std::unique_ptr<Simulator>> Simulator::Create(
    const topology::Topology& topology, const SimConfig& config,
    const Workload& workload, const Policies& policies, uint64_t seed) {
  if (policies.freq == nullptr || policies.idle == nullptr ||
      policies.placement == nullptr) {
    return absl::InvalidArgumentError(
        "a simulation needs a frequency governor, an idle governor and a "
        "placement policy");
  }
  const int n = topology.num_cpus();
  int64_t total_tasks = 0;
  for (size_t i = 0; i < workload.tasks.size(); ++i) {
    const TaskSpec& t = workload.tasks[i];
    std::string where = absl::StrCat("task '", t.name, "'");
    if (t.program < 0 ||
        t.program >= static_cast<int>(workload.programs.size())) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": program ", t.program, " does not exist (",
                       workload.programs.size(), " programs)"));
    }
    if (t.count < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": negative count"));
    }
    total_tasks += t.count;
    if (total_tasks > kMaxTasks) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": the workload's tasks add up to more than the limit of ",
          kMaxTasks, " tasks (", total_tasks, " with this one)"));
    }
    if (t.start_cpu >= 0 && t.start_cpu < n && !t.affinity.empty()) {
      absl::StatusOr<topology::CpuSet> allowed =
          topology::CpuSet::ParseList(t.affinity, n);
      if (allowed.ok() && !allowed->Test(t.start_cpu)) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, ": start CPU ", t.start_cpu,
                         " is outside its affinity ", t.affinity));
      }
    }
    if (t.start_cpu >= n) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": start CPU ", t.start_cpu, " beyond the ", n,
                       " CPUs of ", topology.name()));
    }
    if (t.nice < -20 || t.nice > 19) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": nice ", t.nice, " outside -20..19"));
    }
    if (t.policy == SchedPolicy::kFifo &&
        (t.rt_priority < 1 || t.rt_priority > 99)) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": SCHED_FIFO priority ", t.rt_priority, " outside 1..99"));
    }
  }
  for (size_t p = 0; p < workload.programs.size(); ++p) {
    for (size_t i = 0; i < workload.programs[p].ops.size(); ++i) {
      const Op& op = workload.programs[p].ops[i];
      std::string where =
          absl::StrCat("program '", workload.programs[p].name, "' op ", i, " (",
                       OpCodeName(op.code), ")");
      auto check = [&](size_t limit, const char* what) -> absl::Status {
        if (op.arg < 0 || static_cast<size_t>(op.arg) >= limit) {
          return absl::InvalidArgumentError(
              absl::StrCat(where, ": ", what, " ", op.arg, " does not exist (",
                           limit, " defined)"));
        }
        return absl::OkStatus();
      };
      absl::Status s;
      switch (op.code) {
        case OpCode::kSend:
        case OpCode::kRecv:
          s = check(workload.channels.size(), "channel");
          break;
        case OpCode::kBarrier:
          s = check(workload.barriers.size(), "barrier");
          break;
        case OpCode::kMark:
          s = check(workload.metrics.size(), "metric");
          break;
        case OpCode::kShared:
          s = check(workload.lines.size(), "shared line");
          break;
        case OpCode::kIo:
          s = check(workload.devices.size(), "device");
          break;
        case OpCode::kExec:
          s = check(workload.programs.size(), "program");
          break;
        case OpCode::kIoWait:
          if (op.arg != 0 && op.arg != kIoWaitDevice) {
            s = absl::InvalidArgumentError(absl::StrCat(
                where, ": wait kind ", op.arg, " is neither 0 (IO wait) nor ",
                kIoWaitDevice, " (another device's interrupt)"));
          }
          break;
        case OpCode::kFork:
          s = check(workload.programs.size(), "program");
          if (s.ok() && (op.arg2 < 1 || op.arg2 > kMaxTasks)) {
            s = absl::InvalidArgumentError(
                absl::StrCat(where, ": fork count ", op.arg2, " outside 1..",
                             kMaxTasks, " (the task limit)"));
          }
          break;
        default:
          break;
      }
      if (!s.ok()) return s;
    }
  }
  // Channel ids with each task's base, over every program it may run (its
  // own and those it forks, transitively).
  for (const TaskSpec& t : workload.tasks) {
    std::vector<bool> seen(workload.programs.size(), false);
    std::vector<int> todo = {t.program};
    seen[t.program] = true;
    while (!todo.empty()) {
      int p = todo.back();
      todo.pop_back();
      for (const Op& op : workload.programs[p].ops) {
        if ((op.code == OpCode::kSend || op.code == OpCode::kRecv) &&
            (t.channel_base < 0 ||
             int64_t{op.arg} + t.channel_base >=
                 static_cast<int64_t>(workload.channels.size()))) {
          return absl::InvalidArgumentError(absl::StrCat(
              "task '", t.name, "': channel ", op.arg, " + channel_base ",
              t.channel_base, " does not exist (", workload.channels.size(),
              " defined)"));
        }
        if ((op.code == OpCode::kFork || op.code == OpCode::kExec) &&
            !seen[op.arg]) {
          seen[op.arg] = true;
          todo.push_back(op.arg);
        }
      }
    }
  }
  for (const BarrierSpec& b : workload.barriers) {
    if (b.parties < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("barrier '", b.name, "': parties must be >= 1"));
    }
  }
  for (const DeviceSpec& d : workload.devices) {
    if (d.request_ns < 0 || d.request_ns > int64_t{1000000000} ||
        d.bytes_per_us < 1 || d.bytes_per_us > int64_t{1000000} ||
        d.max_request_bytes < 512 || d.max_request_bytes > (int64_t{1} << 30)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "device '", d.name, "': request_ns must be 0..10^9 (it is ",
          d.request_ns, "), bytes_per_us 1..10^6 (", d.bytes_per_us,
          ") and max_request_bytes 512..2^30 (", d.max_request_bytes, ")"));
    }
  }
  for (const ChannelSpec& c : workload.channels) {
    if (c.capacity < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("channel '", c.name, "': capacity must be >= 1"));
    }
    if (c.initial_messages < 0 || c.initial_messages > c.capacity) {
      return absl::InvalidArgumentError(absl::StrCat(
          "channel '", c.name, "': initial_messages must be in 0..", c.capacity,
          " (its capacity), got ", c.initial_messages));
    }
  }
  auto impl = std::make_unique<SimulatorImpl>(topology, config, policies, seed);
  absl::Status s = impl->Init(workload);
  if (!s.ok()) return s;
  return std::unique_ptr<Simulator>(new Simulator(std::move(impl)));
}

}  // namespace schedsim::sim
