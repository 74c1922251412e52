// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/pgbench.h"

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
using ::testing::StartsWith;

std::vector<sim::OpCode> Codes(const sim::Program& p) {
  std::vector<sim::OpCode> codes;
  for (const sim::Op& op : p.ops) codes.push_back(op.code);
  return codes;
}

TEST(PgbenchWorkloadTest, ReadWriteShape) {
  PgbenchParams p;
  p.clients = 2;
  absl::StatusOr<sim::Workload> w = PgbenchWorkload(p);
  ASSERT_TRUE(w.ok()) << w.status();
  ASSERT_EQ(w->tasks.size(), 4u);
  EXPECT_EQ(w->tasks[2].name, "pgbench/1");
  EXPECT_EQ(w->tasks[3].name, "postgres/1");
  EXPECT_EQ(w->tasks[3].channel_base, 2);
  using C = sim::OpCode;
  const sim::Program& client = w->programs[0];
  EXPECT_THAT(
      Codes(client),
      ElementsAre(C::kLoop, C::kStamp, C::kLoop, C::kCompute, C::kSend,
                  C::kRecv, C::kEndLoop, C::kMark, C::kEndLoop, C::kExit));
  EXPECT_EQ(client.ops[2].arg, kPgbenchReadWriteStatements);
  const sim::Program& backend = w->programs[1];
  EXPECT_THAT(Codes(backend),
              ElementsAre(C::kLoop, C::kLoop, C::kRecv, C::kCompute, C::kSend,
                          C::kEndLoop, C::kRecv, C::kCompute, C::kIoWait,
                          C::kSend, C::kEndLoop, C::kExit));
  EXPECT_EQ(backend.ops[1].arg, kPgbenchReadWriteStatements - 1);
}

TEST(PgbenchWorkloadTest, ReadOnlyShape) {
  PgbenchParams p;
  p.mode = PgbenchMode::kReadOnly;
  absl::StatusOr<sim::Workload> w = PgbenchWorkload(p);
  ASSERT_TRUE(w.ok()) << w.status();
  using C = sim::OpCode;
  EXPECT_THAT(Codes(w->programs[1]),
              ElementsAre(C::kLoop, C::kRecv, C::kCompute, C::kSend,
                          C::kEndLoop, C::kExit));
}

ModelRun Pgbench(const std::string& mode, int64_t clients) {
  RunOptions o;
  o.idle = "teo";
  o.warmup_ms = 20;
  o.duration_ms = 200;
  absl::StatusOr<ModelRun> r =
      RunModel("pgbench", {{"mode", mode}, {"clients", clients}}, o);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : ModelRun();
}

TEST(PgbenchModelTest, ReadWriteIsSlowerThanReadOnly) {
  const ModelRun rw = Pgbench("rw", 1);
  const ModelRun ro = Pgbench("ro", 1);
  const double rw_tps = rw.metrics.at("tps");
  const double ro_tps = ro.metrics.at("tps");
  EXPECT_GT(rw_tps, 0);
  EXPECT_LT(rw_tps, ro_tps / 3);
  // A read-write transaction waits for one WAL flush (lognormal, mean
  // ~102 us) and seven round trips: at most ~1 / 102 us.
  EXPECT_LT(rw_tps, 1.1e6 / 102);
  EXPECT_NEAR(rw.metrics.at("latency_ms"), 1e3 / rw_tps, 0.02e3 / rw_tps);
  // Only read-write backends wait for IO.
  for (const sim::TaskStats& t : rw.stats.tasks) {
    if (t.name.rfind("postgres", 0) == 0) {
      EXPECT_GT(t.iowait_ns, 0) << t.name;
    }
  }
  for (const sim::TaskStats& t : ro.stats.tasks) {
    EXPECT_EQ(t.iowait_ns, 0) << t.name;
  }
}

TEST(PgbenchModelTest, ClientsScaleOnAnIdleMachine) {
  const double one = Pgbench("rw", 1).metrics.at("tps");
  const double four = Pgbench("rw", 4).metrics.at("tps");
  EXPECT_GT(four, 2.5 * one);
  const ModelRun r = Pgbench("ro", 2);
  ASSERT_EQ(r.stats.tasks.size(), 4u);
  EXPECT_THAT(r.stats.tasks[0].name, StartsWith("pgbench/"));
}

}  // namespace
}  // namespace schedsim::workloads
