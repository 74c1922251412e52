// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Every cpuidle governor of this folder is reachable by its kernel name
// through the registry when linked with :policies, with documented parameters.

#include <map>
#include <memory>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "platform/registry.h"
#include "platform/testing/fake_idle.h"

namespace schedsim::governors {
namespace {

using platform::IdleGovernor;
using platform::ParamValue;
using platform::PolicyFamily;
using platform::PolicyRegistry;
using platform::testing::FakeIdleDevice;
using ::testing::HasSubstr;

constexpr const char* kNames[] = {"menu", "teo", "ladder", "haltpoll"};

TEST(CpuidleRegistryTest, EveryGovernorResolvesByName) {
  for (const char* name : kNames) {
    absl::StatusOr<std::unique_ptr<IdleGovernor>> gov =
        PolicyRegistry::Global().MakeIdle(name);
    ASSERT_TRUE(gov.ok()) << name << ": " << gov.status();
    EXPECT_EQ((*gov)->name(), name);
    // It runs.
    FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
    (*gov)->Enable(dev);
    for (int i = 0; i < 5; ++i) {
      dev.set_next_timer_in_ns(1'000'000);
      dev.IdlePeriod(**gov, 500'000);
    }
  }
}

TEST(CpuidleRegistryTest, ParametersAreDocumented) {
  for (const char* name : kNames) {
    const platform::PolicyInfo* info =
        PolicyRegistry::Global().Find(PolicyFamily::kCpuidle, name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_THAT(info->description, HasSubstr("v6.1")) << name;
    for (const platform::ParamSpec& p : info->params) {
      EXPECT_THAT(p.doc, HasSubstr("default")) << name << "." << p.name;
    }
  }
}

TEST(CpuidleRegistryTest, UnknownParameterIsAnError) {
  for (const char* name : kNames) {
    absl::StatusOr<std::unique_ptr<IdleGovernor>> gov =
        PolicyRegistry::Global().MakeIdle(name, {{"no_such_knob", true}});
    ASSERT_FALSE(gov.ok()) << name;
    EXPECT_EQ(gov.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(gov.status().message(), HasSubstr("no_such_knob"));
  }
}

TEST(CpuidleRegistryTest, ParametersAreChecked) {
  PolicyRegistry& r = PolicyRegistry::Global();
  EXPECT_TRUE(r.MakeIdle("menu", {{"repeat_mode_timer", true}}).ok());
  EXPECT_TRUE(r.MakeIdle("menu", {{"version", std::string("6.1")}}).ok());
  EXPECT_TRUE(r.MakeIdle("menu", {{"version", std::string("4.16")}}).ok());
  absl::StatusOr<std::unique_ptr<IdleGovernor>> v612 =
      r.MakeIdle("menu", {{"version", std::string("6.12")}});
  ASSERT_FALSE(v612.ok());
  EXPECT_THAT(v612.status().message(), HasSubstr("6.12"));
  EXPECT_FALSE(r.MakeIdle("menu", {{"repeat_mode_timer", int64_t{1}}}).ok());
  EXPECT_TRUE(r.MakeIdle("teo", {{"version", std::string("6.1")}}).ok());
  EXPECT_TRUE(r.MakeIdle("teo", {{"version", std::string("5.12")}}).ok());
  EXPECT_TRUE(r.MakeIdle("teo", {{"version", std::string("6.3")}}).ok());
  absl::StatusOr<std::unique_ptr<IdleGovernor>> teo512 =
      r.MakeIdle("teo", {{"version", std::string("5.1")}});
  ASSERT_FALSE(teo512.ok());
  EXPECT_THAT(teo512.status().message(),
              HasSubstr("version \"5.1\" is not modelled; use \"6.1\", "
                        "\"6.3\" or \"5.12\""));
  EXPECT_TRUE(r.MakeIdle("menu", {{"repeat_mode_timer", true},
                                  {"general_mode_timer", false}})
                  .ok());
  EXPECT_FALSE(
      r.MakeIdle("menu", {{"general_mode_timer", std::string("no")}}).ok());

  EXPECT_TRUE(r.MakeIdle("ladder", {{"promotion_count", int64_t{2}}}).ok());
  EXPECT_FALSE(r.MakeIdle("ladder", {{"demotion_count", int64_t{0}}}).ok());

  std::map<std::string, ParamValue> haltpoll = {
      {"guest_halt_poll_ns", int64_t{400000}},
      {"guest_halt_poll_grow", int64_t{4}},
      {"guest_halt_poll_shrink", int64_t{0}},
      {"guest_halt_poll_grow_start", int64_t{10000}},
      {"guest_halt_poll_allow_shrink", false}};
  EXPECT_TRUE(r.MakeIdle("haltpoll", haltpoll).ok());
  absl::StatusOr<std::unique_ptr<IdleGovernor>> bad =
      r.MakeIdle("haltpoll", {{"guest_halt_poll_ns", int64_t{-1}}});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("guest_halt_poll_ns"));
}

TEST(CpuidleRegistryTest, UnknownGovernorListsTheKnownOnes) {
  absl::StatusOr<std::unique_ptr<IdleGovernor>> gov =
      PolicyRegistry::Global().MakeIdle("menu2");
  ASSERT_FALSE(gov.ok());
  EXPECT_THAT(gov.status().message(), HasSubstr("haltpoll"));
  EXPECT_THAT(gov.status().message(), HasSubstr("teo"));
}

}  // namespace
}  // namespace schedsim::governors
