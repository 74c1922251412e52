// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpufreq/intel_pstate_hwp.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "platform/cpufreq.h"
#include "platform/testing/fake_freq.h"

namespace schedsim::governors {
namespace {

using platform::kUtilIowait;
using platform::testing::FakeFreqDomain;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr int64_t kMs = 1'000'000;
// HWP caps lowest 8 / efficient 10 / guaranteed 35 / highest 39; 4 ms tick.
constexpr char kSkylake[] = "skylake-e3-1240v5";

IntelPstateHwpGovernor::Options Boost(bool on) {
  IntelPstateHwpGovernor::Options o;
  o.hwp_boost = on;
  return o;
}

// MIN of every HWP request written for `cpu`, oldest first.
std::vector<int> MinHistory(const FakeFreqDomain& d, int cpu) {
  std::vector<int> out;
  for (const FakeFreqDomain::Action& a : d.actions()) {
    if (a.hwp && a.cpu == cpu) out.push_back(a.request.min_perf);
  }
  return out;
}

// Starts `gov` on `d` at 10 ms and forgets the initial requests.
void StartAt10ms(IntelPstateHwpGovernor& gov, FakeFreqDomain& d) {
  d.Advance(10 * kMs);
  gov.Start(d);
  d.ClearActions();
}

void At(FakeFreqDomain& d, int64_t t_ns) { d.set_now_ns(t_ns); }

TEST(IntelPstateHwpTest, StartWritesPolicyLimitsDesiredZeroAndEpp) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);  // CPUs 0 and 4
  IntelPstateHwpGovernor gov({});
  gov.Start(d);
  ASSERT_EQ(d.actions().size(), 2u);
  for (int cpu : {0, 4}) {
    const platform::HwpRequest& r = d.hwp_request(cpu);
    EXPECT_EQ(r.min_perf, 8);
    EXPECT_EQ(r.max_perf, 39);
    EXPECT_EQ(r.desired_perf, 0);
    EXPECT_EQ(r.epp, 128);
  }
}

TEST(IntelPstateHwpTest, EppPresetsAreWrittenAsNumbers) {
  const std::pair<std::string, int> cases[] = {{"performance", 0},
                                               {"balance_performance", 128},
                                               {"balance_power", 192},
                                               {"power", 255},
                                               {"77", 77}};
  for (const auto& [text, value] : cases) {
    absl::StatusOr<int> epp = ParseEpp(text);
    ASSERT_TRUE(epp.ok()) << text;
    FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
    IntelPstateHwpGovernor::Options o;
    o.epp = *epp;
    IntelPstateHwpGovernor gov(o);
    gov.Start(d);
    EXPECT_EQ(d.hwp_request(0).epp, value) << text;
  }
  EXPECT_THAT(std::string(ParseEpp("turbo").status().message()),
              HasSubstr("got 'turbo'"));
  EXPECT_FALSE(ParseEpp("256").ok());
  EXPECT_FALSE(ParseEpp("-1").ok());
}

TEST(IntelPstateHwpTest, PerformancePolicyPinsMinToMaxWithEppZero) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
  IntelPstateHwpGovernor::Options o;
  o.performance_policy = true;
  o.epp = kEppPower;
  IntelPstateHwpGovernor gov(o);
  gov.Start(d);
  EXPECT_EQ(d.hwp_request(0).min_perf, 39);
  EXPECT_EQ(d.hwp_request(0).max_perf, 39);
  EXPECT_EQ(d.hwp_request(0).epp, 0);
}

TEST(IntelPstateHwpTest, PolicyLimitChangeRewritesTheRequests) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
  IntelPstateHwpGovernor gov({});
  gov.Start(d);
  d.ClearActions();
  d.set_policy_limits(1200000, 3000000);
  d.Advance(4 * kMs);
  gov.UpdateUtil(d, 0, 0);
  ASSERT_EQ(d.actions().size(), 2u);
  EXPECT_EQ(d.hwp_request(4).min_perf, 12);
  EXPECT_EQ(d.hwp_request(4).max_perf, 30);
}

