// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/hackbench.h"

#include <memory>
#include <string>
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
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::vector<sim::OpCode> Codes(const sim::Program& p) {
  std::vector<sim::OpCode> codes;
  for (const sim::Op& op : p.ops) codes.push_back(op.code);
  return codes;
}

int TotalTasks(const sim::Workload& w) {
  int n = 0;
  for (const sim::TaskSpec& t : w.tasks) n += t.count;
  return n;
}

HackbenchParams Small() {
  HackbenchParams p;
  p.groups = 2;
  p.fds = 4;
  p.loops = 10;
  return p;
}

TEST(HackbenchWorkloadTest, Shape) {
  const sim::Workload w = HackbenchWorkload(Small());
  EXPECT_EQ(TotalTasks(w), 2 * 4 * 2);
  // Per group: 4 receiver specs of one task, one sender spec of 4 tasks.
  ASSERT_EQ(w.tasks.size(), 2u * 5u);
  ASSERT_EQ(w.programs.size(), 2u);  // shared through channel_base
  ASSERT_EQ(w.channels.size(), 2u * 4u);
  EXPECT_THAT(w.metrics, ElementsAre("messages"));
  ASSERT_EQ(w.barriers.size(), 1u);
  EXPECT_EQ(w.barriers[0].parties, 16);
  for (const sim::ChannelSpec& ch : w.channels) {
    EXPECT_EQ(ch.kind, sim::ChannelSpec::Kind::kSocket);
    EXPECT_EQ(ch.capacity, kHackbenchSocketCapacity);
  }
  for (int g = 0; g < 2; ++g) {
    for (int r = 0; r < 4; ++r) {
      const sim::TaskSpec& t = w.tasks[g * 5 + r];
      EXPECT_EQ(t.count, 1);
      EXPECT_THAT(t.name, StartsWith("hackbench-process/"));
      EXPECT_THAT(t.name, HasSubstr("receiver"));
      const sim::Program& p = w.programs[t.program];
      using C = sim::OpCode;
      EXPECT_THAT(Codes(p),
                  ElementsAre(C::kBarrier, C::kLoop, C::kRecv, C::kMark,
                              C::kCompute, C::kEndLoop, C::kExit));
      EXPECT_EQ(p.ops[1].arg, 4 * 10);  // fds * loops messages
      EXPECT_EQ(p.ops[2].arg + t.channel_base, g * 4 + r);  // its own
      EXPECT_EQ(p.ops[3].arg, kHackbenchMessagesMetric);
      EXPECT_EQ(p.ops[4].d1.a, kDefaultHackbenchMessageCycles);
    }
    const sim::TaskSpec& s = w.tasks[g * 5 + 4];
    EXPECT_EQ(s.count, 4);
    EXPECT_THAT(s.name, HasSubstr("sender"));
    const sim::Program& p = w.programs[s.program];
    ASSERT_EQ(p.ops.size(), 2u + 2u * 4u + 2u);
    EXPECT_EQ(p.ops[0].code, sim::OpCode::kBarrier);
    EXPECT_EQ(p.ops[1].code, sim::OpCode::kLoop);
    EXPECT_EQ(p.ops[1].arg, 10);
    for (int r = 0; r < 4; ++r) {
      EXPECT_EQ(p.ops[2 + 2 * r].code, sim::OpCode::kCompute);
      EXPECT_EQ(p.ops[3 + 2 * r].code, sim::OpCode::kSend);
      EXPECT_EQ(p.ops[3 + 2 * r].arg + s.channel_base,
                g * 4 + r);  // every group channel
    }
    EXPECT_EQ(p.ops[10].code, sim::OpCode::kEndLoop);
    EXPECT_EQ(p.ops[11].code, sim::OpCode::kExit);
  }
}

TEST(HackbenchWorkloadTest, Options) {
  HackbenchParams p = Small();
  p.pipe = true;
  p.threads = true;
  p.start_gate = false;
  p.message_cycles = 0;
  p.loops = 0;
  const sim::Workload w = HackbenchWorkload(p);
  EXPECT_TRUE(w.barriers.empty());
  for (const sim::ChannelSpec& ch : w.channels) {
    EXPECT_EQ(ch.kind, sim::ChannelSpec::Kind::kPipe);
    EXPECT_EQ(ch.capacity, kHackbenchPipeCapacity);
  }
  using C = sim::OpCode;
  const sim::Program& receiver = w.programs[w.tasks[0].program];
  EXPECT_THAT(Codes(receiver),
              ElementsAre(C::kLoop, C::kRecv, C::kMark, C::kEndLoop, C::kExit));
  EXPECT_EQ(receiver.ops[0].arg, 0);  // forever
  const sim::Program& sender = w.programs[w.tasks[4].program];
  EXPECT_THAT(Codes(sender), ElementsAre(C::kLoop, C::kSend, C::kSend, C::kSend,
                                         C::kSend, C::kEndLoop, C::kExit));
  EXPECT_EQ(sender.ops[0].arg, 0);
  EXPECT_THAT(w.tasks[0].name, StartsWith("hackbench-thread/"));

  p.channel_capacity = 7;
  EXPECT_EQ(HackbenchWorkload(p).channels[0].capacity, 7);
}

