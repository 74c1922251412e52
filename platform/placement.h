// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The placement side of the abstraction layer: the idle-CPU search the fair
// class runs on every wake-up (select_idle_sibling, after
// select_task_rq_fair and wake_affine have chosen a target), and the
// scheduler state it reads. The simulator implements SchedView over its
// runqueues and charges the waker for every runqueue the policy probes;
// the scripted test kit implements it over a table.

#ifndef SCHEDSIM_PLATFORM_PLACEMENT_H_
#define SCHEDSIM_PLATFORM_PLACEMENT_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "topology/cpuset.h"
#include "topology/sched_domains.h"
#include "topology/topology.h"

namespace schedsim::platform {

// Wake flags (kernel WF_*).
enum WakeFlags : uint32_t {
  kWfTtwu = 1u << 3,  // an ordinary wake-up (try_to_wake_up)
  kWfFork = 1u << 2,
  kWfExec = 1u << 1,
  kWfSync = 1u << 4,  // the waker is about to sleep
  kWfMigrated = 1u << 5,
};

// What select_idle_sibling(p, prev, target) is given.
struct WakeupRequest {
  int task = -1;
  int this_cpu = -1;  // the waking CPU (smp_processor_id)
  int prev_cpu = -1;  // where the task last ran
  int target = -1;    // wake_affine's choice: this_cpu or prev_cpu
  uint32_t wake_flags = 0;
  const topology::CpuSet* allowed = nullptr;  // p->cpus_ptr
  // p->recent_used_cpu; the policy may update it (the kernel sets it to
  // prev unconditionally).
  int* recent_used_cpu = nullptr;
  // The waker is a per-CPU kthread (IO completion) running in task context.
  bool waker_is_per_cpu_kthread = false;
};

// Scheduler state as an idle-CPU search reads it. Calls that read another
// CPU's runqueue (available_idle, sched_idle, nr_running, cpu_util,
// ttwu_pending) are probes: the simulator charges the waker for each one.
class SchedView {
 public:
  virtual ~SchedView() = default;

  virtual const topology::Topology& topology() const = 0;
  virtual const topology::SchedDomains& domains() const = 0;
  // sched_smt_active(): some core has more than one thread online.
  virtual bool smt_active() const = 0;
  virtual int64_t now_ns() const = 0;

  // available_idle_cpu(): idle task running, nothing queued, no wake-up
  // pending.
  virtual bool available_idle(int cpu) = 0;
  // sched_idle_cpu(): only SCHED_IDLE tasks runnable.
  virtual bool sched_idle(int cpu) = 0;
  // available_idle(cpu) || sched_idle(cpu), the test of select_idle_sibling
  // and __select_idle_cpu. One probe, as available_idle; a backend may
  // answer it in one read instead of two calls.
  virtual bool idle_for_wakeup(int cpu) {
    return available_idle(cpu) || sched_idle(cpu);
  }
  virtual int nr_running(int cpu) = 0;
  // cpu_util_cfs(), 0..the CPU's capacity (1024 for the biggest).
  virtual int64_t cpu_util(int cpu) = 0;
  // rq->ttwu_pending: a wake-up is queued on the CPU's wake list.
  virtual bool ttwu_pending(int cpu) = 0;

  // sd_llc_shared of `cpu`'s LLC.
  virtual bool has_idle_cores(int cpu) const = 0;
  virtual void set_idle_cores(int cpu, bool value) = 0;
  // SIS_UTIL's scan depth, updated by periodic load balancing.
  virtual int nr_idle_scan(int cpu) const = 0;
  // The kernel's sched_cluster_active static key: the machine has a
  // cluster scheduling level (CLS, v5.16) and the kernel scans a waking
  // task's cluster before the rest of its LLC (commit 8881e1639f1f
  // "sched/fair: Scan cluster before scanning LLC in wake-up path", v6.7).
  // False by default (backends without the notion).
  virtual bool cluster_scan_active() const { return false; }

  // SIS_PROP inputs, all ns. rq->avg_idle and wake_avg_idle of `cpu`; a
  // backend may return wake_avg_idle aged to now (halved once per jiffy
  // since rq->wake_stamp, which the view does not expose): the simulator
  // and the shadow trace view do, FakeSchedView does not. And the
  // avg_scan_cost (EWMA 1/8 of whole-scan time) of `cpu`'s own LLC-level
  // sched_domain: each CPU has its own struct sched_domain at every level
  // (kernel/sched/topology.c __sdt_alloc, per_cpu_ptr(sdd->sd, j)), so the
  // average is per waking CPU (select_idle_cpu() reads and updates
  // this_cpu's sd_llc, kernel/sched/fair.c, v6.1).
  virtual int64_t avg_idle_ns(int cpu) const = 0;
  virtual int64_t wake_avg_idle_ns(int cpu) = 0;
  virtual void set_wake_avg_idle_ns(int cpu, int64_t value) = 0;
  virtual int64_t avg_scan_cost_ns(int cpu) const = 0;
  virtual void set_avg_scan_cost_ns(int cpu, int64_t value) = 0;
  // Simulated time spent probing so far in this search (what cpu_clock
  // deltas measure in the kernel).
  virtual int64_t scan_time_ns() const = 0;

  // Per-LLC state a policy keeps itself (an idle-CPU mask): one read or
  // write of it, for `cpu`'s LLC, by the CPU running the hook. It lives in
  // one cache line per LLC that every CPU of the LLC reads and writes; a
  // backend may charge what moving that line costs (the simulator does,
  // by distance: docs/model.md, "Shared cache lines"). has_idle_cores and
  // set_idle_cores are such accesses to sd_llc_shared already.
  virtual void read_policy_llc_line(int cpu) {}
  virtual void write_policy_llc_line(int cpu) {}
};

// An idle-CPU search policy (a select_idle_sibling variant). One object
// serves the whole machine; per-LLC state it owns (an idle-core mask, for
// example) is sized in Attach. Hooks must not allocate after Attach.
class PlacementPolicy {
 public:
  virtual ~PlacementPolicy() = default;

  virtual absl::string_view name() const = 0;

  // Once, before the first wake-up.
  virtual void Attach(const topology::Topology& /*topology*/,
                      const topology::SchedDomains& /*domains*/) {}

  // select_idle_sibling(p, prev, target): returns the CPU to enqueue on.
  // The caller checks it is a CPU of `request.allowed`.
  virtual int SelectIdleSibling(SchedView& view,
                                const WakeupRequest& request) = 0;

  // update_idle_core(): `cpu` is about to run its idle task. The default
  // is the 6.1 kernel's: if the LLC hint is clear and every SMT sibling of
  // `cpu` is idle, set has_idle_cores.
  virtual void OnCpuIdle(SchedView& view, int cpu);
};

}  // namespace schedsim::platform

#endif  // SCHEDSIM_PLATFORM_PLACEMENT_H_
