// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// TraceSink: receives the simulator's trace events (the sched_switch,
// sched_wakeup, sched_migrate_task, cpu_idle and cpu_frequency of ftrace).
// The simulator holds a plain pointer and tests it before each call, so a
// run without a sink pays one predictable branch per traced point.

#ifndef SCHEDSIM_SIM_TRACE_SINK_H_
#define SCHEDSIM_SIM_TRACE_SINK_H_

#include <cstdint>

namespace schedsim::sim {

class TraceSink {
 public:
  virtual ~TraceSink() = default;
  // `prev`/`next` are task ids, -1 for the idle task.
  virtual void OnSwitch(int64_t time_ns, int cpu, int prev, int next) {}
  // A task became runnable on `cpu`, woken from `waker_cpu`.
  virtual void OnWakeup(int64_t time_ns, int task, int cpu, int waker_cpu) {}
  virtual void OnMigrate(int64_t time_ns, int task, int from_cpu, int to_cpu) {}
  // `state` = idle state index entered; -1 when leaving idle.
  virtual void OnIdle(int64_t time_ns, int cpu, int state) {}
  virtual void OnFrequency(int64_t time_ns, int cpu, int64_t khz) {}
  virtual void OnTaskExit(int64_t time_ns, int task) {}
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_TRACE_SINK_H_
