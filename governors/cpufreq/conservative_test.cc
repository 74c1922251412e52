// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpufreq/conservative.h"

#include "gtest/gtest.h"
#include "platform/testing/fake_freq.h"

namespace schedsim::governors {
namespace {

using platform::testing::FakeFreqDomain;

constexpr int64_t kMs = 1000000;
// 5 % of the Zen3 policy maximum (3675 MHz).
constexpr int64_t kStepKhz = 3675000 * 5 / 100;

void Sample(ConservativeGovernor& g, FakeFreqDomain& d, double busy,
            int64_t ns) {
  for (int cpu = d.cpus().First(); cpu >= 0; cpu = d.cpus().Next(cpu)) {
    d.set_busy_fraction(cpu, busy);
  }
  d.Advance(ns);
  g.UpdateUtil(d, d.first_cpu(), 0);
}

TEST(ConservativeGovernorTest, StepsUpByFreqStepAboveUpThreshold) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  ConservativeGovernor g({});
  g.Start(d);  // from the base frequency, 2000 MHz
  Sample(g, d, 0.9, 10 * kMs);
  EXPECT_EQ(d.requested_khz(), 2000000 + kStepKhz);
  Sample(g, d, 0.9, 10 * kMs);
  EXPECT_EQ(d.requested_khz(), 2000000 + 2 * kStepKhz);
  // Never above the maximum.
  for (int i = 0; i < 20; ++i) Sample(g, d, 1.0, 10 * kMs);
  EXPECT_EQ(d.requested_khz(), 3675000);
  EXPECT_EQ(g.requested_khz(d.id()), 3675000);
}

TEST(ConservativeGovernorTest, StepsDownBelowDownThresholdAndHoldsBetween) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  ConservativeGovernor g({});
  g.Start(d);
  Sample(g, d, 0.1, 10 * kMs);
  EXPECT_EQ(d.requested_khz(), 2000000 - kStepKhz);
  d.ClearActions();
  Sample(g, d, 0.5, 10 * kMs);  // between the thresholds: no change
  EXPECT_TRUE(d.actions().empty());
  Sample(g, d, 0.1, 10 * kMs);
  EXPECT_EQ(d.requested_khz(), 2000000 - 2 * kStepKhz);
  // Not below the minimum.
  for (int i = 0; i < 20; ++i) Sample(g, d, 0.0, 10 * kMs);
  EXPECT_EQ(d.requested_khz(), 1500000);
}

TEST(ConservativeGovernorTest, SamplingDownFactorDelaysStepsDown) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  ConservativeGovernor::Options o;
  o.sampling_down_factor = 3;
  ConservativeGovernor g(o);
  g.Start(d);
  Sample(g, d, 0.1, 10 * kMs);
  Sample(g, d, 0.1, 10 * kMs);
  EXPECT_TRUE(d.actions().empty());
  Sample(g, d, 0.1, 10 * kMs);
  EXPECT_EQ(d.requested_khz(), 2000000 - kStepKhz);
}

TEST(ConservativeGovernorTest, SleptPeriodsTakeOneStepEach) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  d.SetTargetKhz(3000000);
  ConservativeGovernor g({});
  g.Start(d);
  Sample(g, d, 0.9, 10 * kMs);
  EXPECT_EQ(d.requested_khz(), 3000000 + kStepKhz);
  // 50 ms asleep without a sample: the window reuses the previous load
  // (90 %, a step up) from five steps lower.
  Sample(g, d, 0.0, 50 * kMs);
  EXPECT_EQ(d.requested_khz(), 3000000 + kStepKhz - 5 * kStepKhz + kStepKhz);
}

TEST(ConservativeGovernorTest, FreqStepIsAParameter) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  ConservativeGovernor::Options o;
  o.freq_step_pct = 20;
  ConservativeGovernor g(o);
  g.Start(d);
  Sample(g, d, 1.0, 10 * kMs);
  EXPECT_EQ(d.requested_khz(), 2000000 + 3675000 / 5);
  ConservativeGovernor::Options zero;
  zero.freq_step_pct = 0;
  ConservativeGovernor frozen(zero);
  frozen.Start(d);
  d.ClearActions();
  Sample(frozen, d, 1.0, 10 * kMs);
  EXPECT_TRUE(d.actions().empty());
}

TEST(ConservativeGovernorTest, RejectsInconsistentThresholds) {
  ConservativeGovernor::Options o;
  o.down_threshold_pct = 80;  // not below up_threshold (80)
  EXPECT_FALSE(ConservativeGovernor::Validate(o).ok());
  o = {};
  o.down_threshold_pct = 0;
  EXPECT_FALSE(ConservativeGovernor::Validate(o).ok());
  o = {};
  o.sampling_down_factor = 11;
  EXPECT_FALSE(ConservativeGovernor::Validate(o).ok());
  o = {};
  o.freq_step_pct = 101;
  EXPECT_FALSE(ConservativeGovernor::Validate(o).ok());
  EXPECT_TRUE(ConservativeGovernor::Validate({}).ok());
}

}  // namespace
}  // namespace schedsim::governors
