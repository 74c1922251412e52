// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpufreq/ondemand.h"

#include "gtest/gtest.h"
#include "platform/testing/fake_freq.h"

namespace schedsim::governors {
namespace {

using platform::testing::FakeFreqDomain;

constexpr int64_t kMs = 1000000;

// Every CPU of `d` busy for `busy` of the next `ns`, then one update.
void Sample(OndemandGovernor& g, FakeFreqDomain& d, double busy, int64_t ns) {
  for (int cpu = d.cpus().First(); cpu >= 0; cpu = d.cpus().Next(cpu)) {
    d.set_busy_fraction(cpu, busy);
  }
  d.Advance(ns);
  g.UpdateUtil(d, d.first_cpu(), 0);
}

TEST(OndemandGovernorTest, KernelDefaults) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  OndemandGovernor g({});
  g.Start(d);
  EXPECT_EQ(g.sampling_rate_us(d.id()), 10000);  // the transition delay
  EXPECT_TRUE(OndemandGovernor::Validate({}).ok());
}

TEST(OndemandGovernorTest, JumpsToMaxAboveUpThreshold) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  OndemandGovernor g({});
  g.Start(d);
  Sample(g, d, 1.0, 10 * kMs);
  EXPECT_EQ(g.load_pct(d.id()), 100);
  EXPECT_EQ(d.requested_khz(), 3675000);
  // 96 % is still above the default threshold (95).
  Sample(g, d, 0.96, 10 * kMs);
  EXPECT_EQ(d.requested_khz(), 3675000);
}

TEST(OndemandGovernorTest, ScalesWithLoadBelowUpThreshold) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  OndemandGovernor g({});
  g.Start(d);
  Sample(g, d, 0.5, 10 * kMs);
  // min_f + 50 x (max_f - min_f) / 100 over the cpuinfo range.
  EXPECT_EQ(d.requested_khz(), 1500000 + 50 * (3675000 - 1500000) / 100);
  Sample(g, d, 0.0, 10 * kMs);
  EXPECT_EQ(d.requested_khz(), 1500000);
}

TEST(OndemandGovernorTest, SamplesOnlyOncePerSamplingRate) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  OndemandGovernor g({});
  g.Start(d);
  Sample(g, d, 1.0, 9 * kMs);
  EXPECT_TRUE(d.actions().empty());
  Sample(g, d, 1.0, 1 * kMs);
  EXPECT_EQ(d.actions().size(), 1u);
  Sample(g, d, 0.0, 5 * kMs);
  EXPECT_EQ(d.actions().size(), 1u);
}

TEST(OndemandGovernorTest, UpThresholdIsAParameter) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  OndemandGovernor::Options o;
  o.up_threshold_pct = 80;
  OndemandGovernor g(o);
  g.Start(d);
  Sample(g, d, 0.85, 10 * kMs);
  EXPECT_EQ(d.requested_khz(), 3675000);
}

TEST(OndemandGovernorTest, SamplingDownFactorStretchesThePeriodAtMax) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  OndemandGovernor::Options o;
  o.sampling_down_factor = 4;
  OndemandGovernor g(o);
  g.Start(d);
  Sample(g, d, 1.0, 10 * kMs);
  EXPECT_EQ(d.requested_khz(), 3675000);
  EXPECT_EQ(g.sample_delay_ns(d), 40 * kMs);
  // The load drops, but the next sample is 40 ms away.
  Sample(g, d, 0.0, 30 * kMs);
  EXPECT_EQ(d.requested_khz(), 3675000);
  Sample(g, d, 0.0, 10 * kMs);
  EXPECT_EQ(d.requested_khz(), 1500000);
  EXPECT_EQ(g.sample_delay_ns(d), 10 * kMs);
}

TEST(OndemandGovernorTest, PowersaveBiasLowersTheTarget) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  OndemandGovernor::Options o;
  o.powersave_bias_permille = 100;
  OndemandGovernor g(o);
  g.Start(d);
  Sample(g, d, 0.5, 10 * kMs);
  const int64_t unbiased = 1500000 + 50 * (3675000 - 1500000) / 100;
  EXPECT_EQ(d.requested_khz(), unbiased - unbiased / 10);
}

TEST(OndemandGovernorTest, HwpPartsAskForTheClosestRatio) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("skylake-e3-1240v5");
  OndemandGovernor g({});
  g.Start(d);
  EXPECT_EQ(g.sampling_rate_us(d.id()), 8000);  // two ticks
  Sample(g, d, 0.5, 8 * kMs);
  // 800 + 50 % of (3900 - 800) MHz = 2350 MHz: ratio 24 (closest).
  EXPECT_EQ(d.hwp_request(d.first_cpu()).desired_perf, 24);
  EXPECT_EQ(d.hwp_request(d.first_cpu()).min_perf, 24);
}

TEST(OndemandGovernorTest, RejectsOutOfRangeOptions) {
  OndemandGovernor::Options o;
  o.up_threshold_pct = 101;
  EXPECT_FALSE(OndemandGovernor::Validate(o).ok());
  o = {};
  o.sampling_down_factor = 0;
  EXPECT_FALSE(OndemandGovernor::Validate(o).ok());
  o = {};
  o.powersave_bias_permille = 1001;
  EXPECT_FALSE(OndemandGovernor::Validate(o).ok());
  o = {};
  o.sampling_rate_us = 0;
  EXPECT_FALSE(OndemandGovernor::Validate(o).ok());
}

}  // namespace
}  // namespace schedsim::governors
