// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/time.h"

#include <cstdint>
#include <limits>
#include <sstream>
#include <type_traits>

#include "absl/hash/hash.h"
#include "gtest/gtest.h"

namespace schedsim::sim {
namespace {

// Zero overhead: one int64, trivially copyable, usable in constant
// expressions.
static_assert(sizeof(SimTime) == sizeof(int64_t));
static_assert(sizeof(SimDuration) == sizeof(int64_t));
static_assert(std::is_trivially_copyable_v<SimTime>);
static_assert(std::is_trivially_copyable_v<SimDuration>);
static_assert(std::is_standard_layout_v<SimTime>);
static_assert(Milliseconds(3).ns() == 3000000);
static_assert((SimTime::Zero() + Microseconds(2)).ns() == 2000);
static_assert(SimTime::FromNanoseconds(5) - SimTime::FromNanoseconds(2) ==
              Nanoseconds(3));
static_assert(SimTime() == SimTime::Zero());
static_assert(SimDuration() == SimDuration::Zero());
// instant + instant must not compile.
template <typename A, typename B, typename = void>
struct CanAdd : std::false_type {};
template <typename A, typename B>
struct CanAdd<A, B,
              std::void_t<decltype(std::declval<A>() + std::declval<B>())>>
    : std::true_type {};
static_assert(!CanAdd<SimTime, SimTime>::value);
static_assert(CanAdd<SimTime, SimDuration>::value);
static_assert(CanAdd<SimDuration, SimTime>::value);
// No implicit conversion from an integer.
static_assert(!std::is_convertible_v<int64_t, SimDuration>);
static_assert(!std::is_convertible_v<int64_t, SimTime>);

TEST(SimDurationTest, Factories) {
  EXPECT_EQ(Nanoseconds(7).ns(), 7);
  EXPECT_EQ(Microseconds(7).ns(), 7000);
  EXPECT_EQ(Milliseconds(7).ns(), 7000000);
  EXPECT_EQ(Seconds(7).ns(), 7000000000);
  EXPECT_EQ(Seconds(-2).ns(), -2000000000);
  EXPECT_EQ(Seconds(9000000000).ns(), 9000000000000000000);
  EXPECT_EQ(SimDuration::Max().ns(), std::numeric_limits<int64_t>::max());
}

TEST(SimDurationTest, Arithmetic) {
  SimDuration d = Milliseconds(1) + Microseconds(500);
  EXPECT_EQ(d, Microseconds(1500));
  EXPECT_EQ(d - Milliseconds(2), Microseconds(-500));
  EXPECT_EQ(-d, Microseconds(-1500));
  EXPECT_EQ(d * 3, Microseconds(4500));
  EXPECT_EQ(3 * d, Microseconds(4500));
  EXPECT_EQ(d / 4, Nanoseconds(375000));
  EXPECT_EQ(Nanoseconds(7) / 2, Nanoseconds(3));    // truncates
  EXPECT_EQ(Nanoseconds(-7) / 2, Nanoseconds(-3));  // toward zero
  EXPECT_EQ(Milliseconds(10) / Microseconds(3), 3333);
  EXPECT_EQ(Milliseconds(10) % Microseconds(3), Microseconds(1));
  d += Microseconds(500);
  EXPECT_EQ(d, Milliseconds(2));
  d -= Milliseconds(3);
  EXPECT_EQ(d, Milliseconds(-1));
  d *= -4;
  EXPECT_EQ(d, Milliseconds(4));
  d /= 8;
  EXPECT_EQ(d, Microseconds(500));
}

TEST(SimDurationTest, Comparison) {
  EXPECT_LT(Microseconds(999), Milliseconds(1));
  EXPECT_LE(Microseconds(1000), Milliseconds(1));
  EXPECT_GT(Seconds(1), Milliseconds(999));
  EXPECT_GE(Seconds(1), Milliseconds(1000));
  EXPECT_NE(Seconds(1), Seconds(2));
  EXPECT_LT(Nanoseconds(-1), SimDuration::Zero());
}

TEST(SimDurationTest, DoubleConversionsForReporting) {
  EXPECT_DOUBLE_EQ(Milliseconds(1500).ToDoubleSeconds(), 1.5);
  EXPECT_DOUBLE_EQ(Microseconds(2500).ToDoubleMilliseconds(), 2.5);
  EXPECT_DOUBLE_EQ(Nanoseconds(1500).ToDoubleMicroseconds(), 1.5);
}

TEST(SimTimeTest, InstantArithmetic) {
  const SimTime t0 = SimTime::Zero();
  SimTime t = t0 + Milliseconds(4);
  EXPECT_EQ(t.ns(), 4000000);
  EXPECT_EQ(t - t0, Milliseconds(4));
  EXPECT_EQ(t0 - t, Milliseconds(-4));
  EXPECT_EQ(Milliseconds(1) + t, t + Milliseconds(1));
  EXPECT_EQ(t - Milliseconds(1), t0 + Milliseconds(3));
  t += Microseconds(10);
  EXPECT_EQ(t, SimTime::FromNanoseconds(4010000));
  t -= Microseconds(20);
  EXPECT_EQ(t.SinceEpoch(), Microseconds(3990));
  EXPECT_DOUBLE_EQ(SimTime::FromNanoseconds(2500000000).ToDoubleSeconds(), 2.5);
}

TEST(SimTimeTest, OrderingAndMax) {
  EXPECT_LT(SimTime::Zero(), SimTime::FromNanoseconds(1));
  EXPECT_GT(SimTime::Max(), SimTime::Zero() + Seconds(9000000000));
  EXPECT_EQ(SimTime::Max().ns(), std::numeric_limits<int64_t>::max());
  EXPECT_LE(SimTime::Max(), SimTime::Max());
  EXPECT_GE(SimTime::Zero(), SimTime::FromNanoseconds(-1));
  EXPECT_NE(SimTime::Zero(), SimTime::Max());
}

TEST(SimTimeTest, PrintsAndHashes) {
  std::ostringstream os;
  os << SimTime::FromNanoseconds(1500) << ' ' << Nanoseconds(-2);
  EXPECT_EQ(os.str(), "@1500ns -2ns");
  EXPECT_EQ(absl::Hash<SimTime>()(SimTime::FromNanoseconds(3)),
            absl::Hash<SimTime>()(SimTime::Zero() + Nanoseconds(3)));
  EXPECT_EQ(absl::Hash<SimDuration>()(Microseconds(1)),
            absl::Hash<SimDuration>()(Nanoseconds(1000)));
}

}  // namespace
}  // namespace schedsim::sim
