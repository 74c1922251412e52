// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The simulation's pending-event set: a priority queue of small POD events,
// ordered by the key (time, band, seq), with cancel and reschedule by handle.
//
//   EventQueue q;
//   EventHandle end = q.Push(now + slice, kBandTimer, kPhaseEnd, cpu, task);
//   ...
//   q.Reschedule(end, now + new_slice);  // a frequency change moved it
//   ...
//   while (!q.empty()) {
//     Event e = q.Pop();                 // smallest (time, band, seq)
//     Dispatch(e);                       // may Push/Cancel/Reschedule
//   }
//
// Ordering. Events pop in increasing `time`; at equal times, in increasing
// `band` (a lower band is more urgent: e.g. interrupts before timers before
// scheduler work); at equal (time, band), in increasing `seq`, the order in
// which they were pushed or last rescheduled (FIFO). The order is total, so a
// run is deterministic whatever the queue's internal layout.
//
// Time floor. Simulated time never goes backwards: every Push and
// Reschedule must be at or after the time of the last popped event
// (`floor()`). The radix heap depends on it; the 4-ary heap enforces the same
// contract so the two designs stay interchangeable. Debug builds assert it.
//
// Handles. Push returns an EventHandle (slot index + generation). It stays
// valid while the event is pending, across Reschedule, and goes stale when
// the event is popped or cancelled. Operations on a stale handle are
// detected and return false (or nullopt): the slot's generation moves on
// whenever its event leaves, so a stale handle can only be mistaken for a
// live one after 2^31 reuses of the same slot. A handle must come from the
// queue it is used with.
//
// Memory. Storage (the slot table, the heap array or the radix heap's chunk
// pool) grows geometrically, and only when the number of events pending at
// once exceeds its previous high-water mark; freed slots and chunks are
// reused and nothing shrinks. So in steady state the queue allocates
// nothing per event (Reserve() skips the warm-up growth).
//
// Designs (same API, same contract, same pop order; see docs/event_queue.md):
//   QuaternaryHeapQueue  indexed 4-ary min-heap, position map per slot.
//                        O(log n) push/pop/cancel/reschedule.
//   RadixHeapQueue       radix heap on time (65 buckets by the highest bit
//                        in which an event's time differs from the floor),
//                        ties at the floor time kept in a small binary heap.
//                        O(1) push/cancel/reschedule, amortized O(log T) pop
//                        (T: span of pending times).
// `EventQueue` names the one that measured faster on the hold load at the
// simulator's queue sizes: QuaternaryHeapQueue.
//
// Not thread-safe.

#ifndef SCHEDSIM_SIM_EVENT_QUEUE_H_
#define SCHEDSIM_SIM_EVENT_QUEUE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "sim/time.h"

namespace schedsim::sim {

// One pending or popped event. Trivially copyable, 32 bytes.
struct Event {
  // Key, in comparison order: time, then band, then seq.
  SimTime time;
  // Assigned by the queue at Push and again at Reschedule; increases by one
  // per assignment, starting at 0.
  uint64_t seq;
  // Payload. `kind` is the event type; `cpu` and `task` are its arguments
  // (-1 when unused; the meaning is up to the kind).
  uint16_t kind;
  uint8_t band;
  int32_t cpu;
  int32_t task;
};
static_assert(sizeof(Event) <= 32, "Event must stay within 32 bytes");

// True if `a` pops before `b`: (time, band, seq) lexicographic.
constexpr bool EventBefore(const Event& a, const Event& b) {
  if (a.time != b.time) return a.time < b.time;
  if (a.band != b.band) return a.band < b.band;
  return a.seq < b.seq;
}

// Refers to one pushed event. Default-constructed, it refers to none (every
// queue treats it as stale). Opaque: compare it, copy it, pass it back.
struct EventHandle {
  uint32_t slot = std::numeric_limits<uint32_t>::max();
  // Odd while the slot holds a pending event.
  uint32_t generation = 0;

