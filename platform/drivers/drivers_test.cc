// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The cpufreq driver seam: acpi-cpufreq's table resolution (RELATION_L/H/C,
// the boost range), intel_cpufreq's targets and adjust_perf requests,
// intel_pstate's HWP limits and EPP presets, the clamp to the policy
// limits, and cpufreq_policy_apply_limits.

#include <cstdint>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "platform/drivers/acpi_cpufreq.h"
#include "platform/drivers/cpufreq_driver.h"
#include "platform/drivers/intel_cpufreq.h"
#include "platform/drivers/intel_pstate.h"
#include "platform/testing/fake_freq.h"

namespace schedsim::platform::drivers {
namespace {

using platform::testing::FakeFreqDomain;

constexpr int64_t kNoMax = std::numeric_limits<int64_t>::max();
const std::vector<int64_t> kTable = {2000000, 1700000, 1500000};

// kTable resolved as scaling_setspeed would (every entry usable).
int64_t Resolve(int64_t khz, Relation relation) {
  return ResolveTableKhz(kTable, khz, relation, kNoMax, AboveTable::kTableOnly);
}

TEST(ResolveTableKhzTest, RelationLowPicksTheLowestEntryAtOrAbove) {
  EXPECT_EQ(Resolve(1600000, Relation::kLow), 1700000);
  EXPECT_EQ(Resolve(1700000, Relation::kLow), 1700000);
  EXPECT_EQ(Resolve(1000000, Relation::kLow), 1500000);
}

TEST(ResolveTableKhzTest, RelationHighPicksTheHighestEntryAtOrBelow) {
  EXPECT_EQ(Resolve(1600000, Relation::kHigh), 1500000);
  EXPECT_EQ(Resolve(1999999, Relation::kHigh), 1700000);
  // Below the lowest entry: the lowest.
  EXPECT_EQ(Resolve(1000000, Relation::kHigh), 1500000);
}

TEST(ResolveTableKhzTest, RelationClosest) {
  EXPECT_EQ(Resolve(1590000, Relation::kClosest), 1500000);
  EXPECT_EQ(Resolve(1610000, Relation::kClosest), 1700000);
}

TEST(ResolveTableKhzTest, AboveTheTable) {
  // The simulator's boost range: kept as asked.
  EXPECT_EQ(ResolveTableKhz(kTable, 3000000, Relation::kLow, kNoMax,
                            AboveTable::kBoostAboveTable),
            3000000);
  // scaling_setspeed: the highest entry within the maximum.
  EXPECT_EQ(Resolve(3000000, Relation::kLow), 2000000);
  EXPECT_EQ(ResolveTableKhz(kTable, 1900000, Relation::kLow, 1800000,
                            AboveTable::kTableOnly),
            1700000);
  // No entry usable: the target.
  EXPECT_EQ(ResolveTableKhz(kTable, 1200000, Relation::kLow, 1400000,
                            AboveTable::kTableOnly),
            1200000);
  EXPECT_EQ(ResolveTableKhz({}, 1234000, Relation::kLow, kNoMax,
                            AboveTable::kTableOnly),
            1234000);
}

// The simulator's resolution before the driver layer (sim/freq.cc,
// SetTargetKhz after the clamp) and the Linux backend's
// (LinuxFreqDomain::ResolveKhz after the clamp), as they were written:
// ResolveTableKhz must answer the same on every target.
int64_t OldSimResolve(const std::vector<int64_t>& table, int64_t khz) {
  int64_t pick = table.front();
  for (int64_t p : table) {
    if (p >= khz) pick = p;
  }
  if (khz > table.front()) pick = khz;
  return pick;
}
int64_t OldLinuxResolve(const std::vector<int64_t>& table, int64_t target,
                        int64_t hi) {
  int64_t best = -1;
  for (int64_t f : table) {
    if (f >= target && f <= hi && (best < 0 || f < best)) best = f;
  }
  if (best < 0) {
    for (int64_t f : table) {
      if (f <= hi && f > best) best = f;
    }
  }
  return best < 0 ? target : best;
}

TEST(ResolveTableKhzTest, MatchesTheBackendsResolutionItReplaced) {
  for (int64_t khz = 1000000; khz <= 4000000; khz += 25000) {
    EXPECT_EQ(ResolveTableKhz(kTable, khz, Relation::kLow, kNoMax,
                              AboveTable::kBoostAboveTable),
              OldSimResolve(kTable, khz))
        << khz;
    for (int64_t hi : {1400000, 1700000, 1800000, 2000000, 3675000}) {
      const int64_t target = std::min(khz, hi);
      EXPECT_EQ(ResolveTableKhz(kTable, target, Relation::kLow, hi,
                                AboveTable::kTableOnly),
                OldLinuxResolve(kTable, target, hi))
          << khz << " " << hi;
    }
  }
}

TEST(DriverForTest, HwpPartsGetIntelCpufreq) {
  EXPECT_EQ(DriverOf(FakeFreqDomain::ForPreset("skylake-e3-1240v5")).name(),
            "intel_cpufreq");
  EXPECT_EQ(DriverOf(FakeFreqDomain::ForPreset("zen3-2s-nps1")).name(),
            "acpi-cpufreq");
}

TEST(AcpiCpufreqTest, FastSwitchIsClampedToThePolicyLimits) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  const CpufreqDriver& driver = DriverOf(d);
  EXPECT_EQ(driver.FastSwitch(d, 2500000), 2500000);
  EXPECT_EQ(driver.FastSwitch(d, 9000000), 3675000);
  EXPECT_EQ(driver.Target(d, 100000, Relation::kLow), 1500000);
  ASSERT_EQ(d.actions().size(), 3u);
  EXPECT_FALSE(d.actions()[0].hwp);
  EXPECT_EQ(d.actions()[2].khz, 1500000);
  d.set_policy_limits(1700000, 2000000);
  EXPECT_EQ(driver.FastSwitch(d, 3000000), 2000000);
  EXPECT_EQ(driver.FastSwitch(d, 1000000), 1700000);
  EXPECT_FALSE(driver.has_adjust_perf());
}

TEST(IntelCpufreqTest, TargetWritesPassiveModeRequestsOnEveryCpu) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("skylake-e3-1240v5");
  const CpufreqDriver& driver = DriverOf(d);
  // 2.45 GHz: ratio 25 with RELATION_L, 24 with RELATION_H.
  EXPECT_EQ(driver.Target(d, 2450000, Relation::kLow), 2500000);
  ASSERT_EQ(d.actions().size(), static_cast<size_t>(d.cpus().Count()));
  for (int cpu = d.cpus().First(); cpu >= 0; cpu = d.cpus().Next(cpu)) {
    const HwpRequest& r = d.hwp_request(cpu);
    EXPECT_EQ(r.min_perf, 25);
    EXPECT_EQ(r.desired_perf, 25);
    EXPECT_EQ(r.max_perf, 39);
    EXPECT_EQ(r.epp, kEppBalancePerformance);
  }
  EXPECT_EQ(driver.Target(d, 2450000, Relation::kHigh), 2400000);
  EXPECT_EQ(driver.Target(d, 2460000, Relation::kClosest), 2500000);
  // Within the policy limits.
  d.set_policy_limits(1200000, 3000000);
  EXPECT_EQ(driver.FastSwitch(d, 3900000), 3000000);
  EXPECT_EQ(d.hwp_request(d.first_cpu()).max_perf, 30);
  EXPECT_EQ(driver.FastSwitch(d, 0), 1200000);
}

