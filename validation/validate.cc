// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "validation/validate.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <regex>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "experiments/cost_model.h"
#include "experiments/machine_source.h"
#include "experiments/robustness.h"
#include "experiments/run_shard.h"
#include "experiments/runner.h"
#include "experiments/statistics.h"

namespace schedsim::validation {
namespace {

using experiments::OrderedJson;
using Json = OrderedJson;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const Tier& TierOf(const ExperimentTemplate& t, const std::string& tier) {
  return tier == "full" ? t.full : t.quick;
}

std::string RowMachine(const Row& row, const ExperimentTemplate& t) {
  if (!row.machine.empty()) return row.machine;
  return t.spec.value("machine", std::string());
}

// The row's workload parameters without the swept one, as a sorted key.
Json FixedParams(const Row& row, const ExperimentTemplate& t) {
  Json fixed = Json::object();
  for (const auto& item : row.params.items()) {
    if (item.key() != t.sweep) fixed[item.key()] = item.value();
  }
  return fixed;
}

absl::StatusOr<int> CpusOf(const std::string& machine,
                           std::map<std::string, int>* cache) {
  auto it = cache->find(machine);
  if (it != cache->end()) return it->second;
  experiments::MachineSource source;
  source.machine = machine;
  SCHEDSIM_ASSIGN_OR_RETURN(topology::Topology topo,
                            experiments::LoadMachine(source));
  (*cache)[machine] = topo.num_cpus();
  return topo.num_cpus();
}

double MeanOf(const std::vector<double>& x, workloads::MeanKind kind) {
  switch (kind) {
    case workloads::MeanKind::kHarmonic:
      return experiments::Hmean(x);
    case workloads::MeanKind::kGeometric:
      return experiments::Gmean(x);
    case workloads::MeanKind::kArithmetic:
      break;
  }
  return experiments::Amean(x);
}

bool AllEqual(const std::vector<double>& a, const std::vector<double>& b) {
  for (const std::vector<double>* v : {&a, &b}) {
    for (double x : *v) {
      if (x != (*v)[0]) return false;
    }
  }
  return true;
}

// Where a row's numbers are in its group's result.
struct RowIndex {
  int point = 0;
  int variant = 1;
  int metric = 0;
};

absl::StatusOr<RowIndex> FindRow(const Row& row, const Group& group,
                                 const experiments::Experiment& e,
                                 const experiments::ExperimentResult& r) {
  const ExperimentTemplate& t = *group.experiment_template;
  int point = 0;
  if (!t.sweep.empty()) {
    const std::string want = experiments::ShowJson(row.params[t.sweep]);
    point = -1;
    for (int i = 0; i < e.num_points(); ++i) {
      if (experiments::ShowJson(
              experiments::ParamValueJson(e.sweep->values[i])) == want) {
        point = i;
      }
    }
    if (point < 0) {
      return absl::InternalError(
          absl::StrCat(row.id, ": point ", want, " not in the sweep"));
    }
  }
  int variant = 1;
  if (!row.variant.empty()) {
    variant = -1;
    for (size_t i = 0; i < e.variants.size(); ++i) {
      if (e.variants[i].name == row.variant) variant = static_cast<int>(i);
    }
    if (variant <= 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          row.id, ": variant \"", row.variant,
          "\" is not a non-baseline variant of template \"", t.name, "\""));
    }
  } else if (e.variants.size() < 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        row.id, ": template \"", t.name, "\" needs a baseline and a variant"));
  }
  int metric = -1;
  for (size_t i = 0; i < r.metrics.size(); ++i) {
    if (r.metrics[i].name == t.metric) metric = static_cast<int>(i);
  }
  if (metric < 0) {
    std::vector<std::string> names;
    for (const auto& m : r.metrics) names.push_back(m.name);
    return absl::InvalidArgumentError(absl::StrCat(
        "template \"", t.name, "\": the model has no metric \"", t.metric,
        "\"; its metrics: ", absl::StrJoin(names, ", ")));
  }
  const workloads::MetricInfo& info = r.metrics[metric];
  // A mechanism row reads its measure, whose direction is the row's own.
  if (row.measure.empty() &&
      info.higher_is_better != row.published.higher_is_better) {
    return absl::InvalidArgumentError(
        absl::StrCat(row.id, ": the published direction (",
                     row.published.higher_is_better ? "higher" : "lower",
                     " is better) differs from metric ", info.name, "'s"));
  }
  RowIndex index;
  index.point = point;
  index.variant = variant;
  index.metric = metric;
  return index;
}

}  // namespace

