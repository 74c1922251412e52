// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The wake-up placement decisions (sim/wake_placement.h): wake_affine()
// and select_task_rq_rt(). find_idlest_cpu() is find_idlest_cpu.cc.

#include "sim/wake_placement.h"

#include <algorithm>

namespace schedsim::sim {

void WakePlacement::Init() {
  const int n = topo_.num_cpus();
  affine_levels_.clear();
  affine_begin_.assign(1, 0);
  for (int cpu = 0; cpu < n; ++cpu) {
    for (int d = 0; d < domains_.depth(cpu); ++d) {
      const topology::SchedDomain& sd = domains_.domain(cpu, d);
      if (sd.has(topology::kSdWakeAffine)) {
        affine_levels_.push_back({&sd, sd.span.words().data()});
      }
    }
    affine_begin_.push_back(static_cast<int32_t>(affine_levels_.size()));
  }
}

int WakePlacement::WakeAffine(const topology::SchedDomain& sd, int task,
                              int this_cpu, int prev, bool sync,
                              int waker_task) const {
  // wake_affine_idle().
  int target = -1;
  if (s_.available_idle(this_cpu) && domains_.SharesCache(this_cpu, prev)) {
    target = s_.available_idle(prev) ? prev : this_cpu;
  } else if (sync && s_.cpus_[this_cpu].nr_running == 1) {
    target = this_cpu;
  } else if (s_.available_idle(prev)) {
    target = prev;
  }
  // wake_affine_weight().
  if (target < 0) {
    int64_t this_eff = CpuLoad(this_cpu);
    bool decided = false;
    if (sync && waker_task >= 0) {
      int64_t cur = TaskLoad(waker_task);
      if (cur > this_eff) {
        target = this_cpu;
        decided = true;
      } else {
        this_eff -= cur;
      }
    }
    if (!decided) {
      int64_t task_load = TaskLoad(task);
      this_eff += task_load;
      // Each side weighed by the other CPU's capacity (capacity_of(); the
      // original capacity here: no RT or IRQ pressure is subtracted), so
      // that a LITTLE CPU's load counts for more (kernel/sched/fair.c
      // wake_affine_weight, v6.1). On a symmetric machine both factors are
      // 1024 and the outcome is that of the loads alone.
      this_eff *= 100 * int64_t{topo_.capacity(prev)};
      int64_t prev_eff = std::max<int64_t>(CpuLoad(prev) - task_load, 0) *
                         (100 + (sd.imbalance_pct - 100) / 2) *
                         int64_t{topo_.capacity(this_cpu)};
      if (sync) prev_eff += 1;
      if (this_eff < prev_eff) target = this_cpu;
    }
  }
  return target == this_cpu ? this_cpu : prev;
}

int WakePlacement::SelectTaskRqRt(int task, int prev) const {
  const Task& p = s_.tasks_[task];
  const topology::CpuSet* allowed = s_.AllowedOf(p);
  auto lower = [&](int cpu) {
    const Cpu& c = s_.cpus_[cpu];
    return c.curr < 0 || s_.tasks_[c.curr].policy != SchedPolicy::kFifo ||
           s_.tasks_[c.curr].rt_priority < p.rt_priority;
  };
  if (allowed->Test(prev) && lower(prev) && s_.cpus_[prev].rt_rq.empty()) {
    return prev;
  }
  int fallback = -1;
  for (int cpu = allowed->First(); cpu >= 0; cpu = allowed->Next(cpu)) {
    if (s_.available_idle(cpu)) return cpu;
    if (fallback < 0 && lower(cpu) && s_.cpus_[cpu].rt_rq.empty()) {
      fallback = cpu;
    }
  }
  if (fallback >= 0) return fallback;
  return allowed->Test(prev) ? prev : allowed->First();
}

}  // namespace schedsim::sim