  friend bool operator==(EventHandle a, EventHandle b) {
    return a.slot == b.slot && a.generation == b.generation;
  }
  friend bool operator!=(EventHandle a, EventHandle b) { return !(a == b); }
};

// An event's key as stored: (time_ns, band_seq) with band_seq = band << 56
// | seq. REQUIRES: seq < 2^56.
constexpr uint64_t PackBandSeq(uint8_t band, uint64_t seq) {
  return (uint64_t{band} << 56) | seq;
}

// True if (time_a, band_seq_a) orders before (time_b, band_seq_b). Branch
// free with 128-bit integers.
inline bool KeyBefore(int64_t time_a, uint64_t band_seq_a, int64_t time_b,
                      uint64_t band_seq_b) {
#ifdef __SIZEOF_INT128__
  constexpr uint64_t kSign = uint64_t{1} << 63;
  using U128 = unsigned __int128;
  const U128 a =
      (U128{static_cast<uint64_t>(time_a) ^ kSign} << 64) | band_seq_a;
  const U128 b =
      (U128{static_cast<uint64_t>(time_b) ^ kSign} << 64) | band_seq_b;
  return a < b;
#else
  return time_a < time_b || (time_a == time_b && band_seq_a < band_seq_b);
#endif
}

namespace event_queue_internal {

// Bits of Entry::band_seq below the band.
inline constexpr int kSeqBits = 56;
inline constexpr uint64_t kSeqMask = (uint64_t{1} << kSeqBits) - 1;
inline constexpr uint32_t kNoSlot = std::numeric_limits<uint32_t>::max();

// An event as stored: the band and the sequence number share one word so
// the key compares as two words, and the slot index rides along so moves can
// update the position map. Exactly 32 bytes.
struct Entry {
  int64_t time_ns;
  uint64_t band_seq;  // band << 56 | seq
  uint32_t slot;
  uint16_t kind;
  int32_t cpu;
  int32_t task;
};
static_assert(sizeof(Entry) == 32, "Entry must be 32 bytes");

// (time, band_seq) lexicographic: one branch-free 128-bit compare (cmp +
// sbb), which keeps heap sifts free of unpredictable branches.
inline bool EntryLess(const Entry& a, const Entry& b) {
  return KeyBefore(a.time_ns, a.band_seq, b.time_ns, b.band_seq);
}

inline Event ToEvent(const Entry& e) {
  return Event{SimTime::FromNanoseconds(e.time_ns),
               e.band_seq & kSeqMask,
               e.kind,
               static_cast<uint8_t>(e.band_seq >> kSeqBits),
               e.cpu,
               e.task};
}

// Hands out slot indices with generations. A slot's generation is odd while
// it holds a pending event and even while free, so a handle (always issued
// with an odd generation) matches only the very event it was issued for.
// `Pos` is the per-design position record stored beside the generation.
template <typename Pos>
class SlotTable {
 public:
  struct Slot {
    uint32_t generation = 0;
    Pos pos{};  // where the event is; for a free slot, pos.index links
  };

  void Reserve(size_t n) { slots_.reserve(n); }

  // Returns a slot whose generation is now odd.
  uint32_t Allocate() {
    uint32_t s = free_head_;
    if (s != kNoSlot) {
      free_head_ = slots_[s].pos.index;
    } else {
      s = static_cast<uint32_t>(slots_.size());
      slots_.emplace_back();
    }
    ++slots_[s].generation;
    return s;
  }
  void Free(uint32_t s) {
    ++slots_[s].generation;
    slots_[s].pos.index = free_head_;
    free_head_ = s;
  }
  bool IsLive(EventHandle h) const {
    return h.slot < slots_.size() && (h.generation & 1) != 0 &&
           slots_[h.slot].generation == h.generation;
  }
  EventHandle HandleOf(uint32_t s) const { return {s, slots_[s].generation}; }
  Pos& pos(uint32_t s) { return slots_[s].pos; }
  const Pos& pos(uint32_t s) const { return slots_[s].pos; }
  // The number of slots ever allocated: the high-water mark of pending
  // events.
  size_t size() const { return slots_.size(); }