double MeasureOf(const std::string& measure,
                 const experiments::RunReport& report) {
  const double seconds = report.duration_s > 0 ? report.duration_s : 1.0;
  if (measure == "c0_pct_busiest_cpu") {
    double most = 0;
    for (double c0 : report.c0_pct) most = std::max(most, c0);
    return most;
  }
  if (measure == "c0_pct_mean") {
    if (report.c0_pct.empty()) return 0;
    double sum = 0;
    for (double c0 : report.c0_pct) sum += c0;
    return sum / static_cast<double>(report.c0_pct.size());
  }
  if (measure == "context_switches_per_s") {
    return static_cast<double>(report.context_switches) / seconds;
  }
  if (measure == "migrations_per_s") {
    return static_cast<double>(report.migrations) / seconds;
  }
  return std::nan("");
}

namespace {

// The samples of a row: its template's metric, or a mechanism row's
// measure, for every iteration of (point, variant).
std::vector<double> RowSamples(const Row& row,
                               const experiments::ExperimentResult& r,
                               int point, int variant, int metric) {
  if (row.measure.empty()) return r.Samples(point, variant, metric);
  std::vector<double> out;
  for (const experiments::RunResult& run : r.runs[point][variant]) {
    out.push_back(MeasureOf(row.measure, run.report));
  }
  return out;
}

// The simulated result of `row` from its group's runs.
absl::StatusOr<Simulated> RowResult(const Row& row, const Group& group,
                                    const experiments::Experiment& e,
                                    const experiments::ExperimentResult& r) {
  SCHEDSIM_ASSIGN_OR_RETURN(RowIndex index, FindRow(row, group, e, r));
  const workloads::MetricInfo& info = r.metrics[index.metric];
  const std::vector<double> base =
      RowSamples(row, r, index.point, 0, index.metric);
  const std::vector<double> var =
      RowSamples(row, r, index.point, index.variant, index.metric);
  // A measure is averaged arithmetically; its direction is the row's.
  const workloads::MeanKind mean =
      row.measure.empty() ? info.mean : workloads::MeanKind::kArithmetic;
  const bool higher = row.measure.empty() ? info.higher_is_better
                                          : row.published.higher_is_better;
  Simulated s;
  s.iterations = static_cast<int>(base.size());
  s.baseline = MeanOf(base, mean);
  s.variant = MeanOf(var, mean);
  s.change_pct = experiments::PctDiff(s.baseline, s.variant, higher);
  s.coeffvar_baseline_pct = experiments::CoeffVar(base);
  s.coeffvar_variant_pct = experiments::CoeffVar(var);
  s.identical = AllEqual(base, var) || (experiments::Stddev(base) == 0 &&
                                        experiments::Stddev(var) == 0);
  const experiments::WelchResult w = experiments::WelchTTest(base, var);
  // A p-value only from real spread.
  s.p_value = s.identical ? kNaN : w.p_value;
  return s;
}

}  // namespace

