// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The robustness verdict of an experiment: does the sign of each variant's
// difference against the baseline survive when the model's assumed costs
// are a little off? Each cost parameter is scaled by (1 - pct/100) and
// (1 + pct/100), one at a time, the whole experiment is run again with the
// same seeds (paired with the nominal runs), and for every metric, sweep
// point and non-baseline variant the sign of the declared mean's
// difference (PctDiff of the Amean/Hmean/Gmean the metric declares) is
// compared with the nominal one. `schedsim run FILE --robustness[=PCT]`
// prints it; docs/experiments.md ("Robustness") documents the rules.
//
//   absl::StatusOr<ExperimentResult> nominal = RunExperiment(e, options);
//   absl::StatusOr<std::vector<RobustnessEntry>> verdicts =
//       CheckRobustness(e, *nominal, /*pct=*/25, options);
//   for (const RobustnessEntry& v : *verdicts) {
//     // v.metric, v.sweep_value, v.variant_name, v.sign_holds,
//     // v.flipped_by = {"config.wakeup_cost_ns-25%", ...}
//   }
//   OrderedJson j = RobustnessJson(e, *verdicts);  // the "robustness" array
//
// What is scaled (RobustnessParams): the SimConfig cost fields listed in
// robustness.cc (kConfigCosts: model costs, never kernel tunables, policy
// settings or noise), and the workload model's "model only" cost
// parameters (IsScaledModelParam), skipping a swept parameter and any
// whose value is 0 (0 scales to 0; for some parameters 0 means "derive
// it"). Integers are rounded to the nearest integer, and a value >= 1
// stays >= 1; doubles are multiplied. Every variant gets the scaled value
// (a variant's own config value for the field is scaled too).

#ifndef SCHEDSIM_EXPERIMENTS_ROBUSTNESS_H_
#define SCHEDSIM_EXPERIMENTS_ROBUSTNESS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "experiments/experiment.h"
#include "experiments/json_util.h"
#include "experiments/runner.h"
#include "platform/registry.h"

namespace schedsim::experiments {

// The default --robustness percentage.
inline constexpr double kDefaultRobustnessPct = 25;
// |change| below this (in percent) has sign 0.
inline constexpr double kSignEpsilonPct = 1e-9;

// One parameter the check scales.
struct ScaledParam {
  enum class Kind { kConfig, kWorkload };
  Kind kind = Kind::kConfig;
  std::string field;  // the SimConfig field or the model parameter
  // "config.wakeup_cost_ns", "workload.backend_cycles".
  std::string name() const;
};

// The SimConfig fields the check may scale, in declaration order.
std::vector<std::string> ConfigCostFields();

// True for a workload model parameter the check scales (when nonzero and
// not swept): its doc starts with "model only", it is an integer or a
// double, and its name carries a cost unit (it ends in "_cycles", "_ns",
// "_us" or "_ms", or starts with "cycles_"), unless robustness.cc lists it
// as a setting rather than a cost (kModelParamsNotCosts: `spin_us`). So
// `backend_cycles` and `fsync_median_us` are scaled; `time_loops`,
// `commands`, `command_sigma`, `stall_pct` and `bytes_per_op` are not.
bool IsScaledModelParam(const platform::ParamSpec& spec);

// The parameters scaled for `e`, config fields first (in declaration
// order), then the model's parameters (in its order).
std::vector<ScaledParam> RobustnessParams(const Experiment& e);

// `e` with `param` scaled by `factor` in every variant (config) or in the
// workload's parameters (workload).
Experiment ScaledExperiment(const Experiment& e, const ScaledParam& param,
                            double factor);

// An integer scaled: rounded to the nearest, and at least 1 when `value`
// is at least 1.
int64_t ScaleInteger(int64_t value, double factor);

// The runs CheckRobustness makes: 2 x params x the experiment's runs.
int64_t RobustnessRunCount(const Experiment& e);

// The sign of a difference: -1, 0 or +1; 0 for |pct| < kSignEpsilonPct.
// `pct` is PctDiff(baseline, value, higher_is_better); when that is
// undefined (a baseline of 0) the sign of the better-is-positive raw
// difference; 0 when a mean is NaN.
int ChangeSign(double baseline, double value, bool higher_is_better);

// One scaled run of the whole experiment.
struct ScaledChange {
  std::string name;       // "config.wakeup_cost_ns-25%"
  std::string param;      // "config.wakeup_cost_ns"
  double factor = 1;      // 0.75
  double change_pct = 0;  // PctDiff of the declared means
  bool sign_holds = true;
};

// The verdict of one metric x sweep point x non-baseline variant.
struct RobustnessEntry {
  std::string metric;
  int point = 0;
  std::string sweep_value;  // the point's value as text; "" without a sweep
  int variant = 0;          // >= 1
  std::string variant_name;
  bool sign_holds = true;               // every scaled run has the nominal sign
  std::vector<std::string> flipped_by;  // the names of those that do not
  double nominal_change_pct = 0;
  double pct = 0;                    // the scaling, percent
  std::vector<ScaledChange> scaled;  // every scaled run, in run order
};

// The declared mean of every metric: means[point][variant][metric].
using DeclaredMeans = std::vector<std::vector<std::vector<double>>>;
DeclaredMeans MeansOf(const ExperimentResult& result);

// One scaled run's means, for Verdicts.
struct ScaledMeans {
  ScaledParam param;
  double factor = 1;
  DeclaredMeans means;
};

// The verdicts from the nominal result and the scaled runs' means (no
// simulation): by metric, then sweep point, then variant.
std::vector<RobustnessEntry> Verdicts(const Experiment& e,
                                      const ExperimentResult& nominal,
                                      const std::vector<ScaledMeans>& scaled,
                                      double pct);

// Runs every scaled experiment (the runs of each in parallel, as
// RunExperiment; options.progress sees (done, total) over all the scaled
// runs) and returns the verdicts. `pct` must be in (0, 100), and `nominal`
// must be RunExperiment(e, ...) (the same points, variants and metrics;
// InvalidArgument otherwise). Errors of a scaled run name the scaling
// ("with config.wakeup_cost_ns-25% (config.wakeup_cost_ns x 0.75): ...").
absl::StatusOr<std::vector<RobustnessEntry>> CheckRobustness(
    const Experiment& e, const ExperimentResult& nominal, double pct,
    const RunnerOptions& options);

// The "robustness" array: per entry "metric", "sweep_value" (the sweep's
// JSON value, or null), "variant" (its name), "sign_holds", "flipped_by",
// "nominal_change_pct", "pct" and "scaled" ("param", "factor",
// "change_pct", "sign_holds" per scaled run).
OrderedJson RobustnessJson(const Experiment& e,
                           const std::vector<RobustnessEntry>& entries);

// The table section: a heading naming the parameters and the runs, then
// one line per entry, "ops_per_s-4  hwp_boost  +6.17%  robust" or
// "... fragile: flipped by config.wakeup_cost_ns-25%, ...".
std::string RobustnessText(const Experiment& e,
                           const std::vector<RobustnessEntry>& entries,
                           double pct);

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_ROBUSTNESS_H_
