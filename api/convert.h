// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Internal to the library implementation (not installed): the public
// Metrics summarized from the engine's SimStats (percentiles of its
// histograms, idle-state names, rates; the counters are the engine's own
// types), and the trace-sink bridge.

#ifndef SCHEDSIM_API_CONVERT_H_
#define SCHEDSIM_API_CONVERT_H_

#include "schedsim/metrics.h"
#include "schedsim/trace.h"
#include "sim/stats.h"
#include "sim/trace_sink.h"
#include "topology/topology.h"

namespace schedsim::api {

// What Simulation::GetMetrics() returns for the engine's statistics.
Metrics SummarizeStats(const sim::SimStats& stats,
                       const topology::Topology& machine);

// A sim::TraceSink forwarding to a public TraceSink.
class TraceSinkBridge final : public sim::TraceSink {
 public:
  explicit TraceSinkBridge(schedsim::TraceSink* target) : target_(target) {}
  void set_target(schedsim::TraceSink* target) { target_ = target; }

  void OnSwitch(int64_t time_ns, int cpu, int prev, int next) override {
    target_->OnSwitch(time_ns, cpu, prev, next);
  }
  void OnWakeup(int64_t time_ns, int task, int cpu, int waker_cpu) override {
    target_->OnWakeup(time_ns, task, cpu, waker_cpu);
  }
  void OnMigrate(int64_t time_ns, int task, int from_cpu, int to_cpu) override {
    target_->OnMigrate(time_ns, task, from_cpu, to_cpu);
  }
  void OnIdle(int64_t time_ns, int cpu, int state) override {
    target_->OnIdle(time_ns, cpu, state);
  }
  void OnFrequency(int64_t time_ns, int cpu, int64_t khz) override {
    target_->OnFrequency(time_ns, cpu, khz);
  }
  void OnTaskExit(int64_t time_ns, int task) override {
    target_->OnTaskExit(time_ns, task);
  }

 private:
  schedsim::TraceSink* target_;
};

// The engine-side sink of a TraceWriter made by TraceWriter::Create, so
// that a simulation can hand it to the engine directly; nullptr for any
// other sink.
sim::TraceSink* EngineSinkOf(schedsim::TraceSink* sink);

}  // namespace schedsim::api

#endif  // SCHEDSIM_API_CONVERT_H_
