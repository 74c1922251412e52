// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The idle-governor backend of ShadowIdle (shadow_idle.cc): an IdleDevice
// whose state is the trace's, set by the evaluator event by event.

#ifndef SCHEDSIM_SHADOW_TRACE_IDLE_DEVICE_H_
#define SCHEDSIM_SHADOW_TRACE_IDLE_DEVICE_H_

#include <cstdint>
#include <limits>
#include <vector>

#include "platform/cpuidle.h"
#include "shadow/shadow.h"
#include "topology/topology.h"

namespace schedsim::traces::shadow_internal {

// One CPU as the trace shows it to an idle governor.
class TraceIdleDevice final : public platform::IdleDevice {
 public:
  TraceIdleDevice(int cpu, const std::vector<topology::CState>* states,
                  int64_t tick_ns, const IdleShadowOptions& options)
      : cpu_(cpu),
        states_(states),
        stats_(states->size()),
        tick_ns_(tick_ns),
        assume_timer_in_ns_(options.assume_timer_in_ns),
        latency_limit_ns_(options.latency_limit_ns < 0
                              ? std::numeric_limits<int64_t>::max()
                              : options.latency_limit_ns) {}

  void set_now_ns(int64_t now) { now_ns_ = now; }
  void set_nr_iowait(int n) { nr_iowait_ = n; }
  void set_last_residency_ns(int64_t ns) { last_residency_ns_ = ns; }
  void set_poll_time_limit(bool hit) { poll_time_limit_ = hit; }
  platform::IdleStateStats& mutable_stats(int index) { return stats_[index]; }

  int cpu() const override { return cpu_; }
  int state_count() const override { return static_cast<int>(states_->size()); }
  const topology::CState& state(int index) const override {
    return (*states_)[index];
  }
  const platform::IdleStateStats& stats(int index) const override {
    return stats_[index];
  }
  int64_t now_ns() const override { return now_ns_; }
  int64_t sleep_length_ns(int64_t* delta_tick_ns) const override {
    const int64_t to_tick = tick_ns_ - now_ns_ % tick_ns_;
    if (delta_tick_ns != nullptr) *delta_tick_ns = to_tick;
    return assume_timer_in_ns_ > 0 ? assume_timer_in_ns_ : to_tick;
  }
  int64_t latency_limit_ns() const override { return latency_limit_ns_; }
  int64_t last_residency_ns() const override { return last_residency_ns_; }
  bool poll_time_limit() const override { return poll_time_limit_; }
  int nr_iowait() const override { return nr_iowait_; }
  bool tick_stopped() const override { return false; }
  int64_t tick_period_ns() const override { return tick_ns_; }

 private:
  int cpu_;
  const std::vector<topology::CState>* states_;
  std::vector<platform::IdleStateStats> stats_;
  int64_t tick_ns_;
  int64_t assume_timer_in_ns_;
  int64_t latency_limit_ns_;
  int64_t now_ns_ = 0;
  int64_t last_residency_ns_ = 0;
  int nr_iowait_ = 0;
  bool poll_time_limit_ = false;
};

}  // namespace schedsim::traces::shadow_internal

#endif  // SCHEDSIM_SHADOW_TRACE_IDLE_DEVICE_H_
