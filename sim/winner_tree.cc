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

}  // namespace schedsim::sim
