// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/pipe_pingpong.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "sim/program.h"

namespace schedsim::workloads {
namespace {

sim::Program BuildOrDie(sim::ProgramBuilder& b) {
  absl::StatusOr<sim::Program> p = b.Build();
  if (!p.ok()) {
    std::fprintf(stderr, "PipePingPongWorkload: %s\n",
                 std::string(p.status().message()).c_str());
    std::abort();
  }
  return *std::move(p);
}

}  // namespace

sim::Workload PipePingPongWorkload(int64_t loops, int64_t work_cycles) {
  if (loops < 0 || loops > std::numeric_limits<int32_t>::max() ||
      work_cycles < 0) {
    std::fprintf(stderr,
                 "PipePingPongWorkload: loops must be in 0..%d and "
                 "work_cycles >= 0, got loops=%lld work_cycles=%lld\n",
                 std::numeric_limits<int32_t>::max(),
                 static_cast<long long>(loops),
                 static_cast<long long>(work_cycles));
    std::abort();
  }
  const sim::Dist work = sim::Dist::Constant(work_cycles);
  sim::Workload w;
  w.metrics.push_back("round_trip");
  for (const char* name : {"ping->pong", "pong->ping"}) {
    sim::ChannelSpec ch;
    ch.name = name;
    ch.kind = sim::ChannelSpec::Kind::kPipe;
    ch.pipe_mutex = true;
    w.channels.push_back(std::move(ch));
  }

  sim::ProgramBuilder ping("ping");
  ping.Loop(loops).Stamp();
  if (work_cycles > 0) ping.Compute(work);
  ping.Send(kPingPongChannelA)
      .Recv(kPingPongChannelB)
      .Mark(kPingPongRoundTripMetric)
      .EndLoop()
      .Exit();
  w.programs.push_back(BuildOrDie(ping));

  sim::ProgramBuilder pong("pong");
  pong.Loop(loops).Recv(kPingPongChannelA);
  if (work_cycles > 0) pong.Compute(work);
  pong.Send(kPingPongChannelB).EndLoop().Exit();
  w.programs.push_back(BuildOrDie(pong));

  sim::TaskSpec ping_task;
  ping_task.name = "ping";
  ping_task.program = 0;
  w.tasks.push_back(std::move(ping_task));
  sim::TaskSpec pong_task;
  pong_task.name = "pong";
  pong_task.program = 1;
  w.tasks.push_back(std::move(pong_task));
  return w;
}

}  // namespace schedsim::workloads