 private:
  std::vector<Slot> slots_;
  uint32_t free_head_ = kNoSlot;
};

}  // namespace event_queue_internal

// Indexed 4-ary min-heap of 32-byte entries. Each level holds four times
// the last, so the heap is half as deep as a binary one, and a node's four
// children are 128 contiguous bytes, compared by a branch-free tournament. A
// per-slot position map makes cancel and reschedule O(log n).
class QuaternaryHeapQueue {
 public:
  QuaternaryHeapQueue() = default;
  QuaternaryHeapQueue(const QuaternaryHeapQueue&) = default;
  QuaternaryHeapQueue& operator=(const QuaternaryHeapQueue&) = default;
  QuaternaryHeapQueue(QuaternaryHeapQueue&&) = default;
  QuaternaryHeapQueue& operator=(QuaternaryHeapQueue&&) = default;

  // Preallocates room for `n` pending events.
  void Reserve(size_t n);

  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  // The time of the last popped event (the earliest time a Push may use);
  // SimTime of INT64_MIN before the first Pop.
  SimTime floor() const { return SimTime::FromNanoseconds(floor_ns_); }

  // Adds an event and returns its handle.
  // REQUIRES: time >= floor() (asserted in debug builds).
  EventHandle Push(SimTime time, uint8_t band, uint16_t kind, int32_t cpu = -1,
                   int32_t task = -1);

  // The next event to pop. REQUIRES: !empty().
  Event Top() const { return event_queue_internal::ToEvent(heap_[0]); }
  SimTime TopTime() const { return SimTime::FromNanoseconds(heap_[0].time_ns); }
  // Top()'s band and seq packed as PackBandSeq does: with TopTime(), its
  // key, for KeyBefore.
  // REQUIRES: !empty().
  uint64_t TopBandSeq() const { return heap_[0].band_seq; }

  // Takes the next sequence number, as a Push or Reschedule would, for an
  // event kept outside the queue (an EventWinnerTree) that must order with
  // the queue's own: (time, band, seq) stays one total order over both.
  uint64_t NextSeq() { return next_seq_++; }

  // Removes and returns the next event; its handle goes stale and floor()
  // becomes its time. REQUIRES: !empty().
  Event Pop();

  // Like Pop(), but leaves the event pending and returns its handle in
  // `*handle`: floor() becomes its time. The caller must then Reschedule it
  // to a later time or Cancel it before the next Pop/Peek. A handler that
  // usually re-arms its own event (a CPU's phase end) saves a sift this
  // way. REQUIRES: !empty().
  Event Peek(EventHandle* handle) {
    const Entry& top = heap_[0];
    floor_ns_ = top.time_ns;
    *handle = slots_.HandleOf(top.slot);
    return event_queue_internal::ToEvent(top);
  }

  // Removes a pending event. Returns false (and does nothing) if the handle
  // is stale.
  bool Cancel(EventHandle handle);

  // Moves a pending event to `new_time`, keeping its band, payload and
  // handle; it gets a new seq, so it follows events already pending at the
  // same (time, band). Returns false (and does nothing) if the handle is
  // stale. REQUIRES: new_time >= floor() (asserted in debug builds).
  bool Reschedule(EventHandle handle, SimTime new_time);

  // Whether the handle refers to a pending event.
  bool Contains(EventHandle handle) const { return slots_.IsLive(handle); }
  // The pending event, or nullopt if the handle is stale.
  std::optional<Event> Get(EventHandle handle) const;

  // Removes every event: all handles go stale, floor() resets to its
  // initial value, seq numbering continues. Keeps the capacity.
  void Clear();

 private:
  using Entry = event_queue_internal::Entry;
  struct Pos {
    uint32_t index;  // in heap_ (the next free slot while free)
  };

