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
using ::testing::HasSubstr;

TEST(PgbenchWorkloadTest, ReadWriteShape) {
  PgbenchParams p;
  p.clients = 2;
  absl::StatusOr<sim::Workload> w = PgbenchWorkload(p);
  ASSERT_TRUE(w.ok()) << w.status();
  // One pgbench thread (-j 1) and a backend per client.
  ASSERT_EQ(w->tasks.size(), 3u);
  EXPECT_EQ(w->tasks[0].name, "pgbench/0");
  EXPECT_EQ(w->tasks[1].name, "postgres/0");
  EXPECT_EQ(w->tasks[2].name, "postgres/1");
  for (const sim::TaskSpec& t : w->tasks) EXPECT_EQ(t.channel_base, 0);
  ASSERT_EQ(w->channels.size(), 2u);  // the thread's queries and results
  EXPECT_EQ(w->channels[0].capacity, 2);
  using C = sim::OpCode;
  const int64_t statement = kPgbenchBackendCycles + kDefaultTcpStackCycles;
  const sim::Program& thread = w->programs[w->tasks[0].program];
  EXPECT_THAT(
      OpCodes(thread),
      ElementsAre(C::kLoop, C::kCompute, C::kSend, C::kEndLoop, C::kLoop,
                  C::kRecv, C::kCompute, C::kSend, C::kEndLoop, C::kExit));
  EXPECT_EQ(thread.ops[0].arg, 2);  // one first statement per client
  EXPECT_EQ(thread.ops[1].d1.a, kPgbenchClientCycles + kDefaultTcpStackCycles);
  const sim::Program& backend = w->programs[w->tasks[1].program];
  EXPECT_THAT(
      OpCodes(backend),
      ElementsAre(C::kLoop, C::kLoop, C::kRecv, C::kCompute, C::kSend,
                  C::kEndLoop, C::kRecv, C::kCompute, C::kIoWait, C::kCompute,
                  C::kSend, C::kMark, C::kEndLoop, C::kExit));
  EXPECT_EQ(backend.ops[1].arg, kPgbenchReadWriteStatements - 1);
  EXPECT_EQ(backend.ops[3].d1.a, statement);
  // END: the commit's work, the flush, then the result's TCP send.
  EXPECT_EQ(backend.ops[7].d1.a, kPgbenchBackendCycles);
  EXPECT_EQ(backend.ops[9].d1.a, kDefaultTcpStackCycles);
}

TEST(PgbenchWorkloadTest, ReadOnlyShape) {
  PgbenchParams p;
  p.mode = PgbenchMode::kReadOnly;
  p.stack_cycles = 0;  // a unix-domain socket
  absl::StatusOr<sim::Workload> w = PgbenchWorkload(p);
  ASSERT_TRUE(w.ok()) << w.status();
  using C = sim::OpCode;
  const sim::Program& backend = w->programs[w->tasks[1].program];
  EXPECT_THAT(OpCodes(backend),
              ElementsAre(C::kLoop, C::kRecv, C::kCompute, C::kSend, C::kMark,
                          C::kEndLoop, C::kExit));
  EXPECT_EQ(backend.ops[2].d1.a, kPgbenchBackendCycles);
}

TEST(PgbenchWorkloadTest, ThreadsShareTheClients) {
  PgbenchParams p;
  p.clients = 5;
  p.threads = 2;
  absl::StatusOr<sim::Workload> w = PgbenchWorkload(p);
  ASSERT_TRUE(w.ok()) << w.status();
  ASSERT_EQ(w->tasks.size(), 7u);
  ASSERT_EQ(w->channels.size(), 4u);
  // Thread 0 drives clients 0, 2, 4; thread 1 clients 1, 3.
  EXPECT_EQ(w->programs[w->tasks[0].program].ops[0].arg, 3);
  EXPECT_EQ(w->programs[w->tasks[1].program].ops[0].arg, 2);
  EXPECT_EQ(w->tasks[1].channel_base, 2);
  EXPECT_EQ(w->channels[0].capacity, 3);
  EXPECT_EQ(w->channels[2].capacity, 2);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(w->tasks[2 + i].name, "postgres/" + std::to_string(i));
    EXPECT_EQ(w->tasks[2 + i].channel_base, 2 * (i % 2));
  }

  // More threads than clients: one thread per client.
  p.clients = 2;
  p.threads = 8;
  w = PgbenchWorkload(p);
  ASSERT_TRUE(w.ok()) << w.status();
  EXPECT_EQ(w->tasks.size(), 4u);
  EXPECT_EQ(w->channels.size(), 4u);
}

