// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// EEVDF, the fair class of Linux 6.6 and later (kernel/sched/fair.c, v6.6
// and v6.12; Stoica and Abdel-Wahab, "Earliest Eligible Virtual Deadline
// First", 1995; the kernel's series "sched: EEVDF and latency-nice and/or
// slice-attr", Peter Zijlstra, 2023). In the engine's integer nanoseconds:
//
// - The runqueue keeps the weighted average vruntime V of its entities,
//   running one included, as the kernel does: avg_vruntime is the sum of
//   (vruntime - min_vruntime) * weight over the queued entities and
//   avg_load the sum of their weights (avg_vruntime_add()/_sub()), shifted
//   when min_vruntime moves (avg_vruntime_update()); V rounds towards minus
//   infinity (avg_vruntime()).
// - An entity is eligible when its vruntime is at most V, tested without a
//   division as the kernel's entity_eligible()/vruntime_eligible() do.
// - Each entity asks for a slice (sysctl_sched_base_slice scaled by
//   1 + ilog2(min(ncpus, 8)), or in 6.12 its own sched_attr.sched_runtime);
//   its virtual deadline is vruntime + slice * 1024 / weight
//   (update_deadline()); once its vruntime passes the deadline it gets a new
//   one and, with other entities queued, the CPU is rescheduled.
// - The next entity is the eligible one with the earliest virtual deadline
//   (pick_eevdf()); under RUN_TO_PARITY the running entity keeps the CPU
//   while it is eligible and has not reached the deadline it was picked
//   with (set_next_entity() stashes that deadline in vlag).
// - A dequeued entity keeps its lag V - vruntime, clamped to the larger of
//   two slices and a tick in its virtual time (update_entity_lag()); an
//   enqueue places it at V - lag, the lag scaled by (W + w) / W so the
//   average does not move (place_entity(), PLACE_LAG), with a deadline one
//   slice on, half a slice for a new task (PLACE_DEADLINE_INITIAL). No
//   renormalisation across CPUs: placement is relative to the new
//   runqueue's V.
// - A waking entity preempts when it is what pick_eevdf() would choose
//   (check_preempt_wakeup(), v6.6); in 6.12 an eligible waking entity with
//   a shorter slice first cancels the running entity's protection when its
//   deadline is earlier or the running one is not eligible (PREEMPT_SHORT,
//   do_preempt_short()), and update_curr() reschedules a running entity
//   whose protection was cancelled once it is no longer eligible
//   (did_preempt_short()).
// - 6.12's DELAY_DEQUEUE: an entity that blocks while not eligible stays
//   queued (sched_delayed) and keeps competing until picked, when it is
//   dequeued for good; woken before that it is requeued where it is
//   (ttwu_runnable(), requeue_delayed_entity()), its positive lag dropped
//   (DELAY_ZERO).
//
// Not modelled: the augmented tree (a pick scans the CPU's queue), group
// scheduling's hierarchy (one level: the tasks), the fixed-point inverse
// weights of __calc_delta() (a division), NEXT_BUDDY (off by default),
// the 6.13 fix of PLACE_REL_DEADLINE across migrations.

#ifndef SCHEDSIM_SIM_EEVDF_H_
#define SCHEDSIM_SIM_EEVDF_H_

#include <cstdint>
#include <vector>

#include "sim/fair_class.h"
#include "sim/rq_heap.h"

namespace schedsim::sim {

class Eevdf final : public FairClass {
 public:
  Eevdf(std::vector<Task>& tasks, std::vector<Cpu>& cpus)
      : FairClass(tasks, cpus), heap_(tasks) {}

  const char* name() const override { return "eevdf"; }
  void Init(int cpus, const FairTunables& tunables) override;
  void TaskNew(int task) override;
  void Enqueue(int cpu, int task, int from_cpu, uint32_t flags) override;
  bool Dequeue(int cpu, int task, uint32_t flags) override;
  void PutPrev(int cpu, int task) override;
  int Pick(int cpu) override;
  void SetNext(int cpu, int task) override;
  bool Charge(int cpu, Task& t, int64_t delta_ns) override;
  bool WakeupPreempt(int cpu, int wakee) override;
  bool TickPreempt(int cpu) override { return false; }
  void Yield(int cpu, int task) override;
  bool Delayed(int task) const override {
    return static_cast<size_t>(task) < se_.size() &&
           se_[static_cast<size_t>(task)].delayed;
  }
  void Requeue(int cpu, int task) override;
  bool IsBuddy(int task) const override { return false; }

  // A task's own slice (6.12: sched_attr.sched_runtime, clamped to
  // 0.1-100 ms by __setparam_fair()); 0 = the base slice.
  void SetSlice(int task, int64_t slice_ns);

  // For tests and the invariants: the runqueue's V, an entity's lag,
  // deadline and eligibility, and the sum of weight * lag over the
  // runqueue (zero up to rounding: the lags balance).
  int64_t AvgVruntime(int cpu) const;
  bool Eligible(int cpu, int task) const;
  int64_t Deadline(int task) const { return se_[task].deadline; }
  int64_t Vlag(int task) const { return se_[task].vlag; }
  int64_t Slice(int task) const { return se_[task].slice; }
  int Curr(int cpu) const { return rqs_[cpu].curr; }
  int64_t WeightedLagSum(int cpu) const;

 private:
  struct Entity {
    int64_t deadline = 0;
    int64_t vlag = 0;
    int64_t slice = 0;
    bool delayed = false;       // se->sched_delayed
    bool initial = false;       // not yet enqueued (ENQUEUE_INITIAL)
    bool custom_slice = false;  // se->custom_slice
  };
  struct Rq {
    int64_t avg_vruntime = 0;  // sum of key * weight, queued entities
    int64_t avg_load = 0;      // sum of their weights
    int32_t curr = -1;         // cfs_rq->curr while it is on the queue
    int32_t prev = -1;         // the running task put back for this pick
  };
  static int64_t CalcDeltaFair(int64_t delta, int32_t weight) {
    return weight == 1024 ? delta : delta * 1024 / weight;
  }
  int64_t Key(const Cpu& c, int task) const {
    return tasks_[task].vruntime - c.min_vruntime;
  }
  void AvgAdd(int cpu, int task);
  void AvgSub(int cpu, int task);
  void UpdateMinVruntime(int cpu);
  void UpdateEntityLag(int cpu, int task);
  void Place(int cpu, int task, uint32_t flags);
  // update_deadline(): true when the entity got a new deadline.
  bool UpdateDeadline(int task);
  // pick_eevdf() with `curr` as cfs_rq->curr (-1: none), which may be in
  // the heap (a prev put back) or not (the running task).
  int PickEevdf(int cpu, int curr) const;
  bool Protected(int task) const {
    const Entity& e = se_[task];
    return tun_.run_to_parity && e.vlag == e.deadline;
  }

  std::vector<Entity> se_;
  std::vector<Rq> rqs_;
  RqHeap heap_;
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_EEVDF_H_
