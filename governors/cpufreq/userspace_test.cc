// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpufreq/userspace.h"

#include "gtest/gtest.h"
#include "platform/testing/fake_freq.h"

namespace schedsim::governors {
namespace {

using platform::testing::FakeFreqDomain;

TEST(UserspaceFreqGovernorTest, AsksForTheSetspeed) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  UserspaceFreqGovernor g(2500000);
  g.Start(d);
  EXPECT_EQ(d.requested_khz(), 2500000);
  d.ClearActions();
  d.set_util(d.first_cpu(), 1024);
  d.Advance(4000000);
  g.UpdateUtil(d, d.first_cpu(), 0);
  EXPECT_TRUE(d.actions().empty());
}

TEST(UserspaceFreqGovernorTest, ClampsTheSetspeedAndKeepsIt) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  UserspaceFreqGovernor g(5000000);
  g.Start(d);
  EXPECT_EQ(d.requested_khz(), 3675000);
  // Limits below the setspeed: the maximum; raised again: the setspeed
  // within them.
  d.set_policy_limits(1500000, 2000000);
  g.UpdateUtil(d, d.first_cpu(), 0);
  EXPECT_EQ(d.requested_khz(), 2000000);
  EXPECT_EQ(g.setspeed_khz(d.id()), 5000000);
  UserspaceFreqGovernor low(1000000);
  low.Start(d);
  EXPECT_EQ(d.requested_khz(), 1500000);
}

TEST(UserspaceFreqGovernorTest, WithoutSetspeedKeepsTheStartingFrequency) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  UserspaceFreqGovernor g(-1);
  g.Start(d);
  EXPECT_EQ(g.setspeed_khz(d.id()), 2000000);  // the base frequency
  EXPECT_EQ(d.requested_khz(), 2000000);
}

TEST(UserspaceFreqGovernorTest, HwpPartsAskForTheSetspeedRatio) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("skylake-e3-1240v5");
  UserspaceFreqGovernor g(2000000);
  g.Start(d);
  EXPECT_EQ(d.hwp_request(d.first_cpu()).desired_perf, 20);
  EXPECT_EQ(d.hwp_request(d.first_cpu()).min_perf, 20);
  EXPECT_EQ(d.current_khz(), 2000000);
}

}  // namespace
}  // namespace schedsim::governors
