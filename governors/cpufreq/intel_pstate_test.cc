// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpufreq/intel_pstate.h"

#include <cstdint>

#include "gtest/gtest.h"
#include "platform/cpufreq.h"
#include "platform/testing/fake_freq.h"

namespace schedsim::governors {
namespace {

using platform::kUtilIowait;
using platform::testing::FakeFreqDomain;

constexpr int64_t kMs = 1'000'000;
constexpr char kSkylake[] = "skylake-e3-1240v5";  // P-states 8 / 35 / 39

using Mode = IntelPstateGovernor::IowaitBoostMode;

IntelPstateGovernor::Options WithMode(Mode mode) {
  IntelPstateGovernor::Options o;
  o.iowait_boost_mode = mode;
  return o;
}

// One sampling interval at `busy` on `cpu`, then the tick's callback.
int64_t SampleKhz(IntelPstateGovernor& gov, FakeFreqDomain& d, int cpu,
                  double busy) {
  d.set_busy_fraction(cpu, busy);
  d.Advance(10 * kMs);
  gov.UpdateUtil(d, cpu, 0);
  return d.requested_khz();
}

TEST(IntelPstateTest, TargetIsBusyFractionOfOneQuarterAboveTurbo) {
  // Running at 800 MHz, the average P-state (8) is below every target, so
  // the target is (39 + 39/4) x busy = 48 x busy, capped at turbo (39).
  for (auto [busy, khz] : {std::pair{0.25, 1200000}, std::pair{0.5, 2400000},
                           std::pair{1.0, 3900000}}) {
    FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
    d.set_current_khz(800000);
    IntelPstateGovernor gov({});
    gov.Start(d);
    EXPECT_EQ(SampleKhz(gov, d, 0, busy), khz) << "busy " << busy;
  }
}

TEST(IntelPstateTest, AverageFrequencyAboveTargetPullsItHalfWay) {
  // At 3.5 GHz the average P-state is 35: 25 % busy -> 12 + (35-12)/2 = 23,
  // 50 % busy -> 24 + (35-24)/2 = 29.
  for (auto [busy, khz] : {std::pair{0.25, 2300000}, std::pair{0.5, 2900000}}) {
    FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
    d.set_current_khz(3500000);
    IntelPstateGovernor gov({});
    gov.Start(d);
    EXPECT_EQ(SampleKhz(gov, d, 0, busy), khz) << "busy " << busy;
  }
}

TEST(IntelPstateTest, SamplesOnlyOnceASamplingIntervalHasPassed) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
  d.set_current_khz(800000);
  IntelPstateGovernor gov({});
  gov.Start(d);
  d.set_busy_fraction(0, 0.5);
  d.Advance(10 * kMs);
  d.set_now_ns(10 * kMs - 1);  // counters of a whole interval, clock 1 ns short
  gov.UpdateUtil(d, 0, 0);
  EXPECT_TRUE(d.actions().empty());
  d.set_now_ns(10 * kMs);
  gov.UpdateUtil(d, 0, 0);
  ASSERT_EQ(d.actions().size(), 1u);
  EXPECT_EQ(d.actions()[0].khz, 2400000);
  // The same target again: no new request.
  SampleKhz(gov, d, 0, 0.5);
  EXPECT_EQ(d.actions().size(), 1u);
}

TEST(IntelPstateTest, NoTurboCapsAtTheBaseFrequency) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
  d.set_current_khz(800000);
  IntelPstateGovernor::Options o;
  o.no_turbo = true;
  IntelPstateGovernor gov(o);
  gov.Start(d);
  EXPECT_EQ(SampleKhz(gov, d, 0, 1.0), 3500000);
  // Headroom from the base P-state: (35 + 8) x 0.5 = 21.
  EXPECT_EQ(SampleKhz(gov, d, 0, 0.5), 2100000);
}

TEST(IntelPstateTest, PolicyLimitsClampTheTarget) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
  d.set_current_khz(800000);
  d.set_policy_limits(1600000, 3000000);
  IntelPstateGovernor gov({});
  gov.Start(d);
  EXPECT_EQ(SampleKhz(gov, d, 0, 0.25), 1600000);
  EXPECT_EQ(gov.target_pstate(0), 16);
  EXPECT_EQ(SampleKhz(gov, d, 0, 1.0), 3000000);
  EXPECT_EQ(gov.target_pstate(0), 30);
}

