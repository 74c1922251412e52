// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/event_queue.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <new>
#include <optional>
#include <set>
#include <tuple>
#include <type_traits>
#include <vector>

#include "gtest/gtest.h"
#include "sim/rng.h"
#include "sim/time.h"

// Counts heap allocations while `g_count_allocations` is set, to check that
// the queues allocate nothing in steady state.
namespace {
bool g_count_allocations = false;
size_t g_allocations = 0;
}  // namespace

void* operator new(size_t size) {
  if (g_count_allocations) ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t size) { return operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
// Over-aligned types (the radix heap's 64-byte chunks) use these.
void* operator new(size_t size, std::align_val_t align) {
  if (g_count_allocations) ++g_allocations;
  const auto a = static_cast<size_t>(align);
  const size_t rounded = (size + a - 1) / a * a;
  if (void* p = std::aligned_alloc(a, rounded == 0 ? a : rounded)) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t size, std::align_val_t align) {
  return operator new(size, align);
}
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, size_t, std::align_val_t) noexcept {
  std::free(p);
}

namespace schedsim::sim {
namespace {

static_assert(sizeof(Event) == 32);
static_assert(std::is_trivially_copyable_v<Event>);
static_assert(std::is_trivially_copyable_v<EventHandle>);

template <typename Q>
class EventQueueTest : public ::testing::Test {};

using Designs = ::testing::Types<QuaternaryHeapQueue, RadixHeapQueue>;
TYPED_TEST_SUITE(EventQueueTest, Designs);

SimTime T(int64_t ns) { return SimTime::FromNanoseconds(ns); }

TYPED_TEST(EventQueueTest, StartsEmpty) {
  TypeParam q;
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.size(), 0u);
  EXPECT_EQ(q.floor().ns(), std::numeric_limits<int64_t>::min());
  EXPECT_FALSE(q.Contains(EventHandle()));
  EXPECT_FALSE(q.Cancel(EventHandle()));
  EXPECT_FALSE(q.Reschedule(EventHandle(), T(0)));
  EXPECT_EQ(q.Get(EventHandle()), std::nullopt);
}

TYPED_TEST(EventQueueTest, PopsInTimeOrderWithPayload) {
  TypeParam q;
  q.Push(T(30), 0, 3, 103, 203);
  q.Push(T(10), 0, 1, 101, 201);
  q.Push(T(20), 0, 2, 102, 202);
  ASSERT_EQ(q.size(), 3u);
  EXPECT_EQ(q.TopTime(), T(10));
  EXPECT_EQ(q.Top().kind, 1);
  for (int k = 1; k <= 3; ++k) {
    const Event e = q.Pop();
    EXPECT_EQ(e.time, T(10 * k));
    EXPECT_EQ(e.kind, k);
    EXPECT_EQ(e.cpu, 100 + k);
    EXPECT_EQ(e.task, 200 + k);
    EXPECT_EQ(e.band, 0);
    EXPECT_EQ(q.floor(), T(10 * k));
  }
  EXPECT_TRUE(q.empty());
  // Defaults for cpu and task.
  q.Push(T(40), 1, 9);
  const Event e = q.Pop();
  EXPECT_EQ(e.cpu, -1);
  EXPECT_EQ(e.task, -1);
  EXPECT_EQ(e.band, 1);
}

TYPED_TEST(EventQueueTest, TiesBreakByBandThenSequence) {
  TypeParam q;
  // Same time; bands 2, 0, 1, 0, 2, 1 pushed in that order (seq 0..5).
  const uint8_t bands[] = {2, 0, 1, 0, 2, 1};
  for (int i = 0; i < 6; ++i) q.Push(T(100), bands[i], i);
  q.Push(T(99), 3, 6);  // earlier time beats any band
  const std::vector<std::pair<int, int>> expected = {
      {3, 6}, {0, 1}, {0, 3}, {1, 2}, {1, 5}, {2, 0}, {2, 4}};
  for (const auto& [band, kind] : expected) {
    const Event e = q.Pop();
    EXPECT_EQ(e.band, band);
    EXPECT_EQ(e.kind, kind);
    EXPECT_EQ(e.seq, static_cast<uint64_t>(kind));
  }
}

TYPED_TEST(EventQueueTest, PushAtFloorTimeInEarlierBandPopsNext) {
  // Handling an event at time t may schedule more work at t in a more
  // urgent band; it must pop before the rest of t's events.
  TypeParam q;
  q.Push(T(50), 2, 0);
  q.Push(T(50), 2, 1);
  q.Push(T(60), 0, 2);
  EXPECT_EQ(q.Pop().kind, 0);
  q.Push(T(50), 0, 3);
  q.Push(T(50), 2, 4);
  EXPECT_EQ(q.Pop().kind, 3);
  EXPECT_EQ(q.Pop().kind, 1);
  EXPECT_EQ(q.Pop().kind, 4);
  EXPECT_EQ(q.Pop().kind, 2);
}

TYPED_TEST(EventQueueTest, CancelAndStaleHandles) {
  TypeParam q;
  const EventHandle a = q.Push(T(10), 0, 1);
  const EventHandle b = q.Push(T(20), 0, 2);
  const EventHandle c = q.Push(T(30), 0, 3);
  EXPECT_NE(a, b);
  EXPECT_TRUE(q.Contains(b));
  EXPECT_TRUE(q.Cancel(b));
  EXPECT_FALSE(q.Contains(b));
  EXPECT_FALSE(q.Cancel(b));  // already cancelled
  EXPECT_FALSE(q.Reschedule(b, T(40)));
  EXPECT_EQ(q.Get(b), std::nullopt);
  EXPECT_EQ(q.size(), 2u);

  EXPECT_EQ(q.Pop().kind, 1);
  EXPECT_FALSE(q.Cancel(a));  // popped
  EXPECT_FALSE(q.Contains(a));

  // Slot reuse: the new event may get a's or b's slot, but the old handles
  // stay stale and cannot touch it.
  const EventHandle d = q.Push(T(35), 0, 4);
  const EventHandle e = q.Push(T(36), 0, 5);
  EXPECT_TRUE(d.slot == a.slot || d.slot == b.slot);
  EXPECT_FALSE(q.Cancel(a));
  EXPECT_FALSE(q.Cancel(b));
  EXPECT_FALSE(q.Reschedule(a, T(100)));
  EXPECT_TRUE(q.Contains(d));
  EXPECT_TRUE(q.Contains(e));
  EXPECT_EQ(q.size(), 3u);

  // A handle with a forged even (free) generation is rejected too.
  EventHandle forged = c;
  forged.generation += 1;
  EXPECT_FALSE(q.Contains(forged));
  EXPECT_FALSE(q.Cancel(forged));

  EXPECT_EQ(q.Pop().kind, 3);
  EXPECT_EQ(q.Pop().kind, 4);
  EXPECT_EQ(q.Pop().kind, 5);
  EXPECT_TRUE(q.empty());
}

TYPED_TEST(EventQueueTest, RescheduleKeepsPayloadAndHandle) {
  TypeParam q;
  const EventHandle a = q.Push(T(10), 1, 7, 3, 44);
  q.Push(T(20), 1, 8);
  q.Push(T(30), 1, 9);
  EXPECT_TRUE(q.Reschedule(a, T(25)));  // later
  ASSERT_TRUE(q.Get(a).has_value());
  EXPECT_EQ(q.Get(a)->time, T(25));
  EXPECT_EQ(q.Get(a)->seq, 3u);
  EXPECT_EQ(q.Pop().kind, 8);
  EXPECT_TRUE(q.Reschedule(a, T(21)));  // earlier again (still >= floor)
  const Event e = q.Pop();
  EXPECT_EQ(e.kind, 7);
  EXPECT_EQ(e.time, T(21));
  EXPECT_EQ(e.band, 1);
  EXPECT_EQ(e.cpu, 3);
  EXPECT_EQ(e.task, 44);
  EXPECT_EQ(e.seq, 4u);
  EXPECT_FALSE(q.Contains(a));
  EXPECT_EQ(q.Pop().kind, 9);
}

TYPED_TEST(EventQueueTest, PeekLeavesTheEventForRescheduleOrCancel) {
  TypeParam q;
  q.Push(T(10), 0, 1, 5);
  q.Push(T(20), 0, 2);
  EventHandle h;
  Event e = q.Peek(&h);
  EXPECT_EQ(e.kind, 1);
  EXPECT_EQ(e.cpu, 5);
  EXPECT_EQ(q.floor(), T(10));
  EXPECT_TRUE(q.Contains(h));
  EXPECT_TRUE(q.Reschedule(h, T(30)));  // re-armed: after kind 2 now
  EXPECT_EQ(q.Pop().kind, 2);
  e = q.Peek(&h);
  EXPECT_EQ(e.kind, 1);
  EXPECT_EQ(e.time, T(30));
  EXPECT_TRUE(q.Cancel(h));  // not re-armed
  EXPECT_TRUE(q.empty());
}

TYPED_TEST(EventQueueTest, RescheduleToSameTimeGoesBehindPeers) {
  TypeParam q;
  const EventHandle a = q.Push(T(10), 0, 1);
  q.Push(T(10), 0, 2);
  EXPECT_TRUE(q.Reschedule(a, T(10)));  // new seq: now after kind 2
  EXPECT_EQ(q.Pop().kind, 2);
  EXPECT_EQ(q.Pop().kind, 1);
}

TYPED_TEST(EventQueueTest, TopDoesNotMoveTheFloor) {
  TypeParam q;
  q.Push(T(5), 0, 1);
  q.Pop();
  q.Push(T(1000), 0, 2);
  EXPECT_EQ(q.TopTime(), T(1000));
  EXPECT_EQ(q.floor(), T(5));
  // Still legal: between the floor and the peeked time.
  q.Push(T(6), 0, 3);
  EXPECT_EQ(q.Top().kind, 3);
  EXPECT_EQ(q.Pop().kind, 3);
  EXPECT_EQ(q.Pop().kind, 2);
}

TYPED_TEST(EventQueueTest, NegativeAndExtremeTimes) {
  TypeParam q;
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  q.Push(SimTime::Max(), 0, 1);
  q.Push(T(-5), 0, 2);
  q.Push(T(kMin), 0, 3);
  q.Push(T(0), 0, 4);
  EXPECT_EQ(q.Pop().time.ns(), kMin);
  EXPECT_EQ(q.Pop().time.ns(), -5);
  EXPECT_EQ(q.Pop().time.ns(), 0);
  EXPECT_EQ(q.Pop().time.ns(), kMax);
}

TYPED_TEST(EventQueueTest, ClearMakesHandlesStaleAndResetsFloor) {
  TypeParam q;
  const EventHandle a = q.Push(T(10), 0, 1);
  q.Push(T(20), 0, 2);
  q.Pop();
  q.Clear();
  EXPECT_TRUE(q.empty());
  EXPECT_FALSE(q.Contains(a));
  EXPECT_EQ(q.floor().ns(), std::numeric_limits<int64_t>::min());
  q.Push(T(1), 0, 3);  // earlier than the old floor: fine after Clear
  EXPECT_EQ(q.Pop().kind, 3);
}

TYPED_TEST(EventQueueTest, CopyIsIndependent) {
  TypeParam q;
  const EventHandle a = q.Push(T(10), 0, 1);
  q.Push(T(20), 0, 2);
  TypeParam copy = q;
  EXPECT_TRUE(copy.Cancel(a));
  EXPECT_TRUE(q.Contains(a));
  EXPECT_EQ(q.Pop().kind, 1);
  EXPECT_EQ(copy.Pop().kind, 2);
}

TYPED_TEST(EventQueueTest, PushBeforeFloorIsAProgrammingError) {
  TypeParam q;
  const EventHandle h = q.Push(T(100), 0, 1);
  q.Push(T(200), 0, 2);
  q.Pop();
  EXPECT_DEBUG_DEATH(q.Push(T(99), 0, 3), "before the last pop");
  (void)h;
  const EventHandle g = q.Push(T(150), 0, 4);
  EXPECT_DEBUG_DEATH(q.Reschedule(g, T(50)), "before the last pop");
}

// A straightforward reference: a sorted set of (time, band, seq, id).
class ReferenceQueue {
 public:
  int Push(int64_t t, uint8_t band, uint16_t kind, int32_t cpu, int32_t task) {
    const int id = static_cast<int>(events_.size());
    events_.push_back(Event{T(t), next_seq_++, kind, band, cpu, task});
    live_.push_back(true);
    set_.insert(Key(id));
    return id;
  }
  bool Cancel(int id) {
    if (!live_[id]) return false;
    set_.erase(Key(id));
    live_[id] = false;
    return true;
  }
  bool Reschedule(int id, int64_t t) {
    if (!live_[id]) return false;
    set_.erase(Key(id));
    events_[id].time = T(t);
    events_[id].seq = next_seq_++;
    set_.insert(Key(id));
    return true;
  }
  Event Pop() {
    const int id = std::get<3>(*set_.begin());
    set_.erase(set_.begin());
    live_[id] = false;
    return events_[id];
  }
  const Event& Top() const { return events_[std::get<3>(*set_.begin())]; }
  bool live(int id) const { return live_[id]; }
  const Event& event(int id) const { return events_[id]; }
  size_t size() const { return set_.size(); }

