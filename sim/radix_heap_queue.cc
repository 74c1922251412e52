// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/radix_heap_queue.h"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>

#include "absl/numeric/bits.h"

namespace schedsim::sim {

using event_queue_internal::BandSeq;
using event_queue_internal::Entry;
using event_queue_internal::EntryLess;
using event_queue_internal::ToEvent;
using event_queue_internal::WithNewSeq;

// ---------------------------------------------------------------------------
// RadixHeapQueue

void RadixHeapQueue::Reserve(size_t n) {
  slots_.Reserve(n);
  now_.reserve(n);
  chunks_.reserve(n / kChunkEntries + kNumBuckets + 1);
}

int RadixHeapQueue::BucketFor(uint64_t key) const {
  const uint64_t diff = key ^ floor_key_;
  return diff == 0 ? 0 : 64 - absl::countl_zero(diff);
}

void RadixHeapQueue::AddChunk(int b) {
  Bucket& bucket = buckets_[b];
  const uint32_t c = AllocateChunk();
  chunks_[c].prev = bucket.tail;
  chunks_[c].next = kNoChunk;
  if (bucket.tail == kNoChunk) {
    bucket.head = c;
    nonempty_mask_ |= uint64_t{1} << (b - 1);
  } else {
    chunks_[bucket.tail].next = c;
  }
  bucket.tail = c;
  bucket.tail_count = 0;
}

inline void RadixHeapQueue::Append(int b, const Entry& e) {
  // An empty bucket has no tail and reads as full, so one test covers both.
  if (buckets_[b].tail_count == kChunkEntries) AddChunk(b);
  Bucket& bucket = buckets_[b];
  const uint32_t offset = bucket.tail_count++;
  chunks_[bucket.tail].entries[offset] = e;
  slots_.pos(e.slot) =
      Pos{bucket.tail, static_cast<uint16_t>(offset), static_cast<uint8_t>(b)};
  const uint64_t key = ToKey(e.time_ns);
  if (key < bucket.min_key) bucket.min_key = key;
}

inline void RadixHeapQueue::Insert(const Entry& e) {
  const int b = BucketFor(ToKey(e.time_ns));
  if (b == 0) {
    NowPush(e);
  } else {
    Append(b, e);
  }
}

EventHandle RadixHeapQueue::Push(SimTime time, uint8_t band, uint16_t kind,
                                 int32_t cpu, int32_t task) {
  assert(ToKey(time.ns()) >= floor_key_ && "Push before the last popped time");
  const uint32_t slot = slots_.Allocate();
  Insert(Entry{time.ns(), BandSeq(band, next_seq_++), slot, kind, cpu, task});
  ++size_;
  return slots_.HandleOf(slot);
}

uint32_t RadixHeapQueue::AllocateChunk() {
  if (free_chunk_ != kNoChunk) {
    const uint32_t c = free_chunk_;
    free_chunk_ = chunks_[c].next;
    return c;
  }
  if (chunks_.size() == chunks_.capacity()) {
    // At most one partly filled chunk per bucket, plus one being emptied by
    // Refill: grow once to cover every pending slot ever allocated, so a
    // load that stays within its high-water mark never allocates again.
    chunks_.reserve(std::max(2 * chunks_.capacity(),
                             slots_.size() / kChunkEntries + kNumBuckets + 1));
  }
  chunks_.emplace_back();
  return static_cast<uint32_t>(chunks_.size() - 1);
}

void RadixHeapQueue::FreeChunk(uint32_t c) {
  chunks_[c].next = free_chunk_;
  free_chunk_ = c;
}

void RadixHeapQueue::RemoveAt(Pos pos) {
  if (pos.bucket == 0) {
    NowRemoveAt(pos.index);
    return;
  }
  const int b = pos.bucket;
  Bucket& bucket = buckets_[b];
  const Location hole{pos.index, pos.offset};
  const Location last{bucket.tail, --bucket.tail_count};
  if (ToKey(At(hole).time_ns) == bucket.min_key) bucket.min_stale = true;
  if (!(hole == last)) {
    const Entry& moved = At(last);
    chunks_[hole.chunk].entries[hole.offset] = moved;
    slots_.pos(moved.slot) = Pos{hole.chunk, static_cast<uint16_t>(hole.offset),
                                 static_cast<uint8_t>(b)};
  }
  if (bucket.tail_count == 0) {
    const uint32_t empty = bucket.tail;
    bucket.tail = chunks_[empty].prev;
    bucket.tail_count = kChunkEntries;
    if (bucket.tail == kNoChunk) {
      bucket = Bucket();
      nonempty_mask_ &= ~(uint64_t{1} << (b - 1));
    } else {
      chunks_[bucket.tail].next = kNoChunk;
    }
    FreeChunk(empty);
  }
}

void RadixHeapQueue::NowPush(const Entry& e) {
  if (now_.size() == now_.capacity()) {
    // now_ never holds more than the pending count: grow once to the slot
    // high-water mark (see AllocateChunk).
    now_.reserve(std::max(2 * now_.capacity(), slots_.size()));
  }
  now_.emplace_back();
  NowSiftUp(now_.size() - 1, e);
}

void RadixHeapQueue::NowSiftUp(size_t i, const Entry& e) {
  while (i > 0) {
    const size_t parent = (i - 1) / 2;
    if (e.band_seq >= now_[parent].band_seq) break;
    NowPlace(i, now_[parent]);
    i = parent;
  }
  NowPlace(i, e);
}

void RadixHeapQueue::NowSiftDown(size_t i, const Entry& e) {
  const size_t n = now_.size();
  while (true) {
    size_t child = 2 * i + 1;
    if (child >= n) break;
    if (child + 1 < n && now_[child + 1].band_seq < now_[child].band_seq) {
      ++child;
    }
    if (now_[child].band_seq >= e.band_seq) break;
    NowPlace(i, now_[child]);
    i = child;
  }
  NowPlace(i, e);
}

void RadixHeapQueue::NowRemoveAt(size_t i) {
  const Entry last = now_.back();
  now_.pop_back();
  if (i == now_.size()) return;
  if (last.band_seq < now_[i].band_seq) {
    NowSiftUp(i, last);
  } else {
    NowSiftDown(i, last);
  }
}

int RadixHeapQueue::LowestBucket() const {
  assert(nonempty_mask_ != 0);
  return 1 + absl::countr_zero(nonempty_mask_);
}

uint64_t RadixHeapQueue::MinKey(int b) const {
  const Bucket& bucket = buckets_[b];
  if (bucket.min_stale) {
    uint64_t min_key = ~uint64_t{0};
    for (uint32_t c = bucket.head; c != kNoChunk; c = chunks_[c].next) {
      const uint32_t count =
          c == bucket.tail ? bucket.tail_count : kChunkEntries;
      for (uint32_t k = 0; k < count; ++k) {
        min_key = std::min(min_key, ToKey(chunks_[c].entries[k].time_ns));
      }
    }
    bucket.min_key = min_key;
    bucket.min_stale = false;
  }
  return bucket.min_key;
}

const Entry& RadixHeapQueue::TopEntry() const {
  assert(size_ > 0);
  if (!now_.empty()) return now_[0];
  const Bucket& bucket = buckets_[LowestBucket()];
  Location best{bucket.head, 0};
  for (uint32_t c = bucket.head; c != kNoChunk; c = chunks_[c].next) {
    const uint32_t count = c == bucket.tail ? bucket.tail_count : kChunkEntries;
    for (uint32_t k = 0; k < count; ++k) {
      if (EntryLess(chunks_[c].entries[k], At(best))) best = {c, k};
    }
  }
  return At(best);
}

SimTime RadixHeapQueue::TopTime() const {
  assert(size_ > 0);
  if (!now_.empty()) return SimTime::FromNanoseconds(now_[0].time_ns);
  return SimTime::FromNanoseconds(FromKey(MinKey(LowestBucket())));
}

void RadixHeapQueue::Refill() {
  const int b = LowestBucket();
  floor_key_ = MinKey(b);
  const Bucket bucket = buckets_[b];
  buckets_[b] = Bucket();
  nonempty_mask_ &= ~(uint64_t{1} << (b - 1));
  // Every entry lands in a bucket below b (the minimum in bucket 0). Each
  // chunk is freed as soon as it has been read, so the inserts can reuse
  // it. Entries are copied out first: an insert may grow chunks_.
  for (uint32_t c = bucket.head; c != kNoChunk;) {
    const uint32_t count = c == bucket.tail ? bucket.tail_count : kChunkEntries;
    const uint32_t next = chunks_[c].next;
    for (uint32_t k = 0; k < count; ++k) {
      const Entry e = chunks_[c].entries[k];
      assert(BucketFor(ToKey(e.time_ns)) < b);
      Insert(e);
    }
    FreeChunk(c);
    c = next;
  }
}

Event RadixHeapQueue::Pop() {
  assert(size_ > 0);
  if (now_.empty()) Refill();
  const Entry top = now_[0];
  slots_.Free(top.slot);
  const Entry last = now_.back();
  now_.pop_back();
  if (!now_.empty()) NowSiftDown(0, last);
  --size_;
  return ToEvent(top);
}

bool RadixHeapQueue::Cancel(EventHandle handle) {
  if (!slots_.IsLive(handle)) return false;
  RemoveAt(slots_.pos(handle.slot));
  slots_.Free(handle.slot);
  --size_;
  return true;
}

bool RadixHeapQueue::Reschedule(EventHandle handle, SimTime new_time) {
  if (!slots_.IsLive(handle)) return false;
  assert(ToKey(new_time.ns()) >= floor_key_ &&
         "Reschedule before the last popped time");
  const Pos pos = slots_.pos(handle.slot);
  Entry e =
      pos.bucket == 0 ? now_[pos.index] : At(Location{pos.index, pos.offset});
  RemoveAt(pos);
  e.time_ns = new_time.ns();
  e.band_seq = WithNewSeq(e.band_seq, next_seq_++);
  Insert(e);
  return true;
}

std::optional<Event> RadixHeapQueue::Get(EventHandle handle) const {
  if (!slots_.IsLive(handle)) return std::nullopt;
  const Pos& pos = slots_.pos(handle.slot);
  return ToEvent(pos.bucket == 0 ? now_[pos.index]
                                 : At(Location{pos.index, pos.offset}));
}

void RadixHeapQueue::Clear() {
  for (const Entry& e : now_) slots_.Free(e.slot);
  now_.clear();
  for (int b = 1; b < kNumBuckets; ++b) {
    Bucket& bucket = buckets_[b];
    for (uint32_t c = bucket.head; c != kNoChunk;) {
      const uint32_t count =
          c == bucket.tail ? bucket.tail_count : kChunkEntries;
      for (uint32_t k = 0; k < count; ++k) {
        slots_.Free(chunks_[c].entries[k].slot);
      }
      const uint32_t next = chunks_[c].next;
      FreeChunk(c);
      c = next;
    }
    bucket = Bucket();
  }
  nonempty_mask_ = 0;
  size_ = 0;
  floor_key_ = 0;
}

}  // namespace schedsim::sim
