// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Run-to-run variability (docs/model.md "Run-to-run variability") as a
// part of the engine: the service-time jitter of user work (the work
// source's lognormal factor per compute op and the layout source's factor
// per task), the kernel's background activity on every CPU (periodic
// timers, kworker and RCU runs, device interrupts: each source's period or
// rate and cost) and the start-time skew of the initial tasks, all scaled
// by SimConfig::noise_scale and drawn from streams of their own, forked
// from the run's seed, so that with noise_scale = 0 nothing is drawn and
// the run is the one without noise, bit for bit. The part owns its random
// streams and derived state and says when each source fires next; the
// engine (noise.cc) pushes the events, keeps the visible timers on the
// CPUs' timer lists and runs the handlers' kernel work. Private to sim/.

#ifndef SCHEDSIM_SIM_NOISE_H_
#define SCHEDSIM_SIM_NOISE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/base/optimization.h"
#include "absl/status/status.h"
#include "sim/config.h"
#include "sim/engine_events.h"
#include "sim/rng.h"
#include "sim/sched_state.h"

namespace schedsim::sim {

class Noise {
 public:
  // The streams of the run of seed `seed`.
  explicit Noise(uint64_t seed);

  // Validates the noise fields of `config` and the workload's `work_cv`
  // (InvalidArgument naming the field) and derives the scaled periods,
  // rates and the factors' parameters.
  absl::Status Init(const SimConfig& config, double work_cv);

  // --- Jitter of user work ---------------------------------------------
  // Whether a compute op's work is jittered (the work or layout source).
  bool jitter() const { return jitter_; }
  // Whether tasks have layout factors (the layout source is on).
  bool layout_on() const { return layout_sigma_ > 0; }
  // Reserves room for `tasks` tasks' layout factors.
  void ReserveTasks(size_t tasks) {
    if (layout_on()) task_layout_.reserve(tasks);
  }
  // Task `id`, new (id = the number of tasks so far) or in a reaped slot,
  // draws its layout factor (1 when the source is off: no draw).
  void NewTask(int id) {
    if (!layout_on()) return;
    TaskLayout layout;
    layout.factor = DrawLayoutFactor();
    if (static_cast<size_t>(id) < task_layout_.size()) {
      task_layout_[static_cast<size_t>(id)] = layout;
    } else {
      task_layout_.push_back(layout);
    }
  }
  float layout_factor(int id) const {
    return task_layout_[static_cast<size_t>(id)].factor;
  }
  // The compute op's jitter factor (lognormal, mean 1) applied to cycles
  // and stall, times the task's layout factor (task `id` is `t`).
  // REQUIRES: jitter(). Inline: it runs at nearly every phase start when
  // the layout source is on (the default).
  void JitterWork(Task& t, int id) {
    if (work_sigma_ == 0) {
      // The layout source alone: the factor is the task's own, so given
      // cycles always scale to the same value. Memoised per task (a task's
      // compute ops mostly have the same cycles), which takes the
      // multiplication and the rounding off the phase path.
      TaskLayout& l = task_layout_[static_cast<size_t>(id)];
      if (ABSL_PREDICT_FALSE(t.rem_cycles != l.cycles_in)) {
        l.cycles_in = t.rem_cycles;
        l.cycles_out = ScaleWork(t.rem_cycles, l.factor);
      }
      t.rem_cycles = l.cycles_out;
      if (t.rem_stall_ns != 0) {
        t.rem_stall_ns = ScaleWork(t.rem_stall_ns, l.factor);
      }
      return;
    }
    double f = DrawWorkFactor();
    if (layout_sigma_ > 0) f *= task_layout_[static_cast<size_t>(id)].factor;
    t.rem_cycles = ScaleWork(t.rem_cycles, f);
    t.rem_stall_ns = ScaleWork(t.rem_stall_ns, f);
  }
  // v * f rounded to the nearest integer, 0 when not positive, at most
  // 9e18.
  static int64_t ScaleWork(int64_t v, double f) {
    const double x = static_cast<double>(v) * f;
    if (!(x > 0)) return 0;
    if (x > 9.0e18) return int64_t{9000000000000000000};
    // std::llround(x) for 0 < x <= 9e18 (halves away from zero), exact:
    // the truncation is exact, and so is x - trunc(x).
    const int64_t i = static_cast<int64_t>(x);
    return i + (x - static_cast<double>(i) >= 0.5);
  }
  // The start skew of a new initial task: uniform 0..start_skew_ns (0,
  // and no draw, without noise).
  int64_t StartSkewNs();
  int64_t start_skew_ns() const { return start_skew_ns_; }

  // --- Background sources ----------------------------------------------
  // Sources that are timers on the CPU's timer list (the idle governor's
  // next timer event); the others are deferrable (vmstat) or interrupts.
  static bool Visible(int s) {
    return s == kNoiseWatchdog || s == kNoiseWriteback ||
           s == kNoiseKernelTimer;
  }
  static bool Poisson(int s) {
    return s == kNoiseKworker || s == kNoiseRcu || s == kNoiseDeviceIrq;
  }
  // Sources with one instance per CPU (the watchdog moves round the CPUs,
  // writeback runs on CPU 0).
  static bool PerCpu(int s) {
    return s != kNoiseWatchdog && s != kNoiseWriteback;
  }
  // Whether source `s` is on at this scale.
  bool On(int s) const {
    return Poisson(s) ? mean_ns_[s] > 0 : period_ns_[s] > 0;
  }
  // The delay from arming to source `s`'s first event: a random phase of
  // its period (1..period: the kernel staggers them by boot time and CPU
  // bring-up), or an exponential interval. REQUIRES: On(s).
  int64_t FirstDelayNs(int s);
  // The delay from one event of `s` to the next: its period, or an
  // exponential interval. REQUIRES: On(s).
  int64_t NextDelayNs(int s) {
    return Poisson(s) ? static_cast<int64_t>(rng_.Exponential(mean_ns_[s]))
                      : period_ns_[s];
  }
  // The period (periodic sources) or mean interval (Poisson) of source
  // `s`, scaled by noise_scale; 0 = off.
  int64_t period_ns(int s) const { return period_ns_[s]; }
  double mean_ns(int s) const { return mean_ns_[s]; }
  // The kernel work of one event of source `s`.
  int64_t cost_ns(int s) const { return cost_ns_[s]; }

 private:
  double DrawWorkFactor();  // work_rng_'s lognormal draw (noise.cc)
  // The layout factor of a new task.
  float DrawLayoutFactor();

  // Its own streams, forked from the run's seed, so that the workload's
  // draws are those of a run without noise.
  Rng rng_;  // the sources' phases and intervals, the start skew
  Rng work_rng_;
  double work_sigma_ = 0;  // of the jitter factor's log; 0 = off
  double work_mu_ = 0;
  double layout_sigma_ = 0;  // of the layout factor's log; 0 = off
  double layout_mu_ = 0;
  bool jitter_ = false;  // work_sigma_ > 0 || layout_sigma_ > 0
  Rng layout_rng_;
  // Per task (by id), only while the layout source is on: its layout
  // factor, and JitterWork's memo (the last cycles scaled, and the result;
  // used only while the work source is off).
  struct TaskLayout {
    float factor = 1;
    int64_t cycles_in = -1;
    int64_t cycles_out = 0;
  };
  std::vector<TaskLayout> task_layout_;
  std::array<int64_t, kNoiseSources> period_ns_{};
  std::array<double, kNoiseSources> mean_ns_{};
  std::array<int64_t, kNoiseSources> cost_ns_{};
  int64_t start_skew_ns_ = 0;
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_NOISE_H_
