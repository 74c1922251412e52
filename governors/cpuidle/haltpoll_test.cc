// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpuidle/haltpoll.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "platform/testing/fake_idle.h"

namespace schedsim::governors {
namespace {

using platform::testing::FakeIdleDevice;

constexpr int64_t kUs = 1000;
constexpr int64_t kMs = 1000 * kUs;

// Zen3's acpi_idle table: POLL (its time limit is TICK_NSEC / 16 = 250 us,
// longer than haltpoll's largest window, as with the KVM haltpoll driver),
// C1 as the halt state.
FakeIdleDevice Guest() { return FakeIdleDevice::ForPreset("zen3-2s-nps1"); }

void Periods(FakeIdleDevice& dev, HaltpollGovernor& gov, int count,
             int64_t idle_ns) {
  for (int i = 0; i < count; ++i) {
    dev.set_next_timer_in_ns(100 * kMs);
    dev.IdlePeriod(gov, idle_ns);
    dev.Advance(10 * kUs);
  }
}

TEST(HaltpollGovernorTest, HaltsWithAnEmptyWindow) {
  FakeIdleDevice dev = Guest();
  HaltpollGovernor gov;
  gov.Enable(dev);
  EXPECT_EQ(gov.poll_limit_ns(0), 0);
  Periods(dev, gov, 1, 1 * kMs);
  EXPECT_EQ(dev.last_state(), 1);
  EXPECT_TRUE(dev.last_stop_tick());
  // 1 ms is beyond guest_halt_poll_ns: nothing to grow.
  EXPECT_EQ(gov.poll_limit_ns(0), 0);
  Periods(dev, gov, 3, 1 * kMs);
  EXPECT_EQ(dev.selections(), std::vector<int>({1, 1, 1, 1}));
}

TEST(HaltpollGovernorTest, GrowsWindowWhenPollWasJustTooShort) {
  FakeIdleDevice dev = Guest();
  HaltpollGovernor gov;
  gov.Enable(dev);
  // Woken 120 us into a halt: polling 120 us would have caught it. The
  // window starts at guest_halt_poll_grow_start.
  Periods(dev, gov, 1, 120 * kUs);
  EXPECT_EQ(gov.poll_limit_ns(0), 50 * kUs);
  // Then it polls; woken after 120 us again. The kernel would have stopped
  // polling at 50 us and halted for 70 us: still just too short, so the
  // window doubles (accounted when the CPU next goes idle).
  Periods(dev, gov, 1, 120 * kUs);
  EXPECT_EQ(dev.last_state(), 0);
  EXPECT_FALSE(dev.last_stop_tick());
  // Wake-ups every 80 us now come while polling: the CPU keeps polling.
  Periods(dev, gov, 5, 80 * kUs);
  EXPECT_EQ(gov.poll_limit_ns(0), 100 * kUs);
  EXPECT_EQ(dev.selections(), std::vector<int>({1, 0, 0, 0, 0, 0, 0}));
  // Wake-ups 230 us after going idle: 130 us past the window, grow again,
  // up to guest_halt_poll_ns.
  Periods(dev, gov, 3, 230 * kUs);
  EXPECT_EQ(gov.poll_limit_ns(0), 200 * kUs);
}

// haltpoll_select() polls with dev->poll_limit_ns = the window
// (adjust_poll_limit(), drivers/cpuidle/governors/haltpoll.c, v6.1): each
// poll hands the current window to the device as the POLL time limit.
TEST(HaltpollGovernorTest, PollHandsWindowToDevice) {
  FakeIdleDevice dev = Guest();
  HaltpollGovernor gov;
  gov.Enable(dev);
  Periods(dev, gov, 1, 120 * kUs);  // halt, window -> 50 us
  EXPECT_EQ(dev.poll_limit_ns(), 0);
  Periods(dev, gov, 1, 20 * kUs);  // poll
  ASSERT_EQ(dev.last_state(), 0);
  EXPECT_EQ(dev.poll_limit_ns(), 50 * kUs);
  EXPECT_EQ(dev.poll_limit_ns(), gov.poll_limit_ns(0));
}

TEST(HaltpollGovernorTest, ShrinksWindowAfterLongIdle) {
  FakeIdleDevice dev = Guest();
  HaltpollGovernor gov;
  gov.Enable(dev);
  Periods(dev, gov, 2, 120 * kUs);
  Periods(dev, gov, 1, 80 * kUs);
  ASSERT_EQ(gov.poll_limit_ns(0), 100 * kUs);
  // A 5 ms idle period: the POLL runs out (at its 250 us limit; haltpoll's
  // own window would have ended it at 100 us) and the CPU halts for the
  // rest. The halt, longer than guest_halt_poll_ns, halves the window.
  Periods(dev, gov, 1, 5 * kMs);
  EXPECT_EQ(dev.last_state(), 0);
  Periods(dev, gov, 1, 5 * kMs - 250 * kUs);
  EXPECT_EQ(dev.last_state(), 1);
  EXPECT_TRUE(dev.last_stop_tick());
  EXPECT_EQ(gov.poll_limit_ns(0), 50 * kUs);
  // After the halt, it polls again.
  Periods(dev, gov, 1, 20 * kUs);
  EXPECT_EQ(dev.last_state(), 0);
}

TEST(HaltpollGovernorTest, ShrinkCanBeDisabledOrReset) {
  {
    FakeIdleDevice dev = Guest();
    HaltpollGovernor::Options options;
    options.allow_shrink = false;
    HaltpollGovernor gov(options);
    gov.Enable(dev);
    Periods(dev, gov, 2, 120 * kUs);
    Periods(dev, gov, 4, 1 * kMs);
    EXPECT_EQ(gov.poll_limit_ns(0), 100 * kUs);
  }
  {
    FakeIdleDevice dev = Guest();
    HaltpollGovernor::Options options;
    options.shrink = 0;
    HaltpollGovernor gov(options);
    gov.Enable(dev);
    Periods(dev, gov, 2, 120 * kUs);
    Periods(dev, gov, 2, 1 * kMs);  // poll, then halt
    EXPECT_EQ(gov.poll_limit_ns(0), 0);
    Periods(dev, gov, 1, 1 * kMs);
    EXPECT_EQ(dev.last_state(), 1);  // an empty window: halt
  }
}

TEST(HaltpollGovernorTest, LatencyLimitZeroPicksPoll) {
  for (const char* machine : {"skylake-e3-1240v5", "zen3-2s-nps1"}) {
    FakeIdleDevice dev = FakeIdleDevice::ForPreset(machine);
    HaltpollGovernor gov;
    gov.Enable(dev);
    dev.set_latency_limit_ns(0);
    Periods(dev, gov, 3, 1 * kMs);
    EXPECT_EQ(dev.selections(), std::vector<int>({0, 0, 0})) << machine;
    EXPECT_FALSE(dev.last_stop_tick());
  }
}

TEST(HaltpollGovernorTest, NeverPicksDisabledState) {
  FakeIdleDevice dev = Guest();
  dev.set_state_disabled(1, true);
  HaltpollGovernor gov;
  gov.Enable(dev);
  Periods(dev, gov, 4, 120 * kUs);
  EXPECT_EQ(dev.selections(), std::vector<int>({2, 0, 0, 0}));
  dev.set_state_disabled(0, true);
  Periods(dev, gov, 3, 120 * kUs);
  EXPECT_EQ(dev.selections(), std::vector<int>({2, 0, 0, 0, 2, 2, 2}));
}

}  // namespace
}  // namespace schedsim::governors
