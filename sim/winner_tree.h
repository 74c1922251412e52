// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// EventWinnerTree: at most one pending event per slot (a CPU's phase end),
// kept apart from the main EventQueue, with O(1) access to the earliest.
//
//   EventQueue queue;
//   EventWinnerTree ends(num_cpus);
//   ends.Set(cpu, t, PackBandSeq(kBandSched, queue.NextSeq()));  // (re)arm
//   ends.Clear(cpu);                                              // disarm
//   // The next event overall: the earlier of the two heads.
//   if (!ends.empty() && (queue.empty() ||
//                         KeyBefore(ends.top_time_ns(), ends.top_band_seq(),
//                                   queue.TopTime().ns(),
//                                   queue.TopBandSeq()))) { ... }
//
// Keys are the EventQueue's: (time, band << 56 | seq), compared as one
// 128-bit integer. When the sequence numbers come from the queue's own
// counter (EventQueue::NextSeq), the keys of the tree and of the queue are
// all distinct and the merge of the two heads pops events in exactly the
// order one queue holding all of them would: (time, band, seq).
//
// Layout: a complete binary tree over a power-of-two number of leaves
// (slots beyond `slots()` stay empty), stored implicitly (node 1 is the
// root, node i has children 2i and 2i+1, leaf s is node leaves + s). Each
// node holds the smallest key's slot below it, as its byte offset in the
// key array (slot * 16, 4 bytes, so a level needs no index arithmetic);
// the keys live in one array by slot (16 bytes each). Set and Clear replay
// the slot's path to the root: per level, one sibling load, one load of
// its time and a branch-free compare-and-select on the times (which side
// wins is unpredictable, so branches would mispredict half the time); a
// tie in time anywhere on the path (rare) replays it again comparing
// (time, band_seq). 256 slots: 8 levels, 6 KiB.
//
// Not thread-safe. Allocates only in Reset.

#ifndef SCHEDSIM_SIM_WINNER_TREE_H_
#define SCHEDSIM_SIM_WINNER_TREE_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "absl/base/optimization.h"
#include "sim/event_queue.h"

namespace schedsim::sim {

class EventWinnerTree {
 public:
  // The band_seq of an empty slot (larger than any real key's).
  static constexpr uint64_t kEmpty = std::numeric_limits<uint64_t>::max();

  EventWinnerTree() { Reset(0); }
  explicit EventWinnerTree(int slots) { Reset(slots); }

  // `slots` empty slots. Invalidates nothing else (there are no handles).
  void Reset(int slots);

  int slots() const { return slots_; }
  // True when no slot holds an event.
  bool empty() const { return root().lo == kEmpty; }

  // The earliest pending event: its slot and key. REQUIRES: !empty() (when
  // empty, top_time_ns() is INT64_MAX and top_band_seq() kEmpty).
  int top_slot() const { return static_cast<int>(winner_[1] / sizeof(Key)); }
  int64_t top_time_ns() const { return TimeOf(root()); }
  uint64_t top_band_seq() const { return root().lo; }

  // A guess at the slot with the smallest time after the top's: the next
  // event once the top re-arms later, for prefetching. It looks only at
  // the winners of the sibling subtrees along the top's path nearest the
  // root (the top 4 levels: 1/2 + 1/4 + 1/8 + 1/16 of the other slots, so
  // right 15 times in 16 with the slots' times in random order). The top
  // itself when those subtrees hold nothing. REQUIRES: !empty().
  int runner_up_slot() const { return runner_up_slot(top_slot()); }
  // The same, given top_slot() (which the caller may know earlier than
  // the tree: see RunUntil).
  int runner_up_slot(int top) const;

  // Slot `s`: whether it holds an event, and its key (kEmpty when not).
  // REQUIRES: 0 <= s < slots().
  bool pending(int s) const { return leaf(s).lo != kEmpty; }
  int64_t time_ns(int s) const { return TimeOf(leaf(s)); }
  uint64_t band_seq(int s) const { return leaf(s).lo; }

  // Puts (time_ns, band_seq) in slot `s`, replacing what it held.
  // REQUIRES: band_seq != kEmpty, and distinct from every other pending
  // key's.
  void Set(int s, int64_t time_ns, uint64_t band_seq) {
    Replay(s, time_ns, band_seq);
  }
  // Empties slot `s` (nothing happens if it is empty).
  void Clear(int s) { Replay(s, std::numeric_limits<int64_t>::max(), kEmpty); }

 private:
  // A key as two unsigned words that compare like (time, band_seq): hi is
  // the time with its sign bit flipped.
  struct Key {
    uint64_t hi;
    uint64_t lo;
  };
  static constexpr uint64_t kSign = uint64_t{1} << 63;

  const Key& root() const { return keys_[winner_[1] / sizeof(Key)]; }
  const Key& leaf(int s) const { return keys_[s]; }
  static int64_t TimeOf(const Key& k) {
    return static_cast<int64_t>(k.hi ^ kSign);
  }
  void Replay(int s, int64_t time_ns, uint64_t band_seq);
  // Replays slot s's path (its key already stored) with the full
  // (time, band_seq) compare: after a tie in time.
  void ReplayExact(int s);

