// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpufreq/schedutil.h"

#include "gtest/gtest.h"
#include "platform/testing/fake_freq.h"

namespace schedsim::governors {
namespace {

using platform::CpuUtil;
using platform::kUtilIowait;
using platform::testing::FakeFreqDomain;

constexpr int64_t kMs = 1000000;

SchedutilGovernor::Options NoRateLimit() {
  SchedutilGovernor::Options o;
  o.rate_limit_us = 0;
  return o;
}

TEST(SchedutilGovernorTest, HalfUtilizationAsksForFiveEighthsOfMax) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  SchedutilGovernor g({});
  g.Start(d);
  d.set_util(d.first_cpu(), 512);
  g.UpdateUtil(d, d.first_cpu(), 0);
  // 1.25 x 3675 MHz x 512/1024 = 2296.875 MHz, exact in kHz. The governor
  // asks for it; acpi-cpufreq's resolution to a P-state is the domain's.
  ASSERT_EQ(d.actions().size(), 1u);
  EXPECT_EQ(d.actions()[0].khz, 2296875);
  EXPECT_EQ(SugovNextFreqKhz(512, 1024, 3675000), 2296875);
}

TEST(SchedutilGovernorTest, TheBusiestCpuOfTheDomainDecides) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");  // 0, 128
  SchedutilGovernor g({});
  g.Start(d);
  d.set_util(0, 100);
  d.set_util(128, 512);
  g.UpdateUtil(d, 0, 0);
  EXPECT_EQ(d.requested_khz(), 2296875);
}

// Juno r0's LITTLE cluster: one policy over CPUs 0, 3, 4, 5 of capacity
// 446, OPPs 450..850 MHz. get_next_freq maps util onto max_freq with
// max = arch_scale_cpu_capacity (map_util_freq: 1.25 x 850 MHz x util /
// 446), and sugov_next_freq_shared takes the busiest CPU of the policy.
TEST(SchedutilGovernorTest, SharedClusterPolicyScalesByCpuCapacity) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("juno-r0", 3);
  EXPECT_EQ(d.cpus().ToList(), "0,3-5");
  EXPECT_EQ(d.spec().max_turbo_khz, 850000);
  EXPECT_EQ(d.util(4).capacity, 446);
  SchedutilGovernor g(NoRateLimit());
  g.Start(d);
  d.set_util(0, 50);
  d.set_util(4, 200);
  d.set_util(5, 100);
  g.UpdateUtil(d, 0, 0);
  // 850000 x (200 + 50) / 446 = 476457 kHz (integer arithmetic).
  EXPECT_EQ(SugovNextFreqKhz(200, 446, 850000), 476457);
  EXPECT_EQ(d.requested_khz(), 476457);
  // A LITTLE CPU at its full capacity asks for the cluster's top (and
  // beyond, clamped), though its util is well below 1024.
  d.set_util(3, 446);
  g.UpdateUtil(d, 3, 0);
  EXPECT_EQ(d.requested_khz(), 850000);
  // The same util on a big CPU (capacity 1024, 1100 MHz) is a smaller
  // share: 1100000 x (400 + 100) / 1024 for util 400.
  FakeFreqDomain big = FakeFreqDomain::ForPreset("juno-r0", 1);
  EXPECT_EQ(big.cpus().ToList(), "1-2");
  EXPECT_EQ(big.id(), 1);
  g.Start(big);
  big.set_util(2, 400);
  g.UpdateUtil(big, 1, 0);
  EXPECT_EQ(big.requested_khz(), 537109);
  EXPECT_EQ(SugovNextFreqKhz(400, 1024, 1100000), 537109);
}

TEST(SchedutilGovernorTest, RateLimitSuppressesASecondChange) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  SchedutilGovernor g({});
  g.Start(d);
  EXPECT_EQ(g.rate_limit_us(d.id()), 10000);  // acpi-cpufreq, 20 us latency
  d.set_util(d.first_cpu(), 512);
  g.UpdateUtil(d, d.first_cpu(), 0);
  d.set_util(d.first_cpu(), 1024);
  d.Advance(9 * kMs);
  g.UpdateUtil(d, d.first_cpu(), 0);
  EXPECT_EQ(d.actions().size(), 1u);
  d.Advance(1 * kMs);
  g.UpdateUtil(d, d.first_cpu(), 0);
  ASSERT_EQ(d.actions().size(), 2u);
  EXPECT_EQ(d.actions()[1].khz, 3675000);  // 1.25 x max, clamped
}

