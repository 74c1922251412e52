// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The fair class: the operations of the kernel's struct sched_class
// (kernel/sched/sched.h) that differ between CFS and EEVDF, as one
// interface with two implementations, sim/cfs.h (Linux before 6.6) and
// sim/eevdf.h (6.6 and later). The engine keeps what both share (the task
// and CPU state of sim/sched_state.h, PELT, load and the governor's
// callbacks) and calls the class for what the kernel's fair.c decides:
// where an entity is placed in virtual time when it is enqueued, whether a
// dequeue is delayed, which entity runs next, how running advances virtual
// time, and when the running task is preempted.
//
// Both classes keep the queued fair tasks of a CPU in Cpu::rq as a binary
// heap ordered by vruntime (then task id; sim/rq_heap.h) and the running
// task outside it, as the kernel keeps cfs_rq->curr outside its tree; load
// balancing and the governor read Cpu::rq as the list of queued tasks.
//
// Only the engine calls these; each call names the kernel function it
// stands for. The engine holds both classes as members and picks one per
// run (SimConfig::eevdf), so the calls are direct, not virtual, on the hot
// path (SimulatorImpl::Fair()).

#ifndef SCHEDSIM_SIM_FAIR_CLASS_H_
#define SCHEDSIM_SIM_FAIR_CLASS_H_

#include <cstdint>
#include <vector>

#include "sim/sched_state.h"

namespace schedsim::sim {

// enqueue_entity()'s flags, as the kernel's ENQUEUE_* (kernel/sched/sched.h).
enum FairEnqueueFlags : uint32_t {
  kEnqueueWakeup = 1,    // ENQUEUE_WAKEUP: the task was asleep
  kEnqueueMigrated = 2,  // it last ran on another CPU (from_cpu)
  kEnqueueInitial = 4,   // ENQUEUE_INITIAL: a new task's first enqueue
};

// dequeue_entity()'s flags (DEQUEUE_*).
enum FairDequeueFlags : uint32_t {
  kDequeueSleep = 1,    // DEQUEUE_SLEEP: the task blocks
  kDequeueDelayed = 2,  // DEQUEUE_DELAYED: a delayed entity leaves
};

// The scaled tunables both classes read (sched_update_scaling(): each
// sysctl times 1 + ilog2(min(ncpus, 8)), kernel/sched/fair.c).
struct FairTunables {
  int64_t latency_ns = 6000000;         // sysctl_sched_latency (CFS)
  int64_t min_granularity_ns = 750000;  // sysctl_sched_min_granularity
  int64_t wakeup_granularity_ns = 1000000;
  int64_t base_slice_ns = 750000;  // sysctl_sched_base_slice (EEVDF)
  int64_t tick_ns = 4000000;       // TICK_NSEC
  bool buddies = false;            // CFS: NEXT/LAST/CACHE_HOT_BUDDY
  // EEVDF's sched_feat switches (kernel/sched/features.h).
  bool run_to_parity = true;
  bool place_lag = true;
  bool place_deadline_initial = true;
  bool preempt_short = false;  // 6.12
  bool delay_dequeue = false;  // 6.12
  bool delay_zero = true;      // 6.12, with delay_dequeue
};

class FairClass {
 public:
  FairClass(std::vector<Task>& tasks, std::vector<Cpu>& cpus)
      : tasks_(tasks), cpus_(cpus) {}
  virtual ~FairClass() = default;
  FairClass(const FairClass&) = delete;
  FairClass& operator=(const FairClass&) = delete;

  virtual const char* name() const = 0;
  // Per-CPU state for `cpus` CPUs and the tunables (once, before use).
  virtual void Init(int cpus, const FairTunables& tunables) = 0;
  // A task slot was created or reused (sched_fork()/task_fork_fair()).
  virtual void TaskNew(int task) = 0;
  // enqueue_entity(): `task` (not running) joins `cpu`'s queue.
  // `from_cpu` is where it last ran.
  virtual void Enqueue(int cpu, int task, int from_cpu, uint32_t flags) = 0;
  // dequeue_entity(): `task` (queued or running on `cpu`) leaves. False
  // when the class keeps it queued (DELAY_DEQUEUE): the engine then leaves
  // its runqueue counts as they are until a later kDequeueDelayed.
  virtual bool Dequeue(int cpu, int task, uint32_t flags) = 0;
  // put_prev_entity(): the running task, still runnable, goes back.
  virtual void PutPrev(int cpu, int task) = 0;
  // pick_next_entity(): the task to run next, -1 when none is queued.
  // The engine finishes the dequeue of a delayed one (Delayed()) and
  // picks again.
  virtual int Pick(int cpu) = 0;
  // set_next_entity(): `task`, picked, leaves the queue to run.
  virtual void SetNext(int cpu, int task) = 0;
  // update_curr(): the running task `t` ran `delta_ns` more. True when
  // the class asks for a reschedule (EEVDF's update_deadline()).
  virtual bool Charge(int cpu, Task& t, int64_t delta_ns) = 0;
  // check_preempt_wakeup(): whether `wakee`, just enqueued on `cpu`,
  // preempts the running fair task. Charge() has run.
  virtual bool WakeupPreempt(int cpu, int wakee) = 0;
  // The tick's preemption test (CFS's check_preempt_tick(); EEVDF has
  // none beyond update_deadline()).
  virtual bool TickPreempt(int cpu) = 0;
  // yield_task_fair(): the running `task` yields.
  virtual void Yield(int cpu, int task) = 0;
  // Whether `task` is a delayed entity (DELAY_DEQUEUE): asleep, queued.
  virtual bool Delayed(int task) const = 0;
  // requeue_delayed_entity(): a delayed `task` is woken where it is.
  virtual void Requeue(int cpu, int task) = 0;
  // CACHE_HOT_BUDDY: whether `task` is a buddy of its runqueue.
  virtual bool IsBuddy(int task) const = 0;

 protected:
  std::vector<Task>& tasks_;
  std::vector<Cpu>& cpus_;
  FairTunables tun_;
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_FAIR_CLASS_H_
