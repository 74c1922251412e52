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

#include "sim/event_queue_core.h"       // IWYU pragma: export
#include "sim/quaternary_heap_queue.h"  // IWYU pragma: export
#include "sim/radix_heap_queue.h"       // IWYU pragma: export

namespace schedsim::sim {

// The event queue the simulator uses: the design that measured faster on
// the "hold" load at 256-1024 pending events, the simulator's range
// (docs/event_queue.md has the numbers). Both designs keep the same
// contract, so switching is this one line.
using EventQueue = QuaternaryHeapQueue;

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_EVENT_QUEUE_H_
