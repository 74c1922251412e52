// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/histogram.h"

#include <algorithm>
#include <cmath>

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

void CompactLatencyHistogram::Widen(int b) {
  wide_ = std::make_unique<uint32_t[]>(kBuckets);
  for (int i = 0; i < kBuckets; ++i) wide_[i] = narrow_[i];
  wide_[b] = uint32_t{1} << 16;  // the count that wrapped
}

SmallLatencyHistogram CompactLatencyHistogram::ToSmall() const {
  SmallLatencyHistogram h;
  for (int i = 0; i < kBuckets; ++i) {
    h.counts_[i] = wide_ != nullptr ? wide_[i] : narrow_[i];
  }
  h.count_ = count_;
  h.sum_ = sum_;
  h.max_ = max_;
  h.min_ = min_;
  return h;
}

}  // namespace schedsim::sim