TEST(IntelCpufreqTest, AdjustPerfSetsDesiredWithinThePolicyRatios) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("skylake-e3-1240v5");
  const CpufreqDriver& driver = DriverOf(d);
  ASSERT_TRUE(driver.has_adjust_perf());
  d.set_policy_limits(1250000, 3350000);
  // Rounded up to a ratio, within 13..33.
  EXPECT_EQ(driver.ResolveKhz(d, 2410000), 2500000);
  EXPECT_EQ(driver.ResolveKhz(d, 9000000), 3300000);
  EXPECT_EQ(driver.ResolveKhz(d, 0), 1300000);
  driver.AdjustPerf(d, 2500000);
  const HwpRequest& r = d.hwp_request(d.first_cpu());
  EXPECT_EQ(r.min_perf, 13);
  EXPECT_EQ(r.desired_perf, 25);
  EXPECT_EQ(r.max_perf, 33);
  EXPECT_EQ(r.epp, kEppBalancePerformance);
}

TEST(HwpLimitsTest, OneClampingRuleTheMinimumYieldsToTheMaximum) {
  topology::FrequencySpec spec;
  spec.khz_per_perf_unit = 100000;
  spec.hwp.lowest = 8;
  spec.hwp.highest = 39;
  // The minimum rounded up, the maximum down.
  HwpLimits l = HwpLimitsOf(spec, 1250000, 3350000);
  EXPECT_EQ(l.min_perf, 13);
  EXPECT_EQ(l.max_perf, 33);
  // scaling_min = scaling_max = 2.05 GHz: MIN rounds up to 21, MAX down to
  // 20; MIN is lowered to MAX (not MAX raised to MIN).
  l = HwpLimitsOf(spec, 2050000, 2050000);
  EXPECT_EQ(l.min_perf, 20);
  EXPECT_EQ(l.max_perf, 20);
  // Limits beyond the capabilities: within [lowest, highest].
  l = HwpLimitsOf(spec, 100000, 9000000);
  EXPECT_EQ(l.min_perf, 8);
  EXPECT_EQ(l.max_perf, 39);
  // A maximum below the lowest level: both at the lowest.
  l = HwpLimitsOf(spec, 100000, 500000);
  EXPECT_EQ(l.min_perf, 8);
  EXPECT_EQ(l.max_perf, 8);
}

