// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpuidle/teo.h"

#include <cstdint>
#include <string>

#include "gtest/gtest.h"
#include "platform/testing/fake_idle.h"

namespace schedsim::governors {
namespace {

using platform::testing::FakeIdleDevice;

constexpr int64_t kUs = 1000;
constexpr int64_t kMs = 1000 * kUs;

std::string Name(const FakeIdleDevice& dev, int state) {
  return dev.state(state).name;
}

void Periods(FakeIdleDevice& dev, TeoGovernor& teo, int count, int64_t timer_ns,
             int64_t idle_ns, int64_t busy_ns = 10 * kUs) {
  for (int i = 0; i < count; ++i) {
    dev.set_next_timer_in_ns(timer_ns);
    dev.IdlePeriod(teo, idle_ns);
    dev.Advance(busy_ns);
  }
}

TEST(TeoGovernorTest, DeepestStateFittingTheTimerWithoutHistory) {
  FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  TeoGovernor teo;
  teo.Enable(dev);
  Periods(dev, teo, 1, 10 * kMs, 20 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C10");
  EXPECT_TRUE(dev.last_stop_tick());
  // A timer 1 ms away: C8 (800 us) fits, C9 (5 ms) does not.
  Periods(dev, teo, 1, 1 * kMs, 20 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C8");
  // Closer than C1's 2 us: POLL, with the tick kept.
  Periods(dev, teo, 1, 1 * kUs, 20 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "POLL");
  EXPECT_FALSE(dev.last_stop_tick());
}

TEST(TeoGovernorTest, ShallowerStateAfterRepeatedIntercepts) {
  FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  TeoGovernor teo;
  teo.Enable(dev);
  // The timer is 10 ms away but something wakes the CPU after 50 us, every
  // time: each wake-up is an intercept in C1E's bin [20 us, 100 us).
  Periods(dev, teo, 1, 10 * kMs, 50 * kUs);
  EXPECT_EQ(Name(dev, dev.selections()[0]), "C10");
  Periods(dev, teo, 10, 10 * kMs, 50 * kUs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C1E");
  // Expected idle duration: the middle of C1E's bin, shorter than a tick.
  EXPECT_FALSE(dev.last_stop_tick());
  EXPECT_GT(teo.bin(0, 2).intercepts, teo.bin(0, 8).hits);
}

TEST(TeoGovernorTest, DeeperAgainAfterRepeatedHits) {
  FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  TeoGovernor teo;
  teo.Enable(dev);
  Periods(dev, teo, 12, 10 * kMs, 50 * kUs);
  ASSERT_EQ(Name(dev, dev.last_state()), "C1E");
  // Now the CPU sleeps until its timer (or the kept tick, which counts the
  // same when the timer is further than a tick): hits in the timer's bin.
  Periods(dev, teo, 30, 10 * kMs, 1000 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C10");
  EXPECT_TRUE(dev.last_stop_tick());
  EXPECT_GT(teo.bin(0, 8).hits, teo.bin(0, 2).intercepts);
}

TEST(TeoGovernorTest, HitsKeepItDeep) {
  FakeIdleDevice dev = FakeIdleDevice::ForPreset("zen3-2s-nps1");
  TeoGovernor teo;
  teo.Enable(dev);
  // Mostly timer wake-ups with a few early ones: C2 stays.
  for (int i = 0; i < 40; ++i) {
    Periods(dev, teo, 1, 5 * kMs, i % 5 == 0 ? 50 * kUs : 1000 * kMs);
    if (i >= 20) {
      EXPECT_EQ(Name(dev, dev.last_state()), "C2") << i;
    }
  }
}

TEST(TeoGovernorTest, LatencyLimitZeroPicksPoll) {
  for (const char* machine : {"skylake-e3-1240v5", "zen3-2s-nps1"}) {
    FakeIdleDevice dev = FakeIdleDevice::ForPreset(machine);
    TeoGovernor teo;
    teo.Enable(dev);
    dev.set_latency_limit_ns(0);
    Periods(dev, teo, 3, 10 * kMs, 20 * kMs);
    EXPECT_EQ(Name(dev, dev.last_state()), "POLL") << machine;
    EXPECT_FALSE(dev.last_stop_tick()) << machine;
  }
}

TEST(TeoGovernorTest, HonoursLatencyLimitAndDisabledStates) {
  FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  TeoGovernor teo;
  teo.Enable(dev);
  dev.set_latency_limit_ns(100 * kUs);
  Periods(dev, teo, 5, 10 * kMs, 20 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C6");  // 85 us; C7s needs 124
  dev.set_latency_limit_ns(INT64_MAX);
  dev.set_state_disabled(8, true);  // C10
  dev.set_state_disabled(7, true);  // C9
  Periods(dev, teo, 5, 10 * kMs, 20 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C8");
  // Intercepts pointing at a disabled state: the next enabled deeper one.
  dev.set_state_disabled(2, true);  // C1E
  Periods(dev, teo, 20, 10 * kMs, 50 * kUs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C3");
  for (int s : dev.selections()) EXPECT_FALSE(dev.state_disabled(s)) << s;
}

TEST(TeoGovernorTest, TickStoppedAvoidsShallowStates) {
  FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  TeoGovernor teo;
  teo.Enable(dev);
  Periods(dev, teo, 12, 10 * kMs, 50 * kUs);
  ASSERT_EQ(Name(dev, dev.last_state()), "C1E");
  // With the tick already stopped nothing would end a wrong shallow choice:
  // only states whose bin's middle is at least a tick (4 ms) qualify. The
  // intercepts still point below C10, but the shallowest qualifying state
  // is C9 (bin middle 5 ms; C8's is 2.9 ms).
  dev.set_tick_stopped(true);
  Periods(dev, teo, 1, 10 * kMs, 50 * kUs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C9");
  EXPECT_TRUE(dev.last_stop_tick());
}

}  // namespace
}  // namespace schedsim::governors
