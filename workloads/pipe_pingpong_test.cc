// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/pipe_pingpong.h"

#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sim/builtin_policies.h"
#include "sim/program.h"
#include "sim/simulator.h"
#include "topology/presets.h"

namespace schedsim::workloads {
namespace {

using ::testing::ElementsAre;

std::vector<sim::OpCode> Codes(const sim::Program& p) {
  std::vector<sim::OpCode> codes;
  for (const sim::Op& op : p.ops) codes.push_back(op.code);
  return codes;
}

TEST(PipePingPongWorkloadTest, Shape) {
  const sim::Workload w = PipePingPongWorkload(1000, 0);
  ASSERT_EQ(w.tasks.size(), 2u);
  EXPECT_EQ(w.tasks[0].name, "ping");
  EXPECT_EQ(w.tasks[1].name, "pong");
  EXPECT_EQ(w.tasks[0].count, 1);
  EXPECT_EQ(w.tasks[1].count, 1);
  ASSERT_EQ(w.channels.size(), 2u);
  for (const sim::ChannelSpec& ch : w.channels) {
    EXPECT_EQ(ch.kind, sim::ChannelSpec::Kind::kPipe);
  }
  EXPECT_THAT(w.metrics, ElementsAre("round_trip"));
  EXPECT_TRUE(w.barriers.empty());
  using C = sim::OpCode;
  const sim::Program& ping = w.programs[w.tasks[0].program];
  EXPECT_THAT(Codes(ping), ElementsAre(C::kLoop, C::kStamp, C::kSend, C::kRecv,
                                       C::kMark, C::kEndLoop, C::kExit));
  EXPECT_EQ(ping.ops[0].arg, 1000);
  EXPECT_EQ(ping.ops[2].arg, kPingPongChannelA);
  EXPECT_EQ(ping.ops[3].arg, kPingPongChannelB);
  const sim::Program& pong = w.programs[w.tasks[1].program];
  EXPECT_THAT(Codes(pong),
              ElementsAre(C::kLoop, C::kRecv, C::kSend, C::kEndLoop, C::kExit));
  EXPECT_EQ(pong.ops[1].arg, kPingPongChannelA);
  EXPECT_EQ(pong.ops[2].arg, kPingPongChannelB);
}

TEST(PipePingPongWorkloadTest, WorkAddsComputeOps) {
  const sim::Workload w = PipePingPongWorkload(0, 5000);
  using C = sim::OpCode;
  const sim::Program& ping = w.programs[w.tasks[0].program];
  EXPECT_THAT(Codes(ping),
              ElementsAre(C::kLoop, C::kStamp, C::kCompute, C::kSend, C::kRecv,
                          C::kMark, C::kEndLoop, C::kExit));
  EXPECT_EQ(ping.ops[0].arg, 0);  // forever
  EXPECT_EQ(ping.ops[2].d1.a, 5000);
  const sim::Program& pong = w.programs[w.tasks[1].program];
  EXPECT_THAT(Codes(pong), ElementsAre(C::kLoop, C::kRecv, C::kCompute,
                                       C::kSend, C::kEndLoop, C::kExit));
}

struct Policies {
  sim::PerformanceGovernor freq;
  sim::FitIdleGovernor idle;
  sim::PrevTargetPlacement placement;
  sim::Policies get() { return {&freq, &idle, &placement}; }
};

TEST(PipePingPongRunTest, CountsEveryRoundTrip) {
  absl::StatusOr<topology::Topology> topo =
      topology::MakePreset("skylake-e3-1240v5");
  ASSERT_TRUE(topo.ok()) << topo.status();
  Policies policies;
  absl::StatusOr<std::unique_ptr<sim::Simulator>> sim = sim::Simulator::Create(
      *topo, sim::SimConfig(), PipePingPongWorkload(100, 1000), policies.get(),
      /*seed=*/1);
  ASSERT_TRUE(sim.ok()) << sim.status();
  ASSERT_TRUE((*sim)->RunFor(sim::Seconds(1)).ok());
  const sim::SimStats s = (*sim)->Stats();
  ASSERT_EQ(s.metrics.size(), 1u);
  const sim::MetricStats& rt = s.metrics[0];
  EXPECT_EQ(rt.count, 100u);
  EXPECT_EQ(rt.latency_ns.count(), 100u);
  // A round trip is at least two sends and two receives of pipe syscall
  // time plus two compute phases of 1000 cycles (at <= 3.9 GHz).
  const sim::SimConfig config;
  EXPECT_GE(rt.latency_ns.min(), 4 * config.pipe_op_ns + 2 * 1000 / 4);
  EXPECT_TRUE(s.tasks[0].exited);
  EXPECT_TRUE(s.tasks[1].exited);
}

// With FitIdleGovernor an idle CPU with no timer pending picks the deepest
// state (it predicts a 1 s sleep), so each wake-up of the partner pays
// Skylake C10's physical exit (300 us): a few round trips per 10 ms. With a
// PM QoS limit of 0 only POLL is allowed and a round trip takes a few us.
TEST(PipePingPongRunTest, EndlessRunKeepsGoing) {
  absl::StatusOr<topology::Topology> topo =
      topology::MakePreset("skylake-e3-1240v5");
  ASSERT_TRUE(topo.ok()) << topo.status();
  for (bool poll_only : {false, true}) {
    Policies policies;
    sim::SimConfig config;
    if (poll_only) config.pm_qos_latency_ns = 0;
    absl::StatusOr<std::unique_ptr<sim::Simulator>> sim =
        sim::Simulator::Create(*topo, config, PipePingPongWorkload(0, 0),
                               policies.get(), /*seed=*/1);
    ASSERT_TRUE(sim.ok()) << sim.status();
    ASSERT_TRUE((*sim)->RunFor(sim::Milliseconds(10)).ok());
    const sim::SimStats s = (*sim)->Stats();
    EXPECT_GT(s.metrics[0].count, poll_only ? 1000u : 5u)
        << "poll_only=" << poll_only;
    EXPECT_FALSE(s.tasks[0].exited);
    EXPECT_FALSE(s.tasks[1].exited);
  }
}

}  // namespace
}  // namespace schedsim::workloads
