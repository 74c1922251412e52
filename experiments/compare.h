// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The comparison of an experiment's variants against its baseline, in the
// layout of mmtests' compare-kernels: a header with the variant names, then
// for each metric and each sweep value the rows
//
//   Min       ops_per_s-1    9812.00 (   0.00%)    9901.00 (  +0.91%)
//   Max       ops_per_s-1   10230.00 (   0.00%)   10412.00 (  +1.78%)
//   Hmean     ops_per_s-1   10003.31 (   0.00%)   10421.07 *  +4.18%*
//   Stddev    ops_per_s-1     150.12 (   0.00%)     120.40 ( +19.80%)
//   CoeffVar  ops_per_s-1       1.50 (   0.00%)       1.16 ( +22.95%)
//   Diff      ops_per_s-1          -   d=+4.20% ±1.10% p=0.30%
//
// The mean row is Amean, Hmean (rates) or Gmean (ratios) as the metric
// declares. Percentages are differences against the baseline, positive when
// better: for lower-is-better metrics the sign is flipped, and a smaller
// Stddev or CoeffVar counts as better. The mean row's parentheses become
// asterisks when Welch's t-test finds the difference significant (p <
// 0.05). The Diff row is the one-line form used on kernel mailing lists:
// the difference of the arithmetic means in percent of the baseline's,
// the half-width of its 95% confidence interval, and the p-value, both in
// percent.
//
// Honest statistics: a p-value comes only from real spread. When every
// iteration of a variant is identical (a deterministic model, or a metric
// the seed does not move), the table prints a warning line after the
// metric's rows,
//
//   warning: ops_per_s-4: every iteration of baseline and hwp_boost is
//   identical (no spread): no significance test
//
// (one line), and when neither side of a comparison has spread there is no
// test: no `*` marker, and the Diff row shows `±n/a p=n/a`. When only one
// side has none, Welch's test is still defined and made, and the warning
// says it rests on the other side's spread alone.
//
// The same results as JSON (every sample, summary and test, plus the
// reports) and as CSV (one row per sample, plus summary rows).

#ifndef SCHEDSIM_EXPERIMENTS_COMPARE_H_
#define SCHEDSIM_EXPERIMENTS_COMPARE_H_

#include <string>
#include <vector>

#include "experiments/experiment.h"
#include "experiments/json_util.h"
#include "experiments/runner.h"
#include "experiments/statistics.h"
#include "workloads/model_registry.h"

namespace schedsim::experiments {

// A title line (file, model, machine, iterations, duration, seed) and the
// comparison table, lines ending in '\n'.
std::string ComparisonTable(const Experiment& experiment,
                            const ExperimentResult& result);

// The spread warnings above, without the "warning: " prefix, by metric,
// sweep point and variant: "ops_per_s-4: every iteration of baseline and
// hwp_boost is identical (no spread): no significance test". Empty when
// every variant has spread (or runs once).
std::vector<std::string> SpreadWarnings(const Experiment& experiment,
                                        const ExperimentResult& result);

// The reports (reports.h) of every variant, per sweep point.
std::string ReportsSection(const Experiment& experiment,
                           const ExperimentResult& result);

// How the runs of a model that runs until stopped (settle.h) ended, per
// sweep point and variant: how many settled and after how many batches,
// the settled rate with its 95% interval and, where the benchmark has a
// published length, the metric at that length extrapolated from the rate
// (marked as such, with its interval). "" when no run settles or runs
// its fixed length only.
std::string SettleSection(const Experiment& experiment,
                          const ExperimentResult& result);

// The whole result as one JSON document; docs/experiments-results.md
// lists the keys.
OrderedJson ResultJson(const Experiment& experiment,
                       const ExperimentResult& result);

// CSV with the header
//   sweep_param,sweep_value,variant,metric,unit,row,iteration,seed,value
// and one row per sample (row "sample"), then per (sweep value, variant,
// metric) the summary rows amean, hmean, gmean, stddev, coeffvar, min, max,
// diff_pct, ci95_pct and p_value (iteration and seed empty; an undefined
// value, such as the p-value of a comparison without spread, is empty).
std::string ResultCsv(const Experiment& experiment,
                      const ExperimentResult& result);

// The mean the comparison uses for a metric of this kind ("Hmean" and the
// summary's hmean for a harmonic one, ...).
const char* MeanLabel(workloads::MeanKind kind);
double MeanOf(const Summary& summary, workloads::MeanKind kind);

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_COMPARE_H_
