// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// PELT's invariance and a task's utilization joining and leaving a
// runqueue: arch_scale_freq_capacity() x arch_scale_cpu_capacity() (the
// scale of ___update_load_sum(), kernel/sched/pelt.c),
// post_init_entity_util_avg() with attach_entity_load_avg() for a new
// task, and remove_entity_load_avg() from task_dead_fair() for an exiting
// one (kernel/sched/fair.c, Linux 6.1).

#include <algorithm>
#include <cstdint>

#include "sim/simulator_impl.h"

namespace schedsim::sim {

// PELT is invariant in frequency and in CPU capacity
// (kernel/sched/pelt.c ___update_load_sum / accumulate_sum scale running
// time by arch_scale_freq_capacity() and then arch_scale_cpu_capacity();
// kernel/sched/pelt.h update_rq_clock_pelt does the same to the PELT clock
// since v5.1, see sim/pelt.h): a task always running on a CPU of capacity
// 446 at its highest frequency tends to util 446.
uint32_t SimulatorImpl::ComputePeltScale(int cpu, int64_t khz) const {
  const int64_t max_khz = fdoms_[cpus_[cpu].domain].invariance_khz;
  // Without frequency invariance PELT counts running time at full weight
  // whatever the frequency (arch_scale_freq_capacity() = 1024).
  const uint32_t freq_scale = max_khz <= 0 || !config_.frequency_invariance
                                  ? 1024
                                  : static_cast<uint32_t>(std::min<int64_t>(
                                        1024, khz * 1024 / max_khz));
  return PeltScale(freq_scale, static_cast<uint32_t>(topo_.capacity(cpu)));
}

void SimulatorImpl::PostInitUtil(int cpu, int task) {
  Task& t = tasks_[task];
  t.pelt = PeltSignal{};
  t.pelt.last_update_ns = now_ns_;
  // Only the fair class starts with a utilization (post_init_entity_util_avg
  // returns early for the others, leaving 0).
  if (t.policy == SchedPolicy::kFifo) return;
  Cpu& c = cpus_[cpu];
  UpdatePelt(cpu);
  // Half the capacity the runqueue has left (of arch_scale_cpu_capacity);
  // on a runqueue with load, the
  // task's weight's share of its utilization, capped there. The runqueue's
  // load_avg is CpuLoad()'s estimate, as wake_affine_weight reads it.
  const int64_t rq_util = c.rq_pelt.util_avg;
  const int64_t cap = (int64_t{topo_.capacity(cpu)} - rq_util) / 2;
  int64_t util = 0;
  if (cap > 0) {
    util = rq_util == 0
               ? cap
               : std::min(cap, rq_util * t.weight / (wake_.CpuLoad(cpu) + 1));
  }
  t.pelt.util_avg = static_cast<uint32_t>(util);
  // attach_entity_load_avg(): onto the runqueue at once, a utilization
  // change (cfs_rq_util_change).
  PeltAttach(c.rq_pelt, t.pelt);
  c.util_changed = true;
  // init_entity_runnable_average(): a new task's load_avg starts at its
  // full weight, so a burst of forks weighs on its runqueue at once.
  if (!track_load_) return;
  PeltSignal& load = task_load_[task];
  load = PeltSignal{};
  load.util_avg = static_cast<uint32_t>(t.weight);
  UpdateRqLoad(cpu);
  PeltAttach(rq_load_[cpu], load);
}

void SimulatorImpl::DetachDeadUtil(int cpu, int task) {
  Task& t = tasks_[task];
  if (t.policy == SchedPolicy::kFifo) return;
  Cpu& c = cpus_[cpu];
  UpdatePelt(cpu);
  PeltUpdate(t.pelt, now_ns_, false, 0);
  PeltDetach(c.rq_pelt, t.pelt);
  t.pelt.util_avg = 0;
  t.pelt.util_sum = 0;
  c.util_changed = true;
  // remove_entity_load_avg(): its load leaves with it (runnable up to now).
  if (!track_load_) return;
  PeltSignal& load = task_load_[task];
  UpdateRqLoad(cpu);
  PeltUpdateLoad(load, now_ns_, t.rq_pos >= 0 || c.curr == task ? t.weight : 0);
  PeltDetach(rq_load_[cpu], load);
  load.util_avg = 0;
  load.util_sum = 0;
}

}  // namespace schedsim::sim
