// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The phase arithmetic's rounding (sim/interpreter_inline.h, phase.cc,
// cache_lines.cc): ceil() and llround() of a non-negative double, exact
// and without a libm call.

#ifndef SCHEDSIM_SIM_EXACT_ROUND_H_
#define SCHEDSIM_SIM_EXACT_ROUND_H_

#include <cstdint>

namespace schedsim::sim {

// (int64_t)std::ceil(x) and std::llround(x) for 0 <= x < 2^63, without a
// libm call: the portable x86-64 baseline (`-c opt`, no SSE4.1) has no
// rounding instruction, so GCC calls ceil() and llround(). Exact: the
// truncation is exact, and x - trunc(x) is exact for every double.
inline int64_t CeilNonNegative(double x) {
  const int64_t t = static_cast<int64_t>(x);
  return t + (static_cast<double>(t) < x);
}
inline int64_t RoundNonNegative(double x) {  // halves away from zero
  const int64_t t = static_cast<int64_t>(x);
  return t + (x - static_cast<double>(t) >= 0.5);
}

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_EXACT_ROUND_H_
