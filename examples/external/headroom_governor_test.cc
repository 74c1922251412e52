// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// HeadroomGovernor unit-tested with the scripted kit (schedsim/testing.h):
// a FakeFreqDomain stands in for the machine; the test scripts utilization
// and time and checks the frequency requests.

#include "headroom_governor.h"

#include "gtest/gtest.h"
#include "schedsim/testing.h"

namespace example {
namespace {

using schedsim::testing::FakeFreqDomain;

constexpr int64_t kMs = 1000000;

// Zen3's core 0: CPUs 0 and 128, 1.5 GHz (lowest P-state) to 3.675 GHz.
FakeFreqDomain Zen3Core() { return FakeFreqDomain::ForPreset("zen3-2s-nps1"); }

TEST(HeadroomGovernorTest, LeavesHeadroomAboveTheUtilization) {
  FakeFreqDomain d = Zen3Core();
  HeadroomGovernor gov;
  gov.Start(d);
  d.set_util(0, 512);  // half busy
  gov.UpdateUtil(d, 0, 0);
  // 3.675 GHz * 512/1024 * 1.25.
  EXPECT_EQ(d.requested_khz(), 2296875);
  ASSERT_EQ(d.actions().size(), 1u);
  EXPECT_FALSE(d.actions()[0].hwp);
}

TEST(HeadroomGovernorTest, TheBusiestCpuOfTheDomainDecides) {
  FakeFreqDomain d = Zen3Core();
  HeadroomGovernor gov;
  gov.Start(d);
  d.set_util(0, 100);
  d.set_util(128, 700);  // the SMT sibling
  gov.UpdateUtil(d, 0, 0);
  EXPECT_EQ(d.requested_khz(), 3675000LL * 700 * 125 / 100 / 1024);
}

TEST(HeadroomGovernorTest, ClampsToThePolicyLimits) {
  FakeFreqDomain d = Zen3Core();
  HeadroomGovernor gov;
  gov.Start(d);
  d.set_util(0, 10);
  gov.UpdateUtil(d, 0, 0);
  EXPECT_EQ(d.requested_khz(), d.policy_min_khz());
  d.Advance(2 * kMs);
  d.set_util(0, 1024);
  gov.UpdateUtil(d, 0, 0);
  EXPECT_EQ(d.requested_khz(), d.policy_max_khz());
}

TEST(HeadroomGovernorTest, AsksAtMostOncePerRateLimit) {
  FakeFreqDomain d = Zen3Core();
  HeadroomGovernor gov(/*rate_limit_ns=*/1 * kMs);
  gov.Start(d);
  d.set_util(0, 400);
  gov.UpdateUtil(d, 0, 0);
  ASSERT_EQ(d.actions().size(), 1u);

  d.set_util(0, 600);
  d.Advance(kMs / 2);
  gov.UpdateUtil(d, 0, 0);  // too soon: ignored
  EXPECT_EQ(d.actions().size(), 1u);

  d.Advance(kMs / 2);
  gov.UpdateUtil(d, 0, 0);
  ASSERT_EQ(d.actions().size(), 2u);
  EXPECT_EQ(d.actions()[1].time_ns, 1 * kMs);
  EXPECT_EQ(d.actions()[1].khz, 3675000LL * 600 * 125 / 100 / 1024);
}

TEST(HeadroomGovernorTest, RunnableRtTaskGoesToTheTop) {
  FakeFreqDomain d = Zen3Core();
  HeadroomGovernor gov;
  gov.Start(d);
  schedsim::CpuUtil u;
  u.util_cfs = 50;
  u.rt_runnable = true;
  d.set_cpu_util(0, u);
  gov.UpdateUtil(d, 0, 0);
  EXPECT_EQ(d.requested_khz(), d.policy_max_khz());
}

}  // namespace
}  // namespace example
