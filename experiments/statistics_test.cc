// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/statistics.h"

#include <cmath>
#include <limits>
#include <vector>

#include "gtest/gtest.h"

namespace schedsim::experiments {
namespace {

constexpr double kTol = 1e-9;

// The worked example. a = {10, 12, 14}, b = {11, 13, 15, 17}.
//   mean a = 36 / 3 = 12;  mean b = 56 / 4 = 14.
//   var a = ((-2)^2 + 0^2 + 2^2) / 2 = 4       -> stddev 2.
//   var b = ((-3)^2 + (-1)^2 + 1^2 + 3^2) / 3 = 20/3 -> stddev 2.5819888974716.
//   CoeffVar a = 2 / 12 * 100 = 16.666...%; b = 2.58198889747 / 14 * 100 =
//   18.4427778390829%.
//   se^2 = 4/3 + (20/3)/4 = 4/3 + 5/3 = 3 -> se = sqrt(3) = 1.7320508075689.
//   t = (14 - 12) / sqrt(3) = 1.1547005383793.
//   df = se^4 / ((4/3)^2 / 2 + (5/3)^2 / 3) = 9 / (8/9 + 25/27)
//      = 9 * 27 / 49 = 243/49 = 4.9591836734694.
//   p (two-sided) = I_{df/(df+t^2)}(df/2, 1/2) = 0.300802707255176
//   (regularized incomplete beta, evaluated with mpmath at 30 digits).
//   t_{0.975, 243/49} = 2.57695844900906 -> CI half-width = 2.577 * sqrt(3) =
//   4.46342296267758.
//   Hmean a = 3 / (1/10 + 1/12 + 1/14) = 11.7757009345794;
//   Gmean a = (10 * 12 * 14)^(1/3) = 1680^(1/3) = 11.8878439055263.
const std::vector<double> kA = {10, 12, 14};
const std::vector<double> kB = {11, 13, 15, 17};

TEST(StatisticsTest, SummaryOfTheWorkedExample) {
  Summary a = Summarize(kA);
  EXPECT_EQ(a.n, 3);
  EXPECT_NEAR(a.amean, 12.0, kTol);
  EXPECT_NEAR(a.hmean, 11.7757009345794, kTol);
  EXPECT_NEAR(a.gmean, 11.8878439055263, kTol);
  EXPECT_NEAR(a.stddev, 2.0, kTol);
  EXPECT_NEAR(a.coeffvar, 16.6666666666667, kTol);
  EXPECT_EQ(a.min, 10);
  EXPECT_EQ(a.max, 14);

  Summary b = Summarize(kB);
  EXPECT_NEAR(b.amean, 14.0, kTol);
  EXPECT_NEAR(b.stddev, 2.58198889747161, kTol);
  EXPECT_NEAR(b.coeffvar, 18.4427778390829, kTol);
  EXPECT_EQ(b.min, 11);
  EXPECT_EQ(b.max, 17);
}

TEST(StatisticsTest, WelchOfTheWorkedExample) {
  WelchResult w = WelchTTest(kA, kB);
  EXPECT_NEAR(w.diff, 2.0, kTol);
  EXPECT_NEAR(w.t, 1.15470053837925, kTol);
  EXPECT_NEAR(w.df, 243.0 / 49.0, kTol);
  EXPECT_NEAR(w.p_value, 0.300802707255176, 1e-9);
  EXPECT_NEAR(w.ci95_half_width, 4.46342296267758, 1e-8);
  EXPECT_FALSE(Significant(w));
  // Symmetric: swapping the sides negates diff and t only.
  WelchResult r = WelchTTest(kB, kA);
  EXPECT_NEAR(r.t, -w.t, kTol);
  EXPECT_NEAR(r.p_value, w.p_value, kTol);
  EXPECT_NEAR(r.df, w.df, kTol);
}

// One side without variance: a = {5, 5, 5}, b = {6, 7, 8}.
//   diff = 7 - 5 = 2; var b = (1 + 0 + 1) / 2 = 1; se^2 = 0 + 1/3;
//   t = 2 / sqrt(1/3) = 2 sqrt(3) = 3.46410161513775;
//   df = (1/3)^2 / ((1/3)^2 / 2) = 2 (the b side's n - 1).
//   With 2 degrees of freedom the t CDF is 1/2 + t / (2 sqrt(2 + t^2)), so
//   p = 1 - 2 sqrt(3) / sqrt(14) = 1 - sqrt(6/7) = 0.0741799002274485.
//   t_{0.975, 2} = 4.30265272974946 -> CI = 4.30265 * sqrt(1/3) =
//   2.48413771175033.
TEST(StatisticsTest, WelchWithOneConstantSide) {
  WelchResult w = WelchTTest({5, 5, 5}, {6, 7, 8});
  EXPECT_NEAR(w.t, 3.46410161513775, kTol);
  EXPECT_NEAR(w.df, 2.0, kTol);
  EXPECT_NEAR(w.p_value, 0.0741799002274485, 1e-9);
  EXPECT_NEAR(w.ci95_half_width, 2.48413771175033, 1e-8);
}

TEST(StatisticsTest, ClearDifferenceIsSignificant) {
  // Means 100 and 110, variance 2/4 = 0.5 each, n = 5: se^2 = 0.1 + 0.1,
  // t = 10 / sqrt(0.2) = 22.36; df = 0.04 / (0.01/4 + 0.01/4) = 8.
  WelchResult w =
      WelchTTest({99, 100, 101, 100, 100}, {109, 110, 111, 110, 110});
  EXPECT_NEAR(w.t, 10 / std::sqrt(0.2), kTol);
  EXPECT_NEAR(w.df, 8, kTol);
  EXPECT_LT(w.p_value, 1e-5);
  EXPECT_TRUE(Significant(w));
}

TEST(StatisticsTest, DegenerateSamples) {
  // Empty: NaN.
  EXPECT_TRUE(std::isnan(Amean({})));
  EXPECT_TRUE(std::isnan(Stddev({})));
  EXPECT_TRUE(std::isnan(Min({})));
  // One sample: the value, no spread.
  Summary one = Summarize({7});
  EXPECT_EQ(one.amean, 7);
  EXPECT_EQ(one.hmean, 7);
  EXPECT_NEAR(one.gmean, 7, kTol);
  EXPECT_EQ(one.stddev, 0);
  EXPECT_EQ(one.coeffvar, 0);
  // n = 1 on either side: no test.
  WelchResult w = WelchTTest({7}, {8, 9});
  EXPECT_NEAR(w.diff, 1.5, kTol);
  EXPECT_TRUE(std::isnan(w.t));
  EXPECT_TRUE(std::isnan(w.p_value));
  EXPECT_TRUE(std::isnan(w.ci95_half_width));
  EXPECT_FALSE(Significant(w));
  // Zero variance on both sides: no spread, no test, whether the means
  // are equal or not (p = 0 for a difference would claim certainty that
  // identical iterations cannot give).
  WelchResult same = WelchTTest({3, 3, 3}, {3, 3});
  EXPECT_EQ(same.diff, 0);
  EXPECT_TRUE(std::isnan(same.t));
  EXPECT_TRUE(std::isnan(same.df));
  EXPECT_TRUE(std::isnan(same.p_value));
  EXPECT_TRUE(std::isnan(same.ci95_half_width));
  EXPECT_FALSE(Significant(same));
  WelchResult differ = WelchTTest({3, 3, 3}, {2, 2});
  EXPECT_EQ(differ.diff, -1);
  EXPECT_TRUE(std::isnan(differ.t));
  EXPECT_TRUE(std::isnan(differ.p_value));
  EXPECT_TRUE(std::isnan(differ.ci95_half_width));
  EXPECT_FALSE(Significant(differ));
  // Identical samples whose mean does not round-trip (0.1 * 3 / 3 !=
  // 0.1) still have no spread at all.
  EXPECT_EQ(Stddev({0.1, 0.1, 0.1}), 0);
  EXPECT_TRUE(std::isnan(WelchTTest({0.1, 0.1, 0.1}, {0.2, 0.2}).p_value));
  // Zero mean: no coefficient of variation.
  EXPECT_TRUE(std::isnan(CoeffVar({-1, 1})));
  // Zeros and negatives in harmonic and geometric means.
  EXPECT_EQ(Hmean({0, 5}), 0);
  EXPECT_EQ(Gmean({0, 5}), 0);
  EXPECT_TRUE(std::isnan(Hmean({-1, 5})));
  EXPECT_TRUE(std::isnan(Gmean({-1, 5})));
}

TEST(StatisticsTest, IdenticalAndNoSpread) {
  EXPECT_TRUE(Identical({4, 4, 4}));
  EXPECT_TRUE(Identical({4}));
  EXPECT_FALSE(Identical({}));
  EXPECT_FALSE(Identical({4, 4.000001}));
  EXPECT_FALSE(Identical({std::numeric_limits<double>::quiet_NaN()}));
  EXPECT_TRUE(NoSpread({4, 4}));
  EXPECT_FALSE(NoSpread({4}));  // one sample: no spread to speak of
  EXPECT_FALSE(NoSpread({4, 5}));
}

TEST(StatisticsTest, PctDiffIsPositiveWhenBetter) {
  // Throughput 100 -> 104.2: 4.2% better.
  EXPECT_NEAR(PctDiff(100, 104.2, /*higher_is_better=*/true), 4.2, kTol);
  EXPECT_NEAR(PctDiff(100, 95, true), -5, kTol);
  // Latency 100 -> 95: 5% better; 100 -> 110: 10% worse.
  EXPECT_NEAR(PctDiff(100, 95, /*higher_is_better=*/false), 5, kTol);
  EXPECT_NEAR(PctDiff(100, 110, false), -10, kTol);
  // Negative baselines divide by |baseline|: -10 -> -5 is up by 50%.
  EXPECT_NEAR(PctDiff(-10, -5, true), 50, kTol);
  EXPECT_EQ(PctDiff(0, 0, true), 0);
  EXPECT_TRUE(std::isnan(PctDiff(0, 1, true)));
  EXPECT_TRUE(
      std::isnan(PctDiff(std::numeric_limits<double>::quiet_NaN(), 1, true)));
}

}  // namespace
}  // namespace schedsim::experiments