absl::StatusOr<std::vector<Group>> BuildGroups(const Catalogue& catalogue,
                                               const ValidateOptions& options) {
  if (options.tier != "quick" && options.tier != "full") {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown tier \"", options.tier, "\"; expected quick or full"));
  }
  std::optional<std::regex> only;
  if (!options.only.empty()) {
    try {
      only.emplace(options.only, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      return absl::InvalidArgumentError(
          absl::StrCat("--only: \"", options.only,
                       "\" is not a regular expression: ", e.what()));
    }
  }
  std::vector<Group> groups;
  std::map<std::string, size_t> index;
  std::map<std::string, int> cpus;
  for (const Row& row : catalogue.rows) {
    if (only && !std::regex_search(row.id, *only)) continue;
    if (!row.not_expressible.empty()) continue;
    if (!InTier(row, options.tier)) continue;
    const ExperimentTemplate& t = catalogue.experiments.at(row.experiment);
    const std::string machine = RowMachine(row, t);
    const Json fixed = FixedParams(row, t);
    std::string key = t.name;
    if (machine != t.spec.value("machine", std::string())) {
      absl::StrAppend(&key, "@", machine);
    }
    if (!fixed.empty()) absl::StrAppend(&key, fixed.dump());
    auto [it, inserted] = index.emplace(key, groups.size());
    if (inserted) {
      Group g;
      g.key = key;
      g.experiment_template = &t;
      Json file = Json::object();
      file["description"] =
          absl::StrCat(t.spec.value("description", std::string()),
                       " [schedsim validate: ", key, "]");
      file["machine"] = machine;
      Json workload = t.spec["workload"];
      if (!workload.is_object()) {
        return absl::InvalidArgumentError(
            absl::StrCat(catalogue.filename, ": experiments.", t.name,
                         ".workload: expected an object"));
      }
      if (!workload.contains("params")) workload["params"] = Json::object();
      for (const auto& item : fixed.items()) {
        workload["params"][item.key()] = item.value();
      }
      file["workload"] = workload;
      if (!t.sweep.empty()) {
        file["sweep"] = {{"param", t.sweep}, {"values", Json::array()}};
      }
      const Tier& tier = TierOf(t, options.tier);
      file["iterations"] = tier.iterations;
      file["seed"] = options.seed;
      file["warmup_ms"] = tier.warmup_ms;
      file["duration_ms"] = tier.duration_ms;
      // The kernel the report ran (its switches, then "config" over them).
      // And its settle rule (docs/experiments.md, "Stop when settled").
      for (const char* key2 : {"kernel", "policies", "config", "settle"}) {
        if (t.spec.contains(key2)) file[key2] = t.spec[key2];
      }
      file["variants"] = t.spec["variants"];
      g.file = std::move(file);
      groups.push_back(std::move(g));
    }
    Group& g = groups[it->second];
    g.rows.push_back(&row);
    if (!t.sweep.empty()) {
      Json& values = g.file["sweep"]["values"];
      const Json& v = row.params[t.sweep];
      if (std::find(values.begin(), values.end(), v) == values.end()) {
        values.push_back(v);
      }
    }
  }
  for (Group& g : groups) {
    const int points = g.file.contains("sweep")
                           ? static_cast<int>(g.file["sweep"]["values"].size())
                           : 1;
    const int variants = static_cast<int>(g.file["variants"].size());
    const int iterations = g.file["iterations"].get<int>();
    g.runs = points * variants * iterations;
    SCHEDSIM_ASSIGN_OR_RETURN(
        int n, CpusOf(g.file["machine"].get<std::string>(), &cpus));
    const double ms =
        g.file["warmup_ms"].get<double>() + g.file["duration_ms"].get<double>();
    g.weight = g.runs * ms / 1000.0 * n;
  }
  return groups;
}

Estimate EstimateCost(const std::vector<Group>& groups, int jobs,
                      double robustness_pct) {
  Estimate e;
  // Every run's estimated cost (experiments/cost_model.h) on one pool,
  // largest first, as RunValidation runs them.
  std::vector<double> costs;
  std::vector<double> costs_max;
  double robustness_wall_s = 0;
  for (const Group& g : groups) {
    int64_t factor = 1;
    absl::StatusOr<experiments::Experiment> x =
        experiments::ParseExperiment(g.file.dump(), g.key);
    absl::StatusOr<std::vector<double>> c =
        x.ok() ? experiments::EstimateRunCosts(*x)
               : absl::StatusOr<std::vector<double>>(x.status());
    absl::StatusOr<std::vector<double>> c_max =
        x.ok() ? experiments::EstimateRunCosts(*x, /*at_most=*/true)
               : absl::StatusOr<std::vector<double>>(x.status());
    if (c_max.ok()) {
      costs_max.insert(costs_max.end(), c_max->begin(), c_max->end());
    }
    if (x.ok() && robustness_pct > 0) {
      // The nominal runs and 2 per scaled parameter.
      factor +=
          experiments::RobustnessRunCount(*x) / std::max<int64_t>(1, g.runs);
    }
    e.runs += static_cast<int>(g.runs * factor);
    e.sim_cpu_s += g.weight * factor;
    if (c.ok()) {
      costs.insert(costs.end(), c->begin(), c->end());
      double one = 0;
      for (double v : *c) one += v;
      robustness_wall_s += one * static_cast<double>(factor - 1);
    }
  }
  if (jobs <= 0) {
    jobs = std::max(1u, std::thread::hardware_concurrency());
  }
  e.jobs = jobs;
  // The robustness re-runs run group by group after the pool.
  e.wall_s = experiments::Makespan(costs, jobs) + robustness_wall_s / jobs;
  e.wall_max_s = std::max(e.wall_s, experiments::Makespan(costs_max, jobs) +
                                        robustness_wall_s / jobs);
  return e;
}

