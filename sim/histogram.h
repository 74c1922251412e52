// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// LatencyHistogram: a log-linear histogram of non-negative int64 values
// (nanoseconds), like HdrHistogram with 16 sub-buckets per power of two:
// relative error under 6.25%, fixed size (~8 KiB), no allocation when
// recording. Percentiles are read back as the upper bound of the bucket
// holding the requested rank.
//
// LatencySummary: what a histogram says, as numbers (count, mean, min,
// percentiles, max); SummarizeLatency() reads it from any of the histograms.
// Public: include/schedsim/metrics.h re-exports it.

#ifndef SCHEDSIM_SIM_HISTOGRAM_H_
#define SCHEDSIM_SIM_HISTOGRAM_H_

#include <array>
#include <cstdint>
#include <memory>

namespace schedsim::sim {

class LatencyHistogram {
 public:
  void Record(int64_t value) {
    if (value < 0) value = 0;
    ++counts_[Bucket(static_cast<uint64_t>(value))];
    ++count_;
    sum_ += value;
    if (value > max_) max_ = value;
    if (count_ == 1 || value < min_) min_ = value;
  }
  void Merge(const LatencyHistogram& other);

  uint64_t count() const { return count_; }
  int64_t sum() const { return sum_; }
  int64_t max() const { return max_; }
  int64_t min() const { return count_ ? min_ : 0; }
  double mean() const {
    return count_ ? static_cast<double>(sum_) / static_cast<double>(count_)
                  : 0.0;
  }
  // The value at percentile `p` (0..100]; 0 when empty. Exact for values
  // below 16; otherwise the bucket's upper bound, capped at max().
  int64_t Percentile(double p) const;

 private:
  static constexpr int kSubBits = 4;
  static constexpr int kSub = 1 << kSubBits;
  static constexpr int kBuckets = 64 * kSub;
  static int Bucket(uint64_t v) {
    if (v < kSub) return static_cast<int>(v);
    int msb = 63 - __builtin_clzll(v);
    int shift = msb - kSubBits;
    return (shift + 1) * kSub + static_cast<int>((v >> shift) & (kSub - 1));
  }
  static int64_t BucketUpper(int b);

  std::array<uint64_t, kBuckets> counts_{};
  uint64_t count_ = 0;
  int64_t sum_ = 0;
  int64_t max_ = 0;
  int64_t min_ = 0;
};

// SmallLatencyHistogram: the same interface in 352 bytes, for per-task
// statistics (a simulation may hold 100,000 tasks): two sub-buckets per
// power of two (relative error under 50%), values up to 2^40 ns (~18 min;
// larger values land in the last bucket). Count, sum, min and max are exact.
class SmallLatencyHistogram {
 public:
  void Record(int64_t value) {
    if (value < 0) value = 0;
    ++counts_[Bucket(static_cast<uint64_t>(value))];
    ++count_;
    sum_ += value;
    if (value > max_) max_ = value;
    if (count_ == 1 || value < min_) min_ = value;
  }
  uint64_t count() const { return count_; }
  int64_t sum() const { return sum_; }
  int64_t max() const { return max_; }
  int64_t min() const { return count_ ? min_ : 0; }
  double mean() const {
    return count_ ? static_cast<double>(sum_) / static_cast<double>(count_)
                  : 0.0;
  }
  // The bucket's upper bound holding the rank, capped at max().
  int64_t Percentile(double p) const;

 private:
  friend class CompactLatencyHistogram;
  static constexpr int kBuckets = 80;
  static int Bucket(uint64_t v) {
    if (v < 2) return static_cast<int>(v);
    int msb = 63 - __builtin_clzll(v);
    int b = 2 * msb + static_cast<int>((v >> (msb - 1)) & 1);
    return b < kBuckets ? b : kBuckets - 1;
  }
  static int64_t BucketUpper(int b);

  std::array<uint32_t, kBuckets> counts_{};
  uint64_t count_ = 0;
  int64_t sum_ = 0;
  int64_t max_ = 0;
  int64_t min_ = 0;
};

// CompactLatencyHistogram: what a SmallLatencyHistogram records, in 200
// bytes instead of 352, for the simulator's per-task statistics: 16-bit
// bucket counts, and for each bucket that has passed 65535 its count of
// wraps (the high 16 bits), in a separate block of 4 bytes per such bucket
// (a long run's busiest tasks overflow one to three buckets: a block of
// 8-16 bytes where a widened 32-bit array took 320). Exact: ToSmall()
// returns the SmallLatencyHistogram that the same Record() calls would
// have built. Move-only.
class CompactLatencyHistogram {
 public:
  void Record(int64_t value) {
    if (value < 0) value = 0;
    const int b = SmallLatencyHistogram::Bucket(static_cast<uint64_t>(value));
    if (++narrow_[b] == 0) Carry(b);
    ++count_;
    sum_ += value;
    if (value > max_) max_ = value;
    if (count_ == 1 || value < min_) min_ = value;
  }
  uint64_t count() const { return count_; }
  SmallLatencyHistogram ToSmall() const;

 private:
  static constexpr int kBuckets = SmallLatencyHistogram::kBuckets;
  // narrow_[b] just wrapped from 65535 to 0: one more wrap for bucket b.
  void Carry(int b);

  std::array<uint16_t, kBuckets> narrow_{};
  // nullptr until a bucket wraps; then carries_[0] = n and carries_[1..n]
  // = bucket << 16 | wraps (mod 2^16, so a bucket's count wraps at 2^32 as
  // SmallLatencyHistogram's does).
  std::unique_ptr<uint32_t[]> carries_;
  uint64_t count_ = 0;
  int64_t sum_ = 0;
  int64_t max_ = 0;
  int64_t min_ = 0;
};

// A latency distribution, in nanoseconds. Percentiles come from a
// log-linear histogram: machine-wide and per-metric ones within 6.25%,
// per-task ones within 50% (count, mean, min and max are exact).
struct LatencySummary {
  uint64_t count = 0;
  double mean_ns = 0;
  int64_t min_ns = 0;
  int64_t p50_ns = 0;
  int64_t p90_ns = 0;
  int64_t p99_ns = 0;
  int64_t p999_ns = 0;
  int64_t max_ns = 0;
};

// The summary of a LatencyHistogram or a SmallLatencyHistogram.
template <typename Histogram>
LatencySummary SummarizeLatency(const Histogram& h) {
  LatencySummary s;
  s.count = h.count();
  s.mean_ns = h.mean();
  s.min_ns = h.min();
  s.p50_ns = h.Percentile(50);
  s.p90_ns = h.Percentile(90);
  s.p99_ns = h.Percentile(99);
  s.p999_ns = h.Percentile(99.9);
  s.max_ns = h.max();
  return s;
}

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_HISTOGRAM_H_
