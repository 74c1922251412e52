// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Power and energy models of the simulated machine: the voltage a CPU needs
// at a frequency, the dynamic power of one busy hardware thread, a
// RAPL-like per-package energy counter and a PL1-like package power
// limiter. Everything here is pure or a small value type: no allocation, no
// I/O, no randomness, and the same bits on every IEEE-754 platform.
//
//   const topology::Topology& t = ...;
//   int64_t mw = ActivePowerMw(t.power(), t.frequency(), 3500000);
//   EnergyCounter pkg;
//   pkg.Add(mw, /*duration_ns=*/1000000);        // 1 ms at `mw`
//   uint32_t raw = pkg.rapl_counter();           // MSR_PKG_ENERGY_STATUS
//
//   PowerLimiter pl1(PowerLimiterParams::FromSpec(t.power(), t.frequency()));
//   int64_t cap_khz = pl1.Update(package_mw, interval_ns);  // per evaluation
//
// Determinism: integer arithmetic throughout, except ActivePowerMw (one
// double multiplication and one division, then rounded to nearest) and
// PowerLimiter's average (double +, -, *, / only). IEEE 754 rounds each of
// those operations correctly, and power.cc is compiled with
// -ffp-contract=off (see sim/BUILD) so that no compiler fuses them into an
// FMA; the results are therefore bit-identical everywhere. Do not build it
// with -ffast-math.
//
// See docs/model-idle-frequency.md, "Power and energy".

#ifndef SCHEDSIM_SIM_POWER_H_
#define SCHEDSIM_SIM_POWER_H_

#include <cstdint>
#include <limits>

#include "topology/topology.h"

namespace schedsim::sim {

// The voltage VoltageMvAt assumes for a FrequencySpec without a V/f curve.
inline constexpr int64_t kDefaultVoltageMv = 1000;

// The core voltage at `khz`, in millivolts: linear interpolation on
// `spec.vf_curve`, rounded to the nearest millivolt (ties away from zero).
// Below the first point it is the first point's voltage, above the last the
// last's (clamped, not extrapolated). An empty curve gives
// kDefaultVoltageMv. REQUIRES: vf_curve sorted by khz, ascending (duplicate
// frequencies are allowed; the later point wins at that frequency).
int64_t VoltageMvAt(const topology::FrequencySpec& spec, int64_t khz);

// Dynamic power of one busy hardware thread at `khz`, in milliwatts:
// ceff_pf * V^2 * f with V = VoltageMvAt(freq, khz). In these units
// mW = ceff_pf * mV^2 * kHz * 1e-12; mV^2 * kHz is computed exactly as an
// integer, multiplied by ceff_pf and divided by 1e12 in double, and rounded
// to the nearest milliwatt (ties away from zero). Static (leakage) and
// uncore power are not included; the machine model adds
// power.static_mw_per_core and power.uncore_mw. Returns 0 for khz <= 0 or
// ceff_pf <= 0.
int64_t ActivePowerMw(const topology::PowerSpec& power,
                      const topology::FrequencySpec& freq, int64_t khz);

// A package energy counter like Intel's RAPL MSR_PKG_ENERGY_STATUS.
//
// Energy arrives as pieces of constant power: Add(power_mw, duration_ns).
// One milliwatt for one nanosecond is one picojoule, so the counter keeps
// the running total exactly as whole microjoules plus a remainder of
// picojoules (< 1e6). No energy is ever rounded away: any split of the same
// pieces into smaller pieces gives the same totals, bit for bit.
//
// rapl_counter() reads the total the way software reads
// MSR_PKG_ENERGY_STATUS: a 32-bit counter that wraps, in the energy unit
// that MSR_RAPL_POWER_UNIT advertises on most Intel client and server parts,
// 2^-14 J = 61.03515625 uJ (Energy Status Units = 14). It therefore wraps
// every 2^32 * 2^-14 J = 2^18 J = 262144 J (about 55 minutes at 80 W).
// Software computes deltas modulo 2^32: `uint32_t d = now - before;`.
class EnergyCounter {
 public:
  // log2 of the number of RAPL energy units per joule.
  static constexpr int kRaplEnergyUnitShift = 14;
  // The RAPL energy unit in microjoules (exact: 1e6 / 2^14). For reports.
  static constexpr double kRaplEnergyUnitUj = 61.03515625;

