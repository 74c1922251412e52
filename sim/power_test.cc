// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/power.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "topology/presets.h"
#include "topology/topology.h"

namespace schedsim::sim {
namespace {

constexpr int64_t kMs = 1000000;      // ns
constexpr int64_t kSec = 1000000000;  // ns

topology::Topology Skylake() {
  absl::StatusOr<topology::Topology> t =
      topology::MakePreset("skylake-e3-1240v5");
  EXPECT_TRUE(t.ok()) << t.status();
  return *std::move(t);
}

topology::FrequencySpec Curve(std::vector<topology::OperatingPoint> points) {
  topology::FrequencySpec f;
  f.vf_curve = std::move(points);
  return f;
}

TEST(VoltageTest, InterpolatesOnThePresetCurve) {
  const topology::FrequencySpec f = Skylake().frequency();
  // The curve's own points.
  EXPECT_EQ(VoltageMvAt(f, 800000), 700);
  EXPECT_EQ(VoltageMvAt(f, 3500000), 1050);
  EXPECT_EQ(VoltageMvAt(f, 3900000), 1180);
  // Between points: 700 + 60 * 0.4 / 0.8, 950 + 100 * 0.25 / 0.5, ...
  EXPECT_EQ(VoltageMvAt(f, 1200000), 730);
  EXPECT_EQ(VoltageMvAt(f, 3250000), 1000);
  EXPECT_EQ(VoltageMvAt(f, 3700000), 1115);
}

TEST(VoltageTest, ClampsAtTheEnds) {
  const topology::FrequencySpec f = Skylake().frequency();
  EXPECT_EQ(VoltageMvAt(f, 0), 700);
  EXPECT_EQ(VoltageMvAt(f, 400000), 700);
  EXPECT_EQ(VoltageMvAt(f, 5000000), 1180);
}

TEST(VoltageTest, RoundsToNearestTiesAwayFromZero) {
  const topology::FrequencySpec up = Curve({{0, 0}, {3000, 1}});
  EXPECT_EQ(VoltageMvAt(up, 1000), 0);  // 0.333
  EXPECT_EQ(VoltageMvAt(up, 1500), 1);  // 0.5
  EXPECT_EQ(VoltageMvAt(up, 2000), 1);  // 0.667
  const topology::FrequencySpec down = Curve({{0, 10}, {2, 9}});
  EXPECT_EQ(VoltageMvAt(down, 1), 9);  // 9.5
}

TEST(VoltageTest, EmptyAndDegenerateCurves) {
  EXPECT_EQ(VoltageMvAt(Curve({}), 2000000), kDefaultVoltageMv);
  EXPECT_EQ(VoltageMvAt(Curve({{2000000, 900}}), 1000000), 900);
  EXPECT_EQ(VoltageMvAt(Curve({{2000000, 900}}), 3000000), 900);
  // A step: two points at one frequency; the later wins there.
  const topology::FrequencySpec step =
      Curve({{1000, 500}, {2000, 600}, {2000, 900}, {3000, 1000}});
  EXPECT_EQ(VoltageMvAt(step, 1999), 600);
  EXPECT_EQ(VoltageMvAt(step, 2000), 900);
  EXPECT_EQ(VoltageMvAt(step, 2500), 950);
}

TEST(ActivePowerTest, SkylakeIsPlausible) {
  const topology::Topology t = Skylake();
  // 2200 pF * (1.05 V)^2 * 3.5 GHz = 8.489 W.
  const int64_t mw = ActivePowerMw(t.power(), t.frequency(), 3500000);
  EXPECT_EQ(mw, 8489);
  EXPECT_GT(mw, 3000);
  EXPECT_LT(mw, 20000);
  // 2200 pF * (1.18 V)^2 * 3.9 GHz = 11.947 W; 2200 pF * 0.49 * 0.8 GHz.
  EXPECT_EQ(ActivePowerMw(t.power(), t.frequency(), 3900000), 11947);
  EXPECT_EQ(ActivePowerMw(t.power(), t.frequency(), 800000), 862);
}

TEST(ActivePowerTest, GrowsSuperlinearlyWithFrequency) {
  const topology::Topology t = Skylake();
  int64_t prev_khz = 800000;
  int64_t prev_mw = ActivePowerMw(t.power(), t.frequency(), prev_khz);
  for (int64_t khz = 900000; khz <= 3900000; khz += 100000) {
    const int64_t mw = ActivePowerMw(t.power(), t.frequency(), khz);
    // Power per Hz rises: mw / khz > prev_mw / prev_khz.
    EXPECT_GT(mw * prev_khz, prev_mw * khz) << khz;
    prev_khz = khz;
    prev_mw = mw;
  }
  // Four times the frequency costs far more than four times the power.
  EXPECT_GT(ActivePowerMw(t.power(), t.frequency(), 3200000),
            6 * ActivePowerMw(t.power(), t.frequency(), 800000));
}

TEST(ActivePowerTest, ZeroCases) {
  const topology::Topology t = Skylake();
  EXPECT_EQ(ActivePowerMw(t.power(), t.frequency(), 0), 0);
  EXPECT_EQ(ActivePowerMw(topology::PowerSpec{}, t.frequency(), 3500000), 0);
  // Without a curve the default voltage is used: 1000 pF * 1 V^2 * 1 GHz.
  topology::PowerSpec p;
  p.ceff_pf = 1000.0;
  EXPECT_EQ(ActivePowerMw(p, Curve({}), 1000000), 1000);
}

TEST(EnergyCounterTest, OneWattForOneSecondIsOneJoule) {
  EnergyCounter e;
  e.Add(1000, kSec);
  EXPECT_EQ(e.total_uj(), 1000000u);
  EXPECT_EQ(e.remainder_pj(), 0);
  EXPECT_EQ(e.rapl_counter(), 16384u);  // 2^14 units per joule
}

TEST(EnergyCounterTest, ManySmallPiecesEqualOneBigPiece) {
  EnergyCounter one;
  one.Add(777, 1000 * int64_t{1000003});
  EnergyCounter many;
  for (int i = 0; i < 1000; ++i) many.Add(777, 1000003);
  EXPECT_EQ(one.total_uj(), many.total_uj());
  EXPECT_EQ(one.remainder_pj(), many.remainder_pj());
  EXPECT_EQ(one.rapl_counter(), many.rapl_counter());
  // 777 mW * 1.000003 s = 777002.331 uJ.
  EXPECT_EQ(one.total_uj(), 777002u);
  EXPECT_EQ(one.remainder_pj(), 331000);

  // Pieces far below a microjoule are not lost: 1e6 pJ = 1 uJ.
  EnergyCounter tiny;
  for (int i = 0; i < 1000000; ++i) tiny.Add(1, 1);
  EXPECT_EQ(tiny.total_uj(), 1u);
  EXPECT_EQ(tiny.remainder_pj(), 0);
}

TEST(EnergyCounterTest, IgnoresEmptyPieces) {
  EnergyCounter e;
  e.Add(0, kSec);
  e.Add(1000, 0);
  e.Add(-5, kSec);
  EXPECT_EQ(e.total_uj(), 0u);
  EXPECT_EQ(e.rapl_counter(), 0u);
}

TEST(EnergyCounterTest, RaplUnitIsTwoToTheMinusFourteenJoules) {
  EXPECT_DOUBLE_EQ(EnergyCounter::kRaplEnergyUnitUj,
                   1e6 / (1 << EnergyCounter::kRaplEnergyUnitShift));
  // One unit is 61035156.25 pJ; 1 mW for t ns is t pJ.
  EnergyCounter below;
  below.Add(1, 61035156);
  EXPECT_EQ(below.rapl_counter(), 0u);
  EnergyCounter above;
  above.Add(1, 61035157);
  EXPECT_EQ(above.rapl_counter(), 1u);
}

TEST(EnergyCounterTest, RaplCounterWrapsAtTwoToTheThirtyTwoUnits) {
  // 2^32 units = 2^18 J = 262144 J: 1 W for 262144 s.
  EnergyCounter e;
  e.Add(1000, 262143 * kSec);
  EXPECT_EQ(e.rapl_counter(), 0xFFFFFFFFu - 16383u);
  const uint32_t before = e.rapl_counter();
  e.Add(1000, kSec);
  EXPECT_EQ(e.rapl_counter(), 0u);
  EXPECT_EQ(e.total_uj(), uint64_t{262144} * 1000000);
  e.Add(1000, kSec);
  EXPECT_EQ(e.rapl_counter(), 16384u);
  // Software's modular delta still sees the 2 J.
  EXPECT_EQ(static_cast<uint32_t>(e.rapl_counter() - before), 2u * 16384u);
  e.Reset();
  EXPECT_EQ(e.total_uj(), 0u);
  EXPECT_EQ(e.rapl_counter(), 0u);
}

PowerLimiterParams TestLimiter(int64_t limit_mw) {
  PowerLimiterParams p;
  p.limit_mw = limit_mw;
  p.tau_ns = kSec;
  p.min_khz = 800000;
  p.max_khz = 3900000;
  return p;
}

TEST(PowerLimiterTest, DisabledMeansNoCap) {
  PowerLimiter pl(TestLimiter(0));
  EXPECT_FALSE(pl.enabled());
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(pl.Update(500000, 10 * kMs), PowerLimiter::kNoCap);
  }
  EXPECT_EQ(pl.cap_khz(), PowerLimiter::kNoCap);
}

TEST(PowerLimiterTest, FromSpecUsesTdpAndTheFrequencyRange) {
  const topology::Topology t = Skylake();
  const PowerLimiterParams p =
      PowerLimiterParams::FromSpec(t.power(), t.frequency());
  EXPECT_EQ(p.limit_mw, 80000);
  EXPECT_EQ(p.min_khz, 800000);
  EXPECT_EQ(p.max_khz, 3900000);
  EXPECT_EQ(p.tau_ns, kSec);
  EXPECT_EQ(PowerLimiter(p).cap_khz(), 3900000);
}

TEST(PowerLimiterTest, LowersCapUnderSustainedOverLimitAndRecovers) {
  PowerLimiter pl(TestLimiter(50000));
  // 80 W against a 50 W limit: the average (starting at 0) needs about
  // tau * ln(80 / 30) ~ 1 s to reach the limit; until then, a burst.
  int64_t cap = pl.cap_khz();
  for (int ms = 0; ms < 500; ++ms) cap = pl.Update(80000, kMs);
  EXPECT_EQ(cap, 3900000);
  EXPECT_LT(pl.average_mw(), 50000);
  for (int ms = 500; ms < 3000; ++ms) {
    const int64_t next = pl.Update(80000, kMs);
    EXPECT_LE(next, cap);
    EXPECT_GE(next, cap - 100000);  // one step per evaluation at most
    cap = next;
  }
  EXPECT_GT(pl.average_mw(), 50000);
  EXPECT_EQ(cap, 800000);  // not below min_khz

  // 20 W: the average falls below 95% of the limit and the cap climbs back.
  for (int ms = 0; ms < 3000; ++ms) {
    const int64_t next = pl.Update(20000, kMs);
    EXPECT_GE(next, cap);
    EXPECT_LE(next, cap + 100000);
    cap = next;
  }
  EXPECT_EQ(cap, 3900000);  // not above max_khz
  EXPECT_LT(pl.average_mw(), 47500);
}

TEST(PowerLimiterTest, HoldsBetweenLimitAndMargin) {
  PowerLimiter pl(TestLimiter(50000));
  for (int ms = 0; ms < 5000; ++ms) pl.Update(80000, kMs);
  const int64_t cap = pl.cap_khz();
  ASSERT_LT(cap, 3900000);
  // Settle the average at 49 W: below the limit, above 47.5 W.
  for (int ms = 0; ms < 20000; ++ms) pl.Update(49000, kMs);
  const int64_t settled = pl.cap_khz();
  EXPECT_EQ(pl.average_mw(), 49000);
  for (int ms = 0; ms < 100; ++ms) EXPECT_EQ(pl.Update(49000, kMs), settled);
}

TEST(PowerLimiterTest, ClampsToRangesThatAreNotWholeSteps) {
  PowerLimiterParams p = TestLimiter(1000);
  p.min_khz = 1500000;
  p.max_khz = 3675000;
  PowerLimiter pl(p);
  for (int ms = 0; ms < 10000; ++ms) pl.Update(5000, kMs);
  EXPECT_EQ(pl.cap_khz(), 1500000);
  for (int ms = 0; ms < 10000; ++ms) pl.Update(0, kMs);
  EXPECT_EQ(pl.cap_khz(), 3675000);
}

TEST(PowerLimiterTest, KeepsAClosedLoopNearTheLimit) {
  // A package whose power follows the cap: 10 mW per MHz (39 W at 3.9 GHz)
  // against a 30 W limit.
  PowerLimiter pl(TestLimiter(30000));
  int64_t energy_mj = 0;  // over the last 20 s, mW * ms / 1000
  for (int ms = 0; ms < 30000; ++ms) {
    const int64_t power_mw = pl.cap_khz() / 100;
    if (ms >= 10000) energy_mj += power_mw;
    pl.Update(power_mw, kMs);
  }
  const int64_t mean_mw = energy_mj / 20000;
  EXPECT_LE(mean_mw, 30000 * 102 / 100);
  EXPECT_GE(mean_mw, 30000 * 90 / 100);
}

TEST(PowerLimiterTest, IgnoresEmptyIntervalsAndIsDeterministic) {
  PowerLimiter a(TestLimiter(50000));
  PowerLimiter b(TestLimiter(50000));
  for (int ms = 0; ms < 4000; ++ms) {
    const int64_t p = (ms * 7919) % 100000;
    EXPECT_EQ(a.Update(p, kMs), b.Update(p, kMs));
    EXPECT_EQ(b.Update(123456, 0), b.cap_khz());
  }
  EXPECT_EQ(a.average_mw(), b.average_mw());
}

}  // namespace
}  // namespace schedsim::sim
