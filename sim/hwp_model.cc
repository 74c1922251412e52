// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/hwp_model.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace schedsim::sim {
namespace {

constexpr int kQ30Bits = 30;
constexpr int64_t kQ30One = int64_t{1} << kQ30Bits;

// exp(-x) for x >= 0 using only IEEE-754 +, -, *, / (correctly rounded, so
// bit-identical everywhere, unlike libm's exp): a Taylor polynomial for
// exp(-x / 1024), then squared ten times. Relative error below 1e-9, far
// finer than the Q30 result it feeds.
double ExpNeg(double x) {
  if (!(x > 0.0)) return 1.0;
  if (x > 64.0) return 0.0;     // < 2e-28: zero in Q30
  const double y = x / 1024.0;  // y <= 1/16
  double e = 1.0 - y / 6.0;
  e = 1.0 - y / 5.0 * e;
  e = 1.0 - y / 4.0 * e;
  e = 1.0 - y / 3.0 * e;
  e = 1.0 - y / 2.0 * e;
  e = 1.0 - y * e;
  for (int i = 0; i < 10; ++i) e *= e;
  return e;
}

// The fraction of a first-order system's gap closed in `dt_ns` with time
// constant `tau_ns`, 1 - exp(-dt/tau), in Q30.
int64_t ClosedFractionQ30(int64_t dt_ns, int64_t tau_ns) {
  const double keep =
      ExpNeg(static_cast<double>(dt_ns) / static_cast<double>(tau_ns));
  // Multiplying by a power of two is exact.
  return kQ30One - std::llround(keep * static_cast<double>(kQ30One));
}

// x * f / 2^30 rounded to the nearest integer, ties away from zero.
// REQUIRES: 0 <= f <= 2^30, |x| < 2^33.
int64_t MulQ30(int64_t x, int64_t f) {
  const int64_t half = kQ30One / 2;
  return x >= 0 ? (x * f + half) >> kQ30Bits : -((-x * f + half) >> kQ30Bits);
}

}  // namespace

HwpModel::HwpModel(const HwpModelParams& params, int initial_perf)
    : params_(params) {
  Reset(initial_perf);
}

void HwpModel::Reset(int perf) {
  perf_q16_ = int64_t{std::clamp(perf, 0, 255)} << kFracBits;
  activity_q16_ = 0;
  target_q16_ = perf_q16_;
}

int HwpModel::Evaluate(const platform::HwpRequest& req,
                       const topology::HwpCaps& caps, int64_t busy_ns,
                       int64_t window_ns, int ceiling_perf) {
  // 2. Bounds, in integer perf units.
  const int caps_lo = caps.lowest;
  const int caps_hi = std::max(caps.highest, caps.lowest);
  const int req_lo = std::clamp(req.min_perf, caps_lo, caps_hi);
  const int req_hi = std::clamp(req.max_perf, req_lo, caps_hi);
  const int hi = std::max(std::min(req_hi, ceiling_perf), caps_lo);
  const int lo = std::min(req_lo, hi);
  const int64_t lo_q16 = int64_t{lo} << kFracBits;
  const int64_t hi_q16 = int64_t{hi} << kFracBits;

  if (window_ns > 0) {
    // 1. Activity estimate. busy / window in Q16: one correctly rounded
    // division, an exact scaling by 2^16, then rounded to nearest.
    const int64_t busy = std::clamp<int64_t>(busy_ns, 0, window_ns);
    const int64_t a_q16 = std::llround(static_cast<double>(busy) /
                                       static_cast<double>(window_ns) *
                                       static_cast<double>(kOne));
    activity_q16_ +=
        MulQ30(a_q16 - activity_q16_,
               ClosedFractionQ30(window_ns, params_.activity_tau_ns));

    // 3. Target.
    int64_t target_q16;
    if (req.desired_perf != 0) {
      target_q16 = int64_t{req.desired_perf} << kFracBits;
    } else {
      const int64_t epp = std::clamp(req.epp, 0, 255);
      const int64_t threshold_q16 =
          params_.epp0_busy_threshold_pct * kOne / 100;
      if (epp == 0 && activity_q16_ >= threshold_q16) {
        target_q16 = hi_q16;
      } else {
        // A * highest * (1 + (255 - epp) / 255) = A * highest * (510 - epp)
        // / 255; at most 2^16 * 255 * 510, no overflow.
        const int64_t num = activity_q16_ * int64_t{caps.highest} * (510 - epp);
        target_q16 = (num + 127) / 255;
      }
    }
    target_q16 = std::clamp(target_q16, lo_q16, hi_q16);
    target_q16_ = target_q16;

    // 4. Ramp.
    const int64_t gap = target_q16 - perf_q16_;
    const int64_t tau = gap > 0 ? params_.tau_up_ns : params_.tau_down_ns;
    perf_q16_ += MulQ30(gap, ClosedFractionQ30(window_ns, tau));
  }

  // 5. Limits hold at once.
  perf_q16_ = std::clamp(perf_q16_, lo_q16, hi_q16);
  return perf();
}

int64_t PerfToKhz(const topology::FrequencySpec& spec, int perf) {
  return int64_t{perf} * spec.khz_per_perf_unit;
}

int KhzToPerf(const topology::FrequencySpec& spec, int64_t khz) {
  if (khz <= 0) return 0;
  const int64_t perf = khz / spec.khz_per_perf_unit;
  return static_cast<int>(
      std::min<int64_t>(perf, std::numeric_limits<int>::max()));
}

}  // namespace schedsim::sim
