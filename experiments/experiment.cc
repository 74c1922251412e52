// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/experiment.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <variant>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "experiments/builtin_registry.h"
#include "experiments/cost_model.h"
#include "experiments/policy_json.h"
#include "sim/rng.h"

namespace schedsim::experiments {
namespace {

using Json = OrderedJson;

const std::vector<std::string>& TopLevelKeys() {
  static const auto* keys = new std::vector<std::string>{
      "description", "machine", "sysfs", "hwloc", "power_model", "guest",
      "workload", "sweep", "variants", "iterations", "seed", "warmup_ms",
      "duration_ms", "config", "policies", "max_runs", "kernel", "settle",
      // IdleControlKeys()
      "idle_states_disabled", "max_cstate", "pm_qos_resume_latency_us", "idle",
      "acpi_c2_dummy_wait"};
  return *keys;
}

const std::vector<std::string>& VariantKeys() {
  static const auto* keys = new std::vector<std::string>{
      "name", "description", "cpufreq", "cpuidle", "placement", "config",
      "kernel",
      // IdleControlKeys()
      "idle_states_disabled", "max_cstate", "pm_qos_resume_latency_us", "idle",
      "acpi_c2_dummy_wait"};
  return *keys;
}

// The three policy families, as the file names them.
struct Family {
  const char* key;  // "cpufreq"
  platform::PolicyFamily family;
  PolicySpec Variant::*member;
};

const std::vector<Family>& Families() {
  static const auto* families = new std::vector<Family>{
      {"cpufreq", platform::PolicyFamily::kCpufreq, &Variant::cpufreq},
      {"cpuidle", platform::PolicyFamily::kCpuidle, &Variant::cpuidle},
      {"placement", platform::PolicyFamily::kPlacement, &Variant::placement},
  };
  return *families;
}

bool ValidVariantName(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '+' ||
              c == '-';
    if (!ok) return false;
  }
  return true;
}

class ExperimentParser {
 public:
  explicit ExperimentParser(std::string filename) : r_(std::move(filename)) {}

  absl::StatusOr<Experiment> Parse(const std::string& text);

 private:
  absl::Status Error(const std::string& path,
                     const std::string& message) const {
    return r_.Error(path, message);
  }

  // policy_json.h, reading through r_.
  absl::StatusOr<platform::ParamValue> TypedParam(
      const Json& j, const std::string& path, const platform::ParamSpec& spec,
      const std::string& owner) const {
    return TypedParamValue(r_, j, path, spec, owner);
  }
  absl::Status ParseParams(const Json& j, const std::string& path,
                           const std::vector<platform::ParamSpec>& specs,
                           const std::string& owner, ParamMap* out) const {
    return ParseParamValues(r_, j, path, specs, owner, out);
  }

  absl::Status ParseWorkload(const Json& j, Experiment& e) const;
  absl::Status ParseSweep(const Json& j, Experiment& e) const;
  absl::StatusOr<std::vector<platform::ParamValue>> SweepRange(
      const Json& j, const platform::ParamSpec& spec) const;
  absl::Status ParseVariants(const Json& root, const Variant& base,
                             Experiment& e) const;

