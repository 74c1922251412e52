// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/power.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace schedsim::sim {
namespace {

constexpr int64_t kPjPerUj = 1000000;
constexpr int64_t kNsPerMs = 1000000;

// num / den rounded to the nearest integer, ties away from zero.
// REQUIRES: den > 0.
int64_t RoundDiv(int64_t num, int64_t den) {
  return num >= 0 ? (num + den / 2) / den : -((-num + den / 2) / den);
}

}  // namespace

int64_t VoltageMvAt(const topology::FrequencySpec& spec, int64_t khz) {
  const std::vector<topology::OperatingPoint>& curve = spec.vf_curve;
  if (curve.empty()) return kDefaultVoltageMv;
  if (khz <= curve.front().khz) return curve.front().mv;
  if (khz >= curve.back().khz) return curve.back().mv;
  // The first point strictly above `khz`; it exists and is not the first.
  auto hi = std::upper_bound(
      curve.begin(), curve.end(), khz,
      [](int64_t k, const topology::OperatingPoint& p) { return k < p.khz; });
  const topology::OperatingPoint& b = *hi;
  const topology::OperatingPoint& a = *(hi - 1);
  // a.khz <= khz < b.khz, so the span is positive.
  return a.mv + RoundDiv((b.mv - a.mv) * (khz - a.khz), b.khz - a.khz);
}

int64_t ActivePowerMw(const topology::PowerSpec& power,
                      const topology::FrequencySpec& freq, int64_t khz) {
  if (khz <= 0 || !(power.ceff_pf > 0.0)) return 0;
  const int64_t mv = VoltageMvAt(freq, khz);
  // mV^2 and kHz are each exact in double; so is their product while it is
  // below 2^53 (about 9e15; real parts are near 1e13).
  const double mv2_khz =
      static_cast<double>(mv * mv) * static_cast<double>(khz);
  const double mw = power.ceff_pf * mv2_khz / 1e12;
  return std::llround(mw);
}

void EnergyCounter::Add(int64_t power_mw, int64_t duration_ns) {
  if (power_mw <= 0 || duration_ns <= 0) return;
  // power_mw * duration_ns picojoules, split so that nothing overflows:
  // duration_ns = whole_ms * 1e6 + part_ns, and 1 mW for 1 ms is 1 uJ.
  const int64_t whole_ms = duration_ns / kNsPerMs;
  const int64_t part_ns = duration_ns % kNsPerMs;
  total_uj_ +=
      static_cast<uint64_t>(power_mw) * static_cast<uint64_t>(whole_ms);
  remainder_pj_ += power_mw * part_ns;
  total_uj_ += static_cast<uint64_t>(remainder_pj_ / kPjPerUj);
  remainder_pj_ %= kPjPerUj;
}

uint32_t EnergyCounter::rapl_counter() const {
  // units = pJ * 2^14 / 10^12 = pJ * 4 / 5^12, with pJ = uJ * 10^6 + rem.
  // Write uJ = q * 5^6 + r: q * 5^6 uJ is exactly q * 256 units, and the
  // rest, (r * 10^6 + rem) * 4 < 6.3e10, is divided exactly.
  constexpr uint64_t kFive6 = 15625;       // 5^6
  constexpr uint64_t kFive12 = 244140625;  // 5^12
  const uint64_t q = total_uj_ / kFive6;
  const uint64_t r = total_uj_ % kFive6;
  const uint64_t rest =
      (r * kPjPerUj + static_cast<uint64_t>(remainder_pj_)) * 4 / kFive12;
  // Unsigned arithmetic wraps modulo 2^64, a multiple of 2^32: the low 32
  // bits are right even if q * 256 wraps.
  return static_cast<uint32_t>(q * 256 + rest);
}

PowerLimiterParams PowerLimiterParams::FromSpec(
    const topology::PowerSpec& power, const topology::FrequencySpec& freq) {
  PowerLimiterParams p;
  p.limit_mw = power.tdp_mw;
  p.min_khz = freq.min_khz;
  p.max_khz = freq.max_turbo_khz;
  return p;
}

PowerLimiter::PowerLimiter(const PowerLimiterParams& params)
    : params_(params), cap_khz_(params.max_khz) {}

int64_t PowerLimiter::Update(int64_t power_mw, int64_t dt_ns) {
  if (!enabled()) return kNoCap;
  if (dt_ns <= 0) return cap_khz_;
  const double dt = static_cast<double>(dt_ns);
  const double tau = static_cast<double>(params_.tau_ns);
  average_mw_ +=
      (static_cast<double>(power_mw) - average_mw_) * dt / (tau + dt);
  const double limit = static_cast<double>(params_.limit_mw);
  const double raise_below =
      static_cast<double>(params_.limit_mw *
                          (1000 - params_.raise_margin_permille)) /
      1000.0;
  if (average_mw_ > limit) {
    cap_khz_ = std::max(params_.min_khz, cap_khz_ - params_.step_khz);
  } else if (average_mw_ < raise_below) {
    cap_khz_ = std::min(params_.max_khz, cap_khz_ + params_.step_khz);
  }
  return cap_khz_;
}

int64_t PowerLimiter::average_mw() const { return std::llround(average_mw_); }

}  // namespace schedsim::sim