 private:
  using K = std::tuple<int64_t, uint8_t, uint64_t, int>;
  K Key(int id) const {
    const Event& e = events_[id];
    return {e.time.ns(), e.band, e.seq, id};
  }
  std::vector<Event> events_;
  std::vector<bool> live_;
  std::set<K> set_;
  uint64_t next_seq_ = 0;
};

void ExpectSame(const Event& got, const Event& want) {
  EXPECT_EQ(got.time, want.time);
  EXPECT_EQ(got.band, want.band);
  EXPECT_EQ(got.seq, want.seq);
  EXPECT_EQ(got.kind, want.kind);
  EXPECT_EQ(got.cpu, want.cpu);
  EXPECT_EQ(got.task, want.task);
}

// Randomized push/pop/cancel/reschedule against the reference. The time
// spread and the mix of operations vary per round so that the queue runs
// through growth, drain-to-empty, many ties (tiny spreads) and wide keys
// (large spreads, exercising the radix heap's high buckets).
TYPED_TEST(EventQueueTest, MatchesReferenceOnRandomOperations) {
  Rng rng(DeriveSeed(20260101, 1));
  // Spreads up to 2^50: 4000 pops advance `now` by at most 2^62 in all.
  const int64_t spreads[] = {
      1, 4, 1000, int64_t{1} << 20, int64_t{1} << 40, int64_t{1} << 50};
  for (int round = 0; round < 24; ++round) {
    SCOPED_TRACE(::testing::Message() << "round " << round);
    const int64_t spread = spreads[round % 6];
    // Per-round op weights: push, pop, cancel, reschedule, top/get.
    const uint64_t w_push = 30 + rng.UniformU64(40);
    const uint64_t w_pop = 10 + rng.UniformU64(40);
    const uint64_t w_cancel = rng.UniformU64(20);
    const uint64_t w_resched = rng.UniformU64(30);
    const uint64_t w_total = w_push + w_pop + w_cancel + w_resched + 5;
    TypeParam q;
    ReferenceQueue ref;
    std::vector<EventHandle> handles;  // by reference id
    // Odd rounds start far below zero, so keys cross the sign bit.
    int64_t now = round % 2 == 0 ? 0 : -(int64_t{1} << 62);
    for (int op = 0; op < 4000; ++op) {
      const uint64_t r = rng.UniformU64(w_total);
      if (r < w_push) {
        const int64_t t = now + static_cast<int64_t>(rng.UniformU64(spread));
        const auto band = static_cast<uint8_t>(rng.UniformU64(4));
        const auto kind = static_cast<uint16_t>(rng.UniformU64(65536));
        const auto cpu = static_cast<int32_t>(rng.UniformInt(-1, 256));
        const auto task = static_cast<int32_t>(rng.NextU32());
        handles.push_back(q.Push(T(t), band, kind, cpu, task));
        ASSERT_EQ(ref.Push(t, band, kind, cpu, task),
                  static_cast<int>(handles.size()) - 1);
      } else if (r < w_push + w_pop) {
        ASSERT_EQ(q.empty(), ref.size() == 0);
        if (ref.size() == 0) continue;
        const Event want = ref.Pop();
        ExpectSame(q.Pop(), want);
        now = want.time.ns();
        ASSERT_EQ(q.floor().ns(), now);
      } else if (handles.empty()) {
        continue;
      } else if (r < w_push + w_pop + w_cancel) {
        const size_t id = rng.UniformU64(handles.size());
        ASSERT_EQ(q.Cancel(handles[id]), ref.Cancel(static_cast<int>(id)));
      } else if (r < w_push + w_pop + w_cancel + w_resched) {
        const size_t id = rng.UniformU64(handles.size());
        const int64_t t = now + static_cast<int64_t>(rng.UniformU64(spread));
        ASSERT_EQ(q.Reschedule(handles[id], T(t)),
                  ref.Reschedule(static_cast<int>(id), t));
      } else {
        if (ref.size() > 0) ExpectSame(q.Top(), ref.Top());
        const size_t id = rng.UniformU64(handles.size());
        const std::optional<Event> got = q.Get(handles[id]);
        ASSERT_EQ(got.has_value(), ref.live(static_cast<int>(id)));
        ASSERT_EQ(q.Contains(handles[id]), ref.live(static_cast<int>(id)));
        if (got) ExpectSame(*got, ref.event(static_cast<int>(id)));
      }
      ASSERT_EQ(q.size(), ref.size());
    }
    // Drain.
    while (ref.size() > 0) {
      ASSERT_FALSE(q.empty());
      ExpectSame(q.Pop(), ref.Pop());
    }
    EXPECT_TRUE(q.empty());
    for (const EventHandle& h : handles) EXPECT_FALSE(q.Contains(h));
  }
}

// The hold model the simulator runs (pop the earliest, push one at
// now + exponential), checked for identical output across both designs and
// for zero allocations once warmed up.
template <typename Q>
std::vector<Event> RunHold(Q& q, Rng& rng, int pending, int ops,
                           size_t* steady_allocations) {
  std::vector<EventHandle> cpu_timer(64);
  for (int i = 0; i < pending; ++i) {
    const int64_t t = static_cast<int64_t>(rng.Exponential(10000.0));
    const EventHandle h =
        q.Push(T(t), static_cast<uint8_t>(i % 3), 1, i % 64, i);
    if (i < 64) cpu_timer[i] = h;
  }
  std::vector<Event> popped;
  popped.reserve(2 * static_cast<size_t>(ops));
  for (int phase = 0; phase < 2; ++phase) {
    if (phase == 1) {
      g_allocations = 0;
      g_count_allocations = true;
    }
    for (int i = 0; i < ops; ++i) {
      const Event e = q.Pop();
      popped.push_back(e);
      const int64_t now = e.time.ns();
      const auto dt = static_cast<int64_t>(rng.Exponential(10000.0));
      const EventHandle h = q.Push(T(now + dt), e.band, e.kind, e.cpu, e.task);
      if (e.cpu >= 0 && e.cpu < 64 && i % 7 == 0) {
        // A frequency change moves some CPU's phase end.
        const int cpu = static_cast<int>(rng.UniformU64(64));
        if (!q.Reschedule(
                cpu_timer[cpu],
                T(now + static_cast<int64_t>(rng.UniformU64(20000))))) {
          cpu_timer[cpu] = h;
        }
      }
    }
    g_count_allocations = false;
  }
  *steady_allocations = g_allocations;
  return popped;
}

TEST(EventQueueDesignsTest, HoldModelIdenticalAndAllocationFree) {
  for (const int pending : {1, 300, 5000}) {
    SCOPED_TRACE(pending);
    QuaternaryHeapQueue quaternary;
    RadixHeapQueue radix;
    Rng rng_a(DeriveSeed(7, pending)), rng_b(DeriveSeed(7, pending));
    size_t alloc_a = 0, alloc_b = 0;
    const std::vector<Event> a =
        RunHold(quaternary, rng_a, pending, 50000, &alloc_a);
    const std::vector<Event> b =
        RunHold(radix, rng_b, pending, 50000, &alloc_b);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      SCOPED_TRACE(i);
      ExpectSame(a[i], b[i]);
      if (i > 0) {
        ASSERT_LE(a[i - 1].time, a[i].time);
      }
    }
    EXPECT_EQ(alloc_a, 0u);
    EXPECT_EQ(alloc_b, 0u);
  }
}

