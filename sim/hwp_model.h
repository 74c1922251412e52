// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// HwpModel: a model of the autonomous performance selection that Intel's
// Hardware-Controlled Performance States (HWP; Intel SDM vol. 3B, "Power
// and Thermal Management") perform for one frequency domain. The OS writes
// IA32_HWP_REQUEST (min, max, desired, EPP) and the hardware picks the
// performance level within [min, max] itself, from its own estimate of how
// busy the CPU is, biased by EPP towards performance (0) or energy (255).
// Intel does not publish the algorithm; this is a MODEL with the
// qualitative behaviour the SDM describes and that is observed on parts,
// and every constant in it is assumed (each is a field of HwpModelParams,
// to be swept).
//
// Per evaluation window (Evaluate()):
//   1. Activity. a = busy_ns / window_ns (C0 fraction), folded into an
//      exponential moving average with time constant activity_tau_ns:
//        A += (a - A) * (1 - exp(-window_ns / activity_tau_ns)).
//   2. Bounds. lo = max(min, lowest), hi = min(max, ceiling, highest),
//      where ceiling is the caller's physical limit (turbo ceiling for the
//      number of active cores, a power cap). A min above max resolves to
//      min; the physical ceiling wins over min; nothing goes below lowest.
//   3. Target. desired_perf if non-zero; otherwise, with
//      aggressiveness = (255 - EPP) / 255,
//        target = A * highest * (1 + aggressiveness),
//      and with EPP 0 the target is hi as soon as A >= the busy threshold.
//      The target is clamped to [lo, hi].
//   4. Ramp. The level moves towards the target as a first-order system,
//        P += (target - P) * (1 - exp(-window_ns / tau)),
//      tau = tau_up_ns when rising, tau_down_ns when falling.
//   5. Limits. P is clamped to [lo, hi] at once: a raised min (as
//      intel_pstate's HWP dynamic boost writes) or a lowered max takes
//      effect in the same evaluation, without a ramp.
//
// The level and the activity estimate are kept in fixed point (Q16). The
// exponential factors use only IEEE-754 +, -, *, / (no libm), rounded to
// Q30 with std::llround, and hwp_model.cc is compiled with
// -ffp-contract=off: results are bit-identical on every platform.
//
// HwpModel is a small value type; it never allocates. See
// docs/model-idle-frequency.md, "HWP hardware model".

#ifndef SCHEDSIM_SIM_HWP_MODEL_H_
#define SCHEDSIM_SIM_HWP_MODEL_H_

#include <cstdint>

#include "platform/cpufreq.h"
#include "topology/topology.h"

namespace schedsim::sim {

// The model's constants. All are assumed (Intel publishes none).
struct HwpModelParams {
  // Ramp time constant while the level rises (assumed: 1 ms).
  int64_t tau_up_ns = 1000000;
  // Ramp time constant while the level falls (assumed: 10 ms).
  int64_t tau_down_ns = 10000000;
  // Time constant of the activity estimate (assumed: 1 ms; the SDM's
  // Activity_Window = 0 lets the hardware choose).
  int64_t activity_tau_ns = 1000000;
  // With EPP 0 the target is the highest allowed level once the activity
  // estimate reaches this many percent (assumed: 5%).
  int epp0_busy_threshold_pct = 5;
};

class HwpModel {
 public:
  // Fixed-point fraction bits of perf_q16() and activity_q16().
  static constexpr int kFracBits = 16;
  static constexpr int64_t kOne = int64_t{1} << kFracBits;

  // Starts at level `initial_perf` (as Reset; the first Evaluate lifts it
  // to the lowest allowed level at once) with an activity estimate of zero.
  // REQUIRES: every time constant > 0.
  explicit HwpModel(const HwpModelParams& params = {}, int initial_perf = 0);

  // One evaluation window of length `window_ns` in which the domain was in
  // C0 for `busy_ns` (clamped to [0, window_ns]; for a domain of several
  // CPUs the caller chooses how to combine them, e.g. the busiest CPU's C0
  // time, as the frequency must serve it), under request `req`,
  // capabilities `caps` and a physical ceiling `ceiling_perf` (in perf
  // units; pass caps.highest when nothing else limits). Returns the level
  // after the window, rounded to the nearest integer perf unit, which is
  // within the bounds of step 2 of the file comment. With window_ns <= 0
  // only step 5 applies (the activity estimate and ramp do not advance).
  int Evaluate(const platform::HwpRequest& req, const topology::HwpCaps& caps,
               int64_t busy_ns, int64_t window_ns, int ceiling_perf);

  // The current level, rounded to the nearest perf unit.
  int perf() const {
    return static_cast<int>((perf_q16_ + kOne / 2) >> kFracBits);
  }
  // The current level in Q16 perf units.
  int64_t perf_q16() const { return perf_q16_; }
  // The activity estimate in Q16, [0, kOne] (kOne = always busy).
  int64_t activity_q16() const { return activity_q16_; }
  // The last target (after clamping) in Q16 perf units. For tracing.
  int64_t target_q16() const { return target_q16_; }
  const HwpModelParams& params() const { return params_; }

  // Back to level `perf` (clamped to the 8-bit field range [0, 255]),
  // activity zero.
  void Reset(int perf);

 private:
  HwpModelParams params_;
  int64_t perf_q16_ = 0;
  int64_t activity_q16_ = 0;
  int64_t target_q16_ = 0;
};

// The frequency of performance level `perf`: perf * khz_per_perf_unit.
int64_t PerfToKhz(const topology::FrequencySpec& spec, int perf);

// The highest performance level whose frequency does not exceed `khz`
// (khz / khz_per_perf_unit, rounded down; 0 for khz <= 0). Use it to turn a
// frequency ceiling (turbo bin, power cap) into ceiling_perf.
// REQUIRES: spec.khz_per_perf_unit > 0.
int KhzToPerf(const topology::FrequencySpec& spec, int64_t khz);

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_HWP_MODEL_H_
