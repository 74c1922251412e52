// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Runs the catalogue (catalogue.h) and scores it (scoreboard.h): what
// `schedsim validate` does.
//
// Rows that share an experiment template, a machine and the workload
// parameters other than the swept one form a group; a group is one
// experiment (docs/experiments.md) whose sweep holds the rows' points and
// whose variants are the template's, run for the tier's iterations and
// durations with the experiment seed. So the ext4 and xfs rows of a
// benchmark the model has no filesystem for share their runs, and a row
// never gets settings of its own beyond what the report states.
//
//   ValidateOptions options;
//   options.tier = "quick";
//   absl::StatusOr<ValidationResult> v = RunValidation(catalogue, options);
//   std::cout << ScoreboardTable(v->rows, v->summary);
//
// The estimate printed before the runs: every run's estimated cost
// (experiments/cost_model.h, measured per workload family and machine
// size) on the jobs, largest first (experiments::Makespan); the progress
// line's ETA counts down from it.

#ifndef SCHEDSIM_VALIDATION_VALIDATE_H_
#define SCHEDSIM_VALIDATION_VALIDATE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "experiments/experiment.h"
#include "experiments/json_util.h"
#include "experiments/reports.h"
#include "experiments/shard.h"
#include "validation/catalogue.h"
#include "validation/scoreboard.h"

namespace schedsim::validation {

// A mechanism row's measure (catalogue.h Measures()) in one run's report;
// NaN for an unknown name.
double MeasureOf(const std::string& measure,
                 const experiments::RunReport& report);

// The rows of one experiment run.
struct Group {
  std::string key;  // "000-pgbench", "001-hackbench@zen3-2s-nps4", ...
  const ExperimentTemplate* experiment_template = nullptr;
  std::vector<const Row*> rows;
  // The experiment file (docs/experiments.md) the group runs, for the
  // tier: `schedsim run` accepts it as it is.
  experiments::OrderedJson file;
  double weight = 0;  // simulated CPU-seconds of all its runs
  int runs = 0;
};

struct ValidateOptions {
  std::string tier = "quick";  // "quick" or "full"
  // Rows whose id matches (std::regex_search, ECMAScript); "" = all.
  std::string only;
  int jobs = 0;       // RunnerOptions::jobs
  uint64_t seed = 1;  // the experiment seed of every group
  // Re-run each group with its cost parameters scaled (robustness.h) by
  // this percentage; 0 = no robustness check.
  double robustness_pct = 0;
  // Called for each group, in group order, with its scored rows, the runs
  // done so far and in all, and the estimated seconds left. The runs of
  // all groups share one pool (largest first), so the groups are scored
  // once the runs are done; run_progress reports the runs as they end.
  std::function<void(const std::vector<ScoredRow>& rows, int runs_done,
                     int runs_total, double eta_s)>
      progress;
  // Called after each run with the runs done so far and in all (from the
  // runner's worker threads, one call at a time); optional.
  std::function<void(int runs_done, int runs_total)> run_progress;
};

// The groups of the selected rows, with their experiment files built for
// the tier; errors name the catalogue, the template and the rows.
absl::StatusOr<std::vector<Group>> BuildGroups(const Catalogue& catalogue,
                                               const ValidateOptions& options);

struct ValidationResult {
  std::vector<ScoredRow> rows;  // the selected rows, in catalogue order
  Summary summary;
};

// Runs every group and scores every selected row (not expressible rows are
// scored without a run). A group whose experiment fails to run makes its
// rows `not-expressible` with the error as the reason, and the error is
// returned only when `options` has no rows left to score.
absl::StatusOr<ValidationResult> RunValidation(const Catalogue& catalogue,
                                               const ValidateOptions& options);

// Scale-out (docs/scale-out.md): runs shard `shard` of the runs of every
// group (experiments::AssignShards over every group's run costs) and
// returns its partial result (kind "validate"; experiments/shard.h):
// settings tier, only and seed; per group its key, its runs' results, or
// the first failure. `catalogue_text` is the catalogue's text (the
// partial carries it). Robustness re-runs are not sharded. `runs` gets the
// number of runs of the shard.
absl::StatusOr<experiments::OrderedJson> RunValidationShard(
    const Catalogue& catalogue, const std::string& catalogue_text,
    const ValidateOptions& options, const experiments::Shard& shard, int* runs);

// The result RunValidation gives, from the partial results of every shard
// (experiments::LoadPartials) made with `catalogue` and `options`; the
// groups into `groups` when not null.
absl::StatusOr<ValidationResult> MergeValidationPartials(
    const Catalogue& catalogue, const ValidateOptions& options,
    const std::vector<experiments::LoadedPartial>& partials,
    std::vector<Group>* groups);

// Total runs and simulated CPU-seconds of `groups`.
struct Estimate {
  int runs = 0;
  double sim_cpu_s = 0;
  int jobs = 1;
  double wall_s = 0;  // the runs' estimated costs on `jobs`, largest first
  // The same with every settling run at its maximum length: what the tier
  // takes if no run settles early (the full tier's runs often do not).
  double wall_max_s = 0;
};
// With `robustness_pct` > 0 the robustness re-runs are counted too.
Estimate EstimateCost(const std::vector<Group>& groups, int jobs,
                      double robustness_pct = 0);

}  // namespace schedsim::validation

#endif  // SCHEDSIM_VALIDATION_VALIDATE_H_
