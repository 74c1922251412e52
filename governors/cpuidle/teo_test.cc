// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpuidle/teo.h"

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

TeoGovernor Teo512() {
  TeoGovernor::Options options;
  options.v512 = true;
  return TeoGovernor(options);
}

// 40 timer wake-ups (timer 10 ms away), then early wake-ups after each of
// `idle_ns`, then one more selection: its state.
std::string AfterHitsThenIntercepts(TeoGovernor& teo, FakeIdleDevice& dev,
                                    const std::vector<int64_t>& idle_ns) {
  teo.Enable(dev);
  Periods(dev, teo, 40, 10 * kMs, 1000 * kMs);
  for (int64_t ns : idle_ns) Periods(dev, teo, 1, 10 * kMs, ns);
  Periods(dev, teo, 1, 10 * kMs, 1000 * kMs);
  return Name(dev, dev.selections()[40 + idle_ns.size()]);
}

// Five early wake-ups after 40 timer ones, the tick stopped. v6.1: 5 of the
// last 9 wake-ups were intercepts (more than NR_RECENT / 2), so it looks
// for a shallower state, and with the tick stopped the shallowest whose
// bin's middle is a tick (4 ms) is C9. v5.12 weighs C10's own hits (4185
// after decay) against its misses (3991): hits win and C10 stays; the
// average of the short durations (25 us) is below a tick, so it is not
// used with the tick stopped.
TEST(TeoVersionTest, RecentInterceptsMoveOnlyV61) {
  const std::vector<int64_t> early(5, 50 * kUs);
  FakeIdleDevice dev61 = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  dev61.set_tick_stopped(true);
  TeoGovernor teo61;
  EXPECT_EQ(AfterHitsThenIntercepts(teo61, dev61, early), "C9");
  FakeIdleDevice dev512 = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  dev512.set_tick_stopped(true);
  TeoGovernor teo512 = Teo512();
  EXPECT_EQ(AfterHitsThenIntercepts(teo512, dev512, early), "C10");
  EXPECT_EQ(teo512.state512(0, 8).hits, 4185u);
  EXPECT_EQ(teo512.state512(0, 8).misses, 3991u);
}

// The same with the tick running and the early wake-ups after 300 us (3)
// and 20 us (2), all from C10 (exit latency 890 us, so measured as half:
// 150 us in C3's bin, 10 us in C1's). v6.1: the recent intercepts' majority
// lies at C3 and below (3 of 5): C3. v5.12: 5 of the last 8 durations are
// below the 10 ms expected, their average 94 us becomes the expected
// duration: the deepest state fitting it, C1E (20 us; C3 needs 100).
TEST(TeoVersionTest, V512UsesTheAverageOfRecentDurations) {
  const std::vector<int64_t> early = {300 * kUs, 20 * kUs, 300 * kUs, 20 * kUs,
                                      300 * kUs};
  FakeIdleDevice dev61 = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  TeoGovernor teo61;
  EXPECT_EQ(AfterHitsThenIntercepts(teo61, dev61, early), "C3");
  FakeIdleDevice dev512 = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  TeoGovernor teo512 = Teo512();
  EXPECT_EQ(AfterHitsThenIntercepts(teo512, dev512, early), "C1E");
  // Early hits were counted where the durations fell.
  EXPECT_GT(teo512.state512(0, 3).early_hits, 0u);
  EXPECT_GT(teo512.state512(0, 1).early_hits, 0u);
}

// v5.12: when a state's misses reach its hits, the state with the most
// early hits below it, with its target residency as the expected duration.
TEST(TeoVersionTest, V512MissesHandOverToTheMostEarlyHits) {
  FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  TeoGovernor teo = Teo512();
  teo.Enable(dev);
  // 1 ms residencies from C10: measured 555 us, C6's bin [200, 800) us.
  Periods(dev, teo, 2, 10 * kMs, 1 * kMs);
  EXPECT_EQ(Name(dev, dev.selections()[0]), "C10");
  // The first wake-up, accounted at the second selection.
  EXPECT_EQ(teo.state512(0, 8).misses, 1024u);
  EXPECT_EQ(teo.state512(0, 4).early_hits, 1024u);
  EXPECT_EQ(Name(dev, dev.last_state()), "C6");
  // Expected 200 us, under a tick: the tick is kept.
  EXPECT_FALSE(dev.last_stop_tick());
}

