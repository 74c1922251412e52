// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The generic cpufreq governors by name, as the CLI and experiment files
// build them (linked through :policies).

#include <cstdlib>
#include <map>
#include <new>
#include <string>

#include "gtest/gtest.h"
#include "platform/registry.h"
#include "platform/testing/fake_freq.h"

// Counts heap allocations while g_count_allocations is set, to check that
// UpdateUtil does not allocate.
namespace {
bool g_count_allocations = false;
int64_t g_allocations = 0;
}  // namespace

void* operator new(std::size_t size) {
  if (g_count_allocations) ++g_allocations;
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace schedsim::governors {
namespace {

using platform::ParamValue;
using platform::PolicyFamily;
using platform::PolicyRegistry;
using platform::testing::FakeFreqDomain;

const char* const kNames[] = {"performance", "powersave",    "userspace",
                              "ondemand",    "conservative", "schedutil"};

TEST(CpufreqRegistryTest, EveryGovernorResolvesByItsKernelName) {
  for (const char* name : kNames) {
    SCOPED_TRACE(name);
    const platform::PolicyInfo* info =
        PolicyRegistry::Global().Find(PolicyFamily::kCpufreq, name);
    ASSERT_NE(info, nullptr);
    EXPECT_FALSE(info->description.empty());
    for (const platform::ParamSpec& p : info->params) {
      EXPECT_FALSE(p.doc.empty()) << p.name;
    }
    auto g = PolicyRegistry::Global().MakeFreq(name);
    ASSERT_TRUE(g.ok()) << g.status();
    EXPECT_EQ((*g)->name(), name);
    // Runs on both presets.
    for (const char* machine : {"zen3-2s-nps1", "skylake-e3-1240v5"}) {
      FakeFreqDomain d = FakeFreqDomain::ForPreset(machine);
      (*g)->Start(d);
      d.set_util(d.first_cpu(), 512);
      d.set_busy_fraction(d.first_cpu(), 0.5);
      for (int i = 0; i < 5; ++i) {
        d.Advance(10000000);
        (*g)->UpdateUtil(d, d.first_cpu(), 0);
      }
    }
  }
}

TEST(CpufreqRegistryTest, UnknownParameterIsAnError) {
  for (const char* name : kNames) {
    SCOPED_TRACE(name);
    auto g = PolicyRegistry::Global().MakeFreq(
        name, {{"no_such_knob", ParamValue(int64_t{1})}});
    ASSERT_FALSE(g.ok());
    EXPECT_NE(g.status().message().find("no_such_knob"), std::string::npos);
  }
}

TEST(CpufreqRegistryTest, ParametersReachTheGovernor) {
  auto g = PolicyRegistry::Global().MakeFreq(
      "userspace", {{"setspeed_khz", ParamValue(int64_t{2500000})}});
  ASSERT_TRUE(g.ok()) << g.status();
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
  (*g)->Start(d);
  EXPECT_EQ(d.requested_khz(), 2500000);

  auto su = PolicyRegistry::Global().MakeFreq(
      "schedutil", {{"rate_limit_us", ParamValue(int64_t{0})},
                    {"iowait_boost", ParamValue(false)}});
  EXPECT_TRUE(su.ok()) << su.status();
}

TEST(CpufreqRegistryTest, OutOfRangeValuesAreErrors) {
  const std::map<std::string, std::map<std::string, ParamValue>> bad = {
      {"ondemand", {{"up_threshold_pct", ParamValue(int64_t{101})}}},
      {"conservative", {{"down_threshold_pct", ParamValue(int64_t{90})}}},
      {"schedutil", {{"rate_limit_us", ParamValue(int64_t{-5})}}},
      {"userspace", {{"setspeed_khz", ParamValue(int64_t{0})}}},
  };
  for (const auto& [name, params] : bad) {
    SCOPED_TRACE(name);
    EXPECT_FALSE(PolicyRegistry::Global().MakeFreq(name, params).ok());
  }
  auto io = PolicyRegistry::Global().MakeFreq(
      "ondemand", {{"io_is_busy", ParamValue(true)}});
  ASSERT_FALSE(io.ok());
  EXPECT_NE(io.status().message().find("io_is_busy"), std::string::npos);
  // A value of the wrong type names the expected type.
  auto wrong = PolicyRegistry::Global().MakeFreq(
      "schedutil", {{"iowait_boost", ParamValue(int64_t{1})}});
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.status().message().find("bool"), std::string::npos);
}

TEST(CpufreqRegistryTest, UpdateUtilDoesNotAllocate) {
  // The counter sees allocations.
  g_allocations = 0;
  g_count_allocations = true;
  ::operator delete(::operator new(16));
  g_count_allocations = false;
  ASSERT_EQ(g_allocations, 1);
  for (const char* name : kNames) {
    for (const char* machine : {"zen3-2s-nps1", "skylake-e3-1240v5"}) {
      SCOPED_TRACE(std::string(name) + " on " + machine);
      auto g = PolicyRegistry::Global().MakeFreq(name, {});
      ASSERT_TRUE(g.ok()) << g.status();
      FakeFreqDomain d = FakeFreqDomain::ForPreset(machine);
      // Grow the fake's action log beforehand: only the governor counts.
      for (int i = 0; i < 2000; ++i) d.SetTargetKhz(d.policy_min_khz());
      d.ClearActions();
      (*g)->Start(d);
      g_allocations = 0;
      g_count_allocations = true;
      for (int i = 0; i < 300; ++i) {
        d.set_util(d.first_cpu(), i % 2 ? 900 : 100);
        d.set_busy_fraction(d.first_cpu(), i % 2 ? 0.9 : 0.1);
        d.Advance(3000000);
        (*g)->UpdateUtil(d, d.first_cpu(), i % 3 ? platform::kUtilIowait : 0u);
      }
      g_count_allocations = false;
      EXPECT_EQ(g_allocations, 0);
      EXPECT_LT(d.actions().size(), 2000u);
    }
  }
}

}  // namespace
}  // namespace schedsim::governors