  JsonFileReader r_;
};

absl::Status ExperimentParser::ParseWorkload(const Json& j,
                                             Experiment& e) const {
  SCHEDSIM_RETURN_IF_ERROR(
      r_.ExpectObject(j, "workload", "{\"model\": NAME, \"params\": {...}}"));
  SCHEDSIM_RETURN_IF_ERROR(
      r_.CheckKeys(j, "workload", {"model", "params"}, "\"workload\""));
  if (!j.contains("model")) {
    return Error("workload",
                 "missing \"model\" (the name of a workload model)");
  }
  SCHEDSIM_ASSIGN_OR_RETURN(
      std::string name,
      r_.Name(j["model"], "workload.model", "a workload model name"));
  const workloads::WorkloadRegistry& registry =
      workloads::WorkloadRegistry::Global();
  absl::StatusOr<const workloads::WorkloadModel*> model = registry.Lookup(name);
  if (!model.ok()) {
    std::vector<std::string> known;
    for (const workloads::WorkloadModel* m : registry.List()) {
      known.push_back(m->name);
    }
    if (known.empty()) {
      return Error("workload.model",
                   absl::StrCat("unknown workload model '", name,
                                "'; no workload models are linked into this "
                                "program"));
    }
    return Error("workload.model",
                 absl::StrCat("unknown workload model '", name, "'",
                              DidYouMean(name, known),
                              "; known models: ", absl::StrJoin(known, ", ")));
  }
  e.model = *model;
  if (j.contains("params")) {
    SCHEDSIM_RETURN_IF_ERROR(
        ParseParams(j["params"], "workload.params", e.model->params,
                    absl::StrCat("workload '", name, "'"), &e.params));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<platform::ParamValue>> ExperimentParser::SweepRange(
    const Json& j, const platform::ParamSpec& spec) const {
  const bool integer = std::holds_alternative<int64_t>(spec.default_value);
  if (!integer && !std::holds_alternative<double>(spec.default_value)) {
    return Error("sweep",
                 absl::StrCat("a range needs a numeric parameter; '", spec.name,
                              "' is ", TypeWithArticle(spec.default_value),
                              ": list its \"values\" instead"));
  }
  if (!j.contains("from") || !j.contains("to")) {
    return Error("sweep",
                 "a range needs both \"from\" and \"to\" (and \"step\" or "
                 "\"factor\")");
  }
  if (j.contains("step") == j.contains("factor")) {
    return Error("sweep",
                 "a range needs exactly one of \"step\" (add it each time) "
                 "and \"factor\" (multiply by it each time)");
  }
  const bool by_factor = j.contains("factor");
  const char* inc_key = by_factor ? "factor" : "step";
  const std::string too_many =
      absl::StrCat("the range has more than ", kMaxSweepPoints, " values");
  std::vector<platform::ParamValue> values;
  if (integer) {
    constexpr int64_t kLimit = int64_t{1} << 53;
    SCHEDSIM_ASSIGN_OR_RETURN(int64_t from,
                              r_.Int(j["from"], "sweep.from", -kLimit, kLimit));
    SCHEDSIM_ASSIGN_OR_RETURN(int64_t to,
                              r_.Int(j["to"], "sweep.to", -kLimit, kLimit));
    SCHEDSIM_ASSIGN_OR_RETURN(int64_t inc,
                              r_.Int(j[inc_key], JsonField("sweep", inc_key),
                                     by_factor ? 2 : 1, kLimit));
    if (from > to) {
      return Error("sweep", absl::StrCat("\"from\" (", from,
                                         ") is above \"to\" (", to, ")"));
    }
    if (by_factor && from <= 0) {
      return Error(
          "sweep.from",
          absl::StrCat("a range by \"factor\" starts above 0, got ", from));
    }
    for (int64_t v = from; v <= to;) {
      if (static_cast<int>(values.size()) == kMaxSweepPoints) {
        return Error("sweep", too_many);
      }
      values.emplace_back(v);
      if (by_factor) {
        if (v > to / inc) break;
        v *= inc;
      } else {
        if (v > to - inc) break;
        v += inc;
      }
    }
    return values;
  }
  constexpr double kLimit = 1e300;
  SCHEDSIM_ASSIGN_OR_RETURN(
      double from, r_.Number(j["from"], "sweep.from", -kLimit, kLimit));
  SCHEDSIM_ASSIGN_OR_RETURN(double to,
                            r_.Number(j["to"], "sweep.to", -kLimit, kLimit));
  SCHEDSIM_ASSIGN_OR_RETURN(double inc,
                            r_.Number(j[inc_key], JsonField("sweep", inc_key),
                                      by_factor ? 1 : 0, kLimit));
  if (inc == (by_factor ? 1.0 : 0.0)) {
    return Error(JsonField("sweep", inc_key), by_factor
                                                  ? "a factor must be above 1"
                                                  : "a step must be above 0");
  }
  if (from > to) {
    return Error("sweep", absl::StrCat("\"from\" (", from,
                                       ") is above \"to\" (", to, ")"));
  }
  if (by_factor && from <= 0) {
    return Error(
        "sweep.from",
        absl::StrCat("a range by \"factor\" starts above 0, got ", from));
  }
  // Values are computed from the index, not accumulated, so that 0.1 steps
  // do not drift; "to" is included despite rounding.
  const double slack = 1e-9 * std::max(std::fabs(to - from), std::fabs(to));
  for (int i = 0;; ++i) {
    double v = by_factor ? from * std::pow(inc, i) : from + inc * i;
    if (v > to + slack) break;
    if (i == kMaxSweepPoints) return Error("sweep", too_many);
    values.emplace_back(v);
  }
  return values;
}

absl::Status ExperimentParser::ParseSweep(const Json& j, Experiment& e) const {
  SCHEDSIM_RETURN_IF_ERROR(r_.ExpectObject(
      j, "sweep",
      "{\"param\": NAME, \"values\": [...]} or {\"param\": NAME, \"from\": "
      "A, \"to\": B, \"step\": S} or {..., \"factor\": F}"));
  SCHEDSIM_RETURN_IF_ERROR(r_.CheckKeys(
      j, "sweep", {"param", "values", "from", "to", "step", "factor"},
      "\"sweep\""));
  if (!j.contains("param")) {
    return Error("sweep", "missing \"param\" (the model parameter to vary)");
  }
  Sweep sweep;
  SCHEDSIM_ASSIGN_OR_RETURN(
      sweep.param, r_.Name(j["param"], "sweep.param", "a parameter name"));
  const std::string& model = e.model->name;
  const platform::ParamSpec* spec = nullptr;
  std::vector<std::string> known;
  for (const platform::ParamSpec& s : e.model->params) {
    known.push_back(s.name);
    if (s.name == sweep.param) spec = &s;
  }
  if (spec == nullptr) {
    return Error(
        "sweep.param",
        absl::StrCat("unknown parameter '", sweep.param, "'",
                     DidYouMean(sweep.param, known), "; workload '", model,
                     known.empty() ? "' has no parameters"
                                   : absl::StrCat("' has the parameters ",
                                                  absl::StrJoin(known, ", "))));
  }
  if (e.params.count(sweep.param)) {
    return Error(JsonField("workload.params", sweep.param),
                 absl::StrCat("'", sweep.param,
                              "' is swept (\"sweep\"); give its values there "
                              "only"));
  }
  const bool listed = j.contains("values");
  const bool ranged = j.contains("from") || j.contains("to") ||
                      j.contains("step") || j.contains("factor");
  if (listed == ranged) {
    return Error("sweep",
                 "give either \"values\" (a list) or a range (\"from\", "
                 "\"to\" and \"step\" or \"factor\")");
  }
  if (listed) {
    const Json& values = j["values"];
    SCHEDSIM_RETURN_IF_ERROR(r_.ExpectArray(
        values, "sweep.values", absl::StrCat("values of '", sweep.param, "'")));
    if (values.empty()) return Error("sweep.values", "the list is empty");
    if (values.size() > static_cast<size_t>(kMaxSweepPoints)) {
      return Error("sweep.values",
                   absl::StrCat("more than ", kMaxSweepPoints, " values"));
    }
    const std::string owner = absl::StrCat("workload '", model, "'");
    for (size_t i = 0; i < values.size(); ++i) {
      const std::string path = JsonElement("sweep.values", i);
      SCHEDSIM_ASSIGN_OR_RETURN(platform::ParamValue v,
                                TypedParam(values[i], path, *spec, owner));
      for (size_t k = 0; k < sweep.values.size(); ++k) {
        if (sweep.values[k] == v) {
          return Error(path, absl::StrCat(platform::ParamValueText(v),
                                          " is already swept at ",
                                          JsonElement("sweep.values", k)));
        }
      }
      sweep.values.push_back(std::move(v));
    }
  } else {
    SCHEDSIM_ASSIGN_OR_RETURN(sweep.values, SweepRange(j, *spec));
  }
  e.sweep = std::move(sweep);
  return absl::OkStatus();
}

absl::Status ExperimentParser::ParseVariants(const Json& root,
                                             const Variant& base,
                                             Experiment& e) const {
  const Json& j = root["variants"];
  const bool root_names_placement =
      root.contains("policies") && root["policies"].contains("placement");
  SCHEDSIM_RETURN_IF_ERROR(r_.ExpectArray(
      j, "variants", "the variants compared, the baseline first"));
  if (j.empty()) {
    return Error("variants",
                 "the list is empty; give at least the baseline, e.g. "
                 "[{\"name\": \"baseline\"}]");
  }
  if (j.size() > static_cast<size_t>(kMaxVariants)) {
    return Error("variants",
                 absl::StrCat("more than ", kMaxVariants, " variants"));
  }
  for (size_t i = 0; i < j.size(); ++i) {
    const std::string path = JsonElement("variants", i);
    const Json& v = j[i];
    SCHEDSIM_RETURN_IF_ERROR(r_.ExpectObject(v, path, "a variant"));
    SCHEDSIM_RETURN_IF_ERROR(r_.CheckKeys(v, path, VariantKeys(), "a variant"));
    if (!v.contains("name")) {
      return Error(path, "missing \"name\" (the variant's name in the tables)");
    }
    Variant variant = base;
    const std::string name_path = JsonField(path, "name");
    SCHEDSIM_ASSIGN_OR_RETURN(variant.name,
                              r_.Name(v["name"], name_path, "a variant name"));
    if (!ValidVariantName(variant.name)) {
      return Error(name_path,
                   absl::StrCat("'", variant.name,
                                "' is not a variant name: use 1 to 64 "
                                "letters, digits, '.', '_', '+' or '-'"));
    }
    for (size_t k = 0; k < e.variants.size(); ++k) {
      if (e.variants[k].name == variant.name) {
        return Error(name_path, absl::StrCat("variant '", variant.name,
                                             "' is already defined at ",
                                             JsonElement("variants", k)));
      }
    }
    if (v.contains("description")) {
      SCHEDSIM_ASSIGN_OR_RETURN(
          variant.description,
          r_.String(v["description"], JsonField(path, "description")));
    }
    if (v.contains("kernel")) {
      // Its own kernel: the defaults, that kernel's switches and the
      // file's "config" (the variant's follows below), and that kernel's
      // idle-CPU search unless the file names one.
      SCHEDSIM_ASSIGN_OR_RETURN(
          sim::KernelVersion kv,
          r_.Kernel(v["kernel"], JsonField(path, "kernel")));
      variant.kernel = kv.ToString();
      variant.config = sim::SimConfig{};
      sim::ApplyKernel(kv, &variant.config);
      if (root.contains("config")) {
        SCHEDSIM_RETURN_IF_ERROR(
            r_.ApplySimConfig(root["config"], "config", &variant.config));
      }
      if (!root_names_placement) {
        variant.placement = PolicySpec{sim::KernelPlacementPolicy(kv), {}};
      }
    }
    for (const Family& f : Families()) {
      if (!v.contains(f.key)) continue;
      SCHEDSIM_ASSIGN_OR_RETURN(
          variant.*f.member,
          ParsePolicyChoice(r_, v[f.key], JsonField(path, f.key), f.family,
                            base.*f.member));
    }
    if (v.contains("config")) {
      const std::string config_path = JsonField(path, "config");
      SCHEDSIM_RETURN_IF_ERROR(
          r_.ApplySimConfig(v["config"], config_path, &variant.config));
      for (const auto& item : v["config"].items()) {
        variant.config_overrides[item.key()] = item.value();
      }
    }
    SCHEDSIM_RETURN_IF_ERROR(ParseIdleControl(r_, v, path, &variant.idle));
    e.variants.push_back(std::move(variant));
  }
  return absl::OkStatus();
}

absl::StatusOr<Experiment> ExperimentParser::Parse(const std::string& text) {
  Json root;
  SCHEDSIM_RETURN_IF_ERROR(r_.ParseText(text, &root));
  if (!root.is_object()) {
    return Error("", absl::StrCat("expected an object of experiment keys at "
                                  "the top level, got ",
                                  ShowJson(root)));
  }
  SCHEDSIM_RETURN_IF_ERROR(
      r_.CheckKeys(root, "", TopLevelKeys(), "an experiment"));
  Experiment e;
  e.filename = r_.filename();
  if (root.contains("description")) {
    SCHEDSIM_ASSIGN_OR_RETURN(e.description,
                              r_.String(root["description"], "description"));
  }
  SCHEDSIM_ASSIGN_OR_RETURN(e.machine, r_.Machine(root));
  if (!root.contains("workload")) {
    return Error("",
                 "missing \"workload\" ({\"model\": NAME, \"params\": {...}}: "
                 "the workload model to run)");
  }
  SCHEDSIM_RETURN_IF_ERROR(ParseWorkload(root["workload"], e));
  if (root.contains("sweep")) {
    SCHEDSIM_RETURN_IF_ERROR(ParseSweep(root["sweep"], e));
  }
  if (!root.contains("duration_ms")) {
    return Error("",
                 "missing \"duration_ms\" (the simulated time to measure per "
                 "run, in milliseconds)");
  }
  SCHEDSIM_ASSIGN_OR_RETURN(
      e.duration_ms,
      r_.Int(root["duration_ms"], "duration_ms", 1, kMaxExperimentDurationMs));
  if (root.contains("warmup_ms")) {
    SCHEDSIM_ASSIGN_OR_RETURN(
        e.warmup_ms,
        r_.Int(root["warmup_ms"], "warmup_ms", 0, kMaxExperimentDurationMs));
  }
  if (root.contains("iterations")) {
    SCHEDSIM_ASSIGN_OR_RETURN(
        int64_t n, r_.Int(root["iterations"], "iterations", 1, kMaxIterations));
    e.iterations = static_cast<int>(n);
  }
  if (root.contains("seed")) {
    SCHEDSIM_ASSIGN_OR_RETURN(e.seed, r_.Seed(root["seed"], "seed"));
  }
  if (root.contains("max_runs")) {
    SCHEDSIM_ASSIGN_OR_RETURN(
        e.max_runs, r_.Int(root["max_runs"], "max_runs", 1, kMaxMaxRuns));
  }
  if (root.contains("settle")) {
    // false: the full length; true or an object: stop when settled.
    const Json& s = root["settle"];
    if (s.is_boolean()) {
      e.fixed_length = !s.get<bool>();
    } else if (s.is_object()) {
      SCHEDSIM_RETURN_IF_ERROR(r_.CheckKeys(
          s, "settle", {"batch_ms", "min_batches", "precision_pct"},
          "a settle rule"));
      if (s.contains("batch_ms")) {
        SCHEDSIM_ASSIGN_OR_RETURN(
            e.settle.batch_ms,
            r_.Int(s["batch_ms"], "settle.batch_ms", 1, 1000000));
      }
      if (s.contains("min_batches")) {
        SCHEDSIM_ASSIGN_OR_RETURN(
            int64_t n,
            r_.Int(s["min_batches"], "settle.min_batches", 10, 1000000));
        e.settle.min_batches = static_cast<int>(n);
      }
      if (s.contains("precision_pct")) {
        SCHEDSIM_ASSIGN_OR_RETURN(
            double pct,
            r_.Number(s["precision_pct"], "settle.precision_pct", 0.01, 50));
        e.settle.precision = pct / 100;
      }
    } else {
      return Error("settle",
                   absl::StrCat("expected true, false or {\"batch_ms\", "
                                "\"min_batches\", \"precision_pct\"}, got ",
                                ShowJson(s)));
    }
  }

  // What every variant starts from: the defaults, then the file's
  // "config" and "policies".
  Variant base;
  base.cpuidle.name =
      e.machine.guest_vcpus > 0 ? kGuestIdleGovernor : kDefaultIdleGovernor;
  base.placement.name = kDefaultPlacementPolicy;
  if (root.contains("kernel")) {
    // The kernel's switches first, so that "config" overrides one as a
    // sched_feat toggle does; its idle-CPU search unless "policies" names
    // one.
    SCHEDSIM_ASSIGN_OR_RETURN(sim::KernelVersion kv,
                              r_.Kernel(root["kernel"], "kernel"));
    base.kernel = kv.ToString();
    sim::ApplyKernel(kv, &base.config);
    base.placement.name = sim::KernelPlacementPolicy(kv);
  }
  if (root.contains("config")) {
    SCHEDSIM_RETURN_IF_ERROR(
        r_.ApplySimConfig(root["config"], "config", &base.config));
    for (const auto& item : root["config"].items()) {
      base.config_overrides[item.key()] = item.value();
    }
  }
  if (root.contains("policies")) {
    const Json& p = root["policies"];
    SCHEDSIM_RETURN_IF_ERROR(r_.ExpectObject(
        p, "policies", "the policies every variant starts from"));
    SCHEDSIM_RETURN_IF_ERROR(r_.CheckKeys(
        p, "policies", {"cpufreq", "cpuidle", "placement"}, "\"policies\""));
    for (const Family& f : Families()) {
      if (!p.contains(f.key)) continue;
      SCHEDSIM_ASSIGN_OR_RETURN(
          base.*f.member,
          ParsePolicyChoice(r_, p[f.key], JsonField("policies", f.key),
                            f.family, base.*f.member));
    }
  }
  SCHEDSIM_RETURN_IF_ERROR(ParseIdleControl(r_, root, "", &base.idle));
  if (!root.contains("variants")) {
    return Error("",
                 "missing \"variants\" (the configurations to compare, the "
                 "baseline first)");
  }
  SCHEDSIM_RETURN_IF_ERROR(ParseVariants(root, base, e));
  return e;
}

}  // namespace

std::string Experiment::PointValue(int point) const {
  if (!sweep) return "";
  return platform::ParamValueText(sweep->values[point]);
}

std::string Experiment::PointName(int point) const {
  if (!sweep) return "";
  return absl::StrCat(sweep->param, "=", PointValue(point));
}

absl::StatusOr<platform::Params> Experiment::PointParams(int point) const {
  ParamMap given = params;
  if (sweep) given[sweep->param] = sweep->values[point];
  absl::StatusOr<platform::Params> resolved =
      workloads::WorkloadRegistry::Global().ResolveParams(*model, given);
  if (!resolved.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(filename, ": workload: ", resolved.status().message()));
  }
  return resolved;
}

uint64_t Experiment::IterationSeed(int iteration) const {
  return sim::DeriveSeed(seed, static_cast<uint64_t>(iteration));
}

absl::StatusOr<Experiment> ParseExperiment(const std::string& json_text,
                                           const std::string& filename) {
  return ExperimentParser(filename).Parse(json_text);
}

namespace {

std::string MemoryText(double bytes) {
  if (bytes < 1e9) return absl::StrFormat("%.0f MB", std::ceil(bytes / 1e6));
  if (bytes < 1e12) return absl::StrFormat("%.1f GB", bytes / 1e9);
  return absl::StrFormat("%.1f TB", bytes / 1e12);
}

double PhysicalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<double>(pages) * static_cast<double>(page);
}

}  // namespace

