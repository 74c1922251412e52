// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The shards of one experiment (shard.h, docs/scale-out.md): running shard
// I of N of an experiment's runs into a partial result, and putting the
// partial results of all N back into the experiment's result, the one
// RunExperiment gives (the same runs, assembled the same way).
//
//   absl::StatusOr<std::vector<int>> runs = ShardRuns(e, shard);
//   absl::StatusOr<OrderedJson> partial =
//       RunExperimentShard(e, "exp.json", text, shard, *runs, options);
//   ...
//   absl::StatusOr<MergedRun> merged = MergeRunPartials(partials);
//   std::cout << ComparisonTable(merged->experiment, merged->result);

#ifndef SCHEDSIM_EXPERIMENTS_RUN_SHARD_H_
#define SCHEDSIM_EXPERIMENTS_RUN_SHARD_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "experiments/experiment.h"
#include "experiments/json_util.h"
#include "experiments/runner.h"
#include "experiments/shard.h"

namespace schedsim::experiments {

// The run numbers of `shard` of `experiment`'s runs (AssignShards over
// EstimateRunCosts).
absl::StatusOr<std::vector<int>> ShardRuns(const Experiment& experiment,
                                           const Shard& shard);

// `runs` (run numbers) and their results as the "runs" array of a partial
// result: {"run", "point", "variant", "iteration", then RunResultJson}.
OrderedJson ShardRunsJson(const Experiment& experiment,
                          const std::vector<int>& runs,
                          const std::vector<RunResult>& results);

// Runs `runs` (ShardRuns(experiment, shard)) and returns the partial
// result (kind "run"): the header (source `file` and `file_text`,
// settings: seed and iterations, as `experiment` has them), "runs_total"
// and "runs".
absl::StatusOr<OrderedJson> RunExperimentShard(const Experiment& experiment,
                                               const std::string& file,
                                               const std::string& file_text,
                                               const Shard& shard,
                                               const std::vector<int>& runs,
                                               const RunnerOptions& options);

// The experiment (parsed from the partials' source text, with their
// settings) and its result, from a complete set of partial results of
// kind "run" (LoadPartials).
struct MergedRun {
  Experiment experiment;
  ExperimentResult result;
};
absl::StatusOr<MergedRun> MergeRunPartials(
    const std::vector<LoadedPartial>& partials);

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_RUN_SHARD_H_