TEST(HwpSetRequestTest, PowersaveAndPerformancePolicies) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("skylake-e3-1240v5");
  d.set_policy_limits(1250000, 3350000);
  HwpRequest r = HwpSetRequest(d, kEppBalancePower, false);
  EXPECT_EQ(r.min_perf, 13);
  EXPECT_EQ(r.max_perf, 33);
  EXPECT_EQ(r.desired_perf, 0);
  EXPECT_EQ(r.epp, 0xC0);
  r = HwpSetRequest(d, kEppBalancePower, true);
  EXPECT_EQ(r.min_perf, 33);
  EXPECT_EQ(r.max_perf, 33);
  EXPECT_EQ(r.epp, kEppPerformance);
}

TEST(ParseEppTest, PresetsAndNumbers) {
  EXPECT_EQ(*ParseEpp("performance"), 0);
  EXPECT_EQ(*ParseEpp("balance_performance"), 128);
  EXPECT_EQ(*ParseEpp("balance_power"), 192);
  EXPECT_EQ(*ParseEpp("power"), 255);
  EXPECT_EQ(*ParseEpp("77"), 77);
  EXPECT_FALSE(ParseEpp("256").ok());
  EXPECT_FALSE(ParseEpp("fast").ok());
}

TEST(PstateRangeTest, RatiosOfThePartAndThePolicy) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  d.set_policy_limits(1550000, 3000000);
  const PstateRange r = PstateRangeOf(d);
  EXPECT_EQ(r.khz_per_pstate, 100000);
  EXPECT_EQ(r.min_pstate, 15);
  EXPECT_EQ(r.max_pstate, 20);
  EXPECT_EQ(r.turbo_pstate, 36);
  EXPECT_EQ(r.min_perf_ratio, 16);  // rounded up
  EXPECT_EQ(r.max_perf_ratio, 30);
  SetPstate(d, r, 25);
  ASSERT_EQ(d.actions().size(), 1u);
  EXPECT_EQ(d.actions()[0].khz, 2500000);
}

TEST(ApplyPolicyLimitsTest, MovesIntoNewLimits) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  const CpufreqDriver& driver = DriverOf(d);
  d.set_policy_limits(1500000, 2000000);
  EXPECT_EQ(ApplyPolicyLimits(driver, d, 3000000), 2000000);
  d.set_policy_limits(2500000, 3675000);
  EXPECT_EQ(ApplyPolicyLimits(driver, d, 2000000), 2500000);
  d.ClearActions();
  EXPECT_EQ(ApplyPolicyLimits(driver, d, 3000000), 3000000);
  EXPECT_TRUE(d.actions().empty());
}

}  // namespace
}  // namespace schedsim::platform::drivers
