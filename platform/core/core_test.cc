// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The shared checks on a policy's answer and the POLL time limit.

#include <vector>

#include "gtest/gtest.h"
#include "platform/core/answer_checks.h"
#include "platform/core/poll_limit.h"
#include "platform/testing/fake_idle.h"
#include "topology/cpuset.h"
#include "topology/topology.h"

namespace schedsim::platform::core {
namespace {

constexpr int64_t kTickNs = 4'000'000;  // HZ=250

std::vector<topology::CState> Table() {
  std::vector<topology::CState> t(4);
  t[0].name = "POLL";
  t[0].flags = topology::CState::kPolling;
  t[1].name = "C1";
  t[1].target_residency_ns = 2000;  // below CPUIDLE_POLL_MIN: skipped
  t[2].name = "C1E";
  t[2].target_residency_ns = 20000;
  t[3].name = "C6";
  t[3].target_residency_ns = 600000;
  return t;
}

TEST(PollTimeLimitTest, TheNextEnabledStateOfAtLeastTenMicroseconds) {
  std::vector<topology::CState> t = Table();
  EXPECT_EQ(PollTimeLimitNs(t, kTickNs), 20000);
  t[2].disabled = true;
  // C6's residency, capped at TICK_NSEC / 16.
  EXPECT_EQ(PollTimeLimitNs(t, kTickNs), kTickNs / 16);
  t[3].target_residency_ns = 100000;
  EXPECT_EQ(PollTimeLimitNs(t, kTickNs), 100000);
}

TEST(PollTimeLimitTest, NoNextEnabledStateGivesTickOverSixteen) {
  std::vector<topology::CState> t = Table();
  t[2].disabled = true;
  t[3].disabled = true;
  EXPECT_EQ(PollTimeLimitNs(t, kTickNs), kTickNs / 16);
  EXPECT_EQ(PollTimeLimitNs({t[0]}, kTickNs), kTickNs / 16);
  EXPECT_EQ(PollTimeLimitNs({}, 1'000'000), 62500);
}

TEST(PlacementAnswerTest, InRangeAndAllowed) {
  topology::CpuSet allowed(8);
  allowed.Set(2);
  allowed.Set(5);
  EXPECT_TRUE(ValidPlacementAnswer(2, 8, allowed));
  EXPECT_TRUE(ValidPlacementAnswer(5, 8, allowed));
  EXPECT_FALSE(ValidPlacementAnswer(3, 8, allowed));  // not allowed
  EXPECT_FALSE(ValidPlacementAnswer(-1, 8, allowed));
  EXPECT_FALSE(ValidPlacementAnswer(8, 8, allowed));
  EXPECT_FALSE(ValidPlacementAnswer(5, 4, allowed));  // beyond the machine
}

TEST(IdleAnswerTest, InRangeAndEnabled) {
  platform::testing::FakeIdleDevice dev(0, Table());
  EXPECT_EQ(CheckIdleAnswer(dev, 0), IdleAnswer::kOk);
  EXPECT_EQ(CheckIdleAnswer(dev, 3), IdleAnswer::kOk);
  EXPECT_EQ(CheckIdleAnswer(dev, 4), IdleAnswer::kOutOfRange);
  EXPECT_EQ(CheckIdleAnswer(dev, -1), IdleAnswer::kOutOfRange);
  dev.set_state_disabled(2, true);
  EXPECT_EQ(CheckIdleAnswer(dev, 2), IdleAnswer::kDisabled);
}

TEST(HwpWriteTest, NeedsHwpAndACpuOfTheDomain) {
  topology::FrequencySpec spec;
  topology::CpuSet cpus(8);
  cpus.Set(0);
  cpus.Set(4);
  EXPECT_EQ(CheckHwpWrite(spec, cpus, 0), HwpWrite::kNoHwp);
  spec.has_hwp = true;
  EXPECT_EQ(CheckHwpWrite(spec, cpus, 4), HwpWrite::kOk);
  EXPECT_EQ(CheckHwpWrite(spec, cpus, 1), HwpWrite::kCpuNotInDomain);
  EXPECT_EQ(CheckHwpWrite(spec, cpus, 9), HwpWrite::kCpuNotInDomain);
}

}  // namespace
}  // namespace schedsim::platform::core
