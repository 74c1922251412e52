// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpufreq/powersave.h"

#include "gtest/gtest.h"
#include "platform/testing/fake_freq.h"

namespace schedsim::governors {
namespace {

using platform::testing::FakeFreqDomain;

TEST(PowersaveFreqGovernorTest, AsksForThePolicyMinimum) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  PowersaveFreqGovernor g;
  g.Start(d);
  EXPECT_EQ(d.requested_khz(), 1500000);
  d.ClearActions();
  d.set_util(d.first_cpu(), 1024);
  d.Advance(4000000);
  g.UpdateUtil(d, d.first_cpu(), 0);
  EXPECT_TRUE(d.actions().empty());
}

TEST(PowersaveFreqGovernorTest, FollowsARaisedMinimum) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  PowersaveFreqGovernor g;
  g.Start(d);
  d.set_policy_limits(2000000, 3675000);
  g.UpdateUtil(d, d.first_cpu(), 0);
  EXPECT_EQ(d.requested_khz(), 2000000);
}

TEST(PowersaveFreqGovernorTest, HwpPartsAskForTheLowestRatio) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("skylake-e3-1240v5");
  PowersaveFreqGovernor g;
  g.Start(d);
  for (int cpu = d.cpus().First(); cpu >= 0; cpu = d.cpus().Next(cpu)) {
    const platform::HwpRequest& r = d.hwp_request(cpu);
    EXPECT_EQ(r.min_perf, 8);
    EXPECT_EQ(r.desired_perf, 8);
    EXPECT_EQ(r.max_perf, 39);
  }
  EXPECT_EQ(d.current_khz(), 800000);
}

}  // namespace
}  // namespace schedsim::governors