  // Places `e` at the hole `i`, moving it up / down as needed.
  void SiftUp(size_t i, const Entry& e);
  void SiftDown(size_t i, const Entry& e);
  // Pop's variant of SiftDown (Floyd's): moves the hole at `i` down to a
  // leaf, always taking the smallest child, then sifts `e` (the former last
  // entry, usually among the largest) up from there. The descent does not
  // branch on `e`, so it has no unpredictable exit.
  void SiftHoleDown(size_t i, const Entry& e);
  // The index of the smallest of the four entries from `first`, computed
  // with arithmetic on the compare results (no branches: the winner is
  // unpredictable).
  size_t MinOfFour(size_t first) const {
    const size_t a =
        first + static_cast<size_t>(EntryLess(heap_[first + 1], heap_[first]));
    const size_t b =
        first + 2 +
        static_cast<size_t>(EntryLess(heap_[first + 3], heap_[first + 2]));
    const size_t take_b = static_cast<size_t>(EntryLess(heap_[b], heap_[a]));
    return a ^ ((a ^ b) & (0 - take_b));
  }
  void Place(size_t i, const Entry& e) {
    heap_[i] = e;
    slots_.pos(e.slot).index = static_cast<uint32_t>(i);
  }
  // Removes the entry at heap index i (its slot stays allocated).
  void RemoveAt(size_t i);

  std::vector<Entry> heap_;
  event_queue_internal::SlotTable<Pos> slots_;
  uint64_t next_seq_ = 0;
  int64_t floor_ns_ = std::numeric_limits<int64_t>::min();
};

// Radix heap (Ahuja, Mehlhorn, Orlin and Tarjan, 1990) on event time. With
// `floor` the last popped time, an event at time t sits in bucket 0 if
// t == floor, else in bucket 1 + (index of the highest bit in which t and
// floor differ). Pop takes the head of bucket 0; when bucket 0 is empty it
// finds the smallest time m in the lowest non-empty bucket, makes m the
// floor, and redistributes that bucket into lower ones (each event moves
// down at least one bucket per redistribution, so at most 64 times in all).
//
// Bucket 0 (the events at the floor time, ordered by band and seq) is a
// binary heap. Buckets 1-64 are unordered; each is a list of fixed
// 512-byte chunks from one shared pool, all full except the last, with O(1)
// append and O(1) swap-with-last removal. The shared pool bounds the
// memory by the number pending (about n/15 + 65 chunks) instead of by each
// bucket's own high-water mark, so a stationary load stops allocating.
class RadixHeapQueue {
 public:
  RadixHeapQueue() = default;
  RadixHeapQueue(const RadixHeapQueue&) = default;
  RadixHeapQueue& operator=(const RadixHeapQueue&) = default;
  RadixHeapQueue(RadixHeapQueue&&) = default;
  RadixHeapQueue& operator=(RadixHeapQueue&&) = default;

  // Preallocates room for `n` pending events.
  void Reserve(size_t n);

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  SimTime floor() const {
    return SimTime::FromNanoseconds(FromKey(floor_key_));
  }

  // REQUIRES: time >= floor() (asserted in debug builds).
  EventHandle Push(SimTime time, uint8_t band, uint16_t kind, int32_t cpu = -1,
                   int32_t task = -1);

  // REQUIRES: !empty(). Neither moves the floor. TopTime() is O(1) (each
  // bucket keeps its minimum time); Top() is O(1) when events are pending at
  // the floor time, else it scans the lowest non-empty bucket.
  Event Top() const { return event_queue_internal::ToEvent(TopEntry()); }
  SimTime TopTime() const;
  // As QuaternaryHeapQueue's; TopBandSeq() costs what Top() does.
  uint64_t TopBandSeq() const { return TopEntry().band_seq; }
  uint64_t NextSeq() { return next_seq_++; }

  // The rest as in QuaternaryHeapQueue, with the same contracts.
  // REQUIRES: !empty().
  Event Pop();
  // As QuaternaryHeapQueue::Peek; here a Pop and a Push of the same event
  // (the handle changes, the contract holds).
  Event Peek(EventHandle* handle) {
    Event e = Pop();
    *handle = Push(e.time, e.band, e.kind, e.cpu, e.task);
    e.seq = Get(*handle)->seq;
    return e;
  }
  bool Cancel(EventHandle handle);
  // REQUIRES: new_time >= floor() (asserted in debug builds).
  bool Reschedule(EventHandle handle, SimTime new_time);
  bool Contains(EventHandle handle) const { return slots_.IsLive(handle); }
  std::optional<Event> Get(EventHandle handle) const;
  void Clear();

