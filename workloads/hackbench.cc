// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/hackbench.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "sim/program.h"

namespace schedsim::workloads {
namespace {

constexpr int kStartGateBarrier = 0;

// Workload construction cannot fail once the parameters are valid; a
// failure here is a bug in this file.
sim::Program BuildOrDie(sim::ProgramBuilder& b) {
  absl::StatusOr<sim::Program> p = b.Build();
  if (!p.ok()) {
    std::fprintf(stderr, "HackbenchWorkload: %s\n",
                 std::string(p.status().message()).c_str());
    std::abort();
  }
  return *std::move(p);
}

}  // namespace

absl::Status ValidateHackbenchParams(const HackbenchParams& params) {
  constexpr int64_t kMaxLoop = std::numeric_limits<int32_t>::max();
  if (params.groups < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("hackbench: groups must be >= 1, got ", params.groups));
  }
  if (params.fds < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("hackbench: fds must be >= 1, got ", params.fds));
  }
  if (params.loops < 0 || params.loops * params.fds > kMaxLoop) {
    return absl::InvalidArgumentError(
        absl::StrCat("hackbench: loops must be in 0..", kMaxLoop / params.fds,
                     " (fds * loops is a loop count), got ", params.loops));
  }
  if (int64_t{params.groups} * params.fds * 2 >
      std::numeric_limits<int>::max()) {
    return absl::InvalidArgumentError(
        absl::StrCat("hackbench: ", params.groups, " groups of 2 * ",
                     params.fds, " tasks is too many tasks"));
  }
  if (params.message_cycles < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "hackbench: message_cycles must be >= 0, got ", params.message_cycles));
  }
  if (params.channel_capacity < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("hackbench: channel_capacity must be >= 0, got ",
                     params.channel_capacity));
  }
  return absl::OkStatus();
}

sim::Workload HackbenchWorkload(const HackbenchParams& params) {
  if (absl::Status s = ValidateHackbenchParams(params); !s.ok()) {
    std::fprintf(stderr, "HackbenchWorkload: %s\n",
                 std::string(s.message()).c_str());
    std::abort();
  }
  const int groups = params.groups;
  const int fds = params.fds;
  const std::string prefix =
      params.threads ? "hackbench-thread" : "hackbench-process";
  // Threads share one address space; processes each have their own, left
  // undeclared (TaskSpec::mm).
  const int mm = params.threads ? 0 : -1;
  const sim::Dist work = sim::Dist::Constant(params.message_cycles);
  const bool compute = params.message_cycles > 0;

  sim::Workload w;
  w.metrics.push_back("messages");
  if (params.start_gate) {
    sim::BarrierSpec gate;
    gate.name = "start";
    gate.parties = groups * fds * 2;
    w.barriers.push_back(gate);
  }
  const sim::ChannelSpec::Kind kind = params.pipe
                                          ? sim::ChannelSpec::Kind::kPipe
                                          : sim::ChannelSpec::Kind::kSocket;
  int capacity = params.channel_capacity;
  if (capacity == 0) {
    capacity = params.pipe ? kHackbenchPipeCapacity : kHackbenchSocketCapacity;
  }
  w.channels.reserve(static_cast<size_t>(groups) * fds);
  w.tasks.reserve(static_cast<size_t>(groups) * (fds + 1));

  // Two programs serve every task: each task's channel_base points its
  // channel 0 at its own channel (a receiver) or its group's first channel
  // (a sender).
  sim::ProgramBuilder receiver("receiver");
  if (params.start_gate) receiver.Barrier(kStartGateBarrier);
  if (params.stamp_start) receiver.Stamp();
  receiver.Loop(params.loops * fds).Recv(0).Mark(kHackbenchMessagesMetric);
  if (compute) receiver.Compute(work);
  receiver.EndLoop().Exit();
  w.programs.push_back(BuildOrDie(receiver));
  sim::ProgramBuilder sender("sender");
  if (params.start_gate) sender.Barrier(kStartGateBarrier);
  sender.Loop(params.loops);
  for (int r = 0; r < fds; ++r) {
    if (compute) sender.Compute(work);
    sender.Send(r);
  }
  sender.EndLoop().Exit();
  w.programs.push_back(BuildOrDie(sender));

  for (int g = 0; g < groups; ++g) {
    const int first_channel = static_cast<int>(w.channels.size());
    for (int r = 0; r < fds; ++r) {
      sim::ChannelSpec ch;
      ch.name = absl::StrCat("g", g, ".r", r);
      ch.kind = kind;
      ch.capacity = capacity;
      ch.pipe_mutex = params.pipe;  // pipe_write()/pipe_read() lock it
      w.channels.push_back(std::move(ch));
    }
    for (int r = 0; r < fds; ++r) {
      sim::TaskSpec t;
      t.name = absl::StrCat(prefix, "/g", g, "/receiver", r);
      t.program = kHackbenchReceiverProgram;
      t.channel_base = first_channel + r;
      t.working_set_bytes = params.working_set_bytes;
      t.mm = mm;
      w.tasks.push_back(std::move(t));
    }
    sim::TaskSpec t;
    t.name = absl::StrCat(prefix, "/g", g, "/sender");
    t.program = kHackbenchSenderProgram;
    t.count = fds;
    t.channel_base = first_channel;
    t.working_set_bytes = params.working_set_bytes;
    t.mm = mm;
    w.tasks.push_back(std::move(t));
  }
  return w;
}

}  // namespace schedsim::workloads