TEST(HackbenchWorkloadTest, Validation) {
  EXPECT_TRUE(ValidateHackbenchParams(HackbenchParams()).ok());
  HackbenchParams p;
  p.groups = 0;
  EXPECT_FALSE(ValidateHackbenchParams(p).ok());
  p = HackbenchParams();
  p.fds = 0;
  EXPECT_FALSE(ValidateHackbenchParams(p).ok());
  p = HackbenchParams();
  p.loops = -1;
  EXPECT_FALSE(ValidateHackbenchParams(p).ok());
  p = HackbenchParams();
  p.loops = int64_t{1} << 30;  // fds * loops overflows the loop count
  EXPECT_FALSE(ValidateHackbenchParams(p).ok());
  p = HackbenchParams();
  p.message_cycles = -1;
  EXPECT_FALSE(ValidateHackbenchParams(p).ok());
  p = HackbenchParams();
  p.channel_capacity = -1;
  EXPECT_FALSE(ValidateHackbenchParams(p).ok());
}

struct Policies {
  sim::PerformanceGovernor freq;
  sim::FitIdleGovernor idle;
  sim::PrevTargetPlacement placement;
  sim::Policies get() { return {&freq, &idle, &placement}; }
};

// Runs `w` on `machine` for `duration` and returns the stats.
sim::SimStats RunHackbench(const std::string& machine, const sim::Workload& w,
                           sim::SimDuration duration) {
  absl::StatusOr<topology::Topology> topo = topology::MakePreset(machine);
  EXPECT_TRUE(topo.ok()) << topo.status();
  Policies policies;
  absl::StatusOr<std::unique_ptr<sim::Simulator>> sim = sim::Simulator::Create(
      *topo, sim::SimConfig(), w, policies.get(), /*seed=*/1);
  EXPECT_TRUE(sim.ok()) << sim.status();
  if (!sim.ok()) return sim::SimStats();
  absl::Status s = (*sim)->RunFor(duration);
  EXPECT_TRUE(s.ok()) << s;
  return (*sim)->Stats();
}

void ExpectSane(const sim::SimStats& s) {
  const int64_t duration = s.end_ns - s.start_ns;
  for (const sim::CpuStats& c : s.cpus) {
    EXPECT_GE(c.busy_ns, 0);
    EXPECT_GE(c.idle_ns, 0);
    EXPECT_LE(c.busy_ns, duration);
  }
}

TEST(HackbenchRunTest, FiniteRunDeliversEveryMessage) {
  for (bool pipe : {false, true}) {
    HackbenchParams p = Small();
    p.pipe = pipe;
    const sim::SimStats s = RunHackbench("skylake-e3-1240v5",
                                         HackbenchWorkload(p), sim::Seconds(1));
    ASSERT_EQ(s.metrics.size(), 1u);
    EXPECT_EQ(s.metrics[0].count, 2u * 4u * 4u * 10u) << "pipe=" << pipe;
    ASSERT_EQ(s.tasks.size(), 16u);
    for (const sim::TaskStats& t : s.tasks) {
      EXPECT_TRUE(t.exited) << t.name;
    }
    EXPECT_GT(s.context_switches, 0u);
    ExpectSane(s);
  }
}

TEST(HackbenchRunTest, FiniteRunOnTwoSocketMachine) {
  HackbenchParams p = Small();
  p.loops = 5;
  const sim::SimStats s =
      RunHackbench("zen3-2s-nps1", HackbenchWorkload(p), sim::Seconds(1));
  EXPECT_EQ(s.metrics[0].count, 2u * 4u * 4u * 5u);
  for (const sim::TaskStats& t : s.tasks) EXPECT_TRUE(t.exited) << t.name;
  ExpectSane(s);
}

TEST(HackbenchRunTest, EndlessRunKeepsGoing) {
  HackbenchParams p = Small();
  p.loops = 0;
  const sim::SimStats s = RunHackbench(
      "skylake-e3-1240v5", HackbenchWorkload(p), sim::Milliseconds(20));
  EXPECT_GT(s.metrics[0].count, 1000u);
  for (const sim::TaskStats& t : s.tasks) EXPECT_FALSE(t.exited) << t.name;
  ExpectSane(s);
}

}  // namespace
}  // namespace schedsim::workloads