TYPED_TEST(EventQueueTest, ReserveAvoidsGrowth) {
  TypeParam q;
  q.Reserve(1000);
  Rng rng(4);
  g_allocations = 0;
  g_count_allocations = true;
  for (int i = 0; i < 1000; ++i) {
    q.Push(T(static_cast<int64_t>(rng.NextU64() >> 1)), 0, 0);
  }
  for (int i = 0; i < 500; ++i) q.Pop();
  g_count_allocations = false;
  EXPECT_EQ(g_allocations, 0u);
}

TEST(AllocationCounterTest, CountsOverAlignedAllocations) {
  struct alignas(64) Big {
    char bytes[64];
  };
  g_allocations = 0;
  g_count_allocations = true;
  std::vector<Big> v(3);
  std::vector<int> w(3);
  g_count_allocations = false;
  EXPECT_EQ(g_allocations, 2u);
}

TEST(EventBeforeTest, OrdersByTimeBandSeq) {
  const Event a{T(1), 5, 0, 2, 0, 0};
  const Event b{T(2), 0, 0, 0, 0, 0};
  const Event c{T(1), 4, 0, 3, 0, 0};
  const Event d{T(1), 6, 0, 2, 0, 0};
  EXPECT_TRUE(EventBefore(a, b));
  EXPECT_TRUE(EventBefore(a, c));
  EXPECT_TRUE(EventBefore(a, d));
  EXPECT_FALSE(EventBefore(a, a));
  EXPECT_FALSE(EventBefore(b, a));
}

TEST(EventQueueAliasTest, IsOneOfTheDesigns) {
  EXPECT_TRUE((std::is_same_v<EventQueue, QuaternaryHeapQueue> ||
               std::is_same_v<EventQueue, RadixHeapQueue>));
}

}  // namespace
}  // namespace schedsim::sim
