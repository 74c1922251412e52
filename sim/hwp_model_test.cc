// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/hwp_model.h"

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "platform/cpufreq.h"
#include "sim/rng.h"
#include "topology/presets.h"
#include "topology/topology.h"

namespace schedsim::sim {
namespace {

constexpr int64_t kMs = 1000000;  // ns

// Skylake E3-1240 v5: lowest 8, most efficient 10, guaranteed 35,
// highest 39 (100 MHz units).
const topology::HwpCaps kCaps = {8, 10, 35, 39};

platform::HwpRequest Request(int epp, int min_perf = 8, int max_perf = 39,
                             int desired_perf = 0) {
  platform::HwpRequest r;
  r.min_perf = min_perf;
  r.max_perf = max_perf;
  r.desired_perf = desired_perf;
  r.epp = epp;
  return r;
}

// Runs `windows` windows of 1 ms, `busy_ns` busy each, and returns the
// levels after each.
std::vector<int> RunWindows(HwpModel& m, const platform::HwpRequest& req,
                            int64_t busy_ns, int windows, int ceiling = 39) {
  std::vector<int> out;
  for (int i = 0; i < windows; ++i) {
    out.push_back(m.Evaluate(req, kCaps, busy_ns, kMs, ceiling));
  }
  return out;
}

TEST(HwpModelTest, PresetCapsMatch) {
  absl::StatusOr<topology::Topology> t =
      topology::MakePreset("skylake-e3-1240v5");
  ASSERT_TRUE(t.ok()) << t.status();
  const topology::HwpCaps& caps = t->frequency().hwp;
  EXPECT_EQ(caps.lowest, kCaps.lowest);
  EXPECT_EQ(caps.highest, kCaps.highest);
}

TEST(HwpModelTest, FullActivityWithEpp0ReachesHighestInAFewWindows) {
  HwpModel m({}, kCaps.lowest);
  const std::vector<int> levels = RunWindows(m, Request(0), kMs, 8);
  // 1 - exp(-1) of the gap per 1 ms window with tau_up = 1 ms.
  EXPECT_EQ(levels, (std::vector<int>{28, 35, 37, 38, 39, 39, 39, 39}));
  EXPECT_EQ(m.target_q16(), int64_t{39} << HwpModel::kFracBits);
}

TEST(HwpModelTest, IdleDecaysSlowlyTowardsLowest) {
  HwpModel m({}, kCaps.highest);
  const std::vector<int> levels = RunWindows(m, Request(128), 0, 60);
  for (size_t i = 1; i < levels.size(); ++i) {
    EXPECT_LE(levels[i], levels[i - 1]) << i;
  }
  // tau_down = 10 ms: after 5 ms, 8 + 31 * exp(-0.5) = 26.8.
  EXPECT_EQ(levels[4], 27);
  // Within 0.5 of lowest after 10 ms * ln(62) = 41.3 ms.
  EXPECT_GT(levels[39], kCaps.lowest);
  EXPECT_EQ(levels[41], kCaps.lowest);
  EXPECT_EQ(levels.back(), kCaps.lowest);
  EXPECT_EQ(m.activity_q16(), 0);
}

TEST(HwpModelTest, ActivityEstimateIsAMovingAverage) {
  HwpModel m;
  m.Evaluate(Request(128), kCaps, kMs, kMs, 39);
  // 1 - exp(-1) = 0.632 of the way from 0 to 1.
  EXPECT_NEAR(m.activity_q16(), 0.6321 * HwpModel::kOne, 10);
  for (int i = 0; i < 30; ++i) m.Evaluate(Request(128), kCaps, kMs, kMs, 39);
  EXPECT_EQ(m.activity_q16(), HwpModel::kOne);
  for (int i = 0; i < 30; ++i) {
    m.Evaluate(Request(128), kCaps, kMs / 4, kMs, 39);
  }
  EXPECT_EQ(m.activity_q16(), HwpModel::kOne / 4);
  // Busy time beyond the window counts as the whole window.
  for (int i = 0; i < 30; ++i)
    m.Evaluate(Request(128), kCaps, 5 * kMs, kMs, 39);
  EXPECT_EQ(m.activity_q16(), HwpModel::kOne);
}

TEST(HwpModelTest, DesiredIsHonoured) {
  HwpModel busy({}, kCaps.lowest);
  EXPECT_EQ(RunWindows(busy, Request(0, 8, 39, 20), kMs, 30).back(), 20);
  HwpModel idle({}, kCaps.lowest);
  EXPECT_EQ(RunWindows(idle, Request(255, 8, 39, 30), 0, 30).back(), 30);
  // Desired outside [min, max] is clamped.
  HwpModel high({}, kCaps.lowest);
  EXPECT_EQ(RunWindows(high, Request(128, 8, 25, 39), kMs, 30).back(), 25);
  HwpModel low({}, kCaps.lowest);
  EXPECT_EQ(RunWindows(low, Request(128, 12, 39, 9), kMs, 30).back(), 12);
}

TEST(HwpModelTest, MinAndMaxClamp) {
  HwpModel capped({}, kCaps.lowest);
  for (int level : RunWindows(capped, Request(0, 8, 25), kMs, 30)) {
    EXPECT_LE(level, 25);
  }
  EXPECT_EQ(capped.perf(), 25);
  HwpModel floored({}, kCaps.lowest);
  for (int level : RunWindows(floored, Request(255, 30, 39), 0, 30)) {
    EXPECT_GE(level, 30);
  }
  EXPECT_EQ(floored.perf(), 30);
  // Requests outside the capabilities are clipped to them.
  HwpModel wide({}, 0);
  EXPECT_EQ(RunWindows(wide, Request(0, 0, 255), 0, 1).back(), kCaps.lowest);
  EXPECT_EQ(RunWindows(wide, Request(0, 0, 255), kMs, 30).back(),
            kCaps.highest);
  // A min above max resolves to min.
  HwpModel crossed({}, kCaps.lowest);
  EXPECT_EQ(RunWindows(crossed, Request(255, 30, 20), 0, 30).back(), 30);
}

TEST(HwpModelTest, RaisedMinLiftsAtOnce) {
  HwpModel m({}, kCaps.highest);
  RunWindows(m, Request(128), 0, 100);
  ASSERT_EQ(m.perf(), kCaps.lowest);
  // Dynamic boost raises min to guaranteed: no ramp, same evaluation.
  EXPECT_EQ(m.Evaluate(Request(128, 35, 39), kCaps, 0, kMs, 39), 35);
  // Even in an empty window.
  HwpModel n({}, kCaps.lowest);
  EXPECT_EQ(n.Evaluate(Request(128, 35, 39), kCaps, 0, 0, 39), 35);
  EXPECT_EQ(n.activity_q16(), 0);
  // Dropping min again lets it decay with tau_down, not at once.
  EXPECT_GT(m.Evaluate(Request(128), kCaps, 0, kMs, 39), 30);
}

TEST(HwpModelTest, LoweredMaxAppliesAtOnce) {
  HwpModel m({}, kCaps.lowest);
  RunWindows(m, Request(0), kMs, 20);
  ASSERT_EQ(m.perf(), kCaps.highest);
  EXPECT_EQ(m.Evaluate(Request(0, 8, 20), kCaps, kMs, kMs, 39), 20);
}

TEST(HwpModelTest, Epp255RunsLowerThanEpp0AtHalfActivity) {
  int steady[3];
  const int epps[3] = {0, 128, 255};
  for (int i = 0; i < 3; ++i) {
    HwpModel m({}, kCaps.lowest);
    steady[i] = RunWindows(m, Request(epps[i]), kMs / 2, 100).back();
  }
  // 0.5 * 39 * (1 + aggressiveness): 39 (and EPP 0 jumps), 29.2, 19.5.
  EXPECT_EQ(steady[0], 39);
  EXPECT_EQ(steady[1], 29);
  EXPECT_EQ(steady[2], 20);
  EXPECT_LT(steady[2], steady[1]);
  EXPECT_LT(steady[1], steady[0]);
}

TEST(HwpModelTest, Epp0JumpsAboveTheBusyThreshold) {
  HwpModel light({}, kCaps.lowest);
  // 10% busy: above the 5% threshold.
  EXPECT_EQ(RunWindows(light, Request(0), kMs / 10, 50).back(), 39);
  HwpModel idle({}, kCaps.lowest);
  // 2% busy: the formula, 0.02 * 39 * 2 = 1.6, clamped to lowest.
  EXPECT_EQ(RunWindows(idle, Request(0), kMs / 50, 50).back(), kCaps.lowest);
}

TEST(HwpModelTest, CeilingIsRespected) {
  // Turbo ceiling with four active cores: 3.7 GHz.
  HwpModel m({}, kCaps.lowest);
  for (int level : RunWindows(m, Request(0), kMs, 30, /*ceiling=*/37)) {
    EXPECT_LE(level, 37);
  }
  EXPECT_EQ(m.perf(), 37);
  // The physical ceiling wins over a requested min above it.
  EXPECT_EQ(m.Evaluate(Request(0, 39, 39), kCaps, kMs, kMs, 37), 37);
  // The ceiling falls as more cores wake: applied at once.
  EXPECT_EQ(m.Evaluate(Request(0), kCaps, kMs, kMs, 36), 36);
  // But never below lowest.
  EXPECT_EQ(m.Evaluate(Request(0), kCaps, kMs, kMs, 3), kCaps.lowest);
}

TEST(HwpModelTest, WindowLengthDoesNotChangeTheRamp) {
  // With a fixed target (desired), one 4 ms window and four 1 ms windows
  // land on the same level (the ramp is an exact exponential).
  HwpModel one({}, kCaps.lowest);
  HwpModel four({}, kCaps.lowest);
  one.Evaluate(Request(128, 8, 39, 30), kCaps, 0, 4 * kMs, 39);
  for (int i = 0; i < 4; ++i) {
    four.Evaluate(Request(128, 8, 39, 30), kCaps, 0, kMs, 39);
  }
  EXPECT_EQ(one.perf(), four.perf());
  EXPECT_LE(std::abs(one.perf_q16() - four.perf_q16()), 4);
}

TEST(HwpModelTest, IsDeterministic) {
  HwpModel a({}, kCaps.lowest);
  HwpModel b({}, kCaps.lowest);
  Rng rng_a(7);
  Rng rng_b(7);
  uint64_t checksum = 0;  // wraps
  for (int i = 0; i < 5000; ++i) {
    const int64_t window_a = 100000 + rng_a.UniformInt(0, 4 * kMs);
    const int64_t busy_a = rng_a.UniformInt(0, window_a);
    const int epp_a = static_cast<int>(rng_a.UniformInt(0, 255));
    const int64_t window_b = 100000 + rng_b.UniformInt(0, 4 * kMs);
    const int64_t busy_b = rng_b.UniformInt(0, window_b);
    const int epp_b = static_cast<int>(rng_b.UniformInt(0, 255));
    const int pa = a.Evaluate(Request(epp_a), kCaps, busy_a, window_a, 39);
    const int pb = b.Evaluate(Request(epp_b), kCaps, busy_b, window_b, 39);
    ASSERT_EQ(pa, pb) << i;
    ASSERT_EQ(a.perf_q16(), b.perf_q16()) << i;
    ASSERT_EQ(a.activity_q16(), b.activity_q16()) << i;
    ASSERT_GE(pa, kCaps.lowest);
    ASSERT_LE(pa, kCaps.highest);
    checksum = checksum * 31 + static_cast<uint64_t>(a.perf_q16());
  }
  EXPECT_NE(checksum, 0u);
}

TEST(HwpModelTest, PerfKhzConversions) {
  topology::FrequencySpec f;
  f.khz_per_perf_unit = 100000;
  EXPECT_EQ(PerfToKhz(f, 39), 3900000);
  EXPECT_EQ(PerfToKhz(f, 8), 800000);
  EXPECT_EQ(KhzToPerf(f, 3900000), 39);
  EXPECT_EQ(KhzToPerf(f, 3750000), 37);  // rounded down
  EXPECT_EQ(KhzToPerf(f, 0), 0);
  EXPECT_EQ(KhzToPerf(f, std::numeric_limits<int64_t>::max()),
            std::numeric_limits<int>::max());
}

}  // namespace
}  // namespace schedsim::sim