TEST(SchedutilGovernorTest, LimitsChangeBypassesTheRateLimit) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  SchedutilGovernor g({});
  g.Start(d);
  d.set_util(d.first_cpu(), 1024);
  g.UpdateUtil(d, d.first_cpu(), 0);
  EXPECT_EQ(d.requested_khz(), 3675000);
  d.set_policy_limits(1500000, 2000000);
  d.Advance(1 * kMs);
  g.UpdateUtil(d, d.first_cpu(), 0);
  EXPECT_EQ(d.requested_khz(), 2000000);
}

TEST(SchedutilGovernorTest, IowaitBoostDoublesToMaxThenHalves) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  d.set_policy_limits(100000, 3675000);  // to see every step unclamped
  SchedutilGovernor g(NoRateLimit());
  g.Start(d);
  const int cpu = d.first_cpu();
  const int64_t boosts[] = {128, 256, 512, 1024};
  for (int64_t boost : boosts) {
    d.Advance(1 * kMs);
    g.UpdateUtil(d, cpu, kUtilIowait);
    EXPECT_EQ(g.iowait_boost(cpu), boost);
    EXPECT_EQ(
        d.requested_khz(),
        std::min<int64_t>(SugovNextFreqKhz(boost, 1024, 3675000), 3675000));
  }
  EXPECT_EQ(d.requested_khz(), 3675000);  // four iowait wakeups reach max
  // Updates without iowait halve it, and below 128 it is dropped.
  const int64_t decay[] = {512, 256, 128, 0};
  for (int64_t boost : decay) {
    d.Advance(1 * kMs);
    g.UpdateUtil(d, cpu, 0);
    EXPECT_EQ(g.iowait_boost(cpu), boost);
  }
  EXPECT_EQ(d.requested_khz(), 100000);
}

TEST(SchedutilGovernorTest, IowaitBoostRestartsAfterATickOfInactivity) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  SchedutilGovernor g(NoRateLimit());
  g.Start(d);
  const int cpu = d.first_cpu();
  for (int i = 0; i < 3; ++i) {
    d.Advance(1 * kMs);
    g.UpdateUtil(d, cpu, kUtilIowait);
  }
  EXPECT_EQ(g.iowait_boost(cpu), 512);
  d.Advance(5 * kMs);  // more than a tick (4 ms) since this CPU's update
  g.UpdateUtil(d, cpu, kUtilIowait);
  EXPECT_EQ(g.iowait_boost(cpu), 128);
  d.Advance(5 * kMs);
  g.UpdateUtil(d, cpu, 0);
  EXPECT_EQ(g.iowait_boost(cpu), 0);
}

TEST(SchedutilGovernorTest, IowaitBoostCanBeDisabled) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  SchedutilGovernor::Options o = NoRateLimit();
  o.iowait_boost = false;
  SchedutilGovernor g(o);
  g.Start(d);
  for (int i = 0; i < 4; ++i) {
    d.Advance(1 * kMs);
    g.UpdateUtil(d, d.first_cpu(), kUtilIowait);
  }
  EXPECT_EQ(g.iowait_boost(d.first_cpu()), 0);
  EXPECT_EQ(d.requested_khz(), 1500000);
}

TEST(SchedutilGovernorTest, UclampMinRaisesAndUclampMaxCaps) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  SchedutilGovernor g(NoRateLimit());
  g.Start(d);
  CpuUtil u;
  u.util_cfs = 100;
  u.uclamp_min = 700;
  d.set_cpu_util(d.first_cpu(), u);
  g.UpdateUtil(d, d.first_cpu(), 0);
  EXPECT_EQ(d.requested_khz(), SugovNextFreqKhz(700, 1024, 3675000));
  u = CpuUtil();
  u.util_cfs = 900;
  u.uclamp_max = 512;
  d.set_cpu_util(d.first_cpu(), u);
  d.Advance(1 * kMs);
  g.UpdateUtil(d, d.first_cpu(), 0);
  EXPECT_EQ(d.requested_khz(), 2296875);
}

TEST(SchedutilGovernorTest, RunnableRtTaskGoesToMax) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  SchedutilGovernor g(NoRateLimit());
  g.Start(d);
  CpuUtil u;
  u.util_cfs = 50;
  u.rt_runnable = true;
  d.set_cpu_util(d.first_cpu(), u);
  g.UpdateUtil(d, d.first_cpu(), 0);
  EXPECT_EQ(d.requested_khz(), 3675000);
  // With uclamp in use, a uclamp_max caps RT as well.
  u.util_rt = 1024;
  u.uclamp_max = 512;
  d.set_cpu_util(d.first_cpu(), u);
  d.Advance(1 * kMs);
  g.UpdateUtil(d, d.first_cpu(), 0);
  EXPECT_EQ(d.requested_khz(), 2296875);
}

