// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/winner_tree.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"
#include "sim/event_queue.h"
#include "sim/rng.h"
#include "sim/time.h"

namespace schedsim::sim {
namespace {

constexpr int64_t kMaxTime = std::numeric_limits<int64_t>::max();

TEST(PackBandSeqTest, BandIsTheHighByte) {
  EXPECT_EQ(PackBandSeq(0, 5), 5u);
  EXPECT_EQ(PackBandSeq(3, 7), (uint64_t{3} << 56) | 7);
  EXPECT_TRUE(KeyBefore(1, PackBandSeq(4, 0), 2, PackBandSeq(0, 0)));
  EXPECT_TRUE(KeyBefore(2, PackBandSeq(1, 9), 2, PackBandSeq(2, 0)));
  EXPECT_TRUE(KeyBefore(2, PackBandSeq(1, 8), 2, PackBandSeq(1, 9)));
  EXPECT_FALSE(KeyBefore(2, PackBandSeq(1, 9), 2, PackBandSeq(1, 9)));
  EXPECT_TRUE(KeyBefore(-5, 0, 3, 0));
  EXPECT_TRUE(KeyBefore(std::numeric_limits<int64_t>::min(), 0, -1, 0));
}

// The branch-free select (inline assembly on x86-64): taken exactly when
// the offered key is smaller, all three words moved together.
TEST(TakeIfLessTest, TakesOnlySmallerKeys) {
  using winner_tree_internal::TakeIfLess;
  const uint64_t kMax = std::numeric_limits<uint64_t>::max();
  struct Case {
    uint64_t khi, klo, hi, lo;
    bool taken;
  };
  const Case cases[] = {
      {1, 0, 2, 0, true},        {2, 0, 1, 0, false},
      {5, 3, 5, 4, true},        {5, 4, 5, 3, false},
      {5, 4, 5, 4, false},       {4, kMax, 5, 0, true},
      {5, 0, 4, kMax, false},    {0, 0, kMax, kMax, true},
      {kMax, kMax, 0, 0, false}, {kMax, kMax - 1, kMax, kMax, true},
  };
  for (const Case& c : cases) {
    for (int round = 0; round < 2; ++round) {
      // Vary the operands' origin (registers or memory) a little.
      volatile uint64_t vkhi = c.khi, vklo = c.klo;
      const uint64_t khi = vkhi, klo = vklo, kwin = 7;
      uint64_t hi = c.hi, lo = c.lo, win = 3;
      TakeIfLess(khi, klo, kwin, hi, lo, win);
      EXPECT_EQ(hi, c.taken ? c.khi : c.hi);
      EXPECT_EQ(lo, c.taken ? c.klo : c.lo);
      EXPECT_EQ(win, c.taken ? 7u : 3u);
    }
  }
}

TEST(EventWinnerTreeTest, StartsEmpty) {
  for (int n : {0, 1, 2, 3, 5, 256, 257}) {
    EventWinnerTree t(n);
    EXPECT_EQ(t.slots(), n);
    EXPECT_TRUE(t.empty());
    EXPECT_EQ(t.top_time_ns(), kMaxTime);
    EXPECT_EQ(t.top_band_seq(), EventWinnerTree::kEmpty);
    for (int s = 0; s < n; ++s) EXPECT_FALSE(t.pending(s));
  }
}

TEST(EventWinnerTreeTest, TopIsTheSmallestKey) {
  EventWinnerTree t(5);
  t.Set(3, 100, PackBandSeq(3, 0));
  EXPECT_FALSE(t.empty());
  EXPECT_EQ(t.top_slot(), 3);
  t.Set(1, 50, PackBandSeq(3, 1));
  EXPECT_EQ(t.top_slot(), 1);
  EXPECT_EQ(t.top_time_ns(), 50);
  // Equal times: the band, then the seq.
  t.Set(4, 50, PackBandSeq(2, 2));
  EXPECT_EQ(t.top_slot(), 4);
  t.Set(0, 50, PackBandSeq(2, 3));
  EXPECT_EQ(t.top_slot(), 4);
  // Moving the top later hands the top to the next.
  t.Set(4, 60, PackBandSeq(2, 4));
  EXPECT_EQ(t.top_slot(), 0);
  EXPECT_EQ(t.top_band_seq(), PackBandSeq(2, 3));
  t.Clear(0);
  EXPECT_FALSE(t.pending(0));
  EXPECT_EQ(t.top_slot(), 1);
  t.Clear(1);
  t.Clear(1);  // clearing an empty slot does nothing
  EXPECT_EQ(t.top_slot(), 4);
  EXPECT_EQ(t.time_ns(4), 60);
  EXPECT_EQ(t.band_seq(3), PackBandSeq(3, 0));
  t.Clear(4);
  t.Clear(3);
  EXPECT_TRUE(t.empty());
}

TEST(EventWinnerTreeTest, NegativeAndExtremeTimes) {
  EventWinnerTree t(3);
  t.Set(0, -10, 0);
  t.Set(1, std::numeric_limits<int64_t>::min(), 1);
  t.Set(2, kMaxTime, 2);  // a real key at the largest time
  EXPECT_EQ(t.top_slot(), 1);
  t.Clear(1);
  EXPECT_EQ(t.top_slot(), 0);
  t.Clear(0);
  EXPECT_FALSE(t.empty());
  EXPECT_EQ(t.top_slot(), 2);
  EXPECT_EQ(t.top_time_ns(), kMaxTime);
}

TEST(EventWinnerTreeTest, EqualTimesPopInSeqOrder) {
  // Every slot at one time: the smallest band_seq wins at every level,
  // whichever side of each node it sits on.
  EventWinnerTree t(37);
  std::vector<uint64_t> seqs;
  for (int s = 0; s < 37; ++s)
    seqs.push_back(static_cast<uint64_t>((s * 17) % 37));
  for (int s = 0; s < 37; ++s) t.Set(s, 100, seqs[s]);
  for (uint64_t want = 0; want < 37; ++want) {
    ASSERT_FALSE(t.empty());
    const int top = t.top_slot();
    EXPECT_EQ(t.top_band_seq(), want);
    EXPECT_EQ(seqs[top], want);
    t.Clear(top);
  }
  EXPECT_TRUE(t.empty());
  // A tie against the winner carried up from below, and an earlier time
  // beating a smaller seq.
  t.Set(5, 50, 9);
  t.Set(6, 50, 3);
  EXPECT_EQ(t.top_slot(), 6);
  t.Set(30, 49, 99);
  EXPECT_EQ(t.top_slot(), 30);
  t.Set(30, 50, 1);
  EXPECT_EQ(t.top_slot(), 30);
  t.Set(30, 51, 0);
  EXPECT_EQ(t.top_slot(), 6);
}

TEST(EventWinnerTreeTest, RunnerUpGuess) {
  // Up to 16 slots (4 levels) every sibling subtree on the top's path is
  // looked at: the guess is the slot with the second smallest time.
  for (int n : {2, 3, 9, 16}) {
    EventWinnerTree t(n);
    Rng rng(static_cast<uint64_t>(n));
    std::vector<int64_t> times(static_cast<size_t>(n));
    for (int s = 0; s < n; ++s) {
      times[s] = static_cast<int64_t>(rng.UniformU64(1000000)) * n + s;
      t.Set(s, times[s], static_cast<uint64_t>(s));
    }
    std::vector<int64_t> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(times[t.runner_up_slot()], sorted[1]) << n;
  }
  // A lone event is its own guess.
  EventWinnerTree one(256);
  one.Set(77, 5, 0);
  EXPECT_EQ(one.runner_up_slot(), 77);
  // 256 slots: a pending slot other than the top, due no earlier.
  EventWinnerTree t(256);
  Rng rng(3);
  for (int s = 0; s < 256; ++s) {
    t.Set(s, static_cast<int64_t>(rng.UniformU64(1000000)),
          static_cast<uint64_t>(s));
  }
  const int r = t.runner_up_slot();
  EXPECT_NE(r, t.top_slot());
  EXPECT_TRUE(t.pending(r));
  EXPECT_GE(t.time_ns(r), t.top_time_ns());
}

TEST(EventWinnerTreeTest, ResetEmptiesEverySlot) {
  EventWinnerTree t(4);
  for (int s = 0; s < 4; ++s) t.Set(s, s, static_cast<uint64_t>(s));
  t.Reset(9);
  EXPECT_EQ(t.slots(), 9);
  EXPECT_TRUE(t.empty());
  t.Set(8, 7, 0);
  EXPECT_EQ(t.top_slot(), 8);
}

TEST(EventWinnerTreeTest, MatchesReferenceOnRandomOperations) {
  for (int n : {1, 2, 3, 7, 64, 100, 256}) {
    EventWinnerTree t(n);
    // Reference: the set of (time, band_seq, slot).
    std::set<std::tuple<int64_t, uint64_t, int>> ref;
    std::vector<std::pair<int64_t, uint64_t>> key(
        n, {kMaxTime, EventWinnerTree::kEmpty});
    Rng rng(static_cast<uint64_t>(n) * 77 + 1);
    uint64_t seq = 0;
    for (int op = 0; op < 20000; ++op) {
      const int s = static_cast<int>(rng.UniformU64(n));
      if (key[s].second != EventWinnerTree::kEmpty) {
        ref.erase({key[s].first, key[s].second, s});
      }
      if (rng.UniformU64(4) == 0) {
        t.Clear(s);
        key[s] = {kMaxTime, EventWinnerTree::kEmpty};
      } else {
        // Few distinct times, so that bands and seqs break many ties.
        const int64_t time = static_cast<int64_t>(rng.UniformU64(50)) - 10;
        const uint64_t bs =
            PackBandSeq(static_cast<uint8_t>(rng.UniformU64(5)), seq++);
        t.Set(s, time, bs);
        key[s] = {time, bs};
        ref.insert({time, bs, s});
      }
      ASSERT_EQ(t.empty(), ref.empty());
      if (!ref.empty()) {
        const auto& [time, bs, slot] = *ref.begin();
        ASSERT_EQ(t.top_time_ns(), time);
        ASSERT_EQ(t.top_band_seq(), bs);
        ASSERT_EQ(t.top_slot(), slot);
      }
      ASSERT_EQ(t.pending(s), key[s].second != EventWinnerTree::kEmpty);
      ASSERT_EQ(t.time_ns(s), key[s].first);
      ASSERT_EQ(t.band_seq(s), key[s].second);
    }
  }
}

// The simulator's use: per-slot events (phase ends) in the tree, all other
// events in the queue, sequence numbers from the queue. A random
// discrete-event run must pop exactly what one queue holding every event
// pops, in the same order, with the same keys.
template <typename Queue>
void CheckSplitMatchesSingleQueue(uint64_t seed, int slots, int64_t max_delay) {
  constexpr uint16_t kSlotKind = 7;
  Queue single;
  std::vector<EventHandle> single_slot(slots);
  Queue split;
  EventWinnerTree tree(slots);
  Rng rng(seed);
  // Both runs see the same random draws: one generator per run, same seed.
  Rng rng_single(seed + 1), rng_split(seed + 1);
  // Pops of each run: (time, band, seq, kind, cpu, task).
  using Popped = std::tuple<int64_t, int, uint64_t, int, int, int>;
  std::vector<Popped> a, b;

  // The same handler drives both: each popped event may (re)arm or clear
  // slot events and push ordinary ones, drawn from the run's generator.
  struct Ops {
    virtual ~Ops() = default;
    virtual void ArmSlot(int s, int64_t t) = 0;
    virtual void ClearSlot(int s) = 0;
    virtual void Push(int64_t t, uint8_t band, int cpu, int task) = 0;
  };
  auto handle = [&](Ops& ops, Rng& r, int64_t now, int cpu) {
    const int actions = 1 + static_cast<int>(r.UniformU64(3));
    for (int k = 0; k < actions; ++k) {
      const uint64_t what = r.UniformU64(10);
      const int s = static_cast<int>(r.UniformU64(slots));
      // Often the same time (ties), sometimes later.
      const int64_t t =
          now +
          (r.UniformU64(3) == 0 ? 0 : static_cast<int64_t>(r.UniformU64(100)));
      if (what < 5) {
        ops.ArmSlot(cpu >= 0 && what < 3 ? cpu : s, t);
      } else if (what < 6) {
        ops.ClearSlot(s);
      } else {
        ops.Push(t, static_cast<uint8_t>(r.UniformU64(5)), s,
                 static_cast<int>(r.UniformU64(1000)));
      }
    }
  };

  struct SingleOps : Ops {
    Queue* q;
    std::vector<EventHandle>* h;
    void ArmSlot(int s, int64_t t) override {
      if (!q->Reschedule((*h)[s], SimTime::FromNanoseconds(t))) {
        (*h)[s] = q->Push(SimTime::FromNanoseconds(t), 3, kSlotKind, s, -1);
      }
    }
    void ClearSlot(int s) override { q->Cancel((*h)[s]); }
    void Push(int64_t t, uint8_t band, int cpu, int task) override {
      q->Push(SimTime::FromNanoseconds(t), band, 1, cpu, task);
    }
  } single_ops;
  single_ops.q = &single;
  single_ops.h = &single_slot;

  struct SplitOps : Ops {
    Queue* q;
    EventWinnerTree* tree;
    void ArmSlot(int s, int64_t t) override {
      tree->Set(s, t, PackBandSeq(3, q->NextSeq()));
    }
    void ClearSlot(int s) override { tree->Clear(s); }
    void Push(int64_t t, uint8_t band, int cpu, int task) override {
      q->Push(SimTime::FromNanoseconds(t), band, 1, cpu, task);
    }
  } split_ops;
  split_ops.q = &split;
  split_ops.tree = &tree;

  // The same initial events.
  for (int k = 0; k < 3 * slots; ++k) {
    const int64_t t = static_cast<int64_t>(rng.UniformU64(200));
    const int s = static_cast<int>(rng.UniformU64(slots));
    if (rng.UniformU64(2) == 0) {
      single_ops.ArmSlot(s, t);
      split_ops.ArmSlot(s, t);
    } else {
      single_ops.Push(t, 2, s, k);
      split_ops.Push(t, 2, s, k);
    }
  }

  for (int step = 0; step < 20000 && !single.empty(); ++step) {
    const Event e = single.Pop();
    a.emplace_back(e.time.ns(), e.band, e.seq, e.kind, e.cpu, e.task);
    handle(single_ops, rng_single, e.time.ns(),
           e.kind == kSlotKind ? e.cpu : -1);
  }
  for (int step = 0; step < 20000; ++step) {
    const bool have_tree = !tree.empty();
    if (!have_tree && split.empty()) break;
    if (have_tree && (split.empty() ||
                      KeyBefore(tree.top_time_ns(), tree.top_band_seq(),
                                split.TopTime().ns(), split.TopBandSeq()))) {
      // As the simulator: the slot stays set during the handler and is
      // cleared after it unless the handler re-armed (or cleared) it.
      const int s = tree.top_slot();
      const int64_t t = tree.top_time_ns();
      const uint64_t key = tree.top_band_seq();
      b.emplace_back(t, static_cast<int>(key >> 56),
                     key & ((uint64_t{1} << 56) - 1), kSlotKind, s, -1);
      handle(split_ops, rng_split, t, s);
      if (tree.band_seq(s) == key) tree.Clear(s);
    } else {
      const Event e = split.Pop();
      b.emplace_back(e.time.ns(), e.band, e.seq, e.kind, e.cpu, e.task);
      handle(split_ops, rng_split, e.time.ns(), -1);
    }
  }
  ASSERT_GT(a.size(), 1000u);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i], b[i]) << "pop " << i;
  }
}

TEST(EventWinnerTreeTest, SplitRunMatchesSingleQuaternaryHeap) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    for (int64_t max_delay : {100, 3000, 200000}) {
      CheckSplitMatchesSingleQueue<QuaternaryHeapQueue>(
          seed, 1 + static_cast<int>(seed) * 11, max_delay);
    }
  }
}

TEST(EventWinnerTreeTest, SplitRunMatchesSingleRadixHeap) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    CheckSplitMatchesSingleQueue<RadixHeapQueue>(
        seed, 1 + static_cast<int>(seed) * 11, 3000);
  }
}

}  // namespace
}  // namespace schedsim::sim
