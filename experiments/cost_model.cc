// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/cost_model.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>

namespace schedsim::experiments {
namespace {

struct Rate {
  const char* model;
  // CPU seconds per occupied simulated CPU-second, on machines of at most
  // kSmallMachineCpus CPUs and on larger ones; < 0: not measured, the
  // other size's rate.
  double small;
  double large;
  // Large machines with at least `overload_per_cpu` tasks per CPU, after
  // `onset_s` simulated seconds at the rate below (< 0: the busy rate).
  double overloaded = -1;
  // Large machines with at least as many tasks as CPUs (< 0: the large
  // rate).
  double busy = -1;
  int64_t overload_per_cpu = kOverloadTasksPerCpu;
  double onset_s = kOverloadOnsetSeconds;
};

// Measured by dev/cost-calibrate (CPU time of one job, -c opt) on
// 2026-12-07 (docs/notebook/2026-12-07-settle.md), then scaled by 0.7:
// that table was taken while four other builds ran, and on a quiet
// machine of the same class the least of five runs of each
// dev/check-estimate case took 0.66 of these figures unscaled (the
// median over its five cases, in each of two runs on 2026-12-07), and
// CI's floor step (the quick tier and the -c opt build before it) took
// 554 s where the tier was estimated at 743 s. The ratios between
// families and sizes are the table's.
// hackbench on a large machine costs 0.068-0.070 at 1-32 groups (up to 5
// tasks per CPU), and so do the tiers' 0.2-0.3 s runs of 64-512 groups
// (the validation tiers' 001 rows, measured per point on 2026-12-07,
// docs/notebook/2026-12-07-estimates.md); overloaded, 0.14 in the settled
// 128-group example (its cost climbs over the first second).
// tbench on 256 CPUs costs 0.028 at 64 clients, 0.060 at 256 (every CPU
// a client or a server waking across the machine), 0.024 at 512 and 0.025
// at 1024 (4 and 8 tasks per CPU; 2026-12-07, same notebook). unixbench's is
// its dearest test's (pipe; spawn 0.002). Figures before the scaling.
constexpr double kQuietMachine = 0.7;
constexpr Rate kRates[] = {
    {"hackbench", 0.095, 0.070, 0.14},
    {"tbench", 0.024, 0.028, 0.024, 0.060, 4, 0},
    {"netperf", 0.036, -1},
    {"unixbench", -1, 0.013},
    {"sqlite_insert", 0.013, -1},
    {"pgbench", 0.007, -1},
    {"schbench", 0.003, -1},
    {"dbench4_journal", 0.001, -1},
    {"ycsb_mongodb", -1, 0.001},
    {"nas", 0.0006, -1},
};

// The rate of `r` (kQuietMachine not applied) on `cpus` CPUs with `tasks`
// tasks at simulated time `at_s` of the run.
double RawRate(const Rate& r, int cpus, int64_t tasks, double at_s) {
  const bool small = cpus <= kSmallMachineCpus;
  double v = small ? (r.small >= 0 ? r.small : r.large)
                   : (r.large >= 0 ? r.large : r.small);
  if (small) return v;
  const int64_t n = std::max(cpus, 1);
  if (tasks >= n && r.busy >= 0) v = r.busy;
  if (at_s >= r.onset_s && tasks >= r.overload_per_cpu * n &&
      r.overloaded >= 0) {
    v = r.overloaded;
  }
  return v;
}

const Rate* FindRate(const std::string& model) {
  for (const Rate& r : kRates) {
    if (model == r.model) return &r;
  }
  return nullptr;
}

// The largest rate any model has there (an unmeasured model's).
double WorstRawRate(int cpus, int64_t tasks, double at_s) {
  double worst = 0;
  for (const Rate& r : kRates) {
    worst = std::max(worst, RawRate(r, cpus, tasks, at_s));
  }
  return worst;
}

double RateAt(const std::string& model, int cpus, int64_t tasks, double at_s) {
  const Rate* r = FindRate(model);
  return kQuietMachine * (r != nullptr ? RawRate(*r, cpus, tasks, at_s)
                                       : WorstRawRate(cpus, tasks, at_s));
}

// When the rate of `model` changes (its onset; 0 when it has none).
double OnsetOf(const std::string& model) {
  const Rate* r = FindRate(model);
  return r != nullptr ? r->onset_s : kOverloadOnsetSeconds;
}

}  // namespace

double WallSecondsPerOccupiedCpuSecond(const std::string& model, int cpus,
                                       int64_t tasks) {
  return RateAt(model, cpus, tasks, std::numeric_limits<double>::infinity());
}

double RunWallSeconds(const std::string& model, int cpus, int64_t tasks,
                      double simulated_s) {
  const int64_t occupied =
      std::min<int64_t>(std::max<int64_t>(tasks, 1), std::max(cpus, 1));
  const double onset = std::min(simulated_s, OnsetOf(model));
  return kRunSetupSeconds +
         static_cast<double>(occupied) *
             (onset * RateAt(model, cpus, tasks, 0) +
              (simulated_s - onset) *
                  WallSecondsPerOccupiedCpuSecond(model, cpus, tasks));
}

double ExpectedSettledSeconds(double max_s, double batch_s, int min_batches) {
  return std::min(max_s,
                  batch_s * std::max(kExpectedSettleBatches, min_batches));
}

double Makespan(const std::vector<double>& costs, int jobs) {
  std::vector<double> sorted = costs;
  std::sort(sorted.begin(), sorted.end(), std::greater<double>());
  std::priority_queue<double, std::vector<double>, std::greater<double>> free;
  for (int i = 0; i < std::max(jobs, 1); ++i) free.push(0.0);
  double end = 0;
  for (double c : sorted) {
    const double start = free.top();
    free.pop();
    free.push(start + c);
    end = std::max(end, start + c);
  }
  return end;
}

}  // namespace schedsim::experiments
