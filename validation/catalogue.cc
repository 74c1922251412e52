// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "validation/catalogue.h"

#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"

namespace schedsim::validation {

// Defined in the generated catalogue_data.cc (BUILD: the genrule
// "catalogue_data").
extern const char kCatalogueJson[];
extern const char kFloorJson[];

const std::vector<Measure>& Measures() {
  static const auto* list = new std::vector<Measure>{
      {"c0_pct_busiest_cpu", "%",
       "the C0 residency of the run's busiest CPU, as turbostat's %c0 of the "
       "CPU a single-threaded server runs on"},
      {"c0_pct_mean", "%", "the C0 residency averaged over every CPU"},
      {"context_switches_per_s", "1/s", "context switches per second"},
      {"migrations_per_s", "1/s", "task migrations per second"},
  };
  return *list;
}

namespace {

using experiments::JsonElement;
using experiments::JsonField;
using experiments::JsonFileReader;
using Json = OrderedJson;

constexpr double kMaxValue = 1e15;
constexpr int64_t kMaxTierMs = 1000000000;

absl::StatusOr<Tier> ParseTier(const JsonFileReader& r, const Json& j,
                               const std::string& path) {
  SCHEDSIM_RETURN_IF_ERROR(r.ExpectObject(j, path, "a tier"));
  SCHEDSIM_RETURN_IF_ERROR(r.CheckKeys(
      j, path, {"iterations", "warmup_ms", "duration_ms"}, "a tier"));
  Tier t;
  for (const char* key : {"iterations", "warmup_ms", "duration_ms"}) {
    if (!j.contains(key)) {
      return r.Error(path, absl::StrCat("missing \"", key, "\""));
    }
  }
  SCHEDSIM_ASSIGN_OR_RETURN(
      int64_t it,
      r.Int(j["iterations"], JsonField(path, "iterations"), 1, 10000));
  t.iterations = static_cast<int>(it);
  SCHEDSIM_ASSIGN_OR_RETURN(
      t.warmup_ms,
      r.Int(j["warmup_ms"], JsonField(path, "warmup_ms"), 0, kMaxTierMs));
  SCHEDSIM_ASSIGN_OR_RETURN(
      t.duration_ms,
      r.Int(j["duration_ms"], JsonField(path, "duration_ms"), 1, kMaxTierMs));
  return t;
}

absl::StatusOr<ExperimentTemplate> ParseTemplate(const JsonFileReader& r,
                                                 const std::string& name,
                                                 const Json& j,
                                                 const std::string& path) {
  SCHEDSIM_RETURN_IF_ERROR(r.ExpectObject(j, path, "an experiment template"));
  SCHEDSIM_RETURN_IF_ERROR(
      r.CheckKeys(j, path,
                  {"description", "machine", "kernel", "workload", "policies",
                   "config", "variants", "sweep", "metric", "tiers"},
                  "an experiment template"));
  ExperimentTemplate t;
  t.name = name;
  for (const char* key : {"workload", "variants", "metric", "tiers"}) {
    if (!j.contains(key)) {
      return r.Error(path, absl::StrCat("missing \"", key, "\""));
    }
  }
  t.spec = Json::object();
  for (const auto& item : j.items()) {
    if (item.key() == "sweep" || item.key() == "metric" ||
        item.key() == "tiers") {
      continue;
    }
    t.spec[item.key()] = item.value();
  }
  if (j.contains("sweep")) {
    SCHEDSIM_ASSIGN_OR_RETURN(
        t.sweep, r.Name(j["sweep"], JsonField(path, "sweep"), "a parameter"));
  }
  SCHEDSIM_ASSIGN_OR_RETURN(
      t.metric, r.Name(j["metric"], JsonField(path, "metric"), "a metric"));
  const std::string tiers_path = JsonField(path, "tiers");
  const Json& tiers = j["tiers"];
  SCHEDSIM_RETURN_IF_ERROR(r.ExpectObject(tiers, tiers_path, "the tiers"));
  SCHEDSIM_RETURN_IF_ERROR(
      r.CheckKeys(tiers, tiers_path, {"quick", "full"}, "the tiers"));
  for (const char* key : {"quick", "full"}) {
    if (!tiers.contains(key)) {
      return r.Error(tiers_path, absl::StrCat("missing \"", key, "\""));
    }
  }
  SCHEDSIM_ASSIGN_OR_RETURN(
      t.quick, ParseTier(r, tiers["quick"], JsonField(tiers_path, "quick")));
  SCHEDSIM_ASSIGN_OR_RETURN(
      t.full, ParseTier(r, tiers["full"], JsonField(tiers_path, "full")));
  return t;
}

absl::StatusOr<Published> ParsePublished(const JsonFileReader& r, const Json& j,
                                         const std::string& path) {
  SCHEDSIM_RETURN_IF_ERROR(r.ExpectObject(j, path, "the published result"));
  SCHEDSIM_RETURN_IF_ERROR(r.CheckKeys(
      j, path,
      {"baseline", "variant", "unit", "higher_is_better", "change_pct",
       "report_pct", "statistic", "spread", "significant"},
      "the published result"));
  for (const char* key :
       {"baseline", "variant", "unit", "higher_is_better", "change_pct"}) {
    if (!j.contains(key)) {
      return r.Error(path, absl::StrCat("missing \"", key, "\""));
    }
  }
  Published p;
  SCHEDSIM_ASSIGN_OR_RETURN(
      p.baseline,
      r.Number(j["baseline"], JsonField(path, "baseline"), 0, kMaxValue));
  SCHEDSIM_ASSIGN_OR_RETURN(
      p.variant,
      r.Number(j["variant"], JsonField(path, "variant"), 0, kMaxValue));
  SCHEDSIM_ASSIGN_OR_RETURN(
      p.unit, r.Name(j["unit"], JsonField(path, "unit"), "a unit"));
  SCHEDSIM_ASSIGN_OR_RETURN(
      p.higher_is_better,
      r.Bool(j["higher_is_better"], JsonField(path, "higher_is_better")));
  SCHEDSIM_ASSIGN_OR_RETURN(
      p.change_pct,
      r.Number(j["change_pct"], JsonField(path, "change_pct"), -1e6, 1e6));
  if (j.contains("report_pct")) {
    SCHEDSIM_ASSIGN_OR_RETURN(
        double v,
        r.Number(j["report_pct"], JsonField(path, "report_pct"), -1e6, 1e6));
    p.report_pct = v;
  }
  if (j.contains("statistic")) {
    SCHEDSIM_ASSIGN_OR_RETURN(
        p.statistic, r.String(j["statistic"], JsonField(path, "statistic")));
  }
  if (j.contains("significant") && !j["significant"].is_null()) {
    SCHEDSIM_ASSIGN_OR_RETURN(
        bool s, r.Bool(j["significant"], JsonField(path, "significant")));
    p.significant = s;
  }
  if (j.contains("spread")) p.spread = j["spread"];
  return p;
}

absl::StatusOr<Row> ParseRow(const JsonFileReader& r, const Json& j,
                             const std::string& path,
                             const Catalogue& catalogue) {
  SCHEDSIM_RETURN_IF_ERROR(r.ExpectObject(j, path, "a row"));
  SCHEDSIM_RETURN_IF_ERROR(r.CheckKeys(
      j, path,
      {"id", "seed", "benchmark", "point", "source", "where", "note",
       "published", "not_expressible", "experiment", "machine", "params",
       "variant", "absolute", "absolute_reason", "measure"},
      "a row"));
  for (const char* key :
       {"id", "seed", "benchmark", "point", "where", "published"}) {
    if (!j.contains(key)) {
      return r.Error(path, absl::StrCat("missing \"", key, "\""));
    }
  }
  Row row;
  SCHEDSIM_ASSIGN_OR_RETURN(row.id,
                            r.Name(j["id"], JsonField(path, "id"), "an id"));
  SCHEDSIM_ASSIGN_OR_RETURN(
      row.seed, r.Name(j["seed"], JsonField(path, "seed"), "a seed number"));
  SCHEDSIM_ASSIGN_OR_RETURN(
      row.benchmark,
      r.Name(j["benchmark"], JsonField(path, "benchmark"), "a benchmark"));
  SCHEDSIM_ASSIGN_OR_RETURN(
      row.point, r.Name(j["point"], JsonField(path, "point"), "a point"));
  const std::string want_id =
      absl::StrCat(row.seed, "/", row.benchmark, "/", row.point);
  if (row.id != want_id) {
    return r.Error(
        JsonField(path, "id"),
        absl::StrCat("expected \"", want_id,
                     "\" (seed/benchmark/point), got \"", row.id, "\""));
  }
  if (!catalogue.sources.contains(row.seed)) {
    return r.Error(JsonField(path, "seed"),
                   absl::StrCat("no source \"", row.seed, "\" in \"sources\""));
  }
  SCHEDSIM_ASSIGN_OR_RETURN(row.where,
                            r.String(j["where"], JsonField(path, "where")));
  if (j.contains("note")) {
    SCHEDSIM_ASSIGN_OR_RETURN(row.note,
                              r.String(j["note"], JsonField(path, "note")));
  }
  SCHEDSIM_ASSIGN_OR_RETURN(
      row.published,
      ParsePublished(r, j["published"], JsonField(path, "published")));
  if (j.contains("measure")) {
    SCHEDSIM_ASSIGN_OR_RETURN(
        row.measure,
        r.Name(j["measure"], JsonField(path, "measure"), "a measure name"));
    std::vector<std::string> names;
    const Measure* m = nullptr;
    for (const Measure& x : Measures()) {
      names.push_back(x.name);
      if (row.measure == x.name) m = &x;
    }
    if (m == nullptr) {
      return r.Error(JsonField(path, "measure"),
                     absl::StrCat("unknown measure \"", row.measure,
                                  "\"; known: ", absl::StrJoin(names, ", ")));
    }
    if (row.published.unit != m->unit) {
      return r.Error(JsonField(path, "published.unit"),
                     absl::StrCat("measure \"", m->name, "\" is in \"", m->unit,
                                  "\", got \"", row.published.unit, "\""));
    }
  }
  if (j.contains("not_expressible")) {
    SCHEDSIM_ASSIGN_OR_RETURN(
        row.not_expressible,
        r.Name(j["not_expressible"], JsonField(path, "not_expressible"),
               "the reason the row cannot be expressed"));
    for (const char* key : {"experiment", "machine", "params", "variant"}) {
      if (j.contains(key)) {
        return r.Error(JsonField(path, key),
                       "a not_expressible row has no experiment settings");
      }
    }
    return row;
  }
  if (!j.contains("experiment")) {
    return r.Error(path,
                   "missing \"experiment\" (or \"not_expressible\" with the "
                   "reason)");
  }
  SCHEDSIM_ASSIGN_OR_RETURN(
      row.experiment,
      r.Name(j["experiment"], JsonField(path, "experiment"), "a template"));
  auto t = catalogue.experiments.find(row.experiment);
  if (t == catalogue.experiments.end()) {
    return r.Error(
        JsonField(path, "experiment"),
        absl::StrCat("no experiment template \"", row.experiment, "\""));
  }
  if (j.contains("machine")) {
    SCHEDSIM_ASSIGN_OR_RETURN(
        row.machine,
        r.Name(j["machine"], JsonField(path, "machine"), "a machine"));
  } else if (!t->second.spec.contains("machine")) {
    return r.Error(path, absl::StrCat("missing \"machine\" (template \"",
                                      row.experiment, "\" has none)"));
  }
  if (j.contains("params")) {
    SCHEDSIM_RETURN_IF_ERROR(r.ExpectObject(
        j["params"], JsonField(path, "params"), "workload parameters"));
    row.params = j["params"];
  }
  if (!t->second.sweep.empty() && !row.params.contains(t->second.sweep)) {
    return r.Error(
        JsonField(path, "params"),
        absl::StrCat("missing the swept parameter \"", t->second.sweep, "\""));
  }
  if (j.contains("variant")) {
    SCHEDSIM_ASSIGN_OR_RETURN(
        row.variant,
        r.Name(j["variant"], JsonField(path, "variant"), "a variant name"));
  }
  if (j.contains("absolute")) {
    SCHEDSIM_ASSIGN_OR_RETURN(
        row.absolute, r.Bool(j["absolute"], JsonField(path, "absolute")));
  }
  if (j.contains("absolute_reason")) {
    SCHEDSIM_ASSIGN_OR_RETURN(
        row.absolute_reason,
        r.String(j["absolute_reason"], JsonField(path, "absolute_reason")));
  }
  if (!row.absolute && row.absolute_reason.empty()) {
    return r.Error(path, "\"absolute\": false needs an \"absolute_reason\"");
  }
  return row;
}

// "mismatch_why": {"<seed>/<benchmark>" or "<row id>": "sentence"}. Each key
// must name at least one row, so a renamed row cannot leave a stale
// explanation behind.
absl::Status ApplyMismatchWhy(const JsonFileReader& r, const Json& j,
                              Catalogue* c) {
  SCHEDSIM_RETURN_IF_ERROR(r.ExpectObject(
      j, "mismatch_why", "explanations keyed by row id or seed/benchmark"));
  std::map<std::string, std::string> by_key;
  for (const auto& item : j.items()) {
    const std::string path = JsonField("mismatch_why", item.key());
    SCHEDSIM_ASSIGN_OR_RETURN(
        std::string why,
        r.Name(item.value(), path, "a sentence saying why the model misses"));
    bool found = false;
    for (const Row& row : c->rows) {
      if (row.id == item.key() ||
          absl::StrCat(row.seed, "/", row.benchmark) == item.key()) {
        found = true;
        break;
      }
    }
    if (!found) {
      return r.Error(path,
                     "names no row (expected a row id or "
                     "\"<seed>/<benchmark>\")");
    }
    by_key.emplace(item.key(), std::move(why));
  }
  for (Row& row : c->rows) {
    auto it = by_key.find(row.id);
    if (it == by_key.end()) {
      it = by_key.find(absl::StrCat(row.seed, "/", row.benchmark));
    }
    if (it != by_key.end()) row.mismatch_why = it->second;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Catalogue> ParseCatalogue(const std::string& text,
                                         const std::string& filename) {
  JsonFileReader r(filename);
  Json root;
  SCHEDSIM_RETURN_IF_ERROR(r.ParseText(text, &root));
  SCHEDSIM_RETURN_IF_ERROR(r.ExpectObject(root, "", "a catalogue"));
  SCHEDSIM_RETURN_IF_ERROR(r.CheckKeys(
      root, "", {"about", "sources", "experiments", "rows", "mismatch_why"},
      "a catalogue"));
  for (const char* key : {"sources", "experiments", "rows"}) {
    if (!root.contains(key)) {
      return r.Error("", absl::StrCat("missing \"", key, "\""));
    }
  }
  Catalogue c;
  c.filename = filename;
  SCHEDSIM_RETURN_IF_ERROR(
      r.ExpectObject(root["sources"], "sources", "the sources by seed"));
  c.sources = root["sources"];
  SCHEDSIM_RETURN_IF_ERROR(r.ExpectObject(root["experiments"], "experiments",
                                          "the experiment templates"));
  for (const auto& item : root["experiments"].items()) {
    SCHEDSIM_ASSIGN_OR_RETURN(
        ExperimentTemplate t,
        ParseTemplate(r, item.key(), item.value(),
                      JsonField("experiments", item.key())));
    c.experiments.emplace(item.key(), std::move(t));
  }
  SCHEDSIM_RETURN_IF_ERROR(r.ExpectArray(root["rows"], "rows", "the rows"));
  std::set<std::string> ids;
  for (size_t i = 0; i < root["rows"].size(); ++i) {
    const std::string path = JsonElement("rows", i);
    SCHEDSIM_ASSIGN_OR_RETURN(Row row, ParseRow(r, root["rows"][i], path, c));
    if (!ids.insert(row.id).second) {
      return r.Error(JsonField(path, "id"),
                     absl::StrCat("duplicate id \"", row.id, "\""));
    }
    c.rows.push_back(std::move(row));
  }
  if (root.contains("mismatch_why")) {
    SCHEDSIM_RETURN_IF_ERROR(ApplyMismatchWhy(r, root["mismatch_why"], &c));
  }
  return c;
}

absl::string_view BuiltinCatalogueText() { return kCatalogueJson; }
absl::string_view BuiltinFloorText() { return kFloorJson; }

absl::StatusOr<Catalogue> BuiltinCatalogue() {
  return ParseCatalogue(std::string(kCatalogueJson),
                        "validation/catalogue.json");
}

RowClass Classify(const Published& published) {
  const double a = std::fabs(published.change_pct);
  if (a > kDirectionalPct &&
      (!published.significant.has_value() || *published.significant)) {
    return RowClass::kDirectional;
  }
  if (a < kNeutralPct) return RowClass::kNeutral;
  return RowClass::kAmbiguous;
}

const char* RowClassName(RowClass c) {
  switch (c) {
    case RowClass::kDirectional:
      return "directional";
    case RowClass::kNeutral:
      return "neutral";
    case RowClass::kAmbiguous:
      return "ambiguous";
  }
  return "?";
}

}  // namespace schedsim::validation
