// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// A task's life cycle in its slots: created as copy_process() and
// sched_fork() set up a task_struct (kernel/fork.c, kernel/sched/core.c,
// Linux 6.1; the fair class's task_fork_fair(), and from 6.12 the slice
// of sched_setattr()), and its slot reused once finish_task_switch() has
// dropped an exited task's last reference.

#include <cassert>

#include "sim/simulator_impl.h"

namespace schedsim::sim {

int SimulatorImpl::CreateTask(int spec_index, int parent_cpu) {
  const SpecInfo& spec = specs_[spec_index];
  Task t;
  t.program = spec.program;
  t.spec = spec_index;
  t.channel_base = spec.channel_base;
  t.policy = spec.policy;
  t.rt_priority = spec.rt_priority;
  t.weight = spec.weight;
  t.uclamp_min = spec.uclamp_min;
  t.uclamp_max = spec.uclamp_max;
  t.has_affinity = spec.affinity >= 0;
  t.cpu = parent_cpu;
  // Utilization 0 until PostInitUtil() attaches it to its first CPU
  // (init_entity_runnable_average()).
  t.pelt.last_update_ns = now_ns_;
  PeltSignal load;
  load.last_update_ns = now_ns_;
  if (!free_task_slots_.empty()) {
    // An exited task's slot (ReapTask): every per-task array starts anew.
    const int id = free_task_slots_.back();
    free_task_slots_.pop_back();
    ++tasks_reaped_;
    tasks_[id] = t;
    task_stats_[id] = TaskCounters();
    task_load_[id] = load;
    if (util_est_) task_util_est_[id] = UtilEst();
    chan_.NewTask(id);
    noise_.NewTask(id);
    NewFairTask(id, spec);
    return id;
  }
  const int id = static_cast<int>(tasks_.size());
  tasks_.push_back(t);
  task_stats_.emplace_back();
  task_load_.push_back(load);
  if (util_est_) task_util_est_.emplace_back();
  chan_.NewTask(id);
  noise_.NewTask(id);
  NewFairTask(id, spec);
  return id;
}

void SimulatorImpl::NewFairTask(int id, const SpecInfo& spec) {
  Fair([&](auto& f) { f.TaskNew(id); });
  // sched_setattr()'s sched_runtime as the slice (commit 857b158dc5e8,
  // "sched/eevdf: Use sched_attr::sched_runtime to set request/slice
  // suggestion", v6.12).
  if (eevdf_on_ && config_.task_slices && spec.slice_ns > 0 &&
      spec.policy != SchedPolicy::kFifo) {
    eevdf_.SetSlice(id, spec.slice_ns);
  }
}

void SimulatorImpl::ReapTask(int id) {
  assert(tasks_[id].state == TaskState::kDead && tasks_[id].rq_pos < 0);
  free_task_slots_.push_back(id);
}

}  // namespace schedsim::sim
