// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// CFS, the fair class of Linux before 6.6 (kernel/sched/fair.c, v6.1 as
// the reference; the parts that differ in older kernels are switches of
// the kernel-versions table, sim/kernels.h): the leftmost entity in
// vruntime runs; a waking task's vruntime is at least min_vruntime less
// half a latency period (place_entity(), GENTLE_FAIR_SLEEPERS); a migrating
// task's vruntime is renormalised from the old runqueue's min_vruntime to
// the new one's (migrate_task_rq_fair(), enqueue_entity()); a waking task
// preempts when its vruntime leads the running task's by more than the
// wake-up granularity (check_preempt_wakeup(), wakeup_preempt_entity());
// the tick preempts a task that ran its sched_slice() (check_preempt_tick());
// with buddies (FairTunables::buddies, v2.6.29 to v6.5) the next and last
// buddies of check_preempt_wakeup() are preferred by pick_next_entity()
// when that is not unfair to the leftmost.

#ifndef SCHEDSIM_SIM_CFS_H_
#define SCHEDSIM_SIM_CFS_H_

#include <vector>

#include "sim/fair_class.h"
#include "sim/rq_heap.h"

namespace schedsim::sim {

class Cfs final : public FairClass {
 public:
  Cfs(std::vector<Task>& tasks, std::vector<Cpu>& cpus)
      : FairClass(tasks, cpus), heap_(tasks) {}

  const char* name() const override { return "cfs"; }
  void Init(int cpus, const FairTunables& tunables) override;
  void TaskNew(int task) override {}
  void Enqueue(int cpu, int task, int from_cpu, uint32_t flags) override;
  bool Dequeue(int cpu, int task, uint32_t flags) override;
  void PutPrev(int cpu, int task) override { heap_.Push(cpus_[cpu], task); }
  int Pick(int cpu) override;
  void SetNext(int cpu, int task) override;
  bool Charge(int cpu, Task& t, int64_t delta_ns) override;
  bool WakeupPreempt(int cpu, int wakee) override;
  bool TickPreempt(int cpu) override;
  void Yield(int cpu, int task) override;
  bool Delayed(int task) const override { return false; }
  void Requeue(int cpu, int task) override {}
  bool IsBuddy(int task) const override;

  // sched_slice(): the period (sched_latency, or nr * min_granularity
  // beyond sched_nr_latency = 8 tasks) shared by weight.
  int64_t SliceNs(const Cpu& c, const Task& t) const;

 private:
  // wakeup_gran(): the wake-up granularity in `t`'s virtual time.
  int64_t WakeupGranNs(const Task& t) const {
    return t.weight == 1024 ? tun_.wakeup_granularity_ns
                            : tun_.wakeup_granularity_ns * 1024 / t.weight;
  }
  // clear_buddies(): `task`'s marks as a buddy of `cpu` go.
  void ClearBuddies(int cpu, int task) {
    if (!tun_.buddies) return;
    Buddies& b = buddies_[static_cast<size_t>(cpu)];
    if (b.next == task) b.next = -1;
    if (b.last == task) b.last = -1;
  }
  // cfs_rq->next and ->last, task ids on that runqueue or -1.
  struct Buddies {
    int32_t next = -1;
    int32_t last = -1;
  };
  std::vector<Buddies> buddies_;
  RqHeap heap_;
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_CFS_H_
