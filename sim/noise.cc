// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Run-to-run variability (docs/model.md "Run-to-run variability"): the
// service-time jitter of user work, the kernel's background activity on
// every CPU (periodic timers, kworker and RCU runs, device interrupts) and
// the start-time skew of the initial tasks, all scaled by
// SimConfig::noise_scale and drawn from streams of their own, so that with
// noise_scale = 0 nothing is drawn, nothing is pushed and the run is the
// one without noise, bit for bit.

#include <algorithm>
#include <cmath>
#include <functional>

#include "absl/strings/str_cat.h"
#include "sim/simulator_impl.h"

namespace schedsim::sim {

namespace {

// Sources that are timers on the CPU's timer list (the idle governor's
// next timer event); the others are deferrable (vmstat) or interrupts.
bool Visible(int s) {
  return s == kNoiseWatchdog || s == kNoiseWriteback || s == kNoiseKernelTimer;
}

bool Poisson(int s) {
  return s == kNoiseKworker || s == kNoiseRcu || s == kNoiseDeviceIrq;
}

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

absl::Status SimulatorImpl::InitNoise(const Workload& workload) {
  const SimConfig& k = config_;
  const double scale = k.noise_scale;
  if (!std::isfinite(scale) || scale < 0 || scale > 100) {
    return absl::InvalidArgumentError(absl::StrCat(
        "noise_scale must be in 0..100 (0 = no noise), got ", scale));
  }
  if (!std::isfinite(workload.work_cv) || workload.work_cv < 0 ||
      workload.work_cv > 10) {
    return absl::InvalidArgumentError(absl::StrCat(
        "workload work_cv must be in 0..10, got ", workload.work_cv));
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
  const double cv = workload.work_cv * scale;
  if (cv > 0) {
    work_sigma_ = std::sqrt(std::log1p(cv * cv));
    work_mu_ = -work_sigma_ * work_sigma_ / 2;
  } else {
    work_sigma_ = 0;
    work_mu_ = 0;
  }
  jitter_ = work_sigma_ > 0 || layout_sigma_ > 0;
  noise_period_ns_[kNoiseVmstat] = ScaledPeriod(k.vmstat_interval_ns, scale);
  noise_period_ns_[kNoiseWatchdog] =
      ScaledPeriod(k.watchdog_interval_ns, scale);
  noise_period_ns_[kNoiseWriteback] =
      ScaledPeriod(k.writeback_interval_ns, scale);
  noise_period_ns_[kNoiseKernelTimer] =
      ScaledPeriod(k.kernel_timer_interval_ns, scale);
  noise_mean_ns_[kNoiseKworker] = ScaledMeanNs(k.kworker_per_s, scale);
  noise_mean_ns_[kNoiseRcu] = ScaledMeanNs(k.rcu_per_s, scale);
  noise_mean_ns_[kNoiseDeviceIrq] = ScaledMeanNs(k.device_irq_per_s, scale);
  noise_cost_ns_[kNoiseVmstat] = k.vmstat_cost_ns;
  noise_cost_ns_[kNoiseWatchdog] = k.watchdog_cost_ns;
  noise_cost_ns_[kNoiseWriteback] = k.writeback_cost_ns;
  noise_cost_ns_[kNoiseKernelTimer] = k.kernel_timer_cost_ns;
  noise_cost_ns_[kNoiseKworker] = k.kworker_run_ns;
  noise_cost_ns_[kNoiseRcu] = k.rcu_run_ns;
  noise_cost_ns_[kNoiseDeviceIrq] = k.device_irq_ns;
  const double skew = static_cast<double>(k.start_skew_max_ns) * scale;
  start_skew_ns_ =
      scale > 0 && skew >= 1 ? static_cast<int64_t>(std::min(skew, 1.0e15)) : 0;
  return absl::OkStatus();
}

void SimulatorImpl::PushNoise(int64_t time_ns, int cpu, int s) {
  QueuePush(SimTime::FromNanoseconds(time_ns), kBandIrq, kEvNoise, cpu, s);
  if (Visible(s)) {
    std::vector<int64_t>& timers = cpus_[cpu].timers;
    timers.push_back(time_ns);
    std::push_heap(timers.begin(), timers.end(), std::greater<int64_t>());
  }
}

void SimulatorImpl::ArmNoise() {
  const int n = topo_.num_cpus();
  // Periodic sources start at a random phase of their period (the kernel
  // staggers them by boot time and CPU bring-up); Poisson ones after an
  // exponential interval. One draw per source and CPU, in a fixed order.
  for (int s = 0; s < kNoiseSources; ++s) {
    const bool per_cpu = s != kNoiseWatchdog && s != kNoiseWriteback;
    for (int cpu = 0; cpu < (per_cpu ? n : 1); ++cpu) {
      if (Poisson(s)) {
        if (noise_mean_ns_[s] <= 0) break;
        PushNoise(now_ns_ + static_cast<int64_t>(
                                noise_rng_.Exponential(noise_mean_ns_[s])),
                  cpu, s);
      } else {
        const int64_t period = noise_period_ns_[s];
        if (period <= 0) break;
        PushNoise(now_ns_ + 1 +
                      static_cast<int64_t>(
                          noise_rng_.UniformU64(static_cast<uint64_t>(period))),
                  cpu, s);
      }
    }
  }
}

void SimulatorImpl::OnNoise(int cpu, int s) {
  Cpu& c = cpus_[cpu];
  if (Visible(s)) {
    // Events fire in time order, so this timer is the CPU's earliest.
    assert(!c.timers.empty() && c.timers.front() == now_ns_);
    std::pop_heap(c.timers.begin(), c.timers.end(), std::greater<int64_t>());
    c.timers.pop_back();
  }
  // The next one.
  if (Poisson(s)) {
    PushNoise(now_ns_ + static_cast<int64_t>(
                            noise_rng_.Exponential(noise_mean_ns_[s])),
              cpu, s);
  } else {
    // The watchdog re-arms on the next online CPU (add_timer_on).
    const int next = s == kNoiseWatchdog ? (cpu + 1) % topo_.num_cpus() : cpu;
    PushNoise(now_ns_ + noise_period_ns_[s], next, s);
  }
  // A deferrable timer due on an idle CPU does not wake it; the CPU folded
  // its counters on entering idle (quiet_vmstat), so the run is skipped.
  if (s == kNoiseVmstat && c.mode == CpuMode::kIdle) return;
  RunKernelWork(cpu, noise_cost_ns_[s]);
}

void SimulatorImpl::RunKernelWork(int cpu, int64_t cost_ns) {
  Cpu& c = cpus_[cpu];
  ++background_events_;
  if (c.mode == CpuMode::kBusy) return ChargeCpu(cpu, cost_ns);
  if (c.mode != CpuMode::kIdle) {
    // Awake without a task (a C-state exit in progress, or a wake-up on
    // its way): the handler overlaps it (simplification: not charged).
    return;
  }
  // The interrupt ends the idle period: the C-state exit, then the handler,
  // then the CPU goes idle again (OnIdleExitDone) unless work arrived.
  const int64_t exit_ns = PhysicalExitNs(cpu);
  LeaveIdle(cpu, /*by_poll=*/false);
  c.exiting = true;
  PushIdleExit(now_ns_ + exit_ns + cost_ns, cpu);
}

float SimulatorImpl::DrawLayoutFactor() {
  return static_cast<float>(layout_rng_.LogNormal(layout_mu_, layout_sigma_));
}

// The draw of the work source's factor, out of line: the phase path
// (JitterWork, inline in simulator_impl.h) calls it only when the source is
// on.
double SimulatorImpl::DrawWorkFactor() {
  return work_rng_.LogNormal(work_mu_, work_sigma_);
}

int64_t SimulatorImpl::StartSkewNs() {
  if (start_skew_ns_ <= 0) return 0;
  return noise_rng_.UniformInt(0, start_skew_ns_ + 1);
}

}  // namespace schedsim::sim
