// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// intel_pstate, intel_pstate_hwp and io_util are reachable by name through
// the global registry when linked with //governors/cpufreq:policies, with their
// documented parameters and errors a user can act on.

#include <atomic>
#include <cstdlib>
#include <map>
#include <memory>
#include <new>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "platform/cpufreq.h"
#include "platform/registry.h"
#include "platform/testing/fake_freq.h"

// Counts heap allocations so that a test can check that UpdateUtil makes
// none.
namespace {
std::atomic<int64_t> g_allocations{0};
}  // namespace

void* operator new(size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }

namespace schedsim::governors {
namespace {

using platform::ParamValue;
using platform::PolicyFamily;
using platform::PolicyRegistry;
using platform::testing::FakeFreqDomain;
using ::testing::HasSubstr;

constexpr int64_t kMs = 1'000'000;

TEST(PstateRegistryTest, EachGovernorIsMadeByNameWithDefaults) {
  for (const char* name : {"intel_pstate", "intel_pstate_hwp", "io_util"}) {
    const platform::PolicyInfo* info =
        PolicyRegistry::Global().Find(PolicyFamily::kCpufreq, name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_FALSE(info->description.empty());
    for (const platform::ParamSpec& p : info->params) {
      EXPECT_FALSE(p.doc.empty()) << name << "." << p.name;
    }
    absl::StatusOr<std::unique_ptr<platform::FreqGovernor>> gov =
        PolicyRegistry::Global().MakeFreq(name);
    ASSERT_TRUE(gov.ok()) << gov.status();
    EXPECT_EQ((*gov)->name(), name);
  }
}

TEST(PstateRegistryTest, ParametersReachTheGovernor) {
  absl::StatusOr<std::unique_ptr<platform::FreqGovernor>> gov =
      PolicyRegistry::Global().MakeFreq(
          "intel_pstate_hwp",
          {{"hwp_boost", true}, {"epp", std::string("balance_power")}});
  ASSERT_TRUE(gov.ok()) << gov.status();
  FakeFreqDomain d = FakeFreqDomain::ForPreset("skylake-e3-1240v5");
  (*gov)->Start(d);
  EXPECT_EQ(d.hwp_request(0).epp, 192);
  d.set_now_ns(10 * kMs);
  (*gov)->UpdateUtil(d, 0, platform::kUtilIowait);
  d.set_now_ns(11 * kMs);
  (*gov)->UpdateUtil(d, 0, platform::kUtilIowait);
  EXPECT_EQ(d.hwp_request(0).min_perf, 21);
}

TEST(PstateRegistryTest, FullIowaitModeIsSelectableByName) {
  absl::StatusOr<std::unique_ptr<platform::FreqGovernor>> gov =
      PolicyRegistry::Global().MakeFreq(
          "intel_pstate", {{"iowait_boost_mode", std::string("full")}});
  ASSERT_TRUE(gov.ok()) << gov.status();
  FakeFreqDomain d = FakeFreqDomain::ForPreset("skylake-e3-1240v5");
  d.set_current_khz(800000);
  d.set_busy_fraction(0, 0.01);
  (*gov)->Start(d);
  d.Advance(10 * kMs);
  (*gov)->UpdateUtil(d, 0, platform::kUtilIowait);
  EXPECT_EQ(d.requested_khz(), 3900000);
}

TEST(PstateRegistryTest, UnknownParameterListsTheKnownOnes) {
  absl::StatusOr<std::unique_ptr<platform::FreqGovernor>> gov =
      PolicyRegistry::Global().MakeFreq("intel_pstate_hwp",
                                        {{"hwp_dynamic_boost", true}});
  ASSERT_FALSE(gov.ok());
  EXPECT_EQ(gov.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(gov.status().message(),
              HasSubstr("no parameter 'hwp_dynamic_boost'; its parameters: "
                        "epp, policy, hwp_boost, hwp_boost_hold_time_ns"));
}

TEST(PstateRegistryTest, BadValuesSayWhatIsExpected) {
  const std::pair<std::string, std::map<std::string, ParamValue>> cases[] = {
      {"intel_pstate", {{"iowait_boost_mode", std::string("sometimes")}}},
      {"intel_pstate", {{"sampling_rate_ms", int64_t{0}}}},
      {"intel_pstate_hwp", {{"epp", std::string("turbo")}}},
      {"intel_pstate_hwp", {{"policy", std::string("ondemand")}}},
      {"io_util", {{"cpu_bound_busy_pct", int64_t{150}}}},
      {"io_util", {{"epp", std::string("300")}}},
  };
  const char* expected[] = {
      "iowait_boost_mode must be 'doubling', 'full' or 'off', got "
      "'sometimes'",
      "sampling_rate_ms must be >= 1, got 0",
      "epp must be performance, balance_performance, balance_power, power or "
      "a number 0..255, got 'turbo'",
      "policy must be 'powersave' or 'performance', got 'ondemand'",
      "cpu_bound_busy_pct must be in 0..100, got 150",
      "got '300'",
  };
  for (size_t i = 0; i < std::size(cases); ++i) {
    absl::StatusOr<std::unique_ptr<platform::FreqGovernor>> gov =
        PolicyRegistry::Global().MakeFreq(cases[i].first, cases[i].second);
    ASSERT_FALSE(gov.ok()) << cases[i].first;
    EXPECT_EQ(gov.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(gov.status().message(), HasSubstr(expected[i]));
  }
  EXPECT_THAT(PolicyRegistry::Global()
                  .MakeFreq("intel_pstate", {{"no_turbo", int64_t{1}}})
                  .status()
                  .message(),
              HasSubstr("expects type bool, got type int"));
}

TEST(PstateRegistryTest, UpdateUtilDoesNotAllocate) {
  const std::pair<std::string, std::map<std::string, ParamValue>> cases[] = {
      {"intel_pstate", {}},
      {"intel_pstate", {{"iowait_boost_mode", std::string("full")}}},
      {"intel_pstate_hwp", {{"hwp_boost", true}}},
      {"io_util", {}},
  };
  for (const auto& [name, params] : cases) {
    absl::StatusOr<std::unique_ptr<platform::FreqGovernor>> gov =
        PolicyRegistry::Global().MakeFreq(name, params);
    ASSERT_TRUE(gov.ok()) << gov.status();
    FakeFreqDomain d = FakeFreqDomain::ForPreset("skylake-e3-1240v5");
    // Room in the fake's action log, so that only the governor is counted.
    for (int i = 0; i < 4096; ++i) d.SetTargetKhz(800000);
    d.ClearActions();
    (*gov)->Start(d);
    int64_t allocations = 0;
    for (int i = 0; i < 2000; ++i) {
      d.set_busy_fraction(0, (i / 37) % 2 == 0 ? 0.9 : 0.1);
      d.set_busy_fraction(4, (i / 53) % 3 == 0 ? 0.6 : 0.0);
      d.Advance((i % 7 + 1) * kMs / 2);
      const uint32_t flags = (i / 11) % 2 == 0 ? platform::kUtilIowait : 0u;
      const int64_t before = g_allocations.load();
      (*gov)->UpdateUtil(d, i % 5 == 0 ? 4 : 0, flags);
      allocations += g_allocations.load() - before;
    }
    EXPECT_GT(d.actions().size(), 0u) << name;
    EXPECT_EQ(allocations, 0) << name;
  }
}

}  // namespace
}  // namespace schedsim::governors
