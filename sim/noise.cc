// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Run-to-run variability's sources and draws (sim/noise.h); the engine's
// side is noise_events.cc.

#include "sim/noise.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"

namespace schedsim::sim {

namespace {

// The streams of the run-to-run variability, forked from the run's seed:
// the background activity and start skew, the work jitter, the layout.
constexpr uint64_t kNoiseStream = 0x6e6f697365;     // "noise"
constexpr uint64_t kWorkStream = 0x776f726b;        // "work"
constexpr uint64_t kLayoutStream = 0x6c61796f7574;  // "layout"

// A period divided by the scale, 0 when the source is off.
int64_t ScaledPeriod(int64_t period_ns, double scale) {
  if (scale <= 0 || period_ns <= 0) return 0;
  const double p = static_cast<double>(period_ns) / scale;
  return p >= 9.0e18 ? int64_t{9000000000000000000}
                     : std::max<int64_t>(static_cast<int64_t>(p), 1);
}

// The mean interval of a Poisson source of `per_s` events a second times
// the scale, 0 when it is off.
double ScaledMeanNs(int64_t per_s, double scale) {
  if (scale <= 0 || per_s <= 0) return 0;
  return 1e9 / (static_cast<double>(per_s) * scale);
}

}  // namespace

Noise::Noise(uint64_t seed)
    : rng_(Rng(seed).Fork(kNoiseStream)),
      work_rng_(Rng(seed).Fork(kWorkStream)),
      layout_rng_(Rng(seed).Fork(kLayoutStream)) {}

absl::Status Noise::Init(const SimConfig& k, double work_cv) {
  const double scale = k.noise_scale;
  if (!std::isfinite(scale) || scale < 0 || scale > 100) {
    return absl::InvalidArgumentError(absl::StrCat(
        "noise_scale must be in 0..100 (0 = no noise), got ", scale));
  }
  if (!std::isfinite(work_cv) || work_cv < 0 || work_cv > 10) {
    return absl::InvalidArgumentError(
        absl::StrCat("workload work_cv must be in 0..10, got ", work_cv));
  }
  struct Check {
    const char* name;
    int64_t value;
    int64_t min;
  };
  for (const Check& c :
       {Check{"vmstat_interval_ns", k.vmstat_interval_ns, 1},
        Check{"watchdog_interval_ns", k.watchdog_interval_ns, 1},
        Check{"writeback_interval_ns", k.writeback_interval_ns, 1},
        Check{"kernel_timer_interval_ns", k.kernel_timer_interval_ns, 1},
        Check{"vmstat_cost_ns", k.vmstat_cost_ns, 0},
        Check{"watchdog_cost_ns", k.watchdog_cost_ns, 0},
        Check{"writeback_cost_ns", k.writeback_cost_ns, 0},
        Check{"kernel_timer_cost_ns", k.kernel_timer_cost_ns, 0},
        Check{"kworker_per_s", k.kworker_per_s, 0},
        Check{"kworker_run_ns", k.kworker_run_ns, 0},
        Check{"rcu_per_s", k.rcu_per_s, 0},
        Check{"rcu_run_ns", k.rcu_run_ns, 0},
        Check{"device_irq_per_s", k.device_irq_per_s, 0},
        Check{"device_irq_ns", k.device_irq_ns, 0},
        Check{"start_skew_max_ns", k.start_skew_max_ns, 0}}) {
    if (c.value < c.min) {
      return absl::InvalidArgumentError(
          absl::StrCat(c.name, " must be >= ", c.min, ", got ", c.value));
    }
  }
  const double layout_cv = k.layout_cv_pct / 100.0 * scale;
  if (!std::isfinite(k.layout_cv_pct) || k.layout_cv_pct < 0 ||
      k.layout_cv_pct > 100) {
    return absl::InvalidArgumentError(
        absl::StrCat("layout_cv_pct must be in 0..100, got ", k.layout_cv_pct));
  }
  if (layout_cv > 0) {
    layout_sigma_ = std::sqrt(std::log1p(layout_cv * layout_cv));
    layout_mu_ = -layout_sigma_ * layout_sigma_ / 2;
  } else {
    layout_sigma_ = 0;
    layout_mu_ = 0;
  }
  const double cv = work_cv * scale;
  if (cv > 0) {
    work_sigma_ = std::sqrt(std::log1p(cv * cv));
    work_mu_ = -work_sigma_ * work_sigma_ / 2;
  } else {
    work_sigma_ = 0;
    work_mu_ = 0;
  }
  jitter_ = work_sigma_ > 0 || layout_sigma_ > 0;
  period_ns_[kNoiseVmstat] = ScaledPeriod(k.vmstat_interval_ns, scale);
  period_ns_[kNoiseWatchdog] = ScaledPeriod(k.watchdog_interval_ns, scale);
  period_ns_[kNoiseWriteback] = ScaledPeriod(k.writeback_interval_ns, scale);
  period_ns_[kNoiseKernelTimer] =
      ScaledPeriod(k.kernel_timer_interval_ns, scale);
  mean_ns_[kNoiseKworker] = ScaledMeanNs(k.kworker_per_s, scale);
  mean_ns_[kNoiseRcu] = ScaledMeanNs(k.rcu_per_s, scale);
  mean_ns_[kNoiseDeviceIrq] = ScaledMeanNs(k.device_irq_per_s, scale);
  cost_ns_[kNoiseVmstat] = k.vmstat_cost_ns;
  cost_ns_[kNoiseWatchdog] = k.watchdog_cost_ns;
  cost_ns_[kNoiseWriteback] = k.writeback_cost_ns;
  cost_ns_[kNoiseKernelTimer] = k.kernel_timer_cost_ns;
  cost_ns_[kNoiseKworker] = k.kworker_run_ns;
  cost_ns_[kNoiseRcu] = k.rcu_run_ns;
  cost_ns_[kNoiseDeviceIrq] = k.device_irq_ns;
  const double skew = static_cast<double>(k.start_skew_max_ns) * scale;
  start_skew_ns_ =
      scale > 0 && skew >= 1 ? static_cast<int64_t>(std::min(skew, 1.0e15)) : 0;
  return absl::OkStatus();
}

int64_t Noise::FirstDelayNs(int s) {
  if (Poisson(s)) return static_cast<int64_t>(rng_.Exponential(mean_ns_[s]));
  return 1 + static_cast<int64_t>(
                 rng_.UniformU64(static_cast<uint64_t>(period_ns_[s])));
}

float Noise::DrawLayoutFactor() {
  return static_cast<float>(layout_rng_.LogNormal(layout_mu_, layout_sigma_));
}

// The draw of the work source's factor, out of line: the phase path
// (JitterWork, inline in noise.h) calls it only when the source is on.
double Noise::DrawWorkFactor() {
  return work_rng_.LogNormal(work_mu_, work_sigma_);
}

int64_t Noise::StartSkewNs() {
  if (start_skew_ns_ <= 0) return 0;
  return rng_.UniformInt(0, start_skew_ns_ + 1);
}

}  // namespace schedsim::sim
