// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The phase arithmetic's rounding (sim/exact_round.h) against libm's
// ceil() and llround(), which it replaces on the phase path.

#include "sim/exact_round.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include "gtest/gtest.h"
#include "sim/rng.h"

namespace schedsim::sim {
namespace {

void ExpectBoth(double x) {
  EXPECT_EQ(CeilNonNegative(x), static_cast<int64_t>(std::ceil(x))) << x;
  EXPECT_EQ(RoundNonNegative(x), std::llround(x)) << x;
}

TEST(ExactRoundTest, EdgeCases) {
  for (double x :
       {0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.5, 2.4999999999999996,
        3.0000000000000004, 1e6 + 0.5, 4503599627370495.5, 4503599627370496.0,
        9007199254740991.0, 9007199254740992.0, 1e18, 9.2e18}) {
    ExpectBoth(x);
  }
  // Halves go away from zero, as llround does (not to even).
  EXPECT_EQ(RoundNonNegative(0.5), 1);
  EXPECT_EQ(RoundNonNegative(2.5), 3);
  EXPECT_EQ(CeilNonNegative(std::nextafter(1.0, 2.0)), 2);
}

TEST(ExactRoundTest, AgreesWithLibmOverEveryMagnitude) {
  Rng rng(42);
  for (int i = 0; i < 200000; ++i) {
    // A mantissa and a binary exponent 0..62: every scale a phase's cycles
    // times ns per cycle can have.
    const double m = rng.UniformDouble();
    const int e = static_cast<int>(rng.NextU64() % 63);
    ExpectBoth(std::ldexp(m, e));
  }
}

}  // namespace
}  // namespace schedsim::sim
