// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The engine's shared state without the engine: the probe bits an
// idle-CPU scan reads (available_idle_cpu(), sched_idle_cpu()), SIS_PROP's
// wake_avg_idle ageing and the scan's billing.

#include "sim/engine_state.h"

#include <cstdint>

#include "gtest/gtest.h"
#include "sim/sched_state.h"

namespace schedsim::sim {
namespace {

// The state with its members open to the test.
class TestState : public EngineState {
 public:
  explicit TestState(int cpus) {
    cpus_.resize(static_cast<size_t>(cpus));
    probe_.resize(static_cast<size_t>(cpus));
    avg_scan_cost_ns_.resize(static_cast<size_t>(cpus));
  }
  using EngineState::cpus_;
  using EngineState::llcs_;
  using EngineState::sched_idle_bit_;
};

TEST(EngineStateTest, AnIdleCpuIsAvailableOnlyWithNothingQueuedOrInFlight) {
  TestState s(5);
  s.cpus_[0].mode = CpuMode::kBusy;  // running a task
  s.cpus_[0].nr_running = 1;
  s.cpus_[1].mode = CpuMode::kIdle;  // in a C-state, nothing queued
  s.cpus_[2].mode = CpuMode::kIdle;  // a wake-up is on its way to it
  s.cpus_[2].ttwu_pending = 1;
  s.cpus_[3].mode = CpuMode::kAwake;  // in its newidle balance
  s.cpus_[3].exiting = true;
  s.cpus_[3].newidle_walk = true;
  s.cpus_[4].mode = CpuMode::kAwake;  // leaving a C-state (no walk)
  s.cpus_[4].exiting = true;
  for (int c = 0; c < 5; ++c) s.RefreshProbe(c);
  EXPECT_FALSE(s.available_idle(0));
  EXPECT_TRUE(s.available_idle(1));
  EXPECT_FALSE(s.available_idle(2));
  EXPECT_FALSE(s.available_idle(3));
  EXPECT_TRUE(s.available_idle(4));
  for (int c = 0; c < 5; ++c) {
    EXPECT_EQ(s.idle_for_wakeup(c), s.available_idle(c)) << c;
    EXPECT_FALSE(s.sched_idle(c)) << c;
  }
}

TEST(EngineStateTest, ARunqueueOfSchedIdleTasksIsSchedIdleSinceV54) {
  TestState s(2);
  for (int c = 0; c < 2; ++c) {
    s.cpus_[c].mode = CpuMode::kBusy;
    s.cpus_[c].nr_running = 2;
  }
  s.cpus_[0].nr_sched_idle = 2;  // every runnable task SCHED_IDLE
  s.cpus_[1].nr_sched_idle = 1;
  for (int c = 0; c < 2; ++c) s.RefreshProbe(c);
  EXPECT_TRUE(s.sched_idle(0));
  EXPECT_TRUE(s.idle_for_wakeup(0));
  EXPECT_FALSE(s.available_idle(0));
  EXPECT_FALSE(s.sched_idle(1));
  EXPECT_FALSE(s.idle_for_wakeup(1));
  // Before v5.4 (SimConfig::sched_idle_fallback off) no CPU is sched-idle.
  s.sched_idle_bit_ = 0;
  s.RefreshProbe(0);
  EXPECT_FALSE(s.sched_idle(0));
  EXPECT_FALSE(s.idle_for_wakeup(0));
}

TEST(EngineStateTest, WakeAvgIdleHalvesOncePerJiffySinceItsStamp) {
  TestState s(1);
  s.set_wake_avg_idle_ns(0, 800000);
  s.cpus_[0].wake_stamp_jiffies = 10;
  EXPECT_EQ(s.AgeWakeAvgIdleNs(0, 10), 800000);
  EXPECT_EQ(s.AgeWakeAvgIdleNs(0, 13), 100000);
  EXPECT_EQ(s.cpu_state(0).wake_stamp_jiffies, 13);
  EXPECT_EQ(s.AgeWakeAvgIdleNs(0, 13), 100000);  // aged once per jiffy
  // At 0 the stamp stops: a later value ages from where it is set.
  EXPECT_EQ(s.AgeWakeAvgIdleNs(0, 100), 0);
  EXPECT_LT(s.cpu_state(0).wake_stamp_jiffies, 100);
}

TEST(EngineStateTest, TheScanIsBilledPerProbeAndTheLlcStateIsShared) {
  TestState s(2);
  s.llcs_.resize(1);
  EXPECT_EQ(s.scan_probes(), 0);
  s.CountProbe();
  s.CountProbe();
  EXPECT_EQ(s.scan_probes(), 2);
  EXPECT_FALSE(s.has_idle_cores(0));
  s.set_has_idle_cores(0, true);
  EXPECT_TRUE(s.has_idle_cores(0));
  s.set_avg_scan_cost_ns(1, 1500);
  EXPECT_EQ(s.avg_scan_cost_ns(1), 1500);
  EXPECT_EQ(s.avg_scan_cost_ns(0), 0);
}

}  // namespace
}  // namespace schedsim::sim
