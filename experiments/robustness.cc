// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/robustness.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <utility>
#include <variant>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "experiments/reports.h"
#include "experiments/statistics.h"
#include "sim/config.h"

namespace schedsim::experiments {
namespace {

// The SimConfig fields that are model costs: what an operation, a switch,
// a wake-up or a migration costs in the simulated machine, assumed or
// measured. Not here, on purpose: kernel tunables (hz, sched_latency_ns,
// sched_min_granularity_ns, sched_wakeup_granularity_ns,
// sched_migration_cost_ns), policy and platform settings
// (pm_qos_latency_ns, pmu_period_ns, pl1_mw, turbo, uclamp,
// uclamp_rt_default_min, load_balance, newidle_balance), the SMT
// throughput share (smt_factor_pct, not a cost), mm_switch_ns (the part of
// context_switch_ns that threads of one mm skip: scaling context_switch_ns
// covers it) and the run-to-run noise
// fields (noise_scale and the noise rates: not costs). A new cost field is
// one line here, and one in docs/experiments.md ("Robustness").
struct ConfigCost {
  const char* name;
  int64_t sim::SimConfig::*field;
};
constexpr ConfigCost kConfigCosts[] = {
    {"context_switch_ns", &sim::SimConfig::context_switch_ns},
    {"wakeup_cost_ns", &sim::SimConfig::wakeup_cost_ns},
    {"probe_cost_ns", &sim::SimConfig::probe_cost_ns},
    {"ipi_latency_ns", &sim::SimConfig::ipi_latency_ns},
    {"pipe_op_ns", &sim::SimConfig::pipe_op_ns},
    {"socket_op_ns", &sim::SimConfig::socket_op_ns},
    {"llc_migration_penalty_ns", &sim::SimConfig::llc_migration_penalty_ns},
    {"smt_migration_penalty_ns", &sim::SimConfig::smt_migration_penalty_ns},
    {"uclamp_enqueue_cost_ns", &sim::SimConfig::uclamp_enqueue_cost_ns},
};

// "model only" parameters whose name carries a cost unit but that are
// settings rather than costs.
constexpr const char* kModelParamsNotCosts[] = {
    "spin_us",  // nas: the OpenMP barrier spin budget (GOMP_SPINCOUNT-like)
};

const ConfigCost* FindConfigCost(const std::string& name) {
  for (const ConfigCost& c : kConfigCosts) {
    if (name == c.name) return &c;
  }
  return nullptr;
}

const platform::ParamSpec* FindModelParam(const Experiment& e,
                                          const std::string& name) {
  for (const platform::ParamSpec& spec : e.model->params) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

// The model parameter's value in `e` (the file's, else the default).
platform::ParamValue ModelValue(const Experiment& e,
                                const platform::ParamSpec& spec) {
  auto it = e.params.find(spec.name);
  return it != e.params.end() ? it->second : spec.default_value;
}

bool IsZero(const platform::ParamValue& v) {
  if (const int64_t* i = std::get_if<int64_t>(&v)) return *i == 0;
  if (const double* d = std::get_if<double>(&v)) return *d == 0;
  return true;
}

double DeclaredMean(const std::vector<double>& samples,
                    workloads::MeanKind kind) {
  switch (kind) {
    case workloads::MeanKind::kHarmonic:
      return Hmean(samples);
    case workloads::MeanKind::kGeometric:
      return Gmean(samples);
    case workloads::MeanKind::kArithmetic:
      break;
  }
  return Amean(samples);
}

// "25", "12.5".
std::string PctText(double pct) { return absl::StrCat(pct); }

// "config.wakeup_cost_ns-25%".
std::string RunName(const ScaledParam& param, double factor, double pct) {
  return absl::StrCat(param.name(), factor < 1 ? "-" : "+", PctText(pct), "%");
}

std::string ChangeText(double pct) {
  if (std::isnan(pct)) return "n/a";
  return absl::StrFormat("%+.2f%%", pct);
}

}  // namespace

std::string ScaledParam::name() const {
  return absl::StrCat(kind == Kind::kConfig ? "config." : "workload.", field);
}

std::vector<std::string> ConfigCostFields() {
  std::vector<std::string> out;
  for (const ConfigCost& c : kConfigCosts) out.push_back(c.name);
  return out;
}

bool IsScaledModelParam(const platform::ParamSpec& spec) {
  if (!absl::StartsWith(spec.doc, "model only")) return false;
  if (!std::holds_alternative<int64_t>(spec.default_value) &&
      !std::holds_alternative<double>(spec.default_value)) {
    return false;
  }
  for (const char* name : kModelParamsNotCosts) {
    if (spec.name == name) return false;
  }
  const std::string& n = spec.name;
  return absl::EndsWith(n, "_cycles") || absl::EndsWith(n, "_ns") ||
         absl::EndsWith(n, "_us") || absl::EndsWith(n, "_ms") ||
         absl::StartsWith(n, "cycles_");
}

std::vector<ScaledParam> RobustnessParams(const Experiment& e) {
  std::vector<ScaledParam> out;
  for (const ConfigCost& c : kConfigCosts) {
    bool nonzero = false;
    for (const Variant& v : e.variants) nonzero |= v.config.*c.field != 0;
    if (nonzero) out.push_back({ScaledParam::Kind::kConfig, c.name});
  }
  if (e.model == nullptr) return out;
  for (const platform::ParamSpec& spec : e.model->params) {
    if (!IsScaledModelParam(spec)) continue;
    if (e.sweep && e.sweep->param == spec.name) continue;
    if (IsZero(ModelValue(e, spec))) continue;
    out.push_back({ScaledParam::Kind::kWorkload, spec.name});
  }
  return out;
}

int64_t ScaleInteger(int64_t value, double factor) {
  const int64_t scaled =
      static_cast<int64_t>(std::llround(static_cast<double>(value) * factor));
  return value >= 1 && scaled < 1 ? 1 : scaled;
}

Experiment ScaledExperiment(const Experiment& e, const ScaledParam& param,
                            double factor) {
  Experiment out = e;
  if (param.kind == ScaledParam::Kind::kConfig) {
    const ConfigCost* c = FindConfigCost(param.field);
    if (c == nullptr) return out;
    for (Variant& v : out.variants) {
      v.config.*c->field = ScaleInteger(v.config.*c->field, factor);
    }
    return out;
  }
  const platform::ParamSpec* spec = FindModelParam(e, param.field);
  if (spec == nullptr) return out;
  const platform::ParamValue value = ModelValue(e, *spec);
  if (const int64_t* i = std::get_if<int64_t>(&value)) {
    out.params[param.field] = ScaleInteger(*i, factor);
  } else if (const double* d = std::get_if<double>(&value)) {
    out.params[param.field] = *d * factor;
  }
  return out;
}

int64_t RobustnessRunCount(const Experiment& e) {
  return 2 * static_cast<int64_t>(RobustnessParams(e).size()) * e.num_points() *
         static_cast<int64_t>(e.variants.size()) * e.iterations;
}

int ChangeSign(double baseline, double value, bool higher_is_better) {
  if (std::isnan(baseline) || std::isnan(value)) return 0;
  double d = PctDiff(baseline, value, higher_is_better);
  if (std::isnan(d)) {  // a baseline of 0: the raw difference's sign
    d = higher_is_better ? value - baseline : baseline - value;
    return d > 0 ? 1 : d < 0 ? -1 : 0;
  }
  if (std::fabs(d) < kSignEpsilonPct) return 0;
  return d > 0 ? 1 : -1;
}

DeclaredMeans MeansOf(const ExperimentResult& r) {
  DeclaredMeans means(r.runs.size());
  for (size_t p = 0; p < r.runs.size(); ++p) {
    means[p].resize(r.runs[p].size());
    for (size_t v = 0; v < r.runs[p].size(); ++v) {
      for (size_t m = 0; m < r.metrics.size(); ++m) {
        means[p][v].push_back(
            DeclaredMean(r.Samples(static_cast<int>(p), static_cast<int>(v),
                                   static_cast<int>(m)),
                         r.metrics[m].mean));
      }
    }
  }
  return means;
}

std::vector<RobustnessEntry> Verdicts(const Experiment& e,
                                      const ExperimentResult& nominal,
                                      const std::vector<ScaledMeans>& scaled,
                                      double pct) {
  const DeclaredMeans base = MeansOf(nominal);
  std::vector<RobustnessEntry> out;
  for (size_t m = 0; m < nominal.metrics.size(); ++m) {
    const workloads::MetricInfo& info = nominal.metrics[m];
    const bool higher = info.higher_is_better;
    for (size_t p = 0; p < base.size(); ++p) {
      for (size_t v = 1; v < base[p].size(); ++v) {
        RobustnessEntry entry;
        entry.metric = info.name;
        entry.point = static_cast<int>(p);
        entry.sweep_value = e.PointValue(static_cast<int>(p));
        entry.variant = static_cast<int>(v);
        entry.variant_name = nominal.variants[v].name;
        entry.pct = pct;
        entry.nominal_change_pct =
            PctDiff(base[p][0][m], base[p][v][m], higher);
        const int sign = ChangeSign(base[p][0][m], base[p][v][m], higher);
        for (const ScaledMeans& s : scaled) {
          const double b = s.means[p][0][m];
          const double x = s.means[p][v][m];
          ScaledChange change;
          change.name = RunName(s.param, s.factor, pct);
          change.param = s.param.name();
          change.factor = s.factor;
          change.change_pct = PctDiff(b, x, higher);
          change.sign_holds = ChangeSign(b, x, higher) == sign;
          if (!change.sign_holds) {
            entry.sign_holds = false;
            entry.flipped_by.push_back(change.name);
          }
          entry.scaled.push_back(std::move(change));
        }
        out.push_back(std::move(entry));
      }
    }
  }
  return out;
}

absl::StatusOr<std::vector<RobustnessEntry>> CheckRobustness(
    const Experiment& e, const ExperimentResult& nominal, double pct,
    const RunnerOptions& options) {
  if (!(pct > 0 && pct < 100)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the robustness scaling must be a percentage in (0, 100), got ", pct));
  }
  bool matches = e.model != nullptr &&
                 static_cast<int>(nominal.runs.size()) == e.num_points() &&
                 nominal.variants.size() == e.variants.size() &&
                 nominal.metrics.size() == e.model->metrics.size();
  for (size_t p = 0; matches && p < nominal.runs.size(); ++p) {
    matches = nominal.runs[p].size() == e.variants.size();
  }
  if (!matches) {
    return absl::InvalidArgumentError(
        absl::StrCat(e.filename,
                     ": the nominal result is not a result of this experiment "
                     "(its points, variants or metrics differ)"));
  }
  const std::vector<ScaledParam> params = RobustnessParams(e);
  const int64_t per_experiment = int64_t{e.num_points()} *
                                 static_cast<int64_t>(e.variants.size()) *
                                 e.iterations;
  const int total = static_cast<int>(std::min<int64_t>(
      2 * per_experiment * static_cast<int64_t>(params.size()), INT_MAX));
  std::vector<ScaledMeans> scaled;
  int offset = 0;
  for (const ScaledParam& param : params) {
    for (double factor : {1 - pct / 100, 1 + pct / 100}) {
      RunnerOptions o = options;
      o.keep_task_names_iteration = -1;
      if (options.progress) {
        o.progress = [&options, offset, total](int done, int) {
          options.progress(offset + done, total);
        };
      }
      absl::StatusOr<ExperimentResult> r =
          RunExperiment(ScaledExperiment(e, param, factor), o);
      if (!r.ok()) {
        return absl::Status(r.status().code(),
                            absl::StrCat("with ", RunName(param, factor, pct),
                                         " (", param.name(), " x ", factor,
                                         "): ", r.status().message()));
      }
      scaled.push_back({param, factor, MeansOf(*r)});
      offset += static_cast<int>(per_experiment);
    }
  }
  return Verdicts(e, nominal, scaled, pct);
}

OrderedJson RobustnessJson(const Experiment& e,
                           const std::vector<RobustnessEntry>& entries) {
  auto number = [](double v) -> OrderedJson {
    if (!std::isfinite(v)) return nullptr;
    return v;
  };
  OrderedJson out = OrderedJson::array();
  for (const RobustnessEntry& entry : entries) {
    OrderedJson j;
    j["metric"] = entry.metric;
    j["sweep_value"] = e.sweep && entry.point < e.num_points()
                           ? ParamValueJson(e.sweep->values[entry.point])
                           : OrderedJson(nullptr);
    j["variant"] = entry.variant_name;
    j["sign_holds"] = entry.sign_holds;
    j["flipped_by"] = entry.flipped_by;
    j["nominal_change_pct"] = number(entry.nominal_change_pct);
    j["pct"] = entry.pct;
    OrderedJson scaled = OrderedJson::array();
    for (const ScaledChange& s : entry.scaled) {
      scaled.push_back({{"param", s.param},
                        {"factor", s.factor},
                        {"change_pct", number(s.change_pct)},
                        {"sign_holds", s.sign_holds}});
    }
    j["scaled"] = std::move(scaled);
    out.push_back(std::move(j));
  }
  return out;
}

std::string RobustnessText(const Experiment& e,
                           const std::vector<RobustnessEntry>& entries,
                           double pct) {
  const std::vector<ScaledParam> params = RobustnessParams(e);
  std::vector<std::string> names;
  for (const ScaledParam& p : params) names.push_back(p.name());
  const int64_t runs = RobustnessRunCount(e);
  std::string out = absl::StrCat(
      "\nRobustness: each cost scaled by -", PctText(pct), "% and +",
      PctText(pct), "%, one at a time, the same seeds\n(", params.size(),
      params.size() == 1 ? " parameter, " : " parameters, ", runs,
      " more runs): does each difference keep its sign?\n");
  if (names.empty()) {
    absl::StrAppend(&out, "  no cost parameter to scale\n");
  } else {
    // The names, wrapped at 80 columns.
    std::string line = " ";
    for (size_t i = 0; i < names.size(); ++i) {
      const std::string word =
          absl::StrCat(names[i], i + 1 < names.size() ? "," : "");
      if (line.size() > 1 && line.size() + 1 + word.size() > 80) {
        absl::StrAppend(&out, line, "\n");
        line = " ";
      }
      absl::StrAppend(&line, " ", word);
    }
    absl::StrAppend(&out, line, "\n");
  }
  if (entries.empty()) {
    absl::StrAppend(&out, "  no variant to compare against the baseline\n");
    return out;
  }
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> verdicts;
  int fragile = 0;
  for (const RobustnessEntry& entry : entries) {
    const std::string label =
        e.sweep ? absl::StrCat(entry.metric, "-", entry.sweep_value)
                : entry.metric;
    std::string verdict = "robust";
    if (!entry.sign_holds) {
      ++fragile;
      verdict = absl::StrCat("fragile: flipped by ",
                             absl::StrJoin(entry.flipped_by, ", "));
    }
    rows.push_back({absl::StrCat("  ", label), entry.variant_name,
                    ChangeText(entry.nominal_change_pct)});
    verdicts.push_back(std::move(verdict));
  }
  // The verdicts, left-aligned after the aligned columns.
  const std::vector<std::string> lines =
      absl::StrSplit(AlignColumns(rows, 2, 2), '\n', absl::SkipEmpty());
  for (size_t i = 0; i < lines.size() && i < verdicts.size(); ++i) {
    absl::StrAppend(&out, lines[i], "  ", verdicts[i], "\n");
  }
  absl::StrAppend(&out, "  ", entries.size() - fragile, " of ", entries.size(),
                  " robust (the sign of the % difference holds under every "
                  "scaling)\n");
  return out;
}

}  // namespace schedsim::experiments
