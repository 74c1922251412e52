// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/settle.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace schedsim::experiments {
namespace {

// A deterministic noise in [-1, 1) (a 64-bit LCG's top bits).
class Noise {
 public:
  double Next() {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state_ >> 11) / 4503599627370496.0 - 1.0;
  }

 private:
  uint64_t state_ = 42;
};

TEST(SettleTest, Mser5TruncatesAnInitialTransient) {
  // 20 batches climbing from 50 to 100, then 80 around 100.
  std::vector<double> y;
  Noise noise;
  for (int i = 0; i < 20; ++i) y.push_back(50 + 2.5 * i);
  for (int i = 0; i < 80; ++i) y.push_back(100 + noise.Next());
  bool drifting = true;
  const int d = Mser5Truncation(y, &drifting);
  EXPECT_GE(d, 15);
  EXPECT_LE(d, 35);  // MSER may drop a few settled groups too
  EXPECT_EQ(d % 5, 0);
  EXPECT_FALSE(drifting);
}

TEST(SettleTest, Mser5KeepsAStationarySeries) {
  std::vector<double> y;
  Noise noise;
  for (int i = 0; i < 100; ++i) y.push_back(10 + noise.Next());
  EXPECT_LE(Mser5Truncation(y), 20);
}

TEST(SettleTest, Mser5SeesADriftStillGoing) {
  std::vector<double> y;
  for (int i = 0; i < 100; ++i) y.push_back(i);  // a ramp, never settled
  bool drifting = false;
  Mser5Truncation(y, &drifting);
  EXPECT_TRUE(drifting);
}

TEST(SettleTest, BatchMeansIntervalOfConstantAndOfTwoValues) {
  Interval c = BatchMeansInterval(std::vector<double>(40, 3.0));
  EXPECT_EQ(c.batches, 20);
  EXPECT_DOUBLE_EQ(c.mean, 3.0);
  EXPECT_DOUBLE_EQ(c.half_width, 0.0);
  // Two batches 1 and 3: mean 2, s = sqrt(2), t(1) = 12.706.
  Interval two = BatchMeansInterval({1, 3}, 20);
  EXPECT_DOUBLE_EQ(two.mean, 2.0);
  EXPECT_NEAR(two.half_width, 12.706 * std::sqrt(2.0) / std::sqrt(2.0), 1e-9);
  // 45 values into 20 batches of 2: the earliest 5 dropped.
  std::vector<double> y(45, 1.0);
  for (int i = 0; i < 5; ++i) y[i] = 1000;
  EXPECT_DOUBLE_EQ(BatchMeansInterval(y).mean, 1.0);
}

TEST(SettleTest, StudentQuantiles) {
  EXPECT_DOUBLE_EQ(StudentT975(1), 12.706);
  EXPECT_DOUBLE_EQ(StudentT975(19), 2.093);
  EXPECT_NEAR(StudentT975(1000), 1.962, 1e-3);
}

TEST(SettleTest, MonitorSettlesAfterTheTransientAndNotBefore) {
  SettleOptions o;
  o.batch_ms = 10;
  o.min_batches = 20;
  o.precision = 0.01;
  SettleMonitor m(o);
  Noise noise;
  double count = 0;
  int settled_at = -1;
  for (int b = 0; b < 500 && settled_at < 0; ++b) {
    // Rate ramps 500 -> 1000 over 30 batches, then 1000 +- 2%.
    const double rate =
        b < 30 ? 500 + b * 500.0 / 30 : 1000 * (1 + 0.02 * noise.Next());
    count += rate * 0.010;
    if (m.Add(count)) settled_at = b + 1;
  }
  ASSERT_GT(settled_at, 30);
  SettleOutcome out = m.Outcome("settled");
  EXPECT_EQ(out.batches, settled_at);
  EXPECT_GE(out.truncated, 25);
  EXPECT_NEAR(out.rate, 1000, 10);
  EXPECT_LE(out.relative_half_width, 0.01);
  EXPECT_LE(out.ci_low, 1000 + 2);
  EXPECT_GE(out.ci_high, 1000 - 2);
  EXPECT_DOUBLE_EQ(out.measured_s, settled_at * 0.010);
}

TEST(SettleTest, MonitorDoesNotSettleOnANoisySeries) {
  SettleOptions o;
  o.precision = 0.001;
  SettleMonitor m(o);
  Noise noise;
  double count = 0;
  for (int b = 0; b < 100; ++b) {
    count += 100 * (1 + 0.5 * noise.Next()) * 0.010;
    EXPECT_FALSE(m.Add(count)) << b;
  }
}

}  // namespace
}  // namespace schedsim::experiments
