// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// InvarianceRefKhz, the frequency at which x86's arch_scale_freq_capacity()
// reaches 1024, without the engine.

#include "sim/freq_invariance.h"

#include <cstdint>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "topology/topology.h"

namespace schedsim::sim {
namespace {

topology::FrequencySpec Spec(int64_t base_khz,
                             std::vector<int64_t> turbo_ceiling_khz) {
  topology::FrequencySpec f;
  f.min_khz = 800000;
  f.base_khz = base_khz;
  f.turbo_ceiling_khz = std::move(turbo_ceiling_khz);
  f.max_turbo_khz =
      f.turbo_ceiling_khz.empty() ? base_khz : f.turbo_ceiling_khz.front();
  return f;
}

TEST(FreqInvarianceTest, IntelUsesTheFourCoreTurboRatio) {
  // intel_set_max_freq_ratio() (v5.7): the turbo ratio with 4 active cores.
  const topology::FrequencySpec f =
      Spec(2000000, {4000000, 3900000, 3800000, 3600000, 3400000});
  EXPECT_EQ(InvarianceRefKhz(f, topology::Vendor::kIntel, 4000000), 3600000);
}

TEST(FreqInvarianceTest, IntelClampsTheRatioToBaseAndTop) {
  // A domain whose highest frequency is below the 4-core ratio (a capped
  // policy), or a table whose 4-core entry is below base.
  const topology::FrequencySpec f =
      Spec(2000000, {4000000, 3900000, 3800000, 3600000});
  EXPECT_EQ(InvarianceRefKhz(f, topology::Vendor::kIntel, 3000000), 3000000);
  const topology::FrequencySpec low =
      Spec(2000000, {2600000, 2400000, 2200000, 1800000});
  EXPECT_EQ(InvarianceRefKhz(low, topology::Vendor::kIntel, 2600000), 2000000);
}

TEST(FreqInvarianceTest, IntelWithoutAnActiveCoreTableUsesTheTop) {
  const topology::FrequencySpec f = Spec(2000000, {3000000, 2900000});
  EXPECT_EQ(InvarianceRefKhz(f, topology::Vendor::kIntel, 3000000), 3000000);
}

TEST(FreqInvarianceTest, AmdUsesTheMidpointOfBaseAndTop) {
  // 976df7e5730e (v5.11): half way between nominal and highest boost.
  const topology::FrequencySpec f = Spec(2450000, {3500000});
  EXPECT_EQ(InvarianceRefKhz(f, topology::Vendor::kAmd, 3500000), 2975000);
}

TEST(FreqInvarianceTest, WithoutABaseTheTopIsTheBase) {
  const topology::FrequencySpec f = Spec(0, {});
  EXPECT_EQ(InvarianceRefKhz(f, topology::Vendor::kAmd, 3000000), 3000000);
  EXPECT_EQ(InvarianceRefKhz(f, topology::Vendor::kIntel, 3000000), 3000000);
}

TEST(FreqInvarianceTest, OtherVendorsUseTheHighestFrequency) {
  // Arm: arch_set_freq_scale() against cpuinfo.max_freq.
  const topology::FrequencySpec f =
      Spec(1000000, {2000000, 1900000, 1800000, 1700000});
  EXPECT_EQ(InvarianceRefKhz(f, topology::Vendor::kUnknown, 2000000), 2000000);
}

}  // namespace
}  // namespace schedsim::sim
