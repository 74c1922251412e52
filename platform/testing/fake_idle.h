// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// FakeIdleDevice: a scripted IdleDevice for unit-testing cpuidle governors
// without the simulator. Set the inputs (time, next timer, PM QoS limit,
// iowait count), call the governor, and let IdlePeriod() play one idle
// period the way the cpuidle core does: Select, enter, wake after the
// given time, update the state's counters, Reflect.
//
//   FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
//   MenuGovernor menu(...);
//   menu.Enable(dev);
//   // Eight short idle periods woken early (not by the timer).
//   for (int i = 0; i < 8; ++i) {
//     dev.set_next_timer_in_ns(10'000'000);
//     dev.IdlePeriod(menu, /*idle_ns=*/30'000);
//   }
//   EXPECT_EQ(dev.state(dev.last_state()).name, "C1E");

#ifndef SCHEDSIM_PLATFORM_TESTING_FAKE_IDLE_H_
#define SCHEDSIM_PLATFORM_TESTING_FAKE_IDLE_H_

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "platform/cpuidle.h"
#include "topology/topology.h"

namespace schedsim::platform::testing {

class FakeIdleDevice final : public IdleDevice {
 public:
  FakeIdleDevice(int cpu, std::vector<topology::CState> states,
                 int64_t tick_period_ns = 4000000);
  // The C-state table of a built-in machine (aborts on an unknown name:
  // test code).
  static FakeIdleDevice ForPreset(const std::string& machine, int cpu = 0);

  // --- Inputs --------------------------------------------------------------
  void set_now_ns(int64_t now) { now_ns_ = now; }
  void Advance(int64_t ns) { now_ns_ += ns; }
  // The next timer event, relative to now (sleep length).
  void set_next_timer_in_ns(int64_t ns) { next_timer_in_ns_ = ns; }
  void set_latency_limit_ns(int64_t ns) { latency_limit_ns_ = ns; }
  void set_nr_iowait(int n) { nr_iowait_ = n; }
  void set_tick_stopped(bool stopped) { tick_stopped_ = stopped; }
  // sched_cpu_util() and arch_scale_cpu_capacity() as the governor reads
  // them.
  void set_cpu_util(int64_t util) { cpu_util_ = util; }
  void set_cpu_capacity(int64_t capacity) { cpu_capacity_ = capacity; }
  void set_poll_time_limit(bool hit) { poll_time_limit_ = hit; }
  void set_state_disabled(int index, bool disabled) {
    states_[index].disabled = disabled;
  }

  // One idle period: Select (records the choice and stop_tick), enter,
  // wake after `idle_ns` — or at the next timer if that comes first, and at
  // the next tick if the governor kept the tick and it comes first — then
  // update the counters and Reflect. Returns the state selected.
  // REQUIRES: the governor was Enable()d on this device.
  int IdlePeriod(IdleGovernor& governor, int64_t idle_ns);

  // --- What happened --------------------------------------------------------
  int last_state() const { return last_state_; }
  bool last_stop_tick() const { return last_stop_tick_; }
  // Every state selected, in order.
  const std::vector<int>& selections() const { return selections_; }
  // The last set_poll_limit_ns() (0 if none). Recorded only: the fake's
  // POLL periods end as IdlePeriod says, whatever the governor asked.
  int64_t poll_limit_ns() const { return poll_limit_ns_; }

  // --- IdleDevice
  // -------------------------------------------------------------
  int cpu() const override { return cpu_; }
  int state_count() const override { return static_cast<int>(states_.size()); }
  const topology::CState& state(int index) const override {
    return states_[index];
  }
  const IdleStateStats& stats(int index) const override {
    return stats_[index];
  }
  int64_t now_ns() const override { return now_ns_; }
  int64_t sleep_length_ns(int64_t* delta_tick_ns) const override;
  int64_t latency_limit_ns() const override { return latency_limit_ns_; }
  int64_t last_residency_ns() const override { return last_residency_ns_; }
  bool poll_time_limit() const override { return poll_time_limit_; }
  int nr_iowait() const override { return nr_iowait_; }
  bool tick_stopped() const override { return tick_stopped_; }
  int64_t cpu_util() const override { return cpu_util_; }
  int64_t cpu_capacity() const override { return cpu_capacity_; }
  int64_t tick_period_ns() const override { return tick_period_ns_; }
  void set_poll_limit_ns(int64_t ns) override { poll_limit_ns_ = ns; }

 private:
  int cpu_;
  std::vector<topology::CState> states_;
  std::vector<IdleStateStats> stats_;
  int64_t tick_period_ns_;
  int64_t now_ns_ = 0;
  int64_t next_timer_in_ns_ = std::numeric_limits<int64_t>::max() / 4;
  int64_t latency_limit_ns_ = std::numeric_limits<int64_t>::max();
  int64_t last_residency_ns_ = 0;
  int nr_iowait_ = 0;
  int64_t cpu_util_ = 0;
  int64_t cpu_capacity_ = 1024;
  bool tick_stopped_ = false;
  bool poll_time_limit_ = false;
  int64_t poll_limit_ns_ = 0;
  int last_state_ = -1;
  bool last_stop_tick_ = true;
  std::vector<int> selections_;
};

}  // namespace schedsim::platform::testing

#endif  // SCHEDSIM_PLATFORM_TESTING_FAKE_IDLE_H_
