// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/event_ring.h"

#include <cstdint>
#include <limits>
#include <set>
#include <tuple>

#include "gtest/gtest.h"
#include "sim/event_queue.h"
#include "sim/rng.h"

namespace schedsim::sim {
namespace {

using Key = std::tuple<int64_t, uint64_t, int32_t>;  // time, band_seq, cpu

TEST(EventRingTest, PopsInKeyOrderAndGrows) {
  EventRing ring;
  EXPECT_TRUE(ring.empty());
  // Empty: the largest key, after any real one.
  EXPECT_EQ(ring.TopTime(), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(ring.TopBandSeq(), ~uint64_t{0});
  // Out of order, with a time tie decided by band_seq.
  ring.Push(30, PackBandSeq(1, 0), 7, 0, 10);
  ring.Push(10, PackBandSeq(1, 1), 7, 1, 11);
  ring.Push(20, PackBandSeq(1, 2), 7, 2, 12);
  ring.Push(20, PackBandSeq(0, 3), 7, 3, 13);  // a lower band first
  ASSERT_EQ(ring.size(), 4u);
  EXPECT_EQ(ring.TopTime(), 10);
  EXPECT_EQ(ring.Pop().cpu, 1);
  EXPECT_EQ(ring.Pop().cpu, 3);
  Event e = ring.Pop();
  EXPECT_EQ(e.cpu, 2);
  EXPECT_EQ(e.task, 12);
  EXPECT_EQ(e.kind, 7);
  EXPECT_EQ(e.band, 1);
  EXPECT_EQ(e.seq, 2u);
  EXPECT_EQ(e.time.ns(), 20);
  EXPECT_EQ(ring.Pop().cpu, 0);
  EXPECT_TRUE(ring.empty());
  EXPECT_EQ(ring.TopTime(), std::numeric_limits<int64_t>::max());
  // Past the initial capacity, wrapped around.
  for (int i = 0; i < 100; ++i) {
    ring.Push(1000 - i, PackBandSeq(1, 10 + static_cast<uint64_t>(i)), 0, i, 0);
  }
  for (int i = 99; i >= 0; --i) EXPECT_EQ(ring.Pop().cpu, i);
}

// Random discrete-event runs, against a std::set: pushes at now + a delay
// (near-monotone, as wake-up deliveries are, and sometimes far ahead or at
// now), pops interleaved; the pop order is the key order.
TEST(EventRingTest, MatchesReferenceOnRandomRuns) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Rng rng(seed);
    EventRing ring;
    std::set<Key> ref;
    uint64_t seq = 0;
    int64_t now = 0;
    for (int step = 0; step < 5000; ++step) {
      const uint64_t r = rng.NextU64() % 10;
      if (r < 6 || ref.empty()) {
        int64_t delay = static_cast<int64_t>(rng.NextU64() % 50);
        if (r == 0) delay = static_cast<int64_t>(rng.NextU64() % 100000);
        if (r == 1) delay = 0;
        const uint8_t band = static_cast<uint8_t>(rng.NextU64() % 3);
        const uint64_t bs = PackBandSeq(band, seq++);
        const int32_t cpu = static_cast<int32_t>(step);
        ring.Push(now + delay, bs, 0, cpu, 0);
        ref.emplace(now + delay, bs, cpu);
      } else {
        ASSERT_FALSE(ring.empty());
        const Key want = *ref.begin();
        ref.erase(ref.begin());
        EXPECT_EQ(ring.TopTime(), std::get<0>(want));
        EXPECT_EQ(ring.TopBandSeq(), std::get<1>(want));
        const Event e = ring.Pop();
        ASSERT_EQ(e.cpu, std::get<2>(want)) << "seed " << seed;
        now = e.time.ns();
      }
      ASSERT_EQ(ring.size(), ref.size());
    }
  }
}

// PushNewest (a fresh seq each time, one band per ring as the simulator
// uses it) gives the same order as Push and the reference.
// A ring kept nearly full while head and tail go round it many times, so
// that insertions move blocks across the buffer's end.
TEST(EventRingTest, InsertionsAcrossTheBuffersEndKeepKeyOrder) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    Rng rng(seed);
    EventRing ring;
    std::set<Key> ref;
    uint64_t seq = 0;
    int64_t now = 0;
    const size_t target = 90 + seed;  // in a ring of 128 after it grows
    for (int step = 0; step < 20000; ++step) {
      if (ref.size() < target) {
        const int64_t delay = static_cast<int64_t>(rng.NextU64() % 200);
        const uint64_t bs = PackBandSeq(1, seq++);
        const int32_t cpu = step;
        if (rng.NextU64() % 2 == 0) {
          ring.Push(now + delay, bs, 0, cpu, 0);
        } else {
          ring.PushNewest(now + delay, bs, 0, cpu, 0);
        }
        ref.emplace(now + delay, bs, cpu);
      } else {
        const Key want = *ref.begin();
        ref.erase(ref.begin());
        const Event e = ring.Pop();
        ASSERT_EQ(e.cpu, std::get<2>(want)) << "seed " << seed;
        now = e.time.ns();
      }
    }
    while (!ref.empty()) {
      ASSERT_EQ(ring.Pop().cpu, std::get<2>(*ref.begin()));
      ref.erase(ref.begin());
    }
    EXPECT_TRUE(ring.empty());
  }
}

TEST(EventRingTest, PushNewestMatchesPushAndReference) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Rng rng(seed);
    EventRing ring;
    EventRing newest;
    std::set<Key> ref;
    uint64_t seq = 0;
    int64_t now = 0;
    const uint8_t band = static_cast<uint8_t>(seed % 3);
    for (int step = 0; step < 5000; ++step) {
      const uint64_t r = rng.NextU64() % 10;
      if (r < 6 || ref.empty()) {
        int64_t delay = static_cast<int64_t>(rng.NextU64() % 20);
        if (r == 0) delay = static_cast<int64_t>(rng.NextU64() % 100000);
        if (r == 1) delay = 0;
        const uint64_t bs = PackBandSeq(band, seq++);
        const int32_t cpu = static_cast<int32_t>(step);
        ring.Push(now + delay, bs, 0, cpu, 0);
        newest.PushNewest(now + delay, bs, 0, cpu, 0);
        ref.emplace(now + delay, bs, cpu);
      } else {
        const Key want = *ref.begin();
        ref.erase(ref.begin());
        EXPECT_EQ(newest.TopTime(), std::get<0>(want));
        EXPECT_EQ(newest.TopBandSeq(), std::get<1>(want));
        const Event a = ring.Pop();
        const Event b = newest.Pop();
        ASSERT_EQ(b.cpu, std::get<2>(want)) << "seed " << seed;
        ASSERT_EQ(a.cpu, b.cpu);
        now = b.time.ns();
      }
      ASSERT_EQ(newest.size(), ref.size());
    }
  }
}

}  // namespace
}  // namespace schedsim::sim
