// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// dbench4, sqlite_insert and fs_mark: program shapes and IO-bound rates.

#include "workloads/storage.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sim/program.h"
#include "workloads/model_test_util.h"
#include "workloads/model_util.h"

namespace schedsim::workloads {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(IoDeviceTest, DefaultIsAnSsdLikeLognormal) {
  const IoDevice d;
  const sim::Dist fsync = d.Fsync();
  EXPECT_EQ(fsync.kind, sim::Dist::Kind::kLogNormal);
  EXPECT_EQ(fsync.a, 90000);  // ns
  EXPECT_EQ(fsync.b, 500);
  EXPECT_NEAR(fsync.Mean(), 101983, 1);
  EXPECT_EQ(d.Fsync(8).a, 98000);
  EXPECT_EQ(IoLatency(50, 0).kind, sim::Dist::Kind::kConstant);
}

TEST(SqliteInsertWorkloadTest, Shape) {
  SqliteInsertParams p;
  absl::StatusOr<sim::Workload> w = SqliteInsertWorkload(p);
  ASSERT_TRUE(w.ok()) << w.status();
  ASSERT_EQ(w->tasks.size(), 1u);
  EXPECT_EQ(w->tasks[0].count, 1);
  using C = sim::OpCode;
  EXPECT_THAT(
      OpCodes(w->programs[0]),
      ElementsAre(C::kLoop, C::kStamp, C::kCompute, C::kIoWait, C::kIoWait,
                  C::kIoWait, C::kMark, C::kEndLoop, C::kExit));
  p.fsyncs_per_insert = 0;
  p.insert_cycles = 0;
  absl::StatusOr<sim::Workload> bad = SqliteInsertWorkload(p);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("sqlite_insert"));
}

TEST(Dbench4WorkloadTest, Shape) {
  Dbench4Params p;
  p.clients = 3;
  absl::StatusOr<sim::Workload> w = Dbench4Workload(p);
  ASSERT_TRUE(w.ok()) << w.status();
  ASSERT_EQ(w->tasks.size(), 1u);
  EXPECT_EQ(w->tasks[0].count, 3);
  using C = sim::OpCode;
  EXPECT_THAT(OpCodes(w->programs[0]),
              ElementsAre(C::kLoop, C::kLoop, C::kStamp, C::kCompute, C::kMark,
                          C::kEndLoop, C::kStamp, C::kCompute, C::kIoWait,
                          C::kMark, C::kEndLoop, C::kExit));
  EXPECT_EQ(w->programs[0].ops[1].arg, 50);
}

TEST(Dbench4JournalWorkloadTest, ShapeClientsJournalThreadAndOneDevice) {
  Dbench4JournalParams p;
  p.clients = 3;
  absl::StatusOr<sim::Workload> w = Dbench4JournalWorkload(p);
  ASSERT_TRUE(w.ok()) << w.status();
  ASSERT_EQ(w->tasks.size(), 2u);
  EXPECT_EQ(w->tasks[0].count, 3);
  EXPECT_EQ(w->tasks[1].name, "jbd2");
  EXPECT_EQ(w->tasks[1].count, 1);
  ASSERT_EQ(w->devices.size(), 1u);
  EXPECT_EQ(w->devices[0].bytes_per_us, 450);
  using C = sim::OpCode;
  EXPECT_THAT(OpCodes(w->programs[0]),
              ElementsAre(C::kLoop, C::kLoop, C::kStamp, C::kCompute, C::kMark,
                          C::kEndLoop, C::kStamp, C::kCompute, C::kIo, C::kSend,
                          C::kRecv, C::kMark, C::kEndLoop, C::kExit));
  EXPECT_EQ(w->programs[0].ops[1].arg, 50);
  // The Flush writes back what 50 ops dirtied, at ext4's fitted cycles per
  // KiB.
  EXPECT_EQ(w->programs[0].ops[8].d1.a, 50 * 65536);
  EXPECT_EQ(w->programs[0].ops[7].d1.a, 50 * 64 * kExt4WritebackCyclesPerKib);
  EXPECT_THAT(OpCodes(w->programs[1]),
              ElementsAre(C::kLoop, C::kRecv, C::kCompute, C::kIo, C::kIo,
                          C::kSend, C::kEndLoop, C::kExit));
  p.dirty_bytes_per_op = -1;
  absl::StatusOr<sim::Workload> bad = Dbench4JournalWorkload(p);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("dirty_bytes_per_op"));
}

