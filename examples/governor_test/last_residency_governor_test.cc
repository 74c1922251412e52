// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The example of docs/testing-governors.md: a governor unit-tested with the
// scripted kit (platform/testing/), without the simulator.

#include "examples/governor_test/last_residency_governor.h"

#include "gtest/gtest.h"
#include "platform/testing/fake_idle.h"

namespace example {
namespace {

using schedsim::platform::testing::FakeIdleDevice;

constexpr int64_t kUs = 1000;
constexpr int64_t kMs = 1000 * kUs;

TEST(LastResidencyGovernorTest, FollowsTheLastIdlePeriod) {
  // The Skylake client table: POLL C1 C1E C3 C6 C7s C8 C9 C10.
  FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  LastResidencyGovernor gov;
  gov.Enable(dev);

  // No history: the next timer (10 ms) decides: C10 (5 ms residency).
  dev.set_next_timer_in_ns(10 * kMs);
  dev.IdlePeriod(gov, /*idle_ns=*/50 * kUs);  // woken early, after 50 us
  EXPECT_EQ(dev.state(dev.last_state()).name, "C10");

  // The last period lasted 50 us: C1E (20 us) fits, C3 (100 us) does not.
  dev.set_next_timer_in_ns(10 * kMs);
  dev.IdlePeriod(gov, 50 * kUs);
  EXPECT_EQ(dev.state(dev.last_state()).name, "C1E");
  EXPECT_FALSE(dev.last_stop_tick());  // 50 us < the time to the tick

  // The counters the kernel keeps in sysfs: the C10 entry was too deep.
  EXPECT_EQ(dev.stats(8).usage, 1u);
  EXPECT_EQ(dev.stats(8).above, 1u);
}

TEST(LastResidencyGovernorTest, HonoursThePmQosLimit) {
  FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  LastResidencyGovernor gov;
  gov.Enable(dev);
  dev.set_latency_limit_ns(0);  // cpu_dma_latency = 0
  dev.set_next_timer_in_ns(10 * kMs);
  dev.IdlePeriod(gov, 1 * kMs);
  EXPECT_EQ(dev.state(dev.last_state()).name, "POLL");
}

}  // namespace
}  // namespace example