namespace {

std::string GroupFilename(const Catalogue& catalogue, const Group& g) {
  return absl::StrCat(catalogue.filename, ": experiments.",
                      g.experiment_template->name, " (", g.key, ")");
}

// Scores every not expressible selected row (they need no run).
std::vector<ScoredRow> ScoreNotExpressible(
    const Catalogue& catalogue, const ValidateOptions& options,
    std::map<const Row*, ScoredRow>* scored) {
  std::optional<std::regex> only;
  if (!options.only.empty()) only.emplace(options.only, std::regex::ECMAScript);
  std::vector<ScoredRow> batch;
  for (const Row& row : catalogue.rows) {
    if (only && !std::regex_search(row.id, *only)) continue;
    if (row.not_expressible.empty()) continue;
    if (!InTier(row, options.tier)) continue;
    (*scored)[&row] = ScoreRow(row, std::nullopt);
    batch.push_back((*scored)[&row]);
  }
  return batch;
}

// Scores the rows of `g` from its experiment's result, or from why it
// failed; the rows scored, in group order.
absl::StatusOr<std::vector<ScoredRow>> ScoreGroup(
    const Group& g, const absl::StatusOr<experiments::Experiment>& e,
    const std::optional<experiments::ExperimentResult>& result,
    const absl::Status& failed,
    const std::vector<experiments::RobustnessEntry>& robustness,
    const ValidateOptions& options, std::map<const Row*, ScoredRow>* scored) {
  std::vector<ScoredRow> batch;
  for (const Row* row : g.rows) {
    if (result) {
      SCHEDSIM_ASSIGN_OR_RETURN(Simulated s, RowResult(*row, g, *e, *result));
      (*scored)[row] = ScoreRow(*row, s);
      // Robustness is the template metric's; a mechanism row has none.
      if (options.robustness_pct > 0 && row->measure.empty()) {
        SCHEDSIM_ASSIGN_OR_RETURN(RowIndex index,
                                  FindRow(*row, g, *e, *result));
        const std::string& metric = result->metrics[index.metric].name;
        for (const experiments::RobustnessEntry& v : robustness) {
          if (v.metric == metric && v.point == index.point &&
              v.variant == index.variant) {
            (*scored)[row].robustness = RowRobustness{
                v.sign_holds, v.flipped_by, v.nominal_change_pct == 0.0};
          }
        }
      }
    } else {
      (*scored)[row] =
          ScoreRow(*row, std::nullopt,
                   absl::StrCat("the experiment failed: ", failed.message()));
    }
    batch.push_back((*scored)[row]);
  }
  return batch;
}

ValidationResult Collect(const Catalogue& catalogue,
                         const ValidateOptions& options,
                         const std::map<const Row*, ScoredRow>& scored) {
  ValidationResult out;
  for (const Row& row : catalogue.rows) {
    auto it = scored.find(&row);
    if (it != scored.end()) out.rows.push_back(it->second);
  }
  out.summary = Summarize(out.rows, options.tier);
  return out;
}

}  // namespace

