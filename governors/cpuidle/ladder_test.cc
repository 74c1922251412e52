// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpuidle/ladder.h"

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

std::string Name(const FakeIdleDevice& dev, int state) {
  return dev.state(state).name;
}

void Periods(FakeIdleDevice& dev, LadderGovernor& ladder, int count,
             int64_t idle_ns) {
  for (int i = 0; i < count; ++i) {
    dev.set_next_timer_in_ns(100 * kMs);
    dev.IdlePeriod(ladder, idle_ns);
    dev.Advance(10 * kUs);
  }
}

TEST(LadderGovernorTest, PromotesAfterFourConsecutiveLongResidencies) {
  FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  LadderGovernor ladder;
  ladder.Enable(dev);
  // Starts on C1 (POLL skipped). Each 1 ms period is longer than any exit
  // latency; the fourth one in a row moves the ladder one step.
  Periods(dev, ladder, 13, 1 * kMs);
  // The first selection has no previous period to judge.
  EXPECT_EQ(dev.selections(),
            std::vector<int>({1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4}));
  EXPECT_TRUE(dev.last_stop_tick());
  // With long enough periods it climbs to the bottom of the table.
  Periods(dev, ladder, 40, 5 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C10");
}

TEST(LadderGovernorTest, DemotesAfterOneShortResidency) {
  FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  LadderGovernor ladder;
  ladder.Enable(dev);
  Periods(dev, ladder, 13, 1 * kMs);
  ASSERT_EQ(Name(dev, dev.last_state()), "C6");
  // 100 us in C6 is 15 us net of its 85 us exit latency: too short.
  Periods(dev, ladder, 1, 100 * kUs);
  Periods(dev, ladder, 1, 100 * kUs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C3");
  // 100 us in C3 (exit 70 us) is short again.
  Periods(dev, ladder, 1, 100 * kUs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C1E");
  // 100 us in C1E (exit 10 us) is long: climbing starts over.
  Periods(dev, ladder, 4, 100 * kUs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C3");
}

TEST(LadderGovernorTest, CountsAreParameters) {
  FakeIdleDevice dev = FakeIdleDevice::ForPreset("zen3-2s-nps1");
  LadderGovernor::Options options;
  options.promotion_count = 1;
  options.demotion_count = 2;
  LadderGovernor ladder(options);
  ladder.Enable(dev);
  Periods(dev, ladder, 3, 2 * kMs);
  EXPECT_EQ(dev.selections(), std::vector<int>({1, 2, 2}));
  // Two short periods in C2 (exit 400 us) before it steps back.
  Periods(dev, ladder, 3, 100 * kUs);
  EXPECT_EQ(dev.selections(), std::vector<int>({1, 2, 2, 2, 2, 1}));
}

TEST(LadderGovernorTest, LatencyLimitZeroPicksPoll) {
  for (const char* machine : {"skylake-e3-1240v5", "zen3-2s-nps1"}) {
    FakeIdleDevice dev = FakeIdleDevice::ForPreset(machine);
    LadderGovernor ladder;
    ladder.Enable(dev);
    Periods(dev, ladder, 10, 1 * kMs);
    dev.set_latency_limit_ns(0);
    Periods(dev, ladder, 2, 1 * kMs);
    EXPECT_EQ(Name(dev, dev.last_state()), "POLL") << machine;
  }
}

TEST(LadderGovernorTest, HonoursLatencyLimitAndDisabledStates) {
  FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  LadderGovernor ladder;
  ladder.Enable(dev);
  Periods(dev, ladder, 22, 1 * kMs);
  ASSERT_EQ(Name(dev, dev.last_state()), "C8");
  // A 100 us PM QoS limit: straight back to C6 (85 us).
  dev.set_latency_limit_ns(100 * kUs);
  Periods(dev, ladder, 1, 1 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C6");
  // ... and no further while it holds.
  Periods(dev, ladder, 10, 1 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C6");
  // The ladder cannot step over a disabled state.
  dev.set_latency_limit_ns(INT64_MAX);
  dev.set_state_disabled(5, true);  // C7s
  const size_t from = dev.selections().size();
  Periods(dev, ladder, 10, 1 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C6");
  // Disabling the state it stands on forces it one step back.
  dev.set_state_disabled(4, true);  // C6
  Periods(dev, ladder, 1, 1 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C3");
  // A limit below C1's exit latency (2 us) but not 0: POLL.
  dev.set_latency_limit_ns(1 * kUs);
  Periods(dev, ladder, 3, 1 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "POLL");
  for (size_t i = from; i < dev.selections().size(); ++i) {
    EXPECT_NE(dev.selections()[i], 5) << i;
  }
}

}  // namespace
}  // namespace schedsim::governors