TEST(IntelPstateTest, IdleSiblingDoesNotHoldTheCoreHigh) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);  // CPUs 0 and 4
  d.set_current_khz(800000);
  IntelPstateGovernor gov({});
  gov.Start(d);
  d.set_busy_fraction(0, 1.0);
  d.set_busy_fraction(4, 0.25);
  d.Advance(10 * kMs);
  gov.UpdateUtil(d, 0, 0);
  gov.UpdateUtil(d, 4, 0);
  EXPECT_EQ(d.requested_khz(), 3900000);  // the busier thread wins
  // CPU 0 goes idle (no more callbacks); CPU 4 keeps sampling.
  d.set_busy_fraction(0, 0.0);
  d.Advance(10 * kMs);
  gov.UpdateUtil(d, 4, 0);
  EXPECT_EQ(d.requested_khz(), 3900000);  // CPU 0 updated 10 ms ago
  d.Advance(10 * kMs);
  gov.UpdateUtil(d, 4, 0);
  EXPECT_EQ(d.requested_khz(), 1200000);
}

TEST(IntelPstateTest, OneGovernorServesSeveralDomains) {
  FakeFreqDomain core0 = FakeFreqDomain::ForPreset(kSkylake, 0);
  FakeFreqDomain core1 = FakeFreqDomain::ForPreset(kSkylake, 1);
  core0.set_current_khz(800000);
  core1.set_current_khz(800000);
  IntelPstateGovernor gov({});
  gov.Start(core0);
  gov.Start(core1);
  EXPECT_EQ(SampleKhz(gov, core0, core0.first_cpu(), 0.25), 1200000);
  EXPECT_EQ(SampleKhz(gov, core1, core1.first_cpu(), 1.0), 3900000);
  EXPECT_EQ(gov.target_pstate(core0.first_cpu()), 12);
  EXPECT_EQ(gov.target_pstate(core1.first_cpu()), 39);
}

TEST(IntelPstateIowaitBoostTest, IoWakeupsWithinATickDoubleFromOneEighth) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
  IntelPstateGovernor gov({});
  gov.Start(d);
  const double expected[] = {0.125, 0.25, 0.5, 1.0, 1.0};
  for (double boost : expected) {
    d.Advance(1 * kMs);
    gov.UpdateUtil(d, 0, kUtilIowait);
    EXPECT_EQ(gov.iowait_boost(0), boost);
  }
}

TEST(IntelPstateIowaitBoostTest, BoostRaisesThePstateAtTheNextSample) {
  // n IO wakeups 1 ms apart ending at the 10 ms sample, on a nearly idle
  // CPU at 800 MHz: boost 1/8, 1/4, 1/2, 1 -> 48 x boost, at least 8, at
  // most 39.
  const int64_t expected_khz[] = {800000, 1200000, 2400000, 3900000};
  for (int n = 1; n <= 4; ++n) {
    FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
    d.set_current_khz(800000);
    d.set_busy_fraction(0, 0.01);
    IntelPstateGovernor gov({});
    gov.Start(d);
    d.Advance((10 - n) * kMs);
    for (int i = 0; i < n; ++i) {
      d.Advance(1 * kMs);
      gov.UpdateUtil(d, 0, kUtilIowait);
    }
    EXPECT_EQ(d.requested_khz(), expected_khz[n - 1]) << n << " wakeups";
  }
}

TEST(IntelPstateIowaitBoostTest, BoostHalvesWithoutIoAndClearsAfterAQuietTick) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);  // 4 ms tick
  IntelPstateGovernor gov({});
  gov.Start(d);
  for (int i = 0; i < 4; ++i) {
    d.Advance(1 * kMs);
    gov.UpdateUtil(d, 0, kUtilIowait);
  }
  ASSERT_EQ(gov.iowait_boost(0), 1.0);
  d.Advance(1 * kMs);
  gov.UpdateUtil(d, 0, 0);
  EXPECT_EQ(gov.iowait_boost(0), 0.5);
  d.Advance(4 * kMs);  // exactly a tick: still "within a tick"
  gov.UpdateUtil(d, 0, 0);
  EXPECT_EQ(gov.iowait_boost(0), 0.25);
  d.Advance(4 * kMs + 1);
  gov.UpdateUtil(d, 0, 0);
  EXPECT_EQ(gov.iowait_boost(0), 0.0);
}