 private:
  using Entry = event_queue_internal::Entry;
  static constexpr int kNumBuckets = 65;
  static constexpr uint32_t kChunkEntries = 15;
  static constexpr uint32_t kNoChunk = event_queue_internal::kNoSlot;

  struct alignas(64) Chunk {
    Entry entries[kChunkEntries];
    uint32_t prev;  // toward the bucket's head
    uint32_t next;  // toward its tail, or along the free list
  };
  static_assert(sizeof(Chunk) == 512, "a chunk is eight cache lines");
  struct Bucket {
    uint32_t head = kNoChunk;
    uint32_t tail = kNoChunk;
    // Entries used in the tail chunk; kChunkEntries (full) when empty.
    uint32_t tail_count = kChunkEntries;
    // The smallest key in the bucket (all ones when empty), unless
    // min_stale: a removal took the minimum out, and the next reader
    // rescans.
    mutable bool min_stale = false;
    mutable uint64_t min_key = ~uint64_t{0};
  };
  struct Pos {
    // Bucket 0: the index in now_; else the chunk (the next free slot while
    // the slot is free).
    uint32_t index;
    uint16_t offset;  // in the chunk
    uint8_t bucket;
  };
  struct Location {
    uint32_t chunk;
    uint32_t offset;
    friend bool operator==(Location a, Location b) {
      return a.chunk == b.chunk && a.offset == b.offset;
    }
  };

  // Times map to unsigned keys that order the same way.
  static uint64_t ToKey(int64_t t) {
    return static_cast<uint64_t>(t) ^ (uint64_t{1} << 63);
  }
  static int64_t FromKey(uint64_t k) {
    return static_cast<int64_t>(k ^ (uint64_t{1} << 63));
  }
  int BucketFor(uint64_t key) const;

  // Adds `e` (slot already allocated) to the bucket its time belongs in.
  void Insert(const Entry& e);
  void Append(int b, const Entry& e);
  // Links a fresh chunk at the tail of bucket b.
  void AddChunk(int b);
  // Removes the entry at `pos` (its slot stays allocated).
  void RemoveAt(Pos pos);
  uint32_t AllocateChunk();
  void FreeChunk(uint32_t c);
  // Binary heap on band_seq in now_ (bucket 0).
  void NowPush(const Entry& e);
  void NowSiftUp(size_t i, const Entry& e);
  void NowSiftDown(size_t i, const Entry& e);
  void NowPlace(size_t i, const Entry& e) {
    now_[i] = e;
    slots_.pos(e.slot) = Pos{static_cast<uint32_t>(i), 0, 0};
  }
  void NowRemoveAt(size_t i);
  const Entry& At(Location loc) const {
    return chunks_[loc.chunk].entries[loc.offset];
  }
  // The lowest non-empty bucket above 0. REQUIRES: nonempty_mask_ != 0.
  int LowestBucket() const;
  // The smallest key in bucket b >= 1. REQUIRES: the bucket is non-empty.
  uint64_t MinKey(int b) const;
  const Entry& TopEntry() const;
  // Moves the floor to the smallest pending time and fills bucket 0.
  // REQUIRES: bucket 0 empty, size_ > 0.
  void Refill();

  std::vector<Entry> now_;                   // bucket 0
  std::array<Bucket, kNumBuckets> buckets_;  // [0] unused
  std::vector<Chunk> chunks_;
  uint32_t free_chunk_ = kNoChunk;
  // Bit b-1 set iff bucket b (b >= 1) is non-empty.
  uint64_t nonempty_mask_ = 0;
  size_t size_ = 0;
  event_queue_internal::SlotTable<Pos> slots_;
  uint64_t next_seq_ = 0;
  uint64_t floor_key_ = 0;  // ToKey(INT64_MIN)
};

// The event queue the simulator uses: the design that measured faster on
// the "hold" load at 256-1024 pending events, the simulator's range
// (docs/event_queue.md has the numbers). Both designs keep the same
// contract, so switching is this one line.
using EventQueue = QuaternaryHeapQueue;

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_EVENT_QUEUE_H_
