// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/winner_tree.h"

#include <cstdint>
#include <limits>

namespace schedsim::sim {

void EventWinnerTree::Reset(int slots) {
  slots_ = slots < 0 ? 0 : slots;
  leaves_ = 2;
  levels_ = 1;
  while (leaves_ < static_cast<uint32_t>(slots_)) {
    leaves_ *= 2;
    ++levels_;
  }
  constexpr uint64_t kMaxHi =
      static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) ^ kSign;
  keys_.assign(leaves_, Key{kMaxHi, kEmpty});
  // Every key is empty: each node names its leftmost leaf (any would do).
  winner_.assign(2 * leaves_, 0);
  for (uint32_t i = 1; i < 2 * leaves_; ++i) {
    uint32_t leftmost = i;
    while (leftmost < leaves_) leftmost *= 2;
    winner_[i] = (leftmost - leaves_) * static_cast<uint32_t>(sizeof(Key));
  }
}

void EventWinnerTree::ReplayExact(int s) {
  const Key& key = keys_[static_cast<size_t>(s)];
  uint64_t hi = key.hi;
  uint64_t lo = key.lo;
  uint64_t win = static_cast<uint64_t>(s) * sizeof(Key);
  const char* const keys = reinterpret_cast<const char*>(keys_.data());
  for (uint64_t i = leaves_ + static_cast<uint64_t>(s); i > 1; i >>= 1) {
    const uint64_t other = winner_[i ^ 1];
    const Key* const k = reinterpret_cast<const Key*>(keys + other);
    winner_tree_internal::TakeIfLess(k->hi, k->lo, other, hi, lo, win);
    winner_[i >> 1] = static_cast<uint32_t>(win);
  }
}

}  // namespace schedsim::sim