absl::StatusOr<ValidationResult> RunValidation(const Catalogue& catalogue,
                                               const ValidateOptions& options) {
  SCHEDSIM_ASSIGN_OR_RETURN(std::vector<Group> groups,
                            BuildGroups(catalogue, options));
  if (options.robustness_pct != 0 &&
      !(options.robustness_pct > 0 && options.robustness_pct < 100)) {
    return absl::InvalidArgumentError(
        "the robustness percentage must be in (0, 100)");
  }
  std::map<const Row*, ScoredRow> scored;
  const Estimate total =
      EstimateCost(groups, options.jobs, options.robustness_pct);
  double weight_done = 0;
  int runs_done = 0;
  const auto start = std::chrono::steady_clock::now();
  // Not expressible rows first: they need no run.
  {
    std::vector<ScoredRow> batch =
        ScoreNotExpressible(catalogue, options, &scored);
    if (options.progress && !batch.empty()) {
      options.progress(batch, 0, total.runs, total.wall_s);
    }
  }
  // Every run of every group on one pool, largest estimated cost first
  // (so that no job waits at the end behind a long run started last).
  std::vector<absl::StatusOr<experiments::Experiment>> parsed;
  for (const Group& g : groups) {
    parsed.push_back(experiments::ParseExperiment(g.file.dump(),
                                                  GroupFilename(catalogue, g)));
  }
  std::vector<const experiments::Experiment*> to_run;
  for (const absl::StatusOr<experiments::Experiment>& e : parsed) {
    if (e.ok()) to_run.push_back(&*e);
  }
  experiments::RunnerOptions ro;
  ro.jobs = options.jobs;
  if (options.run_progress) {
    const int all = total.runs;
    ro.progress = [&options, all](int done, int) {
      options.run_progress(done, all);
    };
  }
  std::vector<absl::StatusOr<experiments::ExperimentResult>> results =
      experiments::RunExperiments(to_run, ro);
  size_t next_result = 0;
  for (size_t i = 0; i < groups.size(); ++i) {
    const Group& g = groups[i];
    const absl::StatusOr<experiments::Experiment>& e = parsed[i];
    absl::Status failed = e.status();
    std::optional<experiments::ExperimentResult> result;
    std::vector<experiments::RobustnessEntry> robustness;
    if (e.ok()) {
      absl::StatusOr<experiments::ExperimentResult>& r = results[next_result++];
      if (r.ok()) {
        result = *std::move(r);
      } else {
        failed = r.status();
      }
    }
    if (result && options.robustness_pct > 0) {
      experiments::RunnerOptions scaled = ro;
      scaled.progress = nullptr;  // the group's progress line counts them
      absl::StatusOr<std::vector<experiments::RobustnessEntry>> v =
          experiments::CheckRobustness(*e, *result, options.robustness_pct,
                                       scaled);
      if (!v.ok()) return v.status();
      robustness = std::move(*v);
    }
    SCHEDSIM_ASSIGN_OR_RETURN(
        std::vector<ScoredRow> batch,
        ScoreGroup(g, e, result, failed, robustness, options, &scored));
    runs_done += g.runs;
    weight_done += g.weight;
    if (options.progress) {
      const double elapsed = std::chrono::duration<double>(
                                 std::chrono::steady_clock::now() - start)
                                 .count();
      const double eta = weight_done > 0 ? elapsed / weight_done *
                                               (total.sim_cpu_s - weight_done)
                                         : total.wall_s;
      options.progress(batch, runs_done, total.runs, eta);
    }
  }
  return Collect(catalogue, options, scored);
}

absl::StatusOr<experiments::OrderedJson> RunValidationShard(
    const Catalogue& catalogue, const std::string& catalogue_text,
    const ValidateOptions& options, const experiments::Shard& shard,
    int* runs_in_shard) {
  SCHEDSIM_ASSIGN_OR_RETURN(std::vector<Group> groups,
                            BuildGroups(catalogue, options));
  // Every run of every group that parses and prepares, by estimated cost;
  // a group that does not fails the same way in the merge.
  std::vector<absl::StatusOr<experiments::Experiment>> parsed;
  std::vector<std::pair<int, int>> units;  // (group, run)
  std::vector<double> costs;
  for (size_t i = 0; i < groups.size(); ++i) {
    parsed.push_back(experiments::ParseExperiment(
        groups[i].file.dump(), GroupFilename(catalogue, groups[i])));
    if (!parsed.back().ok()) continue;
    absl::StatusOr<std::vector<double>> c =
        experiments::EstimateRunCosts(*parsed.back());
    if (!c.ok()) continue;
    for (size_t r = 0; r < c->size(); ++r) {
      units.emplace_back(static_cast<int>(i), static_cast<int>(r));
      costs.push_back((*c)[r]);
    }
  }
  const std::vector<int> mine =
      experiments::AssignShards(costs, shard.count)[shard.index];
  std::vector<std::vector<int>> runs(groups.size());
  for (int u : mine) runs[units[u].first].push_back(units[u].second);
  Json partial = experiments::PartialHeader(
      "validate", shard, catalogue.filename, catalogue_text,
      {{"tier", options.tier}, {"only", options.only}, {"seed", options.seed}});
  Json out = Json::array();
  experiments::RunnerOptions ro;
  ro.jobs = options.jobs;
  *runs_in_shard = static_cast<int>(mine.size());
  for (size_t i = 0; i < groups.size(); ++i) {
    Json one;
    one["key"] = groups[i].key;
    one["runs_total"] =
        parsed[i].ok() ? experiments::NumRuns(*parsed[i]) : int64_t{0};
    if (!runs[i].empty()) {
      int failed_run = -1;
      absl::StatusOr<std::vector<experiments::RunResult>> r =
          experiments::RunSelected(*parsed[i], runs[i], ro, &failed_run);
      if (r.ok()) {
        one["runs"] = experiments::ShardRunsJson(*parsed[i], runs[i], *r);
      } else {
        // The first failing run of this shard, in run order (each run's
        // message names it); the merge keeps the lowest over the shards.
        one["error"] = {{"run", failed_run},
                        {"message", std::string(r.status().message())},
                        {"code", static_cast<int>(r.status().code())}};
      }
    }
    if (!one.contains("runs") && !one.contains("error")) {
      one["runs"] = Json::array();
    }
    out.push_back(std::move(one));
  }
  partial["groups"] = std::move(out);
  return partial;
}

