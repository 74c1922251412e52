// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The shared ondemand/conservative sampling: when a sample is taken, the
// load it reports, and the long-idle rules.

#include "governors/cpufreq/dbs_governor.h"

#include "gtest/gtest.h"
#include "platform/testing/fake_freq.h"

namespace schedsim::governors {
namespace {

using platform::testing::FakeFreqDomain;

constexpr int64_t kMs = 1000000;

TEST(DbsSamplerTest, DefaultSamplingRateIsTwoTicksOrTheTransitionDelay) {
  // Zen3 acpi-cpufreq: transition delay 10 ms > 2 ticks (8 ms at HZ=250).
  EXPECT_EQ(DbsDefaultSamplingRateUs(FakeFreqDomain::ForPreset("zen3-2s-nps1")),
            10000);
  // Skylake intel_cpufreq (HWP): 5 ms < 2 ticks.
  EXPECT_EQ(
      DbsDefaultSamplingRateUs(FakeFreqDomain::ForPreset("skylake-e3-1240v5")),
      8000);
}

TEST(DbsSamplerTest, SamplesOncePerDelay) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  DbsSampler s;
  s.Start(d, 10 * kMs);
  d.Advance(9 * kMs);
  EXPECT_FALSE(s.ShouldSample(d));
  d.Advance(1 * kMs);
  EXPECT_TRUE(s.ShouldSample(d));
  EXPECT_FALSE(s.ShouldSample(d));
  d.Advance(10 * kMs);
  EXPECT_TRUE(s.ShouldSample(d));
}

TEST(DbsSamplerTest, LoadIsTheBusiestCpu) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");  // CPUs 0,128
  DbsSampler s;
  s.Start(d, 10 * kMs);
  d.set_busy_fraction(0, 0.3);
  d.set_busy_fraction(128, 0.75);
  d.Advance(10 * kMs);
  DbsLoad l = s.Update(d, 10 * kMs);
  EXPECT_EQ(l.load_pct, 75);
  EXPECT_EQ(l.idle_periods, DbsLoad::kNoIdlePeriods);
}

TEST(DbsSamplerTest, FirstWindowAfterLongIdleReusesThePreviousLoad) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  DbsSampler s;
  s.Start(d, 10 * kMs);
  d.set_busy_fraction(0, 0.9);
  d.set_busy_fraction(128, 0.9);
  d.Advance(10 * kMs);
  EXPECT_EQ(s.Update(d, 10 * kMs).load_pct, 90);
  // 50 ms fully idle: idle time > 2 periods, so the previous load is used
  // once, and the window counts 5 idle periods.
  d.set_busy_fraction(0, 0.0);
  d.set_busy_fraction(128, 0.0);
  d.Advance(50 * kMs);
  DbsLoad l = s.Update(d, 10 * kMs);
  EXPECT_EQ(l.load_pct, 90);
  EXPECT_EQ(l.idle_periods, 5);
  d.Advance(50 * kMs);
  EXPECT_EQ(s.Update(d, 10 * kMs).load_pct, 0);
}

TEST(DbsSamplerTest, NoTimeElapsedReusesThePreviousLoad) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  DbsSampler s;
  s.Start(d, 10 * kMs);
  d.set_busy_fraction(0, 0.5);
  d.Advance(10 * kMs);
  EXPECT_EQ(s.Update(d, 10 * kMs).load_pct, 50);
  EXPECT_EQ(s.Update(d, 10 * kMs).load_pct, 50);
}

}  // namespace
}  // namespace schedsim::governors
