// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/registry.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedsim::platform {
namespace {

using ::testing::HasSubstr;

class TestIdle final : public IdleGovernor {
 public:
  explicit TestIdle(int64_t state) : state_(state) {}
  absl::string_view name() const override { return "test-idle"; }
  int Select(IdleDevice&, bool*) override { return static_cast<int>(state_); }
  int64_t state_;
};

PolicyInfo TestIdleInfo() {
  PolicyInfo info;
  info.family = PolicyFamily::kCpuidle;
  info.name = "test-idle";
  info.description = "always one state";
  info.params = {{"state", int64_t{1}, "the state index"},
                 {"scale", 1.0, "unused"}};
  info.make_idle =
      [](const Params& p) -> absl::StatusOr<std::unique_ptr<IdleGovernor>> {
    return std::make_unique<TestIdle>(p.GetInt("state"));
  };
  return info;
}

TEST(PolicyRegistryTest, BuildsByNameWithDefaultsAndOverrides) {
  PolicyRegistry r;
  ASSERT_TRUE(r.Register(TestIdleInfo()).ok());
  absl::StatusOr<std::unique_ptr<IdleGovernor>> a = r.MakeIdle("test-idle");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(static_cast<TestIdle&>(**a).state_, 1);
  auto b =
      r.MakeIdle("test-idle", {{"state", int64_t{3}}, {"scale", int64_t{2}}});
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(static_cast<TestIdle&>(**b).state_, 3);
}

TEST(PolicyRegistryTest, ErrorsListWhatExists) {
  PolicyRegistry r;
  ASSERT_TRUE(r.Register(TestIdleInfo()).ok());
  EXPECT_THAT(r.MakeIdle("mneu").status().message(),
              HasSubstr("unknown cpuidle policy 'mneu'; known: test-idle"));
  EXPECT_THAT(
      r.MakeIdle("test-idle", {{"stat", int64_t{1}}}).status().message(),
      HasSubstr("no parameter 'stat'; its parameters: state, scale"));
  EXPECT_THAT(r.MakeIdle("test-idle", {{"state", std::string("deep")}})
                  .status()
                  .message(),
              HasSubstr("expects type int, got type string (deep)"));
  EXPECT_EQ(r.Register(TestIdleInfo()).code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_THAT(r.MakeFreq("test-idle").status().message(),
              HasSubstr("unknown cpufreq policy"));
}

}  // namespace
}  // namespace schedsim::platform
