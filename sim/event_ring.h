// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// EventRing: pending events kept sorted in a ring buffer, for a stream
// whose events are pushed at nearly increasing times and never cancelled:
// the simulator's wake-up deliveries, each due a few microseconds after
// the moment it is pushed.
//
//   EventQueue queue;
//   EventRing deliveries;
//   deliveries.Push(t, PackBandSeq(kBandDeliver, queue.NextSeq()), kind,
//                   cpu, task);
//   // The next event overall: the earliest of the heads, by KeyBefore.
//   if (!deliveries.empty() && KeyBefore(deliveries.TopTime(),
//                                        deliveries.TopBandSeq(), ...))
//     Event e = deliveries.Pop();
//
// Keys are the EventQueue's (time, band << 56 | seq); with seq from the
// queue's counter every key is distinct and merging the heads pops in the
// exact order one queue holding everything would.
//
// Push inserts from the back, moving the later entries up one place: O(1)
// when the new event is the latest, O(k) when k pending events are due
// after it. Pop takes the front in O(1). No handles, so no cancel: use
// EventQueue for events that may be cancelled or rescheduled, or that are
// due far apart (timers), where insertion would move many entries.
//
// Not thread-safe. Allocates only when it grows past its largest size.

#ifndef SCHEDSIM_SIM_EVENT_RING_H_
#define SCHEDSIM_SIM_EVENT_RING_H_

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "sim/event_queue.h"
#include "sim/time.h"

namespace schedsim::sim {

class EventRing {
 public:
  EventRing() : buf_(16), data_(buf_.data()), mask_(15) {}
  EventRing(const EventRing&) = delete;
  EventRing& operator=(const EventRing&) = delete;

  bool empty() const { return head_ == tail_; }
  size_t size() const { return static_cast<size_t>(tail_ - head_); }

  // The earliest event's key, kept beside the ring so that reading it is
  // two loads. Empty: INT64_MAX and all ones, after every real key.
  int64_t TopTime() const { return top_time_; }
  uint64_t TopBandSeq() const { return top_band_seq_; }
  int32_t TopCpu() const { return At(head_).cpu; }
  int32_t TopTask() const { return At(head_).task; }

  // REQUIRES: band_seq distinct from every pending key's (a seq from the
  // queue's counter), time not before the last popped time.
  void Push(int64_t time_ns, uint64_t band_seq, uint16_t kind, int32_t cpu,
            int32_t task) {
    if (size() == buf_.size()) Grow();
#ifndef NDEBUG
    if (newest_band_seq_ == kNonePushed || band_seq > newest_band_seq_) {
      newest_band_seq_ = band_seq;
    }
#endif
    const event_queue_internal::Entry e{time_ns, band_seq, 0, kind, cpu, task};
    uint64_t i = tail_;
    while (i != head_ && event_queue_internal::EntryLess(e, At(i - 1))) {
      At(i) = At(i - 1);
      --i;
    }
    At(i) = e;
    ++tail_;
    if (i == head_) SetTop();
  }

  // Push for a key after every pending key's band_seq (a fresh seq from
  // the queue's counter, with a band no lower than any pending event's: the
  // simulator's rings each hold one band). Then the new event goes before
  // a pending one exactly when its time is earlier, and the insertion
  // compares times alone (a tie in time leaves it after). The result is
  // Push's.
  // Returns whether the new event is the earliest (the new top).
  bool PushNewest(int64_t time_ns, uint64_t band_seq, uint16_t kind,
                  int32_t cpu, int32_t task) {
    if (size() == buf_.size()) Grow();
#ifndef NDEBUG
    // Every pending key is at most the largest pushed so far.
    assert((newest_band_seq_ == kNonePushed || band_seq > newest_band_seq_) &&
           "PushNewest: not the newest key");
    if (newest_band_seq_ == kNonePushed || band_seq > newest_band_seq_) {
      newest_band_seq_ = band_seq;
    }
#endif
    uint64_t i = tail_;
    while (i != head_ && time_ns < At(i - 1).time_ns) {
      At(i) = At(i - 1);
      --i;
    }
    At(i) = event_queue_internal::Entry{time_ns, band_seq, 0, kind, cpu, task};
    ++tail_;
    if (i != head_) return false;
    SetTop();
    return true;
  }

  // Removes and returns the earliest event. REQUIRES: !empty().
  Event Pop() {
    assert(!empty());
    const Event e = event_queue_internal::ToEvent(At(head_++));
    SetTop();
    return e;
  }

 private:
  void SetTop() {
    if (head_ == tail_) {
      top_time_ = std::numeric_limits<int64_t>::max();
      top_band_seq_ = ~uint64_t{0};
    } else {
      top_time_ = At(head_).time_ns;
      top_band_seq_ = At(head_).band_seq;
    }
  }
  event_queue_internal::Entry& At(uint64_t i) { return data_[i & mask_]; }
  const event_queue_internal::Entry& At(uint64_t i) const {
    return data_[i & mask_];
  }
  void Grow() {
    std::vector<event_queue_internal::Entry> bigger(buf_.size() * 2);
    for (uint64_t i = head_; i != tail_; ++i) {
      bigger[static_cast<size_t>(i - head_)] = At(i);
    }
    tail_ -= head_;
    head_ = 0;
    buf_.swap(bigger);
    data_ = buf_.data();
    mask_ = buf_.size() - 1;
  }

  std::vector<event_queue_internal::Entry> buf_;  // a power of two long
  event_queue_internal::Entry* data_;             // buf_.data()
  uint64_t mask_;                                 // buf_.size() - 1
  uint64_t head_ = 0;  // the earliest pending entry (counts up)
  uint64_t tail_ = 0;  // one past the latest
  int64_t top_time_ = std::numeric_limits<int64_t>::max();
  uint64_t top_band_seq_ = ~uint64_t{0};
#ifndef NDEBUG
  // The largest band_seq pushed (PushNewest's check), or kNonePushed.
  static constexpr uint64_t kNonePushed = ~uint64_t{0};
  uint64_t newest_band_seq_ = kNonePushed;
#endif
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_EVENT_RING_H_
