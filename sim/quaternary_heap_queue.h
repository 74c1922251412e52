// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The indexed 4-ary min-heap design of the event queue (sim/event_queue.h
// has the contract both designs keep).

#ifndef SCHEDSIM_SIM_QUATERNARY_HEAP_QUEUE_H_
#define SCHEDSIM_SIM_QUATERNARY_HEAP_QUEUE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/event_queue_core.h"
#include "sim/time.h"

namespace schedsim::sim {

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

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_QUATERNARY_HEAP_QUEUE_H_
