// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/histogram.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>

namespace schedsim::sim {

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  if (other.count_ == 0) return;
  for (int i = 0; i < kBuckets; ++i) counts_[i] += other.counts_[i];
  if (count_ == 0 || other.min_ < min_) min_ = other.min_;
  count_ += other.count_;
  sum_ += other.sum_;
  max_ = std::max(max_, other.max_);
}

int64_t LatencyHistogram::BucketUpper(int b) {
  if (b < kSub) return b;
  int shift = b / kSub - 1;
  int64_t mantissa = kSub + (b % kSub);
  return ((mantissa + 1) << shift) - 1;
}

int64_t LatencyHistogram::Percentile(double p) const {
  if (count_ == 0) return 0;
  uint64_t rank =
      static_cast<uint64_t>(std::ceil(p / 100.0 * static_cast<double>(count_)));
  rank = std::clamp<uint64_t>(rank, 1, count_);
  uint64_t seen = 0;
  for (int b = 0; b < kBuckets; ++b) {
    seen += counts_[b];
    if (seen >= rank) return std::min(BucketUpper(b), max_);
  }
  return max_;
}

int64_t SmallLatencyHistogram::BucketUpper(int b) {
  if (b < 2) return b;
  int msb = b / 2;
  int half = b % 2;
  // Values with this msb and next bit `half`: [2^msb + half*2^(msb-1),
  // 2^msb + (half+1)*2^(msb-1)).
  return (int64_t{1} << msb) + (int64_t{half + 1} << (msb - 1)) - 1;
}

int64_t SmallLatencyHistogram::Percentile(double p) const {
  if (count_ == 0) return 0;
  uint64_t rank =
      static_cast<uint64_t>(std::ceil(p / 100.0 * static_cast<double>(count_)));
  rank = std::clamp<uint64_t>(rank, 1, count_);
  uint64_t seen = 0;
  for (int b = 0; b < kBuckets; ++b) {
    seen += counts_[b];
    if (seen >= rank) return std::min(BucketUpper(b), max_);
  }
  return max_;
}

void CompactLatencyHistogram::Carry(int b) {
  const uint32_t n = carries_ != nullptr ? carries_[0] : 0;
  for (uint32_t i = 1; i <= n; ++i) {
    if (carries_[i] >> 16 == static_cast<uint32_t>(b)) {
      carries_[i] = (carries_[i] & 0xffff0000u) | ((carries_[i] + 1) & 0xffffu);
      return;
    }
  }
  // A bucket's first wrap: a block one entry longer (rare: at most
  // kBuckets times in a histogram's life).
  auto grown = std::make_unique<uint32_t[]>(n + 2);
  for (uint32_t i = 1; i <= n; ++i) grown[i] = carries_[i];
  grown[0] = n + 1;
  grown[n + 1] = static_cast<uint32_t>(b) << 16 | 1u;
  carries_ = std::move(grown);
}

SmallLatencyHistogram CompactLatencyHistogram::ToSmall() const {
  SmallLatencyHistogram h;
  for (int i = 0; i < kBuckets; ++i) h.counts_[i] = narrow_[i];
  const uint32_t n = carries_ != nullptr ? carries_[0] : 0;
  for (uint32_t i = 1; i <= n; ++i) {
    h.counts_[carries_[i] >> 16] += (carries_[i] & 0xffffu) << 16;
  }
  h.count_ = count_;
  h.sum_ = sum_;
  h.max_ = max_;
  h.min_ = min_;
  return h;
}

}  // namespace schedsim::sim
