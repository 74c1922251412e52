// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpufreq/io_util.h"

#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "platform/cpufreq.h"
#include "platform/testing/fake_freq.h"
#include "topology/topology.h"

namespace schedsim::governors {
namespace {

using platform::kUtilIowait;
using platform::testing::FakeFreqDomain;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr int64_t kMs = 1'000'000;
// HWP caps lowest 8 / guaranteed 35 / highest 39; P-states 8 / 35 / 39.
constexpr char kSkylake[] = "skylake-e3-1240v5";

std::vector<int> MinHistory(const FakeFreqDomain& d, int cpu) {
  std::vector<int> out;
  for (const FakeFreqDomain::Action& a : d.actions()) {
    if (a.hwp && a.cpu == cpu) out.push_back(a.request.min_perf);
  }
  return out;
}

// One 10 ms window on CPU 0: a callback every millisecond, the first
// `io_wakeups` of them after an IO wait, the CPU busy for `busy` of it.
void RunWindow(IoUtilGovernor& gov, FakeFreqDomain& d, double busy,
               int io_wakeups) {
  d.set_busy_fraction(0, busy);
  for (int i = 0; i < 10; ++i) {
    d.Advance(1 * kMs);
    gov.UpdateUtil(d, 0, i < io_wakeups ? uint32_t{kUtilIowait} : 0u);
  }
}

FakeFreqDomain SkylakeWithoutHwp() {
  FakeFreqDomain hwp = FakeFreqDomain::ForPreset(kSkylake);
  topology::FrequencySpec spec = hwp.spec();
  spec.has_hwp = false;
  return FakeFreqDomain(spec, hwp.cpus());
}

TEST(IoUtilTest, BoostsStepByStepWhenTheCpuIsBusyBetweenIoWaits) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
  IoUtilGovernor gov({});
  gov.Start(d);
  d.ClearActions();
  for (int w = 0; w < 4; ++w) RunWindow(gov, d, 0.8, 3);
  // hwp_boost's levels, one per CPU-bound IO window, then held at max.
  EXPECT_THAT(MinHistory(d, 0), ElementsAre(21, 35, 39));
  EXPECT_EQ(gov.boost_level(0), IoUtilGovernor::kMaxBoostLevel);
  EXPECT_EQ(gov.cpu_share_pct(0), 80);
  EXPECT_EQ(d.hwp_request(0).max_perf, 39);
  EXPECT_EQ(d.hwp_request(0).desired_perf, 0);
}

TEST(IoUtilTest, NoBoostWhenTheDeviceDominates) {
  // Long IO waits, short CPU bursts: a faster CPU would barely shorten the
  // IO cycle, so the request stays at the policy minimum.
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
  IoUtilGovernor gov({});
  gov.Start(d);
  d.ClearActions();
  for (int w = 0; w < 5; ++w) RunWindow(gov, d, 0.1, 5);
  EXPECT_THAT(d.actions(), IsEmpty());
  EXPECT_EQ(gov.boost_level(0), 0);
  EXPECT_EQ(gov.cpu_share_pct(0), 10);  // 90 % of the cycle is the device
}

TEST(IoUtilTest, NoBoostWithoutAnIoPattern) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
  IoUtilGovernor gov({});
  gov.Start(d);
  d.ClearActions();
  for (int w = 0; w < 3; ++w) RunWindow(gov, d, 1.0, 0);  // CPU-bound only
  for (int w = 0; w < 3; ++w) RunWindow(gov, d, 1.0, 1);  // one IO wakeup
  EXPECT_THAT(d.actions(), IsEmpty());
}

TEST(IoUtilTest, BoostStepsDownWhenTheDeviceTakesOver) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
  IoUtilGovernor gov({});
  gov.Start(d);
  d.ClearActions();
  for (int w = 0; w < 3; ++w) RunWindow(gov, d, 0.8, 3);
  for (int w = 0; w < 4; ++w) RunWindow(gov, d, 0.1, 3);
  EXPECT_THAT(MinHistory(d, 0), ElementsAre(21, 35, 39, 35, 21, 8));
}

TEST(IoUtilTest, IdleCpuLosesItsBoostAtOnce) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
  IoUtilGovernor gov({});
  gov.Start(d);
  d.ClearActions();
  for (int w = 0; w < 3; ++w) RunWindow(gov, d, 0.8, 3);
  d.set_busy_fraction(0, 0.0);
  d.Advance(50 * kMs);  // no callbacks: idle
  gov.UpdateUtil(d, 0, 0);
  EXPECT_THAT(MinHistory(d, 0), ElementsAre(21, 35, 39, 8));
}

TEST(IoUtilTest, WithoutHwpFloorsTheBusyPercentPstate) {
  FakeFreqDomain d = SkylakeWithoutHwp();
  d.set_current_khz(800000);
  IoUtilGovernor gov({});
  gov.Start(d);
  // 50 % busy alone asks for 48 x 0.5 = 24; the boost floors rise to
  // 21, 35, 39.
  std::vector<int64_t> khz;
  for (int w = 0; w < 3; ++w) {
    RunWindow(gov, d, 0.5, 3);
    khz.push_back(d.requested_khz());
  }
  EXPECT_THAT(khz, ElementsAre(2400000, 3500000, 3900000));
  for (const FakeFreqDomain::Action& a : d.actions()) EXPECT_FALSE(a.hwp);
}

TEST(IoUtilTest, WithoutHwpDeviceBoundWorkGetsOnlyItsBusyPstate) {
  FakeFreqDomain d = SkylakeWithoutHwp();
  d.set_current_khz(800000);
  IoUtilGovernor gov({});
  gov.Start(d);
  for (int w = 0; w < 3; ++w) RunWindow(gov, d, 0.25, 5);
  // 48 x 0.25 = 12, where intel_pstate's IO-wait boost would go to max.
  EXPECT_EQ(d.requested_khz(), 1200000);
  EXPECT_EQ(gov.boost_level(0), 0);
}

}  // namespace
}  // namespace schedsim::governors