TEST(IntelPstateIowaitBoostTest, IoWakeupAfterAQuietTickRestartsAtOneEighth) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
  IntelPstateGovernor gov({});
  gov.Start(d);
  for (int i = 0; i < 3; ++i) {
    d.Advance(1 * kMs);
    gov.UpdateUtil(d, 0, kUtilIowait);
  }
  ASSERT_EQ(gov.iowait_boost(0), 0.5);
  d.Advance(5 * kMs);
  gov.UpdateUtil(d, 0, kUtilIowait);
  EXPECT_EQ(gov.iowait_boost(0), 0.125);
}

TEST(IntelPstateIowaitBoostTest, FullModeGoesToMaxOnASingleIoWakeup) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
  d.set_current_khz(800000);
  d.set_busy_fraction(0, 0.01);
  IntelPstateGovernor gov(WithMode(Mode::kFull));
  gov.Start(d);
  d.Advance(10 * kMs);
  gov.UpdateUtil(d, 0, kUtilIowait);
  EXPECT_EQ(d.requested_khz(), 3900000);
  // Halved per sample (callbacks within a tick keep it): 1/2 -> 24.
  for (int i = 0; i < 5; ++i) {
    d.Advance(2 * kMs);
    gov.UpdateUtil(d, 0, 0);
  }
  EXPECT_EQ(d.requested_khz(), 2400000);
  // More than a tick without a callback clears it.
  d.Advance(10 * kMs);
  gov.UpdateUtil(d, 0, 0);
  EXPECT_EQ(d.requested_khz(), 800000);
}

TEST(IntelPstateIowaitBoostTest, FullModeReevaluatesAtOnceOnAnIoWakeup) {
  // v4.14's `goto set_pstate`: an IO wake-up 2 ms after a sample does not
  // wait for the 10 ms sampling interval; the 2018 doubling mode does.
  for (Mode mode : {Mode::kFull, Mode::kDoubling}) {
    FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
    d.set_current_khz(800000);
    d.set_busy_fraction(0, 0.01);
    IntelPstateGovernor gov(WithMode(mode));
    gov.Start(d);
    EXPECT_EQ(SampleKhz(gov, d, 0, 0.01), 800000);  // a quiet sample
    d.Advance(2 * kMs);
    gov.UpdateUtil(d, 0, kUtilIowait);
    EXPECT_EQ(d.requested_khz(), mode == Mode::kFull ? 3900000 : 800000);
  }
}

TEST(IntelPstateIowaitBoostTest, DoublingModeNeedsRepeatedIoWakeups) {
  // The same single IO wakeup as above only reaches 1/8 since 2018.
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
  d.set_current_khz(800000);
  d.set_busy_fraction(0, 0.01);
  IntelPstateGovernor gov({});
  gov.Start(d);
  d.Advance(10 * kMs);
  gov.UpdateUtil(d, 0, kUtilIowait);
  EXPECT_EQ(gov.iowait_boost(0), 0.125);
  EXPECT_EQ(d.requested_khz(), 800000);
}

TEST(IntelPstateIowaitBoostTest, RemoteCallbacksAreIgnoredInBothForms) {
  // Issue 46: intel_pstate_update_util() returns at once when the callback
  // runs on another CPU (since v4.14, before and after the 2018 rework): an
  // IO wake-up that the waker enqueued on this busy CPU boosts nothing.
  for (Mode mode : {Mode::kFull, Mode::kDoubling}) {
    FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
    d.set_current_khz(800000);
    d.set_busy_fraction(0, 0.01);
    IntelPstateGovernor gov(WithMode(mode));
    gov.Start(d);
    d.Advance(10 * kMs);
    const size_t writes = d.actions().size();
    gov.UpdateUtil(d, 0, kUtilIowait | platform::kUtilRemote);
    EXPECT_EQ(gov.iowait_boost(0), 0.0);
    EXPECT_EQ(d.actions().size(), writes);  // no sample, no P-state write
    // The same wake-up made locally boosts.
    gov.UpdateUtil(d, 0, kUtilIowait);
    EXPECT_GT(gov.iowait_boost(0), 0.0);
  }
}

TEST(IntelPstateIowaitBoostTest, OffModeIgnoresIoWakeups) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
  d.set_current_khz(800000);
  d.set_busy_fraction(0, 0.01);
  IntelPstateGovernor gov(WithMode(Mode::kOff));
  gov.Start(d);
  for (int i = 0; i < 10; ++i) {
    d.Advance(1 * kMs);
    gov.UpdateUtil(d, 0, kUtilIowait);
  }
  EXPECT_EQ(gov.iowait_boost(0), 0.0);
  EXPECT_EQ(d.requested_khz(), 800000);
}

}  // namespace
}  // namespace schedsim::governors