TEST(SchedutilGovernorTest, NonInvariantFormulaScalesTheCurrentFrequency) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  d.set_frequency_invariant(false);  // the kernel's, not a governor option
  SchedutilGovernor g(NoRateLimit());
  g.Start(d);  // policy->cur = 2000 MHz (base)
  d.set_util(d.first_cpu(), 768);
  g.UpdateUtil(d, d.first_cpu(), 0);
  EXPECT_EQ(d.requested_khz(), 2000000 * 960 / 1024);  // 1.25 x cur x 3/4
  d.Advance(1 * kMs);
  g.UpdateUtil(d, d.first_cpu(), 0);
  // The next evaluation scales the new current frequency.
  EXPECT_EQ(d.requested_khz(), 1875000 * 960 / 1024);
}

TEST(SchedutilGovernorTest, HwpPartsGetADesiredRatio) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("skylake-e3-1240v5");
  SchedutilGovernor g({});
  g.Start(d);
  EXPECT_EQ(g.rate_limit_us(d.id()), 5000);  // intel_cpufreq with HWP
  d.set_util(d.first_cpu(), 512);
  g.UpdateUtil(d, d.first_cpu(), 0);
  // ceil(39 x 1.25 x 512/1024) = ceil(24.375) = 25.
  ASSERT_EQ(d.actions().size(), static_cast<size_t>(d.cpus().Count()));
  for (int cpu = d.cpus().First(); cpu >= 0; cpu = d.cpus().Next(cpu)) {
    const platform::HwpRequest& r = d.hwp_request(cpu);
    EXPECT_EQ(r.desired_perf, 25);
    EXPECT_EQ(r.min_perf, 8);
    EXPECT_EQ(r.max_perf, 39);
  }
  EXPECT_EQ(g.next_khz(d.id()), 2500000);
  EXPECT_EQ(d.current_khz(), 2500000);
}

TEST(SchedutilGovernorTest, SingleCpuDomainHoldsItsFrequencyWhileBusy) {
  FakeFreqDomain base = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  topology::CpuSet one(base.cpus().width());
  one.Set(0);
  FakeFreqDomain d(base.spec(), one, /*id=*/0);
  SchedutilGovernor g(NoRateLimit());
  g.Start(d);
  d.set_busy_fraction(0, 1.0);
  d.set_util(0, 1024);
  d.Advance(1 * kMs);
  g.UpdateUtil(d, 0, 0);
  EXPECT_EQ(d.requested_khz(), 3675000);
  // Lower utilization but no idle since: keep the frequency.
  d.set_util(0, 256);
  d.Advance(1 * kMs);
  g.UpdateUtil(d, 0, 0);
  EXPECT_EQ(d.requested_khz(), 3675000);
  // After some idle the lower frequency is asked for.
  d.set_busy_fraction(0, 0.5);
  d.Advance(1 * kMs);
  g.UpdateUtil(d, 0, 0);
  EXPECT_EQ(d.requested_khz(), 1500000);
}

TEST(SchedutilGovernorTest, UclampCappedCpuMayLowerWhileBusy) {
  FakeFreqDomain base = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  topology::CpuSet one(base.cpus().width());
  one.Set(0);
  FakeFreqDomain d(base.spec(), one, /*id=*/0);
  SchedutilGovernor g(NoRateLimit());
  g.Start(d);
  d.set_busy_fraction(0, 1.0);
  d.set_util(0, 1024);
  d.Advance(1 * kMs);
  g.UpdateUtil(d, 0, 0);
  CpuUtil u;
  u.util_cfs = 900;
  u.uclamp_max = 512;
  d.set_cpu_util(0, u);
  d.Advance(1 * kMs);
  g.UpdateUtil(d, 0, 0);
  EXPECT_EQ(d.requested_khz(), 2296875);
}

TEST(SchedutilGovernorTest, EffectiveUtil) {
  CpuUtil u;
  u.util_cfs = 300;
  u.util_rt = 200;
  EXPECT_EQ(SugovEffectiveUtil(u), 500);
  u.util_cfs = 2000;  // capped at capacity
  EXPECT_EQ(SugovEffectiveUtil(u), 1024);
  u = CpuUtil();
  u.util_cfs = 10;
  u.uclamp_min = 600;
  u.uclamp_max = 400;  // min >= max: the minimum wins
  EXPECT_EQ(SugovEffectiveUtil(u), 600);
  EXPECT_TRUE(SchedutilGovernor::Validate({}).ok());
  SchedutilGovernor::Options o;
  o.rate_limit_us = -2;
  EXPECT_FALSE(SchedutilGovernor::Validate(o).ok());
}

}  // namespace
}  // namespace schedsim::governors
