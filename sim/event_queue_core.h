// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// What both event-queue designs share (sim/event_queue.h describes the
// contract): the event, its handle, the key order, and the internal entry
// and slot table.

#ifndef SCHEDSIM_SIM_EVENT_QUEUE_CORE_H_
#define SCHEDSIM_SIM_EVENT_QUEUE_CORE_H_

#include <array>
#include <cassert>
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
// The (band, seq) half of a key: the band above the sequence number.
inline uint64_t BandSeq(uint8_t band, uint64_t seq) {
  assert(seq <= kSeqMask && "event sequence numbers exhausted");
  return (uint64_t{band} << kSeqBits) | seq;
}

// `band_seq` with its sequence number replaced (a reschedule is FIFO
// among its new equals).
inline uint64_t WithNewSeq(uint64_t band_seq, uint64_t seq) {
  return (band_seq & ~kSeqMask) | BandSeq(0, seq);
}

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

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_EVENT_QUEUE_CORE_H_
