// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/run_shard.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace schedsim::experiments {

absl::StatusOr<std::vector<int>> ShardRuns(const Experiment& e,
                                           const Shard& shard) {
  SCHEDSIM_ASSIGN_OR_RETURN(std::vector<double> costs, EstimateRunCosts(e));
  std::vector<std::vector<int>> shards = AssignShards(costs, shard.count);
  return std::move(shards[shard.index]);
}

OrderedJson ShardRunsJson(const Experiment& e, const std::vector<int>& runs,
                          const std::vector<RunResult>& results) {
  OrderedJson out = OrderedJson::array();
  for (size_t i = 0; i < runs.size() && i < results.size(); ++i) {
    const RunKey key = KeyOfRun(e, runs[i]);
    OrderedJson one;
    one["run"] = runs[i];
    one["point"] = key.point;
    one["variant"] = e.variants[key.variant].name;
    one["iteration"] = key.iteration;
    out.push_back(RunResultJson(results[i], std::move(one)));
  }
  return out;
}

absl::StatusOr<OrderedJson> RunExperimentShard(const Experiment& e,
                                               const std::string& file,
                                               const std::string& file_text,
                                               const Shard& shard,
                                               const std::vector<int>& runs,
                                               const RunnerOptions& options) {
  SCHEDSIM_ASSIGN_OR_RETURN(std::vector<RunResult> results,
                            RunSelected(e, runs, options));
  OrderedJson partial =
      PartialHeader("run", shard, file, file_text,
                    {{"seed", e.seed}, {"iterations", e.iterations}});
  partial["runs_total"] = NumRuns(e);
  partial["runs"] = ShardRunsJson(e, runs, results);
  return partial;
}

absl::StatusOr<MergedRun> MergeRunPartials(
    const std::vector<LoadedPartial>& partials) {
  if (partials.empty() || partials[0].kind != "run") {
    return absl::InvalidArgumentError("no partial results of `schedsim run`");
  }
  const LoadedPartial& first = partials[0];
  SCHEDSIM_ASSIGN_OR_RETURN(
      Experiment e, ParseExperiment(first.source_text, first.source_file));
  const OrderedJson& settings = first.settings;
  if (!settings.is_object() || !settings.contains("seed") ||
      !settings["seed"].is_number_unsigned() ||
      !settings.contains("iterations") ||
      !settings["iterations"].is_number_integer() ||
      settings["iterations"].get<int64_t>() < 1 ||
      settings["iterations"].get<int64_t>() > kMaxIterations) {
    return absl::InvalidArgumentError(
        absl::StrCat(first.path,
                     ": \"settings\": expected {\"seed\": an unsigned "
                     "integer, \"iterations\": 1..",
                     kMaxIterations, "}, got ", settings.dump()));
  }
  e.seed = settings["seed"].get<uint64_t>();
  e.iterations = settings["iterations"].get<int>();
  std::vector<RunSource> sources;
  for (const LoadedPartial& p : partials) {
    if (!p.json.contains("runs")) {
      return absl::InvalidArgumentError(
          absl::StrCat(p.path, ": missing \"runs\""));
    }
    sources.push_back({p.path, &p.json["runs"]});
  }
  SCHEDSIM_ASSIGN_OR_RETURN(
      std::vector<RunResult> runs,
      CollectRuns(sources, NumRuns(e),
                  absl::StrCat("experiment ", e.filename)));
  MergedRun merged;
  SCHEDSIM_ASSIGN_OR_RETURN(merged.result, AssembleResult(e, std::move(runs)));
  merged.experiment = std::move(e);
  return merged;
}

}  // namespace schedsim::experiments
