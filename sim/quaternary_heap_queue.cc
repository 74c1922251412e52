// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/quaternary_heap_queue.h"

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
// QuaternaryHeapQueue

void QuaternaryHeapQueue::Reserve(size_t n) {
  heap_.reserve(n);
  slots_.Reserve(n);
}

EventHandle QuaternaryHeapQueue::Push(SimTime time, uint8_t band, uint16_t kind,
                                      int32_t cpu, int32_t task) {
  assert(time.ns() >= floor_ns_ && "Push before the last popped time");
  const uint32_t slot = slots_.Allocate();
  const Entry e{time.ns(), BandSeq(band, next_seq_++), slot, kind, cpu, task};
  heap_.emplace_back();
  SiftUp(heap_.size() - 1, e);
  return slots_.HandleOf(slot);
}

Event QuaternaryHeapQueue::Pop() {
  assert(!heap_.empty());
  const Entry top = heap_[0];
  slots_.Free(top.slot);
  floor_ns_ = top.time_ns;
  const Entry last = heap_.back();
  heap_.pop_back();
  if (!heap_.empty()) SiftHoleDown(0, last);
  return ToEvent(top);
}

bool QuaternaryHeapQueue::Cancel(EventHandle handle) {
  if (!slots_.IsLive(handle)) return false;
  RemoveAt(slots_.pos(handle.slot).index);
  slots_.Free(handle.slot);
  return true;
}

bool QuaternaryHeapQueue::Reschedule(EventHandle handle, SimTime new_time) {
  if (!slots_.IsLive(handle)) return false;
  assert(new_time.ns() >= floor_ns_ && "Reschedule before the last pop");
  const size_t i = slots_.pos(handle.slot).index;
  Entry e = heap_[i];
  e.time_ns = new_time.ns();
  e.band_seq = WithNewSeq(e.band_seq, next_seq_++);
  // The new seq is larger, so an unchanged time moves the event later.
  if (EntryLess(e, heap_[i])) {
    SiftUp(i, e);
  } else {
    SiftDown(i, e);
  }
  return true;
}

std::optional<Event> QuaternaryHeapQueue::Get(EventHandle handle) const {
  if (!slots_.IsLive(handle)) return std::nullopt;
  return ToEvent(heap_[slots_.pos(handle.slot).index]);
}

void QuaternaryHeapQueue::Clear() {
  for (const Entry& e : heap_) slots_.Free(e.slot);
  heap_.clear();
  floor_ns_ = std::numeric_limits<int64_t>::min();
}

void QuaternaryHeapQueue::SiftUp(size_t i, const Entry& e) {
  while (i > 0) {
    const size_t parent = (i - 1) / 4;
    if (!EntryLess(e, heap_[parent])) break;
    Place(i, heap_[parent]);
    i = parent;
  }
  Place(i, e);
}

void QuaternaryHeapQueue::SiftDown(size_t i, const Entry& e) {
  const size_t n = heap_.size();
  while (true) {
    const size_t first = 4 * i + 1;
    if (first >= n) break;
    size_t best = first;
    if (first + 4 <= n) {
      // All four children exist: a fixed-shape tournament.
      best = MinOfFour(first);
    } else {
      for (size_t c = first + 1; c < n; ++c) {
        if (EntryLess(heap_[c], heap_[best])) best = c;
      }
    }
    if (!EntryLess(heap_[best], e)) break;
    Place(i, heap_[best]);
    i = best;
  }
  Place(i, e);
}

void QuaternaryHeapQueue::SiftHoleDown(size_t i, const Entry& e) {
  const size_t n = heap_.size();
  while (true) {
    const size_t first = 4 * i + 1;
    if (first >= n) break;
    size_t best = first;
    if (first + 4 <= n) {
      // All four children exist: a fixed-shape tournament.
      best = MinOfFour(first);
    } else {
      for (size_t c = first + 1; c < n; ++c) {
        if (EntryLess(heap_[c], heap_[best])) best = c;
      }
    }
    Place(i, heap_[best]);
    i = best;
  }
  SiftUp(i, e);
}

void QuaternaryHeapQueue::RemoveAt(size_t i) {
  const Entry last = heap_.back();
  heap_.pop_back();
  if (i == heap_.size()) return;  // removed the last entry itself
  if (EntryLess(last, heap_[i])) {
    SiftUp(i, last);
  } else {
    SiftDown(i, last);
  }
}

}  // namespace schedsim::sim