  constexpr EnergyCounter() = default;

  // Adds `power_mw` sustained for `duration_ns`; a piece with either <= 0
  // adds nothing. REQUIRES: power_mw < 9e12 (so that power_mw * 1e6 fits in
  // int64). The total stays exact while it is below 2^64 uJ.
  void Add(int64_t power_mw, int64_t duration_ns);

  // Whole microjoules so far (the fraction below one microjoule is kept
  // internally and carried into later pieces).
  uint64_t total_uj() const { return total_uj_; }
  // The picojoules not yet making up a whole microjoule, in [0, 1e6).
  int64_t remainder_pj() const { return remainder_pj_; }

  // The total in RAPL energy units (2^-14 J), rounded down, modulo 2^32.
  uint32_t rapl_counter() const;

  // Back to zero.
  void Reset() { *this = EnergyCounter(); }

 private:
  uint64_t total_uj_ = 0;
  int64_t remainder_pj_ = 0;
};

struct PowerLimiterParams {
  // The sustained package power limit (PL1), in mW. 0 disables the limiter.
  int64_t limit_mw = 0;
  // The averaging window (RAPL's "time window", tau). Client parts allow up
  // to 28 s; 1 s is assumed as the default.
  int64_t tau_ns = 1000000000;
  // The frequency cap moves by one step per evaluation (assumed: 100 MHz,
  // one Intel ratio unit).
  int64_t step_khz = 100000;
  // The cap never goes below min_khz nor above max_khz.
  int64_t min_khz = 0;
  int64_t max_khz = 0;
  // The cap is raised only when the average is below the limit by at least
  // this margin, in per mille of the limit (assumed: 50 = 5%), so that it
  // does not dither around the limit.
  int64_t raise_margin_permille = 50;

  // PL1 = power.tdp_mw, cap range [freq.min_khz, freq.max_turbo_khz], the
  // other fields at their defaults.
  static PowerLimiterParams FromSpec(const topology::PowerSpec& power,
                                     const topology::FrequencySpec& freq);
};

// A PL1-style package power limiter, modelled on what RAPL does with the
// sustained power limit: it keeps an exponentially weighted moving average
// of package power with time constant tau and, while the average is above
// the limit, pulls the package frequency down. The average starts at zero,
// so, as on hardware, a package that was idle may exceed PL1 for a while
// (roughly tau) before the limiter acts.
//
// Each Update(power_mw, dt_ns) is one evaluation:
//   avg += (power_mw - avg) * dt_ns / (tau_ns + dt_ns)
// (the backward-Euler step of d avg/dt = (power - avg) / tau; for dt much
// smaller than tau it equals the exact exponential weight 1 - exp(-dt/tau)
// to within dt/tau; computed in double with +, -, *, / only). Then:
//   avg > limit                        -> cap -= step_khz (not below min_khz)
//   avg < limit * (1 - margin)         -> cap += step_khz (not above max_khz)
//   otherwise                          -> cap unchanged.
// The cap starts at max_khz. A disabled limiter (limit_mw == 0) always
// returns kNoCap.
class PowerLimiter {
 public:
  // "No cap": what a disabled limiter returns.
  static constexpr int64_t kNoCap = std::numeric_limits<int64_t>::max();

  // REQUIRES: tau_ns > 0, step_khz > 0, min_khz <= max_khz when enabled.
  explicit PowerLimiter(const PowerLimiterParams& params);

  // One evaluation: the package drew `power_mw` on average over the last
  // `dt_ns`. Returns the frequency cap in kHz (kNoCap when disabled). An
  // interval with dt_ns <= 0 changes nothing.
  int64_t Update(int64_t power_mw, int64_t dt_ns);

  bool enabled() const { return params_.limit_mw > 0; }
  // The current cap (kNoCap when disabled).
  int64_t cap_khz() const { return enabled() ? cap_khz_ : kNoCap; }
  // The moving average, rounded to the nearest milliwatt. For reports.
  int64_t average_mw() const;
  const PowerLimiterParams& params() const { return params_; }

 private:
  PowerLimiterParams params_;
  double average_mw_ = 0.0;
  int64_t cap_khz_ = 0;
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_POWER_H_