TEST(FsMarkWorkloadTest, Shape) {
  FsMarkParams p;
  p.threads = 2;
  p.file_size = 50000;
  absl::StatusOr<sim::Workload> w = FsMarkWorkload(p);
  ASSERT_TRUE(w.ok()) << w.status();
  using C = sim::OpCode;
  const sim::Program& prog = w->programs[0];
  EXPECT_THAT(OpCodes(prog), ElementsAre(C::kLoop, C::kCompute, C::kIoWait,
                                         C::kMark, C::kEndLoop, C::kExit));
  EXPECT_EQ(prog.ops[1].d1.a, 60000 + 50000);
  EXPECT_EQ(prog.ops[2].d1.a, (90 + 100) * 1000);  // + 50000 B at 500 MB/s
  p.sync_method = 2;
  EXPECT_FALSE(FsMarkWorkload(p).ok());
}

ModelRun RunStorage(
    const std::string& model,
    const std::map<std::string, platform::ParamValue>& params,
    const std::string& freq = "performance",
    const std::map<std::string, platform::ParamValue>& freq_params = {}) {
  RunOptions o;
  o.freq = freq;
  o.freq_params = freq_params;
  o.warmup_ms = 20;
  o.duration_ms = 200;
  absl::StatusOr<ModelRun> r = RunModel(model, params, o);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : ModelRun();
}

// An insert waits for three flushes of a constant 90 us: at most
// 1 / 270 us inserts per second; the insert's own cycles and the wake-ups
// keep it within a factor of two of that.
TEST(SqliteInsertModelTest, BoundedByTheFsyncLatency) {
  const ModelRun r = RunStorage("sqlite_insert", {{"fsync_sigma", 0.0}});
  const double bound = 1e6 / (3 * 90.0);
  const double rate = r.metrics.at("inserts_per_s");
  EXPECT_LE(rate, bound);
  EXPECT_GE(rate, bound / 2);
  ASSERT_EQ(r.stats.tasks.size(), 1u);
  EXPECT_GT(r.stats.tasks[0].iowait_ns, 3 * 90000 * rate * 0.2 * 0.99);
  EXPECT_NEAR(r.metrics.at("insert_latency_us"), 1e6 / rate, 0.02e6 / rate);
}

TEST(SqliteInsertModelTest, LognormalDeviceBoundedByItsMean) {
  const ModelRun r = RunStorage("sqlite_insert", {});
  const double mean_us = 90 * 1.1331;  // exp(0.5^2 / 2)
  EXPECT_LE(r.metrics.at("inserts_per_s"), 1.1 * 1e6 / (3 * mean_us));
  EXPECT_GT(r.metrics.at("inserts_per_s"), 1e6 / (3 * mean_us) / 2);
}

// Seed 000's direction: HWP dynamic boost raises the frequency after IO
// wake-ups, so the inserts' CPU part shrinks.
TEST(SqliteInsertModelTest, HwpBoostHelps) {
  const double off = RunStorage("sqlite_insert", {}, "intel_pstate_hwp",
                                {{"hwp_boost", false}})
                         .metrics.at("inserts_per_s");
  const double on =
      RunStorage("sqlite_insert", {}, "intel_pstate_hwp", {{"hwp_boost", true}})
          .metrics.at("inserts_per_s");
  EXPECT_GT(on, off);
}

