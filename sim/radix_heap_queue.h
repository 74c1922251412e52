// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The radix-heap design of the event queue (sim/event_queue.h has the
// contract both designs keep).

#ifndef SCHEDSIM_SIM_RADIX_HEAP_QUEUE_H_
#define SCHEDSIM_SIM_RADIX_HEAP_QUEUE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/event_queue_core.h"
#include "sim/time.h"

namespace schedsim::sim {

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

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_RADIX_HEAP_QUEUE_H_