absl::StatusOr<ValidationResult> MergeValidationPartials(
    const Catalogue& catalogue, const ValidateOptions& options,
    const std::vector<experiments::LoadedPartial>& partials,
    std::vector<Group>* groups_out) {
  SCHEDSIM_ASSIGN_OR_RETURN(std::vector<Group> groups,
                            BuildGroups(catalogue, options));
  std::map<const Row*, ScoredRow> scored;
  ScoreNotExpressible(catalogue, options, &scored);
  for (const experiments::LoadedPartial& p : partials) {
    const Json& list = p.json.value("groups", Json());
    bool same = list.is_array() && list.size() == groups.size();
    for (size_t i = 0; same && i < groups.size(); ++i) {
      same = list[i].is_object() && list[i].value("key", "") == groups[i].key;
    }
    if (!same) {
      return absl::InvalidArgumentError(absl::StrCat(
          p.path, ": its \"groups\" are not the ", groups.size(),
          " groups this schedsim builds from the catalogue and settings"));
    }
  }
  for (size_t i = 0; i < groups.size(); ++i) {
    const Group& g = groups[i];
    absl::StatusOr<experiments::Experiment> e = experiments::ParseExperiment(
        g.file.dump(), GroupFilename(catalogue, g));
    absl::Status failed = e.status();
    std::optional<experiments::ExperimentResult> result;
    if (e.ok()) {
      // A group whose workloads cannot be built ran nowhere: the same error.
      absl::StatusOr<std::vector<double>> prepared =
          experiments::EstimateRunCosts(*e);
      if (!prepared.ok()) failed = prepared.status();
    }
    if (e.ok() && failed.ok()) {
      // A failed run: the message that names the lowest run number, as
      // the unsharded run reports the first failure in run order.
      std::optional<std::pair<int64_t, absl::Status>> error;
      std::vector<experiments::RunSource> sources;
      for (const experiments::LoadedPartial& p : partials) {
        const Json& one = p.json["groups"][i];
        if (one.contains("error")) {
          const Json& err = one["error"];
          const std::string message = err.value("message", "");
          const int64_t run = err.value("run", int64_t{0});
          if (!error || run < error->first) {
            error.emplace(run, absl::Status(static_cast<absl::StatusCode>(
                                                err.value("code", 2)),
                                            message));
          }
        } else {
          sources.push_back({p.path, &one["runs"]});
        }
      }
      if (error) {
        failed = error->second;
      } else {
        absl::StatusOr<std::vector<experiments::RunResult>> runs =
            experiments::CollectRuns(sources, experiments::NumRuns(*e),
                                     absl::StrCat("group ", g.key));
        absl::StatusOr<experiments::ExperimentResult> r =
            runs.ok()
                ? experiments::AssembleResult(*e, *std::move(runs))
                : absl::StatusOr<experiments::ExperimentResult>(runs.status());
        if (r.ok()) {
          result = std::move(*r);
        } else if (!runs.ok()) {
          return runs.status();  // broken partials, not a failed group
        } else {
          failed = r.status();
        }
      }
    }
    SCHEDSIM_ASSIGN_OR_RETURN(
        std::vector<ScoredRow> batch,
        ScoreGroup(g, e, result, failed, {}, options, &scored));
  }
  if (groups_out != nullptr) *groups_out = std::move(groups);
  return Collect(catalogue, options, scored);
}

}  // namespace schedsim::validation
