// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// PELT (per-entity load tracking) utilization signals and util_est, computed
// with the same integer arithmetic as Linux (kernel/sched/pelt.c, pelt.h,
// sched-pelt.h and util_est_update() in kernel/sched/fair.c, v6.1;
// Documentation/scheduler/sched-pelt.c generates the decay tables). Written
// from a description of that behaviour in our own words, not from kernel
// source.
//
//   PeltSignal task;                // zero: util 0
//   task.last_update_ns = start_ns;  // the signal starts now
//   UtilEst task_util_est;
//   ...
//   // At every change of the task's state (and whenever a reader needs a
//   // fresh value), account the interval that just ended:
//   const uint32_t scale = PeltScale(freq_scale, cpu_capacity);
//   if (PeltUpdate(task, now_ns, /*running=*/was_running, scale)) {
//     UtilEstNoteUtilAvgChange(task_util_est);
//   }
//   const uint32_t util = task.util_avg;  // 0..1024
//   ...
//   // On a dequeue for sleep, after the update above:
//   UtilEstUpdate(task_util_est, task.util_avg, cpu_capacity);
//
// The math. PELT time runs in units of 1024 ns (ns >> 10), and a period is
// 1024 units = 2^20 ns = 1.048576 ms. A signal is a geometric series over
// periods: the contribution of the period i periods ago is weighted by y^i,
// where y^32 = 1/2 (so y ~ 0.97857 and the half-life is 32 periods, about
// 33.6 ms). Each contribution counts the running time in that period, in
// units, times 1024 (SCHED_CAPACITY_SCALE), so a period spent running
// entirely contributes 1024 * 1024 before decay.
//
// The sum is updated lazily, only when asked. The time since the last update
// is cut into three pieces: d1, the rest of the period that was in progress;
// p - 1 whole periods; and d3, the part of the new, still unfinished period.
// The old sum decays by y^p; d1 is weighted y^p, the whole periods y^1 ..
// y^(p-1) (a closed form of the geometric sum, below), and d3 by y^0. Inside
// a period nothing decays: time just accrues to the unfinished period, whose
// length so far is `period_contrib` (0..1023 units).
//
// Decaying by y^n multiplies by a 32-bit fixed-point table of y^n for
// n < 32 (y^n * (2^32 - 1), truncated) after a right shift by n / 32, since
// every 32 periods halve the value; after 63 * 32 periods the value is 0.
// The whole periods sum to LOAD_AVG_MAX - 1024 - LOAD_AVG_MAX * y^p, where
// LOAD_AVG_MAX = 47742 is the fixed point of x = x * y + 1024 in the same
// truncating arithmetic (the largest value a fully-running sum of units can
// reach).
//
// The average is util_avg = util_sum / (LOAD_AVG_MAX - 1024 +
// period_contrib): the divisor is the largest value the sum could have now,
// given how far the current period has progressed, so an always-running
// entity tends to 1024. util_avg is only recomputed when a period boundary is
// crossed, so between boundaries it lags util_sum by up to one period.
//
// Invariance. The contribution of running time is multiplied by `scale`
// (0..1024) = freq_scale * cpu_scale / 1024 (PeltScale): time at half the
// maximum frequency, or on a CPU of capacity 512, counts half. This is the
// kernel's scaling of the contribution (before v5.1); since v5.1 the kernel
// instead scales the clock that drives PELT (clock_pelt advances by
// delta * scale / 1024 while the CPU is busy and is re-synchronised to the
// task clock when it goes idle). The two agree when the CPU has idle time;
// on a CPU that is never idle, the clock form tends to 1024 whatever the
// frequency, while this form tends to `scale`. To model the clock form, keep
// a per-CPU PELT clock yourself and pass it as `now_ns` with scale 1024.
//
// util_est (fair.c, v6.1): a task's util_avg decays while it sleeps, so on
// wakeup it underestimates a periodic task. util_est remembers the
// utilization at the last dequeue for sleep (`enqueued`) and a slow moving
// average of those values (`ewma`, weight 1/4 for the new sample, raised at
// once when a sample is larger); the estimate is max(enqueued, ewma). See
// UtilEstUpdate for the rules.
//
// Deliberate simplifications: only the utilization signal (no load or
// runnable sums); no initial utilization for new tasks
// (post_init_entity_util); no removed-load bookkeeping for migrations (use
// PeltDetach / PeltAttach directly); uclamp is not modelled here.
//
// All functions are allocation-free and use only integer arithmetic.

#ifndef SCHEDSIM_SIM_PELT_H_
#define SCHEDSIM_SIM_PELT_H_

#include <algorithm>
#include <cstdint>