TEST(HwpBoostTest, StepUpLevelsFollowTheKernel) {
  // (P1 + min) / 2, then P1, then max; nothing between P1 and max.
  EXPECT_EQ(HwpBoostStepUp(0, 8, 39, 35), 21);
  EXPECT_EQ(HwpBoostStepUp(21, 8, 39, 35), 35);
  EXPECT_EQ(HwpBoostStepUp(35, 8, 39, 35), 39);
  EXPECT_EQ(HwpBoostStepUp(39, 8, 39, 35), 39);
  EXPECT_EQ(HwpBoostStepUp(0, 12, 39, 35), 23);
  EXPECT_EQ(HwpBoostStepUp(0, 39, 39, 35), 0);   // min == max
  EXPECT_EQ(HwpBoostStepUp(35, 8, 35, 35), 35);  // max is P1: no turbo step
}

TEST(HwpBoostTest, TwoIoWakeupsWithinTwoTicksStartTheBoost) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
  IntelPstateHwpGovernor gov(Boost(true));
  StartAt10ms(gov, d);
  At(d, 20 * kMs);
  gov.UpdateUtil(d, 0, kUtilIowait);
  EXPECT_THAT(MinHistory(d, 0), IsEmpty());
  At(d, 28 * kMs - 1);  // just under 2 ticks later
  gov.UpdateUtil(d, 0, kUtilIowait);
  EXPECT_THAT(MinHistory(d, 0), ElementsAre(21));
  EXPECT_EQ(d.hwp_request(0).max_perf, 39);
  EXPECT_EQ(d.hwp_request(0).epp, 128);
  EXPECT_EQ(gov.boost_min_perf(0), 21);
}

TEST(HwpBoostTest, SingleIoWakeupDoesNotBoost) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
  IntelPstateHwpGovernor gov(Boost(true));
  gov.Start(d);  // at time 0: the first IO wakeup is never a candidate
  d.ClearActions();
  At(d, 1 * kMs);
  gov.UpdateUtil(d, 0, kUtilIowait);
  for (int64_t t = 2; t < 20; ++t) {
    At(d, t * kMs);
    gov.UpdateUtil(d, 0, 0);
  }
  // A second IO wakeup exactly two ticks after the first is too late.
  At(d, 21 * kMs);
  gov.UpdateUtil(d, 0, kUtilIowait);
  At(d, 29 * kMs);
  gov.UpdateUtil(d, 0, kUtilIowait);
  EXPECT_THAT(d.actions(), IsEmpty());
  EXPECT_EQ(gov.boost_min_perf(0), 0);
}

TEST(HwpBoostTest, EachFurtherIoWakeupTakesTheNextStepUpToMax) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
  IntelPstateHwpGovernor gov(Boost(true));
  StartAt10ms(gov, d);
  for (int64_t t = 11; t <= 16; ++t) {  // six IO wakeups 1 ms apart
    At(d, t * kMs);
    gov.UpdateUtil(d, 0, kUtilIowait);
  }
  // First wakeup: candidate-in-waiting; then three steps; then nothing.
  EXPECT_THAT(MinHistory(d, 0), ElementsAre(21, 35, 39));
  EXPECT_THAT(MinHistory(d, 4), IsEmpty());  // the boost is per CPU
  EXPECT_EQ(d.hwp_request(4).min_perf, 8);
}