TEST(PgbenchWorkloadTest, RejectsBadParameters) {
  PgbenchParams p;
  p.threads = 0;
  absl::StatusOr<sim::Workload> w = PgbenchWorkload(p);
  ASSERT_FALSE(w.ok());
  EXPECT_THAT(w.status().message(), HasSubstr("pgbench: threads"));
  p = PgbenchParams();
  p.stack_cycles = -1;
  w = PgbenchWorkload(p);
  ASSERT_FALSE(w.ok());
  EXPECT_THAT(w.status().message(), HasSubstr("stack_cycles"));
}

ModelRun Pgbench(const std::map<std::string, platform::ParamValue>& params,
                 const RunOptions& o) {
  absl::StatusOr<ModelRun> r = RunModel("pgbench", params, o);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : ModelRun();
}

RunOptions Options() {
  RunOptions o;
  o.idle = "teo";
  o.warmup_ms = 20;
  o.duration_ms = 150;
  return o;
}

TEST(PgbenchModelTest, ReadWriteIsSlowerThanReadOnly) {
  const ModelRun rw = Pgbench({{"mode", std::string("rw")}}, Options());
  const ModelRun ro = Pgbench({{"mode", std::string("ro")}}, Options());
  const double rw_tps = rw.metrics.at("tps");
  const double ro_tps = ro.metrics.at("tps");
  EXPECT_GT(rw_tps, 0);
  EXPECT_LT(rw_tps, ro_tps / 3);
  // A read-write transaction waits for one WAL flush (lognormal, mean
  // ~102 us) and seven round trips: at most ~1 / 102 us.
  EXPECT_LT(rw_tps, 1.1e6 / 102);
  // pgbench's latency average: clients / tps.
  EXPECT_DOUBLE_EQ(rw.metrics.at("latency_ms"), 1e3 / rw_tps);
  // Only read-write backends wait for IO; the pgbench thread never does.
  for (const sim::TaskStats& t : rw.stats.tasks) {
    if (t.name.rfind("postgres", 0) == 0) {
      EXPECT_GT(t.iowait_ns, 0) << t.name;
    } else {
      EXPECT_EQ(t.iowait_ns, 0) << t.name;
    }
  }
  for (const sim::TaskStats& t : ro.stats.tasks) {
    EXPECT_EQ(t.iowait_ns, 0) << t.name;
  }
}

// The calibration of backend_cycles (pgbench.h): with every CPU at full
// speed and no idle-exit cost (POLL only), one client's transaction takes
// about seed 000's 371 us (2692 tps).
TEST(PgbenchModelTest, OneClientAtFullSpeedNearTheSeed) {
  RunOptions o = Options();
  o.config.pm_qos_latency_ns = 0;
  const double tps = Pgbench({}, o).metrics.at("tps");
  EXPECT_GT(tps, 2692 * 0.85);
  EXPECT_LT(tps, 2692 * 1.15);
}

// One pgbench thread drives every connection (mmtests' -j 1 on one node):
// throughput levels off as the thread saturates (the calibration of
// client_cycles: near seed 000's 7333 and 7462 tps at 7 and 8 clients),
// and one thread per client removes the plateau.
TEST(PgbenchModelTest, OnePgbenchThreadSaturates) {
  const RunOptions o = Options();
  const double seven = Pgbench({{"clients", int64_t{7}}}, o).metrics.at("tps");
  const double eight = Pgbench({{"clients", int64_t{8}}}, o).metrics.at("tps");
  EXPECT_GT(seven, 7400 * 0.85);
  EXPECT_LT(seven, 7400 * 1.15);
  EXPECT_LT(eight, seven * 1.05);
  const ModelRun wide =
      Pgbench({{"clients", int64_t{8}}, {"threads", int64_t{8}}}, o);
  EXPECT_GT(wide.metrics.at("tps"), 1.5 * eight);
  EXPECT_EQ(wide.stats.tasks.size(), 16u);
}

}  // namespace
}  // namespace schedsim::workloads