namespace schedsim::sim {

// SCHED_CAPACITY_SCALE: full capacity, full frequency, util_avg of an
// always-running entity.
inline constexpr uint32_t kSchedCapacityScale = 1024;
// Nanoseconds are shifted right by this to get PELT time units (1024 ns).
inline constexpr int kPeltTimeShift = 10;
// PELT time units in one period (1024), and the period in ns (1048576).
inline constexpr uint32_t kPeltPeriodUnits = 1024;
inline constexpr int64_t kPeltPeriodNs = int64_t{kPeltPeriodUnits}
                                         << kPeltTimeShift;
// LOAD_AVG_PERIOD: periods after which a contribution has halved (y^32 = 1/2).
inline constexpr uint32_t kPeltHalfLifePeriods = 32;
// LOAD_AVG_MAX: the largest sum of (unscaled) running units; see file comment.
inline constexpr uint32_t kPeltLoadAvgMax = 47742;
// PELT_MIN_DIVIDER: the divisor of util_avg at the start of a period.
inline constexpr uint32_t kPeltMinDivider = kPeltLoadAvgMax - kPeltPeriodUnits;

// One PELT utilization signal: a task (sched entity) or a runqueue's
// aggregate. Zero-initialise, then set `last_update_ns` to the instant the
// signal starts. Trivially copyable, 24 bytes.
struct PeltSignal {
  // Simulated time of the last update, in ns. Advances in whole PELT units
  // (multiples of 1024 ns), so sub-unit time is carried to the next update.
  int64_t last_update_ns = 0;
  // Decayed sum of scaled running time: units * scale (scale 1024 = full).
  // At most kPeltLoadAvgMax * 1024.
  uint64_t util_sum = 0;
  // PELT units (0..1023) already accounted in the current, unfinished period.
  uint32_t period_contrib = 0;
  // util_sum / PeltDivider(), recomputed at period boundaries; 0..1024.
  uint32_t util_avg = 0;
};

// The combined invariance factor (0..1024) of running time:
// freq_scale * cpu_scale / 1024, both in 0..1024 (freq_scale = current /
// maximum frequency; cpu_scale = the CPU's capacity, 1024 for the biggest).
constexpr uint32_t PeltScale(uint32_t freq_scale, uint32_t cpu_scale) {
  return (freq_scale * cpu_scale) >> 10;
}

// The divisor that turns `s.util_sum` into util_avg (get_pelt_divider):
// kPeltMinDivider + s.period_contrib.
constexpr uint32_t PeltDivider(const PeltSignal& s) {
  return kPeltMinDivider + s.period_contrib;
}

// y^n in 32-bit fixed point, truncated: floor((2^32 - 1) * 2^(-n/32)), the
// kernel's runnable_avg_yN_inv[n]. REQUIRES: 0 <= n < 32.
uint32_t PeltDecayFactor(int n);

// `val` * y^n_periods, truncated, computed as the kernel's decay_load():
// shift right by n / 32 (halvings), then multiply by PeltDecayFactor(n % 32)
// and drop 32 bits. 0 when n_periods > 63 * 32. Note that y^0 is
// (2^32 - 1) / 2^32, so DecayLoad(v, 0) is v - 1 for 0 < v <= 2^32, and
// DecayLoad(v, 32) is about v / 2 - 1.
uint64_t DecayLoad(uint64_t val, uint64_t n_periods);

// Advances `s` to `now_ns`, accounting the interval [s.last_update_ns,
// now_ns] as running (contributing `scale`, 0..1024, per unit of time) if
// `running`, else as not running (decay only; `scale` ignored). Only whole
// PELT units are consumed; the remainder (< 1024 ns) stays for the next
// call. If `now_ns` is before `s.last_update_ns` (time went backwards),
// only `last_update_ns` is reset to `now_ns`.
//
// Returns true if a period boundary was crossed, in which case util_avg was
// recomputed (this is when the kernel clears util_est's UTIL_AVG_UNCHANGED,
// see UtilEstNoteUtilAvgChange). REQUIRES: scale <= 1024.
//
// Inline: most calls come less than a unit (1024 ns) after the last one and
// change nothing; the rest is out of line.
namespace pelt_internal {
bool PeltUpdateSlow(PeltSignal& s, int64_t now_ns, bool running,
                    uint32_t scale);
// PeltUpdateSlow without the bound on `scale` (load signals).
bool PeltAccumulate(PeltSignal& s, int64_t now_ns, bool running,
                    uint32_t scale);
}  // namespace pelt_internal
inline bool PeltUpdate(PeltSignal& s, int64_t now_ns, bool running,
                       uint32_t scale) {
  const int64_t delta = now_ns - s.last_update_ns;
  if (delta >= 0 && delta < (int64_t{1} << kPeltTimeShift)) return false;
  return pelt_internal::PeltUpdateSlow(s, now_ns, running, scale);
}

// A load signal (the kernel's load_avg, kernel/sched/pelt.c
// ___update_load_sum()/___update_load_avg(), Linux 6.1): the same decayed
// sum, accumulating `weight` per unit of time instead of a 0..1024 scale.
// For a task, `weight` is its load weight (1024 at nice 0) while it is
// runnable (running or queued) and 0 while it sleeps, so util_avg holds
// se->avg.load_avg: weight x the runnable fraction. For a runqueue it is
// the sum of the weights of its queued fair tasks (cfs_rq->load.weight),
// so util_avg holds cfs_rq->avg.load_avg, blocked tasks' decaying shares
// included. The kernel accumulates on the PELT clock, which runs slower
// at lower frequency (update_rq_clock_pelt()); here load accrues on wall
// time: two CPUs compared by a load balancer run at similar frequencies
// in the experiments that depend on it, and the difference is left out.
inline bool PeltUpdateLoad(PeltSignal& s, int64_t now_ns, int64_t weight) {
  const int64_t delta = now_ns - s.last_update_ns;
  if (delta >= 0 && delta < (int64_t{1} << kPeltTimeShift)) return false;
  return pelt_internal::PeltAccumulate(s, now_ns, weight > 0,
                                       static_cast<uint32_t>(weight));
}

// Adds a task's signal `se` to a runqueue's aggregate `rq`, as the kernel
// does when a task is attached to a runqueue (attach_entity_load_avg): `se`
// takes `rq`'s last_update_ns and period_contrib, its util_sum is rebuilt
// from its util_avg (util_avg * PeltDivider(rq)), and both util_avg and
// util_sum are added to `rq`. Bring `se` (at its old place) and `rq` up to
// the same instant with PeltUpdate first; afterwards update them together.
void PeltAttach(PeltSignal& rq, PeltSignal& se);

// Removes `se` from `rq` (detach_entity_load_avg, as on migration):
// subtracts util_avg and util_sum, each clamped at 0, and then raises
// rq.util_sum to at least rq.util_avg * kPeltMinDivider so that the sum
// stays consistent with the average (as the kernel does since about v5.17).
// Bring both up to the same instant first.
void PeltDetach(PeltSignal& rq, const PeltSignal& se);

// util_est: UTIL_EST_WEIGHT_SHIFT (new samples weigh 1/4) and
// UTIL_EST_MARGIN (1% of 1024: smaller changes are not stored).
inline constexpr int kUtilEstWeightShift = 2;
inline constexpr uint32_t kUtilEstMargin = kSchedCapacityScale / 100;

// A task's estimated utilization (v6.1 form).
struct UtilEst {
  // util_avg at the last dequeue for sleep that was stored.
  uint32_t enqueued = 0;
  // Moving average of `enqueued`; follows increases at once.
  uint32_t ewma = 0;
  // The kernel's UTIL_AVG_UNCHANGED flag: set when UtilEstUpdate stores a
  // value, cleared by UtilEstNoteUtilAvgChange. While set, UtilEstUpdate
  // does nothing (util_avg has not been recomputed since the last sample).
  bool util_avg_unchanged = false;
};

// Call when the task's util_avg has been recomputed, i.e. when PeltUpdate
// on the task's signal returns true.
inline void UtilEstNoteUtilAvgChange(UtilEst& ue) {
  ue.util_avg_unchanged = false;
}

// Learns from a dequeue for sleep (util_est_update with task_sleep; do not
// call on a dequeue for migration). `task_util` is the task's util_avg at
// the dequeue, `cpu_capacity` the original capacity of its CPU (0..1024).
// In order:
//   1. If util_avg_unchanged is set, nothing happens.
//   2. The new `enqueued` is task_util.
//   3. If ewma < task_util, ewma becomes task_util (fast up); store.
//   4. If |task_util - ewma| < kUtilEstMargin: if also |old enqueued -
//      task_util| < kUtilEstMargin, nothing is stored; else store (only
//      `enqueued` changes).
//   5. If task_util > cpu_capacity, nothing is stored (a saturated task's
//      utilization says nothing about its needs).
//   6. ewma = floor((3 * ewma + task_util) / 4); store.
// "Store" writes `enqueued` and `ewma` and sets util_avg_unchanged.
void UtilEstUpdate(UtilEst& ue, uint32_t task_util, uint32_t cpu_capacity);

// The task's estimate, max(ewma, enqueued) (_task_util_est). What the
// runqueue aggregate sums. The kernel's task_util_est() is
// max(util_avg, TaskUtilEst()).
constexpr uint32_t TaskUtilEst(const UtilEst& ue) {
  return std::max(ue.ewma, ue.enqueued);
}

// The runqueue's util_est aggregate (cfs_rq->avg.util_est.enqueued), the
// sum of TaskUtilEst over its enqueued tasks: add on enqueue, subtract
// (clamped at 0) on dequeue, before UtilEstUpdate. For wakeup and load
// balance, a CPU's CFS utilization is min(capacity, max(rq util_avg, this)).
inline void UtilEstEnqueue(uint32_t& rq_util_est, const UtilEst& ue) {
  rq_util_est += TaskUtilEst(ue);
}
inline void UtilEstDequeue(uint32_t& rq_util_est, const UtilEst& ue) {
  rq_util_est -= std::min(rq_util_est, TaskUtilEst(ue));
}

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_PELT_H_
