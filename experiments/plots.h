// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// `schedsim run --plots=DIR`: pictures of an experiment's result, drawn by
// gnuplot. MakePlots() makes the data files and one gnuplot script
// (pure: no gnuplot needed); WritePlots() writes them into DIR and runs
// gnuplot there, which makes one PNG per plot:
//
//   metric-<metric>.png    per metric: each variant's mean over the
//                          iterations (the comparison's mean: Amean, Hmean
//                          or Gmean) with error bars from the smallest to
//                          the largest iteration; bars per variant without
//                          a sweep, one line per variant over the sweep
//                          values with one
//   cstates[-<value>].png  %C0 and each C-state's residency (mean over the
//                          CPUs and iterations), one bar per variant, per
//                          sweep value; when the machine has idle states
//   freq[-<value>].png     the share of busy time at each frequency, one
//                          bar per variant, per sweep value; when the run
//                          has frequency residency
//   timeline-freq-<variant>.png, timeline-idle-<variant>.png
//                          with --trace: per CPU (rows) over simulated time
//                          (columns), the mean frequency and the idle state
//                          of most of each bin (C0 when not idle), of the
//                          traced iteration, in its window and CPUs
//
// with their data in <name>.dat (whitespace-separated, a `#` header
// naming the columns) and every plot in plots.gp.

#ifndef SCHEDSIM_EXPERIMENTS_PLOTS_H_
#define SCHEDSIM_EXPERIMENTS_PLOTS_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "experiments/experiment.h"
#include "experiments/runner.h"
#include "traces/cpu_timeline.h"

namespace schedsim::experiments {

inline constexpr char kPlotScript[] = "plots.gp";

struct PlotFiles {
  // (file name, contents): the .dat files and kPlotScript.
  std::vector<std::pair<std::string, std::string>> files;
  // The PNG files the script makes, in order.
  std::vector<std::string> pngs;
};

// One traced run's per-CPU timeline (traces/cpu_timeline.h), not owned.
struct TimelinePlot {
  std::string variant;
  const traces::CpuTimeline* timeline = nullptr;
};

PlotFiles MakePlots(const Experiment& experiment,
                    const ExperimentResult& result,
                    const std::vector<TimelinePlot>& timelines = {});

// Writes MakePlots() into `dir` (created if missing) and runs `gnuplot`
// (a program name looked up in PATH, or a path) on kPlotScript in `dir`.
// Errors: a file cannot be written (naming it); FailedPrecondition when
// gnuplot is not installed (naming gnuplot, its Debian package and
// dev/setup; the data files and the script are written first); Internal
// when gnuplot fails or runs over 120 s (with its first error lines).
absl::Status WritePlots(const Experiment& experiment,
                        const ExperimentResult& result, const std::string& dir,
                        const std::string& gnuplot = "gnuplot",
                        const std::vector<TimelinePlot>& timelines = {});

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_PLOTS_H_
