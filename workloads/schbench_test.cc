// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/schbench.h"

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

TEST(SchbenchWorkloadTest, Shape) {
  SchbenchParams p;
  p.message_threads = 2;
  p.threads = 3;
  absl::StatusOr<sim::Workload> w =
      SchbenchWorkload(p, Machine("skylake-e3-1240v5"));
  ASSERT_TRUE(w.ok()) << w.status();
  EXPECT_THAT(w->metrics, ElementsAre("wakeup", "request"));
  ASSERT_EQ(w->tasks.size(), 4u);
  ASSERT_EQ(w->channels.size(), 4u);
  ASSERT_EQ(w->programs.size(), 2u);
  EXPECT_EQ(w->tasks[2].name, "schbench-msg/1");
  EXPECT_EQ(w->tasks[2].channel_base, 2);
  EXPECT_EQ(w->tasks[3].name, "schbench-worker/1");
  EXPECT_EQ(w->tasks[3].count, 3);
  EXPECT_EQ(w->tasks[3].channel_base, 2);
  using C = sim::OpCode;
  EXPECT_THAT(OpCodes(w->programs[0]),
              ElementsAre(C::kLoop, C::kRecv, C::kSend, C::kEndLoop, C::kExit));
  const sim::Program& worker = w->programs[1];
  EXPECT_THAT(
      OpCodes(worker),
      ElementsAre(C::kLoop, C::kStamp, C::kSend, C::kRecv, C::kMark, C::kStamp,
                  C::kSleep, C::kCompute, C::kMark, C::kEndLoop, C::kExit));
  EXPECT_EQ(worker.ops[6].d1.a, 100000);  // sleep_usec 100
  EXPECT_EQ(worker.ops[7].d1.a, 5 * kSchbenchCyclesPerOperationAt256K);
}

TEST(SchbenchWorkloadTest, DefaultsSizeByTheMachine) {
  absl::StatusOr<sim::Workload> w =
      SchbenchWorkload(SchbenchParams(), Machine("skylake-e3-1240v5"));
  ASSERT_TRUE(w.ok()) << w.status();
  EXPECT_EQ(w->tasks[1].count, 8);  // one worker per CPU
  SchbenchParams big;
  big.cache_footprint_kb = 1024;  // 4x the footprint: 8x the work
  EXPECT_EQ(SchbenchCyclesPerOperation(big),
            8 * kSchbenchCyclesPerOperationAt256K);
  big.cycles_per_operation = 1234;
  EXPECT_EQ(SchbenchCyclesPerOperation(big), 1234);
  big.message_threads = 0;
  EXPECT_FALSE(SchbenchWorkload(big, Machine("skylake-e3-1240v5")).ok());
}

ModelRun Schbench(int64_t threads) {
  RunOptions o;
  o.warmup_ms = 10;
  o.duration_ms = 100;
  // 100 us of matrix math per operation at 3.5 GHz, 5 per request.
  absl::StatusOr<ModelRun> r = RunModel(
      "schbench",
      {{"threads", threads}, {"cycles_per_operation", int64_t{350000}}}, o);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : ModelRun();
}

TEST(SchbenchModelTest, RequestsAndLatencies) {
  const ModelRun r = Schbench(4);
  const std::map<std::string, double>& m = r.metrics;
  // A request is 100 us of sleep and 1.75 M cycles (<= 3.9 GHz): at least
  // 549 us; four workers complete at most 4 / 549 us.
  EXPECT_GE(m.at("request_p99_us"), 549);
  EXPECT_LE(m.at("rps"), 4 / 549e-6);
  EXPECT_GT(m.at("rps"), 4 / 549e-6 / 2);
  EXPECT_LE(m.at("wakeup_p50_us"), m.at("wakeup_p90_us"));
  EXPECT_LE(m.at("wakeup_p90_us"), m.at("wakeup_p99_us"));
  EXPECT_LE(m.at("wakeup_p99_us"), m.at("wakeup_p999_us"));
  EXPECT_GT(m.at("wakeup_p50_us"), 0);
  EXPECT_LT(m.at("wakeup_p50_us"), 100);
  // Each request follows a dispatch; at most one in flight per worker.
  EXPECT_LE(r.stats.metrics[1].count, r.stats.metrics[0].count + 4);
  EXPECT_GE(r.stats.metrics[1].count + 4, r.stats.metrics[0].count);
}

// Twice as many workers as CPUs: woken workers queue behind running
// requests, so the wake-up tail grows and throughput stops scaling.
TEST(SchbenchModelTest, OversubscriptionRaisesTheWakeupTail) {
  const ModelRun fit = Schbench(4);
  const ModelRun over = Schbench(16);
  EXPECT_GT(over.metrics.at("wakeup_p99_us"),
            2 * fit.metrics.at("wakeup_p99_us"));
  EXPECT_LT(over.metrics.at("rps"), 4 * fit.metrics.at("rps"));
}

}  // namespace
}  // namespace schedsim::workloads
