// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpufreq/performance.h"

#include "gtest/gtest.h"
#include "platform/testing/fake_freq.h"

namespace schedsim::governors {
namespace {

using platform::testing::FakeFreqDomain;

TEST(PerformanceFreqGovernorTest, AsksForThePolicyMaximum) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  PerformanceFreqGovernor g;
  g.Start(d);
  EXPECT_EQ(d.requested_khz(), 3675000);
  // Utilization does not matter.
  d.ClearActions();
  d.set_util(d.first_cpu(), 10);
  d.Advance(4000000);
  g.UpdateUtil(d, d.first_cpu(), 0);
  EXPECT_TRUE(d.actions().empty());
}

TEST(PerformanceFreqGovernorTest, FollowsALoweredMaximum) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  PerformanceFreqGovernor g;
  g.Start(d);
  d.set_policy_limits(1500000, 2000000);
  g.UpdateUtil(d, d.first_cpu(), 0);
  EXPECT_EQ(d.requested_khz(), 2000000);
}

TEST(PerformanceFreqGovernorTest, HwpPartsPinMinAndMaxToHighestWithEpp0) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("skylake-e3-1240v5");
  PerformanceFreqGovernor g;
  g.Start(d);
  ASSERT_EQ(d.actions().size(), static_cast<size_t>(d.cpus().Count()));
  for (int cpu = d.cpus().First(); cpu >= 0; cpu = d.cpus().Next(cpu)) {
    const platform::HwpRequest& r = d.hwp_request(cpu);
    EXPECT_EQ(r.min_perf, 39);
    EXPECT_EQ(r.max_perf, 39);
    EXPECT_EQ(r.desired_perf, 0);
    EXPECT_EQ(r.epp, 0);
  }
  EXPECT_EQ(d.current_khz(), 3900000);
}

}  // namespace
}  // namespace schedsim::governors
