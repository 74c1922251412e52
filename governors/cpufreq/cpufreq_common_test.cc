// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The cpufreq core helpers: default transition delays, the driver's
// handling of a target (P-state request or intel_cpufreq HWP request).

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

TEST(DriverTargetTest, PstatePartsGetAClampedTarget) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  EXPECT_EQ(DriverTarget(d, 2500000, Relation::kLow), 2500000);
  EXPECT_EQ(DriverTarget(d, 9000000, Relation::kLow), 3675000);
  EXPECT_EQ(DriverTarget(d, 100000, Relation::kLow), 1500000);
  ASSERT_EQ(d.actions().size(), 3u);
  EXPECT_FALSE(d.actions()[0].hwp);
  EXPECT_EQ(d.actions()[2].khz, 1500000);
}

TEST(DriverTargetTest, HwpPartsGetPassiveModeRequestsOnEveryCpu) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("skylake-e3-1240v5");
  // 2.45 GHz: ratio 25 with RELATION_L, 24 with RELATION_H.
  EXPECT_EQ(DriverTarget(d, 2450000, Relation::kLow), 2500000);
  ASSERT_EQ(d.actions().size(), static_cast<size_t>(d.cpus().Count()));
  for (int cpu = d.cpus().First(); cpu >= 0; cpu = d.cpus().Next(cpu)) {
    const platform::HwpRequest& r = d.hwp_request(cpu);
    EXPECT_EQ(r.min_perf, 25);
    EXPECT_EQ(r.desired_perf, 25);
    EXPECT_EQ(r.max_perf, 39);
    EXPECT_EQ(r.epp, 0x80);
  }
  EXPECT_EQ(DriverTarget(d, 2450000, Relation::kHigh), 2400000);
  EXPECT_EQ(DriverTarget(d, 2460000, Relation::kClosest), 2500000);
  // Within the policy limits.
  d.set_policy_limits(1200000, 3000000);
  EXPECT_EQ(DriverTarget(d, 3900000, Relation::kLow), 3000000);
  EXPECT_EQ(d.hwp_request(d.first_cpu()).max_perf, 30);
  EXPECT_EQ(DriverTarget(d, 0, Relation::kLow), 1200000);
}

TEST(PolicyPerfLimitsTest, RoundsInward) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("skylake-e3-1240v5");
  d.set_policy_limits(1250000, 3350000);
  PerfLimits l = PolicyPerfLimits(d);
  EXPECT_EQ(l.min_perf, 13);
  EXPECT_EQ(l.max_perf, 33);
}

TEST(ApplyPolicyLimitsTest, MovesIntoNewLimits) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  d.set_policy_limits(1500000, 2000000);
  EXPECT_EQ(ApplyPolicyLimits(d, 3000000), 2000000);
  d.set_policy_limits(2500000, 3675000);
  EXPECT_EQ(ApplyPolicyLimits(d, 2000000), 2500000);
  d.ClearActions();
  EXPECT_EQ(ApplyPolicyLimits(d, 3000000), 3000000);
  EXPECT_TRUE(d.actions().empty());
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