std::string CostEstimate::Text() const {
  const auto wall = [](double s) {
    if (s < 10) return absl::StrFormat("%.1f s", s);
    if (s < 120) return absl::StrFormat("%.0f s", s);
    if (s < 7200) return absl::StrFormat("%.0f min", s / 60);
    if (s < 172800) return absl::StrFormat("%.1f h", s / 3600);
    return absl::StrFormat("%.1f days", s / 86400);
  };
  return absl::StrFormat(
      "%d runs, %.6g simulated s (%.6g simulated CPU-s), about %s of wall "
      "time on %d job%s, about %s of memory for the results",
      runs, simulated_s, simulated_cpu_s, wall(wall_s), jobs,
      jobs == 1 ? "" : "s", MemoryText(memory_bytes));
}

CostEstimate EstimateCost(const Experiment& e, int64_t runs, int num_cpus,
                          int jobs, const std::vector<double>& run_wall_s) {
  CostEstimate c;
  c.runs = runs;
  c.simulated_s = static_cast<double>(runs) *
                  static_cast<double>(e.warmup_ms + e.duration_ms) / 1e3;
  c.simulated_cpu_s = c.simulated_s * std::max(num_cpus, 1);
  c.jobs = static_cast<int>(
      std::max<int64_t>(1, std::min<int64_t>(std::max(jobs, 1), runs)));
  if (run_wall_s.empty()) {
    // Every CPU occupied, at the largest measured rate (cost_model.h).
    c.wall_s = c.simulated_cpu_s *
               WallSecondsPerOccupiedCpuSecond(
                   e.model != nullptr ? e.model->name : "", num_cpus) /
               c.jobs;
  } else {
    // The runs' own costs, `runs` / their number passes of them, on the
    // jobs largest first.
    const int64_t passes =
        std::max<int64_t>(1, runs / static_cast<int64_t>(run_wall_s.size()));
    if (passes * static_cast<int64_t>(run_wall_s.size()) > 1000000) {
      double one = 0;
      for (double s : run_wall_s) one += s;
      c.wall_s = one * static_cast<double>(passes) / c.jobs;
    } else {
      std::vector<double> all;
      for (int64_t p = 0; p < passes; ++p) {
        all.insert(all.end(), run_wall_s.begin(), run_wall_s.end());
      }
      c.wall_s = Makespan(all, c.jobs);
    }
  }
  c.memory_bytes =
      static_cast<double>(runs) *
      static_cast<double>(kResultBytesPerRun +
                          kResultBytesPerRunPerCpu * std::max(num_cpus, 1));
  c.memory_limit_bytes = kMaxResultMemoryShare * PhysicalMemoryBytes();
  return c;
}

