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
  EXPECT_THAT(OpCodes(master),
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
      OpCodes(w->programs[1]),
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

TEST(NasKernelTest, ProfilesFollowNpbClassC) {
  struct Want {
    const char* name;
    int64_t iterations;
  };
  for (const Want& want : {Want{"bt", 200}, Want{"cg", 75}, Want{"ep", 1},
                           Want{"ft", 20}, Want{"is", 10}, Want{"lu", 250},
                           Want{"mg", 20}, Want{"sp", 400}, Want{"ua", 200}}) {
    const NasKernelProfile* k = FindNasKernel(want.name);
    ASSERT_NE(k, nullptr) << want.name;
    EXPECT_EQ(k->iterations, want.iterations) << want.name;
    const NasParams p = NasKernelParams(*k, NasParams());
    // The run's work is split evenly over its steps.
    EXPECT_NEAR(p.work_ms * static_cast<double>(NasKernelSteps(*k)),
                k->work_s * 1000.0, 1e-6 * k->work_s * 1000.0)
        << want.name;
    EXPECT_EQ(p.stall_pct, k->stall_pct) << want.name;
    EXPECT_EQ(p.barrier, k->syncs_per_iteration > 0) << want.name;
  }
  EXPECT_EQ(FindNasKernel("generic"), nullptr);
  EXPECT_EQ(FindNasKernel("BT"), nullptr);
  // ep's one parallel loop has no barrier: its threads never wait.
  absl::StatusOr<sim::Workload> ep =
      NasWorkload(NasKernelParams(*FindNasKernel("ep"), NasParams()),
                  Machine("skylake-e3-1240v5"));
  ASSERT_TRUE(ep.ok()) << ep.status();
  EXPECT_TRUE(ep->barriers.empty());
  for (const sim::Program& p : ep->programs) {
    for (const sim::Op& op : p.ops) EXPECT_NE(op.code, sim::OpCode::kBarrier);
  }
}

TEST(NasModelTest, UnknownKernelIsAnError) {
  absl::StatusOr<ModelRun> r = RunModel("nas", {{"kernel", "xx"}}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()),
              ::testing::HasSubstr("kernel must be generic, bt"));
  EXPECT_THAT(std::string(r.status().message()), ::testing::HasSubstr("'xx'"));
}

ModelRun Kernel(const std::string& kernel, const std::string& freq) {
  RunOptions o;
  o.freq = freq;
  o.warmup_ms = 20;
  o.duration_ms = 400;
  absl::StatusOr<ModelRun> r = RunModel("nas", {{"kernel", kernel}}, o);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : ModelRun();
}

// The kernels are told apart by what they do: ep computes in registers,
// so the lowest frequency slows it by about the frequency ratio; cg waits
// on memory for most of its work, which the frequency does not speed up.
TEST(NasModelTest, MemoryBoundKernelsSlowLessAtTheLowestFrequency) {
  auto slowdown = [](const std::string& kernel) {
    const ModelRun fast = Kernel(kernel, "performance");
    const ModelRun slow = Kernel(kernel, "powersave");
    EXPECT_GT(fast.metrics.at("run_s"), 0) << kernel;
    return slow.metrics.at("run_s") / fast.metrics.at("run_s");
  };
  const double ep = slowdown("ep");
  const double cg = slowdown("cg");
  // 3.7 GHz (four busy cores) against 0.8 GHz: 4.6x for pure cycles.
  EXPECT_GT(ep, 3.5);
  EXPECT_LT(cg, 0.75 * ep);  // 4.3x against 2.9x
  EXPECT_GT(cg, 1.5);
}

// run_s is the class-C run: the mean step time times the run's steps.
TEST(NasModelTest, RunTimeIsTheStepTimeTimesTheClassCSteps) {
  const ModelRun r = Kernel("mg", "performance");
  const NasKernelProfile* mg = FindNasKernel("mg");
  ASSERT_NE(mg, nullptr);
  EXPECT_NEAR(r.metrics.at("run_s"),
              r.metrics.at("time_s") * static_cast<double>(NasKernelSteps(*mg)),
              1e-9 * r.metrics.at("run_s"));
  // mg's 800 steps of a 103 s run on 8 threads of 4 cores: about 23 ms.
  EXPECT_GT(r.metrics.at("time_s"), 0.015);
  EXPECT_LT(r.metrics.at("time_s"), 0.035);
}

}  // namespace
}  // namespace schedsim::workloads
