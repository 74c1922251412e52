// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/histogram.h"

#include "gtest/gtest.h"

namespace schedsim::sim {
namespace {

TEST(LatencyHistogramTest, ExactStatsAndPercentilesWithinBucketError) {
  LatencyHistogram h;
  for (int64_t v = 1; v <= 1000; ++v) h.Record(v * 1000);  // 1 us .. 1 ms
  EXPECT_EQ(h.count(), 1000u);
  EXPECT_EQ(h.min(), 1000);
  EXPECT_EQ(h.max(), 1000000);
  EXPECT_DOUBLE_EQ(h.mean(), 500500.0);
  for (double p : {50.0, 90.0, 99.0, 99.9}) {
    double exact = p * 10000;  // p% of 1..1000 us
    int64_t got = h.Percentile(p);
    EXPECT_GE(got, exact);
    EXPECT_LE(got, exact * 1.0625 + 1) << p;
  }
  EXPECT_EQ(h.Percentile(100), 1000000);
}

TEST(LatencyHistogramTest, SmallValuesAreExactAndMergeAdds) {
  LatencyHistogram a, b;
  for (int v = 0; v < 16; ++v) a.Record(v);
  b.Record(7);
  b.Record(-5);  // clamped to 0
  a.Merge(b);
  EXPECT_EQ(a.count(), 18u);
  EXPECT_EQ(a.min(), 0);
  EXPECT_EQ(a.Percentile(50), 7);
  LatencyHistogram empty;
  EXPECT_EQ(empty.Percentile(99), 0);
  EXPECT_EQ(empty.mean(), 0);
}

TEST(SmallLatencyHistogramTest, ExactSummaryAndCoarsePercentiles) {
  SmallLatencyHistogram h;
  for (int64_t v = 1; v <= 1000; ++v) h.Record(v * 1000);
  EXPECT_EQ(h.count(), 1000u);
  EXPECT_EQ(h.min(), 1000);
  EXPECT_EQ(h.max(), 1000000);
  EXPECT_DOUBLE_EQ(h.mean(), 500500.0);
  for (double p : {50.0, 99.0}) {
    double exact = p * 10000;
    EXPECT_GE(h.Percentile(p), exact);
    EXPECT_LE(h.Percentile(p), exact * 1.5 + 1) << p;
  }
  EXPECT_EQ(h.Percentile(100), 1000000);
  EXPECT_LE(sizeof(SmallLatencyHistogram), 360u);
  SmallLatencyHistogram one;
  one.Record(3);
  EXPECT_EQ(one.Percentile(50), 3);
}

// The compact form gives exactly the small histogram, also past 65535
// records in one bucket (where it keeps the wraps apart).
TEST(CompactLatencyHistogramTest, SameAsSmallHistogram) {
  SmallLatencyHistogram small;
  CompactLatencyHistogram compact;
  auto same = [&]() {
    const SmallLatencyHistogram got = compact.ToSmall();
    EXPECT_EQ(got.count(), small.count());
    EXPECT_EQ(got.sum(), small.sum());
    EXPECT_EQ(got.min(), small.min());
    EXPECT_EQ(got.max(), small.max());
    for (double p : {1.0, 10.0, 50.0, 90.0, 99.0, 99.99, 100.0}) {
      EXPECT_EQ(got.Percentile(p), small.Percentile(p)) << p;
    }
  };
  same();  // empty
  uint64_t x = 12345;
  for (int i = 0; i < 200000; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    // Mostly one bucket (to overflow 16 bits), some spread, a few negative.
    int64_t v = (i % 3 == 0) ? static_cast<int64_t>(x >> 40) - 100
                             : 1000 + static_cast<int64_t>(x >> 62);
    small.Record(v);
    compact.Record(v);
    if (i == 65534 || i == 70000) same();
  }
  same();
  EXPECT_LE(sizeof(CompactLatencyHistogram), 200u);
  CompactLatencyHistogram moved = std::move(compact);
  EXPECT_EQ(moved.ToSmall().count(), small.count());
}

// Several buckets past 65535, one of them past 2 x 65536, recorded in
// interleaved order: every bucket's count is still exact.
TEST(CompactLatencyHistogramTest, ManyBucketsPastSixteenBits) {
  SmallLatencyHistogram small;
  CompactLatencyHistogram compact;
  const int64_t values[] = {5, 900, 70000, 900, 3};
  for (int i = 0; i < 5 * 100000; ++i) {
    const int64_t v = values[i % 5];
    small.Record(v);
    compact.Record(v);
  }
  const SmallLatencyHistogram got = compact.ToSmall();
  EXPECT_EQ(got.count(), small.count());
  EXPECT_EQ(got.sum(), small.sum());
  for (double p :
       {1.0, 20.0, 21.0, 40.0, 41.0, 60.0, 61.0, 80.0, 81.0, 100.0}) {
    EXPECT_EQ(got.Percentile(p), small.Percentile(p)) << p;
  }
}

}  // namespace
}  // namespace schedsim::sim
