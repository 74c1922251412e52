// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/ycsb.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sim/program.h"
#include "workloads/model_test_util.h"

namespace schedsim::workloads {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(YcsbWorkloadTest, EachConnectionHasItsOwnMongodThread) {
  YcsbParams p;
  p.threads = 3;
  absl::StatusOr<sim::Workload> w = YcsbMongodbWorkload(p);
  ASSERT_TRUE(w.ok()) << w.status();
  ASSERT_EQ(w->tasks.size(), 6u);
  ASSERT_EQ(w->channels.size(), 6u);
  for (int i = 0; i < 3; ++i) {
    const sim::TaskSpec& client = w->tasks[i];
    const sim::TaskSpec& server = w->tasks[3 + i];
    EXPECT_EQ(client.name, "ycsb/" + std::to_string(i));
    EXPECT_EQ(server.name, "mongod/conn" + std::to_string(i));
    // Both ends of connection i use its two channels.
    EXPECT_EQ(client.channel_base, 2 * i);
    EXPECT_EQ(server.channel_base, 2 * i);
  }
  for (const sim::ChannelSpec& ch : w->channels) {
    EXPECT_EQ(ch.kind, sim::ChannelSpec::Kind::kSocket);
    EXPECT_EQ(ch.capacity, 1);  // one synchronous operation in flight
  }
  using C = sim::OpCode;
  const sim::Program& client = w->programs[w->tasks[0].program];
  EXPECT_THAT(OpCodes(client),
              ElementsAre(C::kLoop, C::kCompute, C::kSend, C::kRecv, C::kMark,
                          C::kEndLoop, C::kExit));
  EXPECT_EQ(client.ops[1].d1.a, kYcsbClientCycles + kDefaultTcpStackCycles);
  const sim::Program& server = w->programs[w->tasks[3].program];
  EXPECT_THAT(OpCodes(server), ElementsAre(C::kLoop, C::kRecv, C::kCompute,
                                           C::kSend, C::kEndLoop, C::kExit));
  EXPECT_EQ(server.ops[2].d1.a, kYcsbServerCycles + kDefaultTcpStackCycles);
}

TEST(YcsbWorkloadTest, RejectsBadParameters) {
  YcsbParams p;
  p.threads = 0;
  absl::StatusOr<sim::Workload> w = YcsbMongodbWorkload(p);
  ASSERT_FALSE(w.ok());
  EXPECT_THAT(w.status().message(), HasSubstr("ycsb_mongodb: threads"));
  p = YcsbParams();
  p.server_cycles = -1;
  w = YcsbMongodbWorkload(p);
  ASSERT_FALSE(w.ok());
  EXPECT_THAT(w.status().message(), HasSubstr("server_cycles"));
  absl::StatusOr<ModelRun> r =
      RunModel("ycsb_mongodb", {{"threads", int64_t{-4}}}, RunOptions());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("threads"));
}

RunOptions Zen3() {
  RunOptions o;
  o.machine = "zen3-2s-nps1";
  o.freq = "schedutil";
  o.idle = "menu";
  o.warmup_ms = 20;
  o.duration_ms = 100;
  return o;
}

ModelRun Ycsb(const std::map<std::string, platform::ParamValue>& params,
              const RunOptions& o) {
  absl::StatusOr<ModelRun> r = RunModel("ycsb_mongodb", params, o);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : ModelRun();
}

// The calibration of server_cycles (ycsb.h, docs/validation.md): seed 001's
// tip baseline on NPS1, 131,696 ops/s.
TEST(YcsbModelTest, DefaultsNearTheSeedOnZen3) {
  const ModelRun r = Ycsb({}, Zen3());
  EXPECT_GT(r.metrics.at("ops_per_s"), 131696 * 0.9);
  EXPECT_LT(r.metrics.at("ops_per_s"), 131696 * 1.1);
  // YCSB's average latency: threads / throughput.
  EXPECT_DOUBLE_EQ(r.metrics.at("latency_us"),
                   1e6 * kYcsbThreads / r.metrics.at("ops_per_s"));
}

// A closed loop on a mostly idle machine: each connection's operation is a
// round trip whose parts never queue behind another connection's, so the
// throughput follows the thread count, no task ever waits for IO, and the
// user work's spread makes the iterations of a seed differ.
TEST(YcsbModelTest, ThroughputFollowsTheConnectionsOnAnIdleMachine) {
  const ModelRun eight = Ycsb({{"threads", int64_t{8}}}, Zen3());
  const ModelRun thirty_two = Ycsb({{"threads", int64_t{32}}}, Zen3());
  const double ratio =
      thirty_two.metrics.at("ops_per_s") / eight.metrics.at("ops_per_s");
  EXPECT_GT(ratio, 3.6);
  EXPECT_LT(ratio, 4.4);
  for (const sim::TaskStats& t : thirty_two.stats.tasks) {
    EXPECT_EQ(t.iowait_ns, 0) << t.name;
  }
  RunOptions other_seed = Zen3();
  other_seed.seed = 2;
  EXPECT_NE(Ycsb({}, other_seed).metrics.at("ops_per_s"),
            Ycsb({}, Zen3()).metrics.at("ops_per_s"));
}

}  // namespace
}  // namespace schedsim::workloads