  int slots_ = 0;
  uint32_t leaves_ = 2;  // a power of two >= slots_, at least 2
  int levels_ = 1;       // log2(leaves_): the tree's depth below the root
  // Node i (1 = root, children 2i and 2i+1, leaf s = leaves_ + s): the byte
  // offset in keys_ (slot * sizeof(Key)) of the smallest key below it.
  // Leaves name their own slot.
  std::vector<uint32_t> winner_;
  std::vector<Key> keys_;  // by slot, leaves_ of them; empty = all ones
};

namespace winner_tree_internal {

// If the key (khi, klo) is smaller than (hi, lo), takes it and its slot:
// (hi, lo, win) = (khi, klo, kwin). Without a branch: on x86-64 one 128-bit
// compare (cmp, sbb) and three conditional moves; GCC turns the portable
// form into branches, which mispredict here half the time.
inline void TakeIfLess(const uint64_t& khi, const uint64_t& klo,
                       const uint64_t& kwin, uint64_t& hi, uint64_t& lo,
                       uint64_t& win) {
#if defined(__x86_64__) && defined(__GNUC__)
  uint64_t borrow = khi;
  __asm__(
      "cmpq %[lo], %[klo]\n\t"
      "sbbq %[hi], %[borrow]\n\t"
      "cmovbq %[khi], %[hi]\n\t"
      "cmovbq %[klo], %[lo]\n\t"
      "cmovbq %[kwin], %[win]"
      : [hi] "+r"(hi), [lo] "+r"(lo), [win] "+r"(win), [borrow] "+&r"(borrow)
      : [khi] "rm"(khi), [klo] "r"(klo), [kwin] "rm"(kwin)
      : "cc");
#else
  if (khi < hi || (khi == hi && klo < lo)) {
    hi = khi;
    lo = klo;
    win = kwin;
  }
#endif
}

// If khi < hi, takes it and its slot: (hi, win) = (khi, kwin), without a
// branch; returns whether khi == hi (then nothing is taken). On x86-64 one
// cmp and two conditional moves, the equality read from the same flags.
inline bool TakeIfLess64(const uint64_t& khi, const uint64_t& kwin,
                         uint64_t& hi, uint64_t& win) {
#if defined(__x86_64__) && defined(__GNUC__) && \
    defined(__GCC_ASM_FLAG_OUTPUTS__)
  bool equal;
  __asm__(
      "cmpq %[hi], %[khi]\n\t"
      "cmovbq %[khi], %[hi]\n\t"
      "cmovbq %[kwin], %[win]"
      : [hi] "+r"(hi), [win] "+r"(win), "=@ccz"(equal)
      : [khi] "r"(khi), [kwin] "rm"(kwin));
  return equal;
#else
  const bool equal = khi == hi;
  if (khi < hi) {
    hi = khi;
    win = kwin;
  }
  return equal;
#endif
}

}  // namespace winner_tree_internal

inline void EventWinnerTree::Replay(int s, int64_t time_ns, uint64_t band_seq) {
  const uint64_t hi0 = static_cast<uint64_t>(time_ns) ^ kSign;
  keys_[static_cast<size_t>(s)] = Key{hi0, band_seq};
  const char* const keys = reinterpret_cast<const char*>(keys_.data());
  uint32_t* const winner = winner_.data();
  // Per level the times decide, branch-free, and a flag notes whether two
  // times were equal anywhere on the path. Equal times (distinct events at
  // the same nanosecond) are rare; then the path is replayed again with the
  // full (time, band_seq) compare. leaves_ >= 2, so the leaf is never the
  // root: at least one level.
  uint64_t hi = hi0;
  uint64_t win = static_cast<uint64_t>(s) * sizeof(Key);
  uint64_t i = leaves_ + static_cast<uint64_t>(s);
  bool tie = false;
  do {
    const uint64_t other = winner[i ^ 1];
    const uint64_t khi = reinterpret_cast<const Key*>(keys + other)->hi;
    tie |= winner_tree_internal::TakeIfLess64(khi, other, hi, win);
    i >>= 1;
    winner[i] = static_cast<uint32_t>(win);
  } while (i != 1);
  if (ABSL_PREDICT_FALSE(tie)) ReplayExact(s);
}

inline int EventWinnerTree::runner_up_slot(int top) const {
  const char* const keys = reinterpret_cast<const char*>(keys_.data());
  const uint32_t* const winner = winner_.data();
  uint64_t best = static_cast<uint64_t>(top) * sizeof(Key);
  uint64_t best_hi = ~uint64_t{0};
  const uint64_t leaf = leaves_ + static_cast<uint64_t>(top);
  auto take = [&](uint64_t node) {
    const uint64_t other = winner[node ^ 1];
    winner_tree_internal::TakeIfLess64(
        reinterpret_cast<const Key*>(keys + other)->hi, other, best_hi, best);
  };
  if (ABSL_PREDICT_TRUE(levels_ >= 4)) {
    // Unrolled: the top's ancestor at depth 4 (a node 16..31), then the
    // siblings of it and of its ancestors at depths 3, 2 and 1.
    const uint64_t n4 = leaf >> (levels_ - 4);
    take(n4 >> 3);
    take(n4 >> 2);
    take(n4 >> 1);
    take(n4);
  } else {
    for (int d = 1; d <= levels_; ++d) take(leaf >> (levels_ - d));
  }
  return static_cast<int>(best / sizeof(Key));
}

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_WINNER_TREE_H_