// v5.4-v5.12 keep constraint_idx as the first state whose exit latency
// exceeds the PM QoS limit and clamp the choice to it (v5.13's rework
// clamps to the deepest state within the limit instead).
TEST(TeoVersionTest, V512ClampsToTheFirstStateOverTheLimit) {
  FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  TeoGovernor teo = Teo512();
  teo.Enable(dev);
  dev.set_latency_limit_ns(100 * kUs);
  Periods(dev, teo, 5, 10 * kMs, 20 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C7s");  // 124 us; C6's 85 fits
  dev.set_latency_limit_ns(INT64_MAX);
  dev.set_state_disabled(8, true);  // C10
  dev.set_state_disabled(7, true);  // C9
  Periods(dev, teo, 5, 10 * kMs, 20 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C8");
  for (int s : dev.selections()) EXPECT_FALSE(dev.state_disabled(s)) << s;
  // The same limit under v6.1: C6.
  FakeIdleDevice dev61 = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  TeoGovernor teo61;
  teo61.Enable(dev61);
  dev61.set_latency_limit_ns(100 * kUs);
  Periods(dev61, teo61, 5, 10 * kMs, 20 * kMs);
  EXPECT_EQ(Name(dev61, dev61.last_state()), "C6");
}

TeoGovernor Teo63() {
  TeoGovernor::Options options;
  options.v63 = true;
  return TeoGovernor(options);
}

// v6.3's util-awareness: a CPU whose util exceeds capacity >> 6 (16 of
// 1024) gets the next shallower non-polling state. Timer 10 ms away, no
// history: C10 for v6.1, for v6.3 at util 16, and C9 (the deepest shallower
// state fitting 10 ms) at util 17. A timer 5 us away gives C1, and utilized
// it stays C1: POLL is never the shallower state.
TEST(TeoVersionTest, V63UtilizedCpuTakesTheNextShallowerNonPollingState) {
  FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  TeoGovernor teo = Teo63();
  teo.Enable(dev);
  dev.set_cpu_util(16);
  Periods(dev, teo, 1, 10 * kMs, 20 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C10");
  EXPECT_FALSE(teo.utilized(0));
  dev.set_cpu_util(17);
  Periods(dev, teo, 1, 10 * kMs, 20 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C9");
  EXPECT_TRUE(teo.utilized(0));
  Periods(dev, teo, 1, 5 * kUs, 20 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "C1");
  // v6.1 ignores the util.
  FakeIdleDevice dev61 = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  TeoGovernor teo61;
  teo61.Enable(dev61);
  dev61.set_cpu_util(1024);
  Periods(dev61, teo61, 1, 10 * kMs, 20 * kMs);
  EXPECT_EQ(Name(dev61, dev61.last_state()), "C10");
  // The threshold scales with the CPU's capacity: 17 is not over 446 >> 6.
  FakeIdleDevice little = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  TeoGovernor teo_little = Teo63();
  teo_little.Enable(little);
  little.set_cpu_capacity(446);
  little.set_cpu_util(6);
  Periods(little, teo_little, 1, 10 * kMs, 20 * kMs);
  EXPECT_EQ(Name(little, little.last_state()), "C10");
  little.set_cpu_util(7);
  Periods(little, teo_little, 1, 10 * kMs, 20 * kMs);
  EXPECT_EQ(Name(little, little.last_state()), "C9");
}

// With fewer than three states a utilized CPU takes the first enabled
// non-polling state at once: WFI rather than the cluster state on an
// Arm-like two-state table.
TEST(TeoVersionTest, V63TwoStatesUtilizedTakesTheFirstNonPolling) {
  topology::CState wfi;
  wfi.name = "WFI";
  wfi.exit_latency_ns = 1 * kUs;
  wfi.target_residency_ns = 1 * kUs;
  topology::CState cluster;
  cluster.name = "cluster-sleep";
  cluster.exit_latency_ns = 500 * kUs;
  cluster.target_residency_ns = 2 * kMs;
  FakeIdleDevice dev(0, {wfi, cluster});
  TeoGovernor teo = Teo63();
  teo.Enable(dev);
  Periods(dev, teo, 1, 10 * kMs, 20 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "cluster-sleep");
  dev.set_cpu_util(100);
  Periods(dev, teo, 1, 10 * kMs, 20 * kMs);
  EXPECT_EQ(Name(dev, dev.last_state()), "WFI");
}

}  // namespace
}  // namespace schedsim::governors
