// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/proc_stat.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedsim::platform::host {
namespace {

using ::testing::HasSubstr;

// The head of this VM's /proc/stat (Linux 6.x), trimmed.
constexpr char kStat[] =
    "cpu  234146 0 20806 202943 985 0 272 46 0 0\n"
    "cpu0 111602 0 10041 107582 253 0 30 22 0 0\n"
    "cpu1 122543 0 10765 95360 731 0 241 23 0 0\n"
    "intr 1454179 0 0 0\n"
    "ctxt 2262121\n";

TEST(ProcStatTest, ParsesThePerCpuLines) {
  absl::StatusOr<std::vector<CpuTimes>> cpus = ParseProcStat(kStat, "stat");
  ASSERT_TRUE(cpus.ok()) << cpus.status();
  ASSERT_EQ(cpus->size(), 2u);
  const CpuTimes& c1 = (*cpus)[1];
  EXPECT_EQ(c1.cpu, 1);
  EXPECT_EQ(c1.user, 122543u);
  EXPECT_EQ(c1.system, 10765u);
  EXPECT_EQ(c1.idle, 95360u);
  EXPECT_EQ(c1.iowait, 731u);
  EXPECT_EQ(c1.softirq, 241u);
  EXPECT_EQ(c1.steal, 23u);
  EXPECT_EQ(c1.busy(), 122543u + 10765u + 241u);
  EXPECT_EQ(c1.total(), c1.busy() + 95360u + 731u + 23u);
}

TEST(ProcStatTest, OldKernelsWithFewerFieldsAreAccepted) {
  absl::StatusOr<std::vector<CpuTimes>> cpus =
      ParseProcStat("cpu3 1 2 3 4\n", "stat");
  ASSERT_TRUE(cpus.ok()) << cpus.status();
  EXPECT_EQ((*cpus)[0].cpu, 3);
  EXPECT_EQ((*cpus)[0].idle, 4u);
  EXPECT_EQ((*cpus)[0].iowait, 0u);
}

TEST(ProcStatTest, MalformedLinesNameFileAndLine) {
  absl::StatusOr<std::vector<CpuTimes>> bad =
      ParseProcStat("cpu 1 2 3 4\ncpu0 1 x 3 4\n", "/fake/proc/stat");
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), HasSubstr("/fake/proc/stat:2"));
  EXPECT_THAT(bad.status().message(), HasSubstr("'x'"));
  EXPECT_FALSE(ParseProcStat("cpu0 1 2\n", "s").ok());
  EXPECT_FALSE(ParseProcStat("cpuX 1 2 3 4\n", "s").ok());
}

TEST(ProcStatTest, BusyFractionAndIowaitFromDeltas) {
  CpuTimes a;
  a.user = 100;
  a.idle = 100;
  CpuTimes b = a;
  b.user += 30;
  b.system += 10;
  b.idle += 50;
  b.iowait += 10;
  EXPECT_DOUBLE_EQ(BusyFraction(a, b), 40.0 / 100.0);
  EXPECT_TRUE(IowaitGrew(a, b));
  EXPECT_FALSE(IowaitGrew(b, b));
  EXPECT_EQ(BusyFraction(a, a), 0.0);
  EXPECT_EQ(BusyFraction(b, a), 0.0) << "counters going backwards";
}

}  // namespace
}  // namespace schedsim::platform::host