absl::Status CheckCost(const Experiment& e, const CostEstimate& cost,
                       bool yes) {
  if (!yes) {
    const int64_t max_runs = e.max_runs > 0 ? e.max_runs : kDefaultMaxRuns;
    if (cost.runs > max_runs) {
      return absl::FailedPreconditionError(absl::StrCat(
          e.filename, ": ", cost.Text(), ": more than the limit of ", max_runs,
          " runs", e.max_runs > 0 ? " (the file's \"max_runs\")" : "",
          "; raise \"max_runs\" in the file or pass --yes to run it anyway"));
    }
    if (cost.wall_s > kMaxWallSecondsWithoutYes) {
      return absl::FailedPreconditionError(absl::StrCat(
          e.filename, ": ", cost.Text(), ": more than the limit of ",
          kMaxWallSecondsWithoutYes / 3600,
          " hours of estimated wall time; pass --yes to run it anyway"));
    }
  }
  if (cost.memory_limit_bytes > 0 &&
      cost.memory_bytes > cost.memory_limit_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        e.filename, ": ", cost.Text(), ": more than ",
        MemoryText(cost.memory_limit_bytes),
        ", half of this machine's memory, which --yes does not lift; split "
        "the runs with --shard=I/N and `schedsim merge` (docs/scale-out.md) "
        "or run fewer"));
  }
  return absl::OkStatus();
}

absl::StatusOr<Experiment> LoadExperimentFile(const std::string& path) {
  SCHEDSIM_ASSIGN_OR_RETURN(std::string text,
                            ReadFileText(path, "experiment file"));
  return ParseExperiment(text, path);
}

PolicySpec ResolvedCpufreq(const PolicySpec& spec,
                           const topology::Topology& machine, bool hwp) {
  if (!spec.name.empty()) return spec;
  PolicySpec resolved;
  resolved.name = DefaultFreqGovernor(machine, hwp);
  return resolved;
}

OrderedJson ParamValueJson(const platform::ParamValue& value) {
  if (const bool* b = std::get_if<bool>(&value)) return *b;
  if (const int64_t* i = std::get_if<int64_t>(&value)) return *i;
  if (const double* d = std::get_if<double>(&value)) return *d;
  return std::get<std::string>(value);
}

OrderedJson ParamMapJson(const ParamMap& params) {
  OrderedJson j = OrderedJson::object();
  for (const auto& [name, value] : params) j[name] = ParamValueJson(value);
  return j;
}

}  // namespace schedsim::experiments
