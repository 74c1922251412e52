// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The cpufreq core helpers on the governor side: default transition
// delays, the limits watch. (The driver's handling of a target is tested in
// platform/drivers/drivers_test.cc.)

#include "governors/cpufreq/cpufreq_common.h"

#include "gtest/gtest.h"
#include "platform/testing/fake_freq.h"

namespace schedsim::governors {
namespace {

using platform::testing::FakeFreqDomain;

TEST(TransitionDelayTest, KernelDefaultsPerDriver) {
  // acpi-cpufreq, 20 us latency: min(20 x 1000, 10000) us.
  EXPECT_EQ(TransitionDelayUs(FakeFreqDomain::ForPreset("zen3-2s-nps1").spec()),
            10000);
  // intel_cpufreq with HWP: 5000 us.
  EXPECT_EQ(
      TransitionDelayUs(FakeFreqDomain::ForPreset("skylake-e3-1240v5").spec()),
      5000);
  topology::FrequencySpec spec;
  spec.driver = "intel_cpufreq";
  EXPECT_EQ(TransitionDelayUs(spec), 500);
  spec.driver = "amd-pstate";
  EXPECT_EQ(TransitionDelayUs(spec), 1000);
  spec.driver = "acpi-cpufreq";
  spec.transition_latency_ns = 5000;  // 5 us: 5 ms
  EXPECT_EQ(TransitionDelayUs(spec), 5000);
  spec.transition_latency_ns = 0;  // unknown: 1 ms
  EXPECT_EQ(TransitionDelayUs(spec), 1000);
}

TEST(LimitsWatchTest, ReportsEachChangeOnce) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  LimitsWatch w;
  w.Reset(d);
  EXPECT_FALSE(w.Changed(d));
  d.set_policy_limits(1500000, 2000000);
  EXPECT_TRUE(w.Changed(d));
  EXPECT_FALSE(w.Changed(d));
}

}  // namespace
}  // namespace schedsim::governors