TEST(HwpBoostTest, BoostEndsAtFirstCallbackMoreThanHoldTimeAfterThePrevious) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
  IntelPstateHwpGovernor gov(Boost(true));
  StartAt10ms(gov, d);
  At(d, 11 * kMs);
  gov.UpdateUtil(d, 0, kUtilIowait);
  At(d, 12 * kMs);
  gov.UpdateUtil(d, 0, kUtilIowait);  // boost to 21 at 12 ms
  At(d, 15 * kMs);                    // exactly the hold time later: kept
  gov.UpdateUtil(d, 0, 0);
  EXPECT_EQ(gov.boost_min_perf(0), 21);
  At(d, 18 * kMs + 1);  // 3 ms + 1 ns after the 15 ms callback: removed
  gov.UpdateUtil(d, 0, 0);
  EXPECT_EQ(gov.boost_min_perf(0), 0);
  EXPECT_THAT(MinHistory(d, 0), ElementsAre(21, 8));
  EXPECT_EQ(d.hwp_request(0).max_perf, 39);
  EXPECT_EQ(d.hwp_request(0).epp, 128);
}

TEST(HwpBoostTest, CallbacksLessThanHoldTimeApartKeepTheBoost) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
  IntelPstateHwpGovernor gov(Boost(true));
  StartAt10ms(gov, d);
  for (int64_t t = 11; t <= 14; ++t) {
    At(d, t * kMs);
    gov.UpdateUtil(d, 0, kUtilIowait);
  }
  ASSERT_EQ(gov.boost_min_perf(0), 39);
  // Enqueue/dequeue callbacks every 2 ms for 100 ms: the boost holds.
  for (int64_t t = 16; t <= 114; t += 2) {
    At(d, t * kMs);
    gov.UpdateUtil(d, 0, 0);
  }
  EXPECT_EQ(gov.boost_min_perf(0), 39);
  // Only the 4 ms tick is left: the next tick removes it.
  At(d, 118 * kMs);
  gov.UpdateUtil(d, 0, 0);
  EXPECT_EQ(gov.boost_min_perf(0), 0);
  EXPECT_THAT(MinHistory(d, 0), ElementsAre(21, 35, 39, 8));
}

TEST(HwpBoostTest, IoWakeupsAtMaxDoNotRenewTheHold) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
  IntelPstateHwpGovernor gov(Boost(true));
  StartAt10ms(gov, d);
  for (int64_t t = 11; t <= 14; ++t) {
    At(d, t * kMs);
    gov.UpdateUtil(d, 0, kUtilIowait);  // max reached at 14 ms
  }
  At(d, 16 * kMs);
  gov.UpdateUtil(d, 0, kUtilIowait);  // no step left: time not recorded
  At(d, 17 * kMs + 1);
  gov.UpdateUtil(d, 0, 0);  // 3 ms + 1 ns after the last recorded update
  EXPECT_EQ(gov.boost_min_perf(0), 0);
}

TEST(HwpBoostTest, NoBoostWhenDisabled) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
  IntelPstateHwpGovernor gov(Boost(false));
  StartAt10ms(gov, d);
  for (int64_t t = 11; t <= 30; ++t) {
    At(d, t * kMs);
    gov.UpdateUtil(d, 0, kUtilIowait);
  }
  EXPECT_THAT(d.actions(), IsEmpty());
  EXPECT_EQ(d.hwp_request(0).min_perf, 8);
}

TEST(HwpBoostTest, NoBoostWhenMinEqualsMax) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
  IntelPstateHwpGovernor::Options o = Boost(true);
  o.performance_policy = true;
  IntelPstateHwpGovernor gov(o);
  StartAt10ms(gov, d);
  for (int64_t t = 11; t <= 20; ++t) {
    At(d, t * kMs);
    gov.UpdateUtil(d, 0, kUtilIowait);
  }
  EXPECT_THAT(d.actions(), IsEmpty());
}

TEST(HwpBoostTest, BoostStartsFromThePolicyMinimum) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset(kSkylake);
  d.set_policy_limits(1200000, 3900000);
  IntelPstateHwpGovernor gov(Boost(true));
  StartAt10ms(gov, d);
  for (int64_t t = 11; t <= 15; ++t) {
    At(d, t * kMs);
    gov.UpdateUtil(d, 0, kUtilIowait);
  }
  EXPECT_THAT(MinHistory(d, 0), ElementsAre(23, 35, 39));
}

}  // namespace
}  // namespace schedsim::governors
