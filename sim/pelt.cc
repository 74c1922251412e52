// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/pelt.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>

namespace schedsim::sim {
namespace {

// The decay table, computed at compile time in integer arithmetic.
//
// Values are unsigned Q0.64 fixed point (v / 2^64). y = 2^(-1/32) is found
// by bisection as the largest Q0.64 number whose 32nd power (five truncating
// squarings) is at most 1/2; y^n follows by repeated truncating
// multiplication. Each step loses under 2^-64, so y^n is within about 2^-58
// of the exact value, far below the 2^-32 resolution of the table (the exact
// products (2^32 - 1) * y^n are all at least 0.0025 away from an integer, so
// truncation cannot flip). The test checks the result against the published
// constants.
using Uint128 = unsigned __int128;

constexpr uint64_t MulQ64(uint64_t a, uint64_t b) {
  return static_cast<uint64_t>((static_cast<Uint128>(a) * b) >> 64);
}

constexpr uint64_t Pow32Q64(uint64_t x) {
  for (int i = 0; i < 5; ++i) x = MulQ64(x, x);
  return x;
}

constexpr uint64_t HalfLifeRootQ64() {
  constexpr uint64_t kHalf = uint64_t{1} << 63;
  uint64_t lo = kHalf;  // 0.5^(1/32) > 0.5
  uint64_t hi = ~uint64_t{0};
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo + 1) / 2;
    if (Pow32Q64(mid) <= kHalf) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

constexpr std::array<uint32_t, kPeltHalfLifePeriods> MakeDecayTable() {
  std::array<uint32_t, kPeltHalfLifePeriods> table{};
  constexpr uint64_t kOne32 = 0xffffffffu;  // 2^32 - 1: y^0, as the kernel
  const uint64_t y = HalfLifeRootQ64();
  table[0] = static_cast<uint32_t>(kOne32);
  uint64_t y_n = y;
  for (uint32_t n = 1; n < kPeltHalfLifePeriods; ++n) {
    table[n] = static_cast<uint32_t>(MulQ64(kOne32 << 32, y_n) >> 32);
    y_n = MulQ64(y_n, y);
  }
  return table;
}

constexpr std::array<uint32_t, kPeltHalfLifePeriods> kDecayTable =
    MakeDecayTable();

// Beyond this many periods every 64-bit value has decayed to 0.
constexpr uint64_t kMaxDecayPeriods = uint64_t{kPeltHalfLifePeriods} * 63;

// floor(a * b / 2^32) without overflow, for any 64-bit `a`.
inline uint64_t MulShift32(uint64_t a, uint32_t b) {
  const uint64_t hi = (a >> 32) * b;
  const uint64_t lo = ((a & 0xffffffffu) * b) >> 32;
  return hi + lo;
}

// The running units of an interval that crossed `periods` (>= 1) period
// boundaries: `d1` units to finish the period in progress (decayed by
// y^periods), periods - 1 whole periods (y^1 .. y^(periods-1), from the
// closed form of the geometric sum), and `d3` units of the new period.
inline uint64_t AccumulateSegments(uint64_t periods, uint32_t d1, uint32_t d3) {
  const uint64_t c1 = DecayLoad(d1, periods);
  const uint64_t c2 =
      kPeltLoadAvgMax - DecayLoad(kPeltLoadAvgMax, periods) - kPeltPeriodUnits;
  return c1 + c2 + d3;
}

}  // namespace

uint32_t PeltDecayFactor(int n) {
  assert(n >= 0 && n < static_cast<int>(kPeltHalfLifePeriods));
  return kDecayTable[static_cast<size_t>(n)];
}

uint64_t DecayLoad(uint64_t val, uint64_t n_periods) {
  if (n_periods > kMaxDecayPeriods) return 0;
  val >>= n_periods / kPeltHalfLifePeriods;
  return MulShift32(val, kDecayTable[n_periods % kPeltHalfLifePeriods]);
}

namespace pelt_internal {

bool PeltUpdateSlow(PeltSignal& s, int64_t now_ns, bool running,
                    uint32_t scale) {
  assert(scale <= kSchedCapacityScale);
  return PeltAccumulate(s, now_ns, running, scale);
}

bool PeltAccumulate(PeltSignal& s, int64_t now_ns, bool running,
                    uint32_t scale) {
  if (now_ns < s.last_update_ns) {
    s.last_update_ns = now_ns;
    return false;
  }
  const uint64_t delta_units =
      static_cast<uint64_t>(now_ns - s.last_update_ns) >> kPeltTimeShift;
  if (delta_units == 0) return false;
  s.last_update_ns += static_cast<int64_t>(delta_units << kPeltTimeShift);

  // Units since the start of the period in progress at the last update.
  const uint64_t since_period_start = delta_units + s.period_contrib;
  const uint64_t periods = since_period_start / kPeltPeriodUnits;
  uint64_t contrib = delta_units;
  if (periods != 0) {
    s.util_sum = DecayLoad(s.util_sum, periods);
    const auto d3 =
        static_cast<uint32_t>(since_period_start % kPeltPeriodUnits);
    if (running) {
      contrib =
          AccumulateSegments(periods, kPeltPeriodUnits - s.period_contrib, d3);
    }
    s.period_contrib = d3;
  } else {
    s.period_contrib = static_cast<uint32_t>(since_period_start);
  }
  if (running) s.util_sum += contrib * scale;
  if (periods == 0) return false;
  s.util_avg = static_cast<uint32_t>(s.util_sum / PeltDivider(s));
  return true;
}

}  // namespace pelt_internal

void PeltAttach(PeltSignal& rq, PeltSignal& se) {
  se.last_update_ns = rq.last_update_ns;
  se.period_contrib = rq.period_contrib;
  se.util_sum = uint64_t{se.util_avg} * PeltDivider(rq);
  rq.util_avg += se.util_avg;
  rq.util_sum += se.util_sum;
}

void PeltDetach(PeltSignal& rq, const PeltSignal& se) {
  rq.util_avg -= std::min(rq.util_avg, se.util_avg);
  rq.util_sum -= std::min(rq.util_sum, se.util_sum);
  rq.util_sum = std::max(rq.util_sum, uint64_t{rq.util_avg} * kPeltMinDivider);
}

void UtilEstUpdate(UtilEst& ue, uint32_t task_util, uint32_t cpu_capacity) {
  if (ue.util_avg_unchanged) return;
  const uint32_t old_enqueued = ue.enqueued;
  const auto within_margin = [](uint32_t a, uint32_t b) {
    return (a > b ? a - b : b - a) < kUtilEstMargin;
  };
  UtilEst next = ue;
  next.enqueued = task_util;
  if (next.ewma < task_util) {
    next.ewma = task_util;  // Fast up: follow increases at once.
  } else if (within_margin(task_util, next.ewma)) {
    if (within_margin(old_enqueued, task_util)) return;
    // Store the new `enqueued`; ewma is already close enough.
  } else {
    if (task_util > cpu_capacity) return;
    // ewma += (task_util - ewma) / 4, rounded down: ewma >= task_util here.
    next.ewma =
        static_cast<uint32_t>(((uint64_t{next.ewma} << kUtilEstWeightShift) -
                               next.ewma + task_util) >>
                              kUtilEstWeightShift);
  }
  next.util_avg_unchanged = true;
  ue = next;
}

}  // namespace schedsim::sim
