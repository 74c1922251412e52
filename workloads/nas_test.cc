// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/nas.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sim/program.h"
#include "workloads/model_test_util.h"

namespace schedsim::workloads {
namespace {

using ::testing::ElementsAre;

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

TEST(NasWorkloadTest, OpenMpShape) {
  const topology::Topology topo = Machine("skylake-e3-1240v5");
  absl::StatusOr<sim::Workload> w = NasWorkload(NasParams(), topo);
  ASSERT_TRUE(w.ok()) << w.status();
  EXPECT_EQ(TotalTasks(*w), 8);  // one per CPU
  ASSERT_EQ(w->barriers.size(), 1u);
  EXPECT_EQ(w->barriers[0].parties, 8);
  using C = sim::OpCode;
  const sim::Program& master = w->programs[0];
  EXPECT_THAT(Codes(master),
              ElementsAre(C::kLoop, C::kStamp, C::kCompute, C::kBarrier,
                          C::kMark, C::kEndLoop, C::kExit));
  // 80 ms / 8 ranks = 10 ms: 7 ms of cycles at 3.9 GHz and 3 ms of stall,
  // 5% imbalance.
  EXPECT_EQ(master.ops[2].d1.kind, sim::Dist::Kind::kNormal);
  EXPECT_EQ(master.ops[2].d1.a, 27300000);
  EXPECT_EQ(master.ops[2].d1.b, 1365000);
  EXPECT_EQ(master.ops[2].d2.a, 3000000);
  EXPECT_EQ(master.ops[3].d1.a, 1000000);  // 1 ms spin
  EXPECT_THAT(
      Codes(w->programs[1]),
      ElementsAre(C::kLoop, C::kCompute, C::kBarrier, C::kEndLoop, C::kExit));
}

TEST(NasWorkloadTest, MpiRingChannels) {
  const topology::Topology topo = Machine("skylake-e3-1240v5");
  NasParams p;
  p.ipc = NasIpc::kMpi;
  p.ranks = 4;
  absl::StatusOr<sim::Workload> w = NasWorkload(p, topo);
  ASSERT_TRUE(w.ok()) << w.status();
  ASSERT_EQ(w->channels.size(), 4u);
  EXPECT_TRUE(w->barriers.empty());
  // Rank r receives on channel r and sends on channel r + 1 (mod 4).
  ASSERT_EQ(w->tasks.size(), 4u);
  for (int r = 0; r < 4; ++r) {
    const sim::TaskSpec& t = w->tasks[r];
    EXPECT_EQ(t.name, "nas-mpi/rank" + std::to_string(r));
    int send = -1;
    int recv = -1;
    for (const sim::Op& op : w->programs[t.program].ops) {
      if (op.code == sim::OpCode::kSend) send = op.arg + t.channel_base;
      if (op.code == sim::OpCode::kRecv) recv = op.arg + t.channel_base;
    }
    EXPECT_EQ(recv, r) << r;
    EXPECT_EQ(send, (r + 1) % 4) << r;
  }
}

ModelRun Nas(const std::string& ipc, int64_t ranks, int64_t iterations) {
  RunOptions o;
  o.warmup_ms = 0;
  o.duration_ms = 200;
  absl::StatusOr<ModelRun> r = RunModel("nas",
                                        {{"ipc", ipc},
                                         {"ranks", ranks},
                                         {"iterations", iterations},
                                         {"work_ms", 8.0}},
                                        o);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : ModelRun();
}

TEST(NasModelTest, FiniteRunsCompleteAndTimeIterations) {
  for (const char* ipc : {"openmp", "mpi"}) {
    for (int64_t ranks : {1, 2, 3, 8}) {
      const ModelRun r = Nas(ipc, ranks, 10);
      EXPECT_EQ(r.stats.metrics[0].count, 10u) << ipc << " " << ranks;
      for (const sim::TaskStats& t : r.stats.tasks) {
        EXPECT_TRUE(t.exited) << ipc << " " << t.name;
      }
      // An iteration is at least the slowest rank's share at the highest
      // frequency (less the imbalance), 8 ms / ranks.
      const double share_s = 8e-3 / static_cast<double>(ranks);
      EXPECT_GT(r.metrics.at("time_s"), 0.8 * share_s) << ipc << " " << ranks;
      EXPECT_LT(r.metrics.at("time_s"), 3 * share_s) << ipc << " " << ranks;
      EXPECT_NEAR(r.metrics.at("mops") * r.metrics.at("time_s"), 8.0, 1e-9);
    }
  }
}

TEST(NasModelTest, MoreRanksAreFaster) {
  for (const char* ipc : {"openmp", "mpi"}) {
    EXPECT_LT(Nas(ipc, 4, 0).metrics.at("time_s"),
              0.5 * Nas(ipc, 1, 0).metrics.at("time_s"))
        << ipc;
  }
}

}  // namespace
}  // namespace schedsim::workloads
