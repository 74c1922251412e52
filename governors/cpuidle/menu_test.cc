// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpuidle/menu.h"

#include <cstdint>
#include <cstdio>
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

// Idle periods ended by a wake-up after `idle_ns`, the next timer
// `timer_ns` away each time, with `busy_ns` of work in between.
void Periods(FakeIdleDevice& dev, MenuGovernor& menu, int count,
             int64_t timer_ns, int64_t idle_ns, int64_t busy_ns = 10 * kUs) {
  for (int i = 0; i < count; ++i) {
    dev.set_next_timer_in_ns(timer_ns);
    dev.IdlePeriod(menu, idle_ns);
    dev.Advance(busy_ns);
  }
}

TEST(MenuGovernorTest, DeepestFittingStateForLongIdlePeriods) {
  FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  MenuGovernor menu;
  menu.Enable(dev);
  // Woken by the timer every 10 ms: everything up to C10 (5 ms) fits.
  Periods(dev, menu, 12, /*timer_ns=*/10 * kMs, /*idle_ns=*/20 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C10");
  EXPECT_TRUE(dev.last_stop_tick());

  // The same on Zen3's short table: C2 (800 us) fits.
  FakeIdleDevice zen = FakeIdleDevice::ForPreset("zen3-2s-nps1");
  MenuGovernor menu2;
  menu2.Enable(zen);
  Periods(zen, menu2, 12, 10 * kMs, 20 * kMs);
  EXPECT_EQ(Name(zen, zen.last_state()), "C2");
}

TEST(MenuGovernorTest, ShallowerStateAfterRepeatedEarlyWakeups) {
  FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  MenuGovernor menu;
  menu.Enable(dev);
  Periods(dev, menu, 12, 10 * kMs, 20 * kMs);
  ASSERT_EQ(Name(dev, dev.last_state()), "C10");

  // Now woken 30 us after going idle although the timer is 10 ms away: the
  // sleep length alone says C10, the history says otherwise.
  Periods(dev, menu, 10, 10 * kMs, 30 * kUs);
  const int state = dev.last_state();
  EXPECT_LE(dev.state(state).target_residency_ns, 30 * kUs) << Name(dev, state);
  EXPECT_EQ(Name(dev, state), "C1E");
  // A short prediction keeps the tick as the safety net.
  EXPECT_FALSE(dev.last_stop_tick());
  // The correction factor of the 10-100 ms bucket learnt the ratio.
  EXPECT_LT(menu.correction_factor(0, /*bucket=*/4),
            MenuGovernor::kUnityFactor / 2);
}

TEST(MenuGovernorTest, IowaitMakesItShallower) {
  FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  MenuGovernor menu;
  menu.Enable(dev);
  Periods(dev, menu, 12, 8 * kMs, 20 * kMs);
  ASSERT_EQ(Name(dev, dev.last_state()), "C10");

  // One task of this CPU waits for IO: the exit latency must stay below
  // prediction / 11, which rules out C10 (890 us) but not C9 (480 us).
  dev.set_nr_iowait(1);
  Periods(dev, menu, 1, 8 * kMs, 20 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C9");
  dev.set_nr_iowait(3);
  Periods(dev, menu, 1, 8 * kMs, 20 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C8");
  dev.set_nr_iowait(0);
  Periods(dev, menu, 1, 8 * kMs, 20 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C10");
}

MenuGovernor::Options V416() {
  MenuGovernor::Options options;
  options.v416 = true;
  return options;
}

TEST(MenuGovernorTest, V416LetsTheTickStayStoppedAndPollsOnlyForSoonTimers) {
  FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  MenuGovernor menu(V416());
  menu.Enable(dev);
  Periods(dev, menu, 12, 10 * kMs, 20 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C10");
  // Woken 30 us in with the timer 10 ms away: the same C1E as v6.1, but
  // the idle loop had stopped the tick and menu leaves it stopped (v6.1
  // keeps it: ShallowerStateAfterRepeatedEarlyWakeups).
  Periods(dev, menu, 10, 10 * kMs, 30 * kUs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C1E");
  EXPECT_TRUE(dev.last_stop_tick());
  // POLL is the starting state only for a timer within max(20 us, C1's
  // 2 us residency), and taken only if C1 does not fit either.
  dev.set_next_timer_in_ns(1 * kUs);
  EXPECT_EQ(Name(dev, dev.IdlePeriod(menu, 1 * kUs)), "POLL");
  dev.set_next_timer_in_ns(15 * kUs);
  EXPECT_EQ(Name(dev, dev.IdlePeriod(menu, 15 * kUs)), "C1");
}

TEST(MenuGovernorTest, V416HasNoPollTimeLimitRule) {
  // Short periods teach the 10-100 ms bucket a low factor; then one POLL
  // period (latency limit 1 us) ends at the poll time limit after 20 us.
  // v6.1 takes it as lasting until the timer (10 ms) and its factor jumps;
  // v4.16 had no limit and no such rule: it counts the 20 us.
  auto factor_after = [](const MenuGovernor::Options& options) {
    FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
    MenuGovernor menu(options);
    menu.Enable(dev);
    Periods(dev, menu, 12, 10 * kMs, 30 * kUs);
    dev.set_latency_limit_ns(1 * kUs);
    dev.set_next_timer_in_ns(10 * kMs);
    // The fake device cuts POLL at the v6.1 limit (20 us) and flags it.
    EXPECT_EQ(Name(dev, dev.IdlePeriod(menu, 100 * kUs)), "POLL");
    const uint32_t before = menu.correction_factor(0, 4);
    dev.Advance(10 * kUs);
    dev.set_next_timer_in_ns(10 * kMs);
    dev.IdlePeriod(menu, 30 * kUs);  // its Select accounts the POLL period
    return static_cast<int64_t>(menu.correction_factor(0, 4)) - before;
  };
  // factor - factor/8 + 1024 x 10 ms/10 ms, against + 1024 x 20 us/10 ms.
  EXPECT_GT(factor_after(MenuGovernor::Options()), 300);
  EXPECT_LT(factor_after(V416()), 0);
}

TEST(MenuGovernorTest, LatencyLimitZeroPicksPoll) {
  for (const char* machine : {"skylake-e3-1240v5", "zen3-2s-nps1"}) {
    FakeIdleDevice dev = FakeIdleDevice::ForPreset(machine);
    MenuGovernor menu;
    menu.Enable(dev);
    Periods(dev, menu, 12, 10 * kMs, 20 * kMs);
    // /dev/cpu_dma_latency = 0.
    dev.set_latency_limit_ns(0);
    Periods(dev, menu, 3, 10 * kMs, 20 * kMs);
    EXPECT_EQ(Name(dev, dev.last_state()), "POLL") << machine;
    EXPECT_FALSE(dev.last_stop_tick()) << machine;
  }
}

TEST(MenuGovernorTest, HonoursLatencyLimit) {
  FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  MenuGovernor menu;
  menu.Enable(dev);
  dev.set_latency_limit_ns(100 * kUs);
  Periods(dev, menu, 12, 10 * kMs, 20 * kMs);
  // C6 exits in 85 us; C7s needs 124 us.
  EXPECT_EQ(Name(dev, dev.last_state()), "C6");
}

TEST(MenuGovernorTest, NeverPicksDisabledState) {
  FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  dev.set_state_disabled(8, true);  // C10
  dev.set_state_disabled(7, true);  // C9
  dev.set_state_disabled(0, true);  // POLL
  MenuGovernor menu;
  menu.Enable(dev);
  Periods(dev, menu, 12, 10 * kMs, 20 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C8");
  // With POLL disabled a zero PM QoS limit gets the shallowest enabled one.
  dev.set_latency_limit_ns(0);
  Periods(dev, menu, 2, 10 * kMs, 20 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C1");
  for (int s : dev.selections()) EXPECT_FALSE(dev.state_disabled(s)) << s;
}

// Seed 003 (Jeremy Eder, 2013): netperf TCP_RR on the receiver is a stream
// of short idle periods (here 20 us) between requests, with the next timer
// far away (10 ms), broken now and then by a longer pause (here 800 us).
// Mainline menu drops the pause from its typical interval as one outlier
// and stays shallow. With the 2012 repeat-mode timer the pause is cut into
// ~160 us timer-bounded pieces; they break the pattern (fewer than 6 of 8
// samples agree), the correction factor alone then predicts milliseconds,
// and the next request/response idle periods get a deep state until the
// pattern is re-learnt: the low C0 residency and lost transactions of the
// report.
// Idle periods of 16-28 us between requests, the next timer 10 ms away.
void Requests(FakeIdleDevice& dev, MenuGovernor& menu, int count) {
  static constexpr int64_t kGapsUs[] = {20, 23, 16, 28, 20, 18, 25, 21};
  for (int i = 0; i < count; ++i) {
    Periods(dev, menu, 1, 10 * kMs, kGapsUs[i % 8] * kUs);
  }
}

TEST(MenuGovernorTest, RepeatModeTimerDeepensStatesAfterAPause) {
  auto run = [](bool repeat_mode_timer, std::vector<int>* after_pause,
                int64_t* fires, bool general_mode_timer = true) {
    FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
    MenuGovernor::Options options;
    options.repeat_mode_timer = repeat_mode_timer;
    options.general_mode_timer = general_mode_timer;
    MenuGovernor menu(options);
    menu.Enable(dev);
    Requests(dev, menu, 30);
    EXPECT_EQ(Name(dev, dev.last_state()), "C1");
    EXPECT_EQ(menu.repeat_timer_fires(0), 0);    // the timer never expires
    dev.set_now_ns(40 * kMs);                    // just after a tick
    Periods(dev, menu, 1, 10 * kMs, 800 * kUs);  // the pause
    size_t from = dev.selections().size();
    Requests(dev, menu, 12);
    after_pause->assign(dev.selections().begin() + from,
                        dev.selections().end());
    *fires = menu.repeat_timer_fires(0);
  };
  std::vector<int> mainline, with_timer;
  int64_t mainline_fires = 0, timer_fires = 0;
  run(false, &mainline, &mainline_fires);
  run(true, &with_timer, &timer_fires);
  // Mainline: C1 (exit 2 us) throughout.
  EXPECT_EQ(mainline, std::vector<int>(12, 1));
  EXPECT_EQ(mainline_fires, 0);
  // With the timer: four virtual wake-ups during the pause, then C3 (exit
  // 70 us) for the next six requests, then C1 again.
  EXPECT_EQ(timer_fires, 4);
  EXPECT_EQ(with_timer, std::vector<int>({3, 3, 3, 3, 3, 3, 1, 1, 1, 1, 1, 1}));
  // e11538d1 reverted alone: the repeat mode (69a37bea) does the same.
  std::vector<int> repeat_only;
  int64_t repeat_only_fires = 0;
  run(true, &repeat_only, &repeat_only_fires, /*general_mode_timer=*/false);
  EXPECT_EQ(repeat_only_fires, 4);
  EXPECT_EQ(repeat_only, with_timer);
}

// The "general case" half of the 2012 patches: no pattern (scattered idle
// periods), the next timer 100 ms away (over perfect_cstate_ms), so the
// correction factor alone predicts a few hundred microseconds and C6 is
// chosen; then a 3 ms pause outlasts the timer (2 x (prediction + 60 us)).
TEST(MenuGovernorTest, GeneralModeTimerResetsCorrectionFactor) {
  static constexpr int64_t kIdleUs[] = {30, 400, 60, 900, 45, 250, 70, 1500};
  auto run = [](bool repeat_mode_timer, std::vector<int>* after_pause,
                uint32_t* factor, int64_t* fires,
                bool general_mode_timer = true) {
    FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
    MenuGovernor::Options options;
    options.repeat_mode_timer = repeat_mode_timer;
    options.general_mode_timer = general_mode_timer;
    MenuGovernor menu(options);
    menu.Enable(dev);
    for (int i = 0; i < 100; ++i) {
      dev.set_now_ns((i + 1) * 4 * kMs);
      Periods(dev, menu, 1, 100 * kMs, kIdleUs[i % 8] * kUs);
    }
    dev.set_now_ns(500 * kMs);
    Periods(dev, menu, 1, 100 * kMs, 3 * kMs);
    size_t from = dev.selections().size();
    for (int i = 0; i < 8; ++i) {
      dev.set_now_ns((i + 130) * 4 * kMs);
      Periods(dev, menu, 1, 100 * kMs, kIdleUs[i % 8] * kUs);
    }
    after_pause->assign(dev.selections().begin() + from,
                        dev.selections().end());
    *factor = menu.correction_factor(0, 5);
    *fires = menu.repeat_timer_fires(0);
  };
  std::vector<int> mainline, with_timer;
  uint32_t mainline_factor = 0, timer_factor = 0;
  int64_t mainline_fires = 0, timer_fires = 0;
  run(false, &mainline, &mainline_factor, &mainline_fires);
  run(true, &with_timer, &timer_factor, &timer_fires);
  // Mainline: the pause is one more sample of the ratio; C6 (200 us) as
  // before.
  EXPECT_EQ(mainline_fires, 0);
  EXPECT_EQ(mainline, std::vector<int>(8, 4));
  // With the timer: it fires during the pause, the factor of the 10 ms+
  // bucket goes back to 1.0, and the following idle periods get C10.
  EXPECT_GT(timer_fires, 0);
  EXPECT_GT(timer_factor, 10 * mainline_factor);
  EXPECT_EQ(with_timer, std::vector<int>(8, 8));
  // e11538d1 reverted (repeat mode only): no pattern, so no timer at all;
  // the same choices and factor as mainline.
  std::vector<int> repeat_only;
  uint32_t repeat_only_factor = 0;
  int64_t repeat_only_fires = 0;
  run(true, &repeat_only, &repeat_only_factor, &repeat_only_fires,
      /*general_mode_timer=*/false);
  EXPECT_EQ(repeat_only_fires, 0);
  EXPECT_EQ(repeat_only_factor, mainline_factor);
  EXPECT_EQ(repeat_only, mainline);
}

TEST(MenuGovernorTest, RepeatModeTimerDoesNothingWhenPredictionsHold) {
  // Idle periods that end before the timer would expire: same choices.
  FakeIdleDevice a = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  FakeIdleDevice b = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  MenuGovernor mainline;
  MenuGovernor::Options options;
  options.repeat_mode_timer = true;
  MenuGovernor with_timer(options);
  mainline.Enable(a);
  with_timer.Enable(b);
  for (int64_t idle_us : {20, 25, 18, 30, 22, 20, 120, 20, 24, 21, 19, 20}) {
    Periods(a, mainline, 1, 10 * kMs, idle_us * kUs);
    Periods(b, with_timer, 1, 10 * kMs, idle_us * kUs);
  }
  EXPECT_EQ(a.selections(), b.selections());
  EXPECT_EQ(with_timer.repeat_timer_fires(0), 0);
}

TEST(MenuGovernorTest, PerCpuState) {
  FakeIdleDevice cpu0 = FakeIdleDevice::ForPreset("skylake-e3-1240v5", 0);
  FakeIdleDevice cpu5 = FakeIdleDevice::ForPreset("skylake-e3-1240v5", 5);
  MenuGovernor menu;
  menu.Enable(cpu0);
  menu.Enable(cpu5);
  for (int i = 0; i < 12; ++i) {
    Periods(cpu0, menu, 1, 10 * kMs, 20 * kMs);
    Periods(cpu5, menu, 1, 10 * kMs, 30 * kUs);
  }
  EXPECT_EQ(Name(cpu0, cpu0.last_state()), "C10");
  EXPECT_EQ(Name(cpu5, cpu5.last_state()), "C1E");
}

}  // namespace
}  // namespace schedsim::governors