TEST(Dbench4ModelTest, ThroughputAndLatency) {
  const ModelRun one = RunStorage("dbench4", {});
  const ModelRun four = RunStorage("dbench4", {{"clients", int64_t{4}}});
  EXPECT_GT(one.metrics.at("throughput_mb_s"), 10);
  EXPECT_GT(four.metrics.at("throughput_mb_s"),
            2 * one.metrics.at("throughput_mb_s"));
  // The slowest op is a Flush: at least the lognormal's typical latency.
  EXPECT_GT(one.metrics.at("max_latency_ms"), 0.09);
  EXPECT_LT(one.metrics.at("latency_ms"), one.metrics.at("max_latency_ms"));
  for (const sim::TaskStats& t : four.stats.tasks) EXPECT_GT(t.iowait_ns, 0);
}

TEST(Dbench4JournalModelTest, FlushesQueueAtTheDeviceAndWaitForTheJournal) {
  const ModelRun one = RunStorage("dbench4_journal", {});
  const ModelRun eight =
      RunStorage("dbench4_journal", {{"clients", int64_t{8}}});
  EXPECT_GT(one.metrics.at("throughput_mb_s"), 1);
  // The slowest op is a Flush: at least its writeback (61 M cycles, 16 ms
  // at 3.9 GHz) and its data (50 x 64 KiB at 450 MB/s, 7.3 ms).
  EXPECT_GT(one.metrics.at("max_latency_ms"), 20);
  EXPECT_LT(one.metrics.at("latency_ms"), one.metrics.at("max_latency_ms"));
  // Eight clients share one device queue: their Flushes wait behind each
  // other's writeback, so the slowest is several times one client's.
  EXPECT_GT(eight.metrics.at("max_latency_ms"),
            3 * one.metrics.at("max_latency_ms"));
  // Every client and the journal thread wait for IO.
  for (const sim::TaskStats& t : eight.stats.tasks) EXPECT_GT(t.iowait_ns, 0);
}

// Each filesystem pays its own fitted writeback cost: xfs's Flush is
// shorter than ext4's, and an explicit cost overrides the filesystem's.
TEST(Dbench4JournalModelTest, EachFilesystemPaysItsOwnWritebackCost) {
  const ModelRun ext4 = RunStorage("dbench4_journal", {});
  const ModelRun xfs =
      RunStorage("dbench4_journal", {{"filesystem", std::string("xfs")}});
  const ModelRun xfs_at_ext4 =
      RunStorage("dbench4_journal",
                 {{"filesystem", std::string("xfs")},
                  {"writeback_cycles_per_kib", kExt4WritebackCyclesPerKib}});
  // 3.2 MiB at 19000 against 10500 cycles per KiB: 7 ms less at 3.9 GHz.
  EXPECT_LT(xfs.metrics.at("max_latency_ms") + 4,
            ext4.metrics.at("max_latency_ms"));
  EXPECT_NEAR(xfs_at_ext4.metrics.at("max_latency_ms"),
              ext4.metrics.at("max_latency_ms"),
              0.05 * ext4.metrics.at("max_latency_ms"));
  absl::StatusOr<ModelRun> bad =
      RunModel("dbench4_journal", {{"filesystem", std::string("btrfs")}}, {});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(
      std::string(bad.status().message()),
      ::testing::HasSubstr("filesystem must be ext4 or xfs, got 'btrfs'"));
}

TEST(FsMarkModelTest, SyncingBoundsTheFileRate) {
  const ModelRun sync = RunStorage("fs_mark", {{"fsync_sigma", 0.0}});
  const ModelRun nosync = RunStorage("fs_mark", {{"sync_method", int64_t{0}}});
  // One fsync per file: 90 us + 4096 B at 500 MB/s (8 us).
  const double bound = 1e6 / 98.0;
  EXPECT_LE(sync.metrics.at("files_per_s"), bound);
  EXPECT_GE(sync.metrics.at("files_per_s"), bound / 2);
  EXPECT_GT(nosync.metrics.at("files_per_s"),
            5 * sync.metrics.at("files_per_s"));
  EXPECT_EQ(nosync.stats.tasks[0].iowait_ns, 0);
}

}  // namespace
}  // namespace schedsim::workloads
