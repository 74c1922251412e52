// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "validation/catalogue.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
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
struct CatalogueFileData {
  const char* name;
  const char* text;
};
extern const CatalogueFileData kCatalogueFiles[];
extern const int kCatalogueFileCount;
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
                   "config", "settle", "variants", "sweep", "metric", "tiers"},
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
       "variant", "absolute", "absolute_reason", "quick", "kernel", "measure"},
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
  if (j.contains("kernel")) {
    SCHEDSIM_ASSIGN_OR_RETURN(
        row.kernel,
        r.Name(j["kernel"], JsonField(path, "kernel"), "a kernel version"));
  }
  if (j.contains("quick")) {
    SCHEDSIM_ASSIGN_OR_RETURN(row.quick,
                              r.Bool(j["quick"], JsonField(path, "quick")));
  }
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
// must name at least one row of the whole catalogue, so a renamed row cannot
// leave a stale explanation behind, and only one file may explain a key.
absl::Status CollectMismatchWhy(const JsonFileReader& r, const Json& j,
                                const Catalogue& c,
                                std::map<std::string, std::string>* by_key,
                                std::map<std::string, std::string>* key_file) {
  SCHEDSIM_RETURN_IF_ERROR(r.ExpectObject(
      j, "mismatch_why", "explanations keyed by row id or seed/benchmark"));
  for (const auto& item : j.items()) {
    const std::string path = JsonField("mismatch_why", item.key());
    SCHEDSIM_ASSIGN_OR_RETURN(
        std::string why,
        r.Name(item.value(), path, "a sentence saying why the model misses"));
    bool found = false;
    for (const Row& row : c.rows) {
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
    auto [it, inserted] = key_file->emplace(item.key(), r.filename());
    if (!inserted) {
      return r.Error(path, absl::StrCat("already explained in ", it->second));
    }
    by_key->emplace(item.key(), std::move(why));
  }
  return absl::OkStatus();
}

void ApplyMismatchWhy(const std::map<std::string, std::string>& by_key,
                      Catalogue* c) {
  for (Row& row : c->rows) {
    auto it = by_key.find(row.id);
    if (it == by_key.end()) {
      it = by_key.find(absl::StrCat(row.seed, "/", row.benchmark));
    }
    if (it != by_key.end()) row.mismatch_why = it->second;
  }
}

// One file of the catalogue, parsed as JSON, with its reader (which names
// the file in errors).
struct LoadedFile {
  JsonFileReader reader;
  Json root;
};

}  // namespace

absl::StatusOr<Catalogue> ParseCatalogueFiles(
    const std::vector<CatalogueFile>& files, const std::string& name) {
  if (files.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": no catalogue files (expected *.json)"));
  }
  Catalogue c;
  c.filename = name;
  c.sources = Json::object();
  std::vector<LoadedFile> loaded;
  loaded.reserve(files.size());
  // Where each source and template came from, for duplicate errors.
  std::map<std::string, std::string> source_file;
  std::map<std::string, std::string> template_file;
  // The one document the files make (Catalogue::text).
  Json about;
  Json merged_experiments = Json::object();
  Json merged_rows = Json::array();
  Json merged_why = Json::object();
  // Pass 1: every file's sources and templates, so that a row may name a
  // template of another file.
  for (const CatalogueFile& f : files) {
    loaded.push_back({JsonFileReader(f.name), Json()});
    const JsonFileReader& r = loaded.back().reader;
    Json& root = loaded.back().root;
    SCHEDSIM_RETURN_IF_ERROR(r.ParseText(f.text, &root));
    SCHEDSIM_RETURN_IF_ERROR(r.ExpectObject(root, "", "a catalogue"));
    SCHEDSIM_RETURN_IF_ERROR(r.CheckKeys(
        root, "", {"about", "sources", "experiments", "rows", "mismatch_why"},
        "a catalogue"));
    for (const char* key : {"sources", "experiments", "rows"}) {
      if (!root.contains(key)) {
        return r.Error("", absl::StrCat("missing \"", key, "\""));
      }
    }
    if (root.contains("about") && about.is_null()) about = root["about"];
    SCHEDSIM_RETURN_IF_ERROR(
        r.ExpectObject(root["sources"], "sources", "the sources by seed"));
    for (const auto& item : root["sources"].items()) {
      auto [it, inserted] = source_file.emplace(item.key(), f.name);
      if (!inserted) {
        return r.Error(JsonField("sources", item.key()),
                       absl::StrCat("source \"", item.key(),
                                    "\" is already in ", it->second));
      }
      c.sources[item.key()] = item.value();
    }
    SCHEDSIM_RETURN_IF_ERROR(r.ExpectObject(root["experiments"], "experiments",
                                            "the experiment templates"));
    for (const auto& item : root["experiments"].items()) {
      const std::string path = JsonField("experiments", item.key());
      auto [it, inserted] = template_file.emplace(item.key(), f.name);
      if (!inserted) {
        return r.Error(path, absl::StrCat("template \"", item.key(),
                                          "\" is already in ", it->second));
      }
      SCHEDSIM_ASSIGN_OR_RETURN(
          ExperimentTemplate t,
          ParseTemplate(r, item.key(), item.value(), path));
      c.experiments.emplace(item.key(), std::move(t));
      merged_experiments[item.key()] = item.value();
    }
    SCHEDSIM_RETURN_IF_ERROR(r.ExpectArray(root["rows"], "rows", "the rows"));
  }
  // Pass 2: the rows, in file order.
  std::map<std::string, std::string> id_file;
  for (const LoadedFile& f : loaded) {
    const Json& rows = f.root["rows"];
    for (size_t i = 0; i < rows.size(); ++i) {
      const std::string path = JsonElement("rows", i);
      SCHEDSIM_ASSIGN_OR_RETURN(Row row, ParseRow(f.reader, rows[i], path, c));
      auto [it, inserted] = id_file.emplace(row.id, f.reader.filename());
      if (!inserted) {
        return f.reader.Error(
            JsonField(path, "id"),
            absl::StrCat("duplicate id \"", row.id, "\"",
                         it->second == f.reader.filename()
                             ? std::string()
                             : absl::StrCat(" (also in ", it->second, ")")));
      }
      c.rows.push_back(std::move(row));
      merged_rows.push_back(rows[i]);
    }
  }
  // Pass 3: the explanations, which may name any file's rows.
  std::map<std::string, std::string> by_key;
  std::map<std::string, std::string> key_file;
  for (const LoadedFile& f : loaded) {
    if (!f.root.contains("mismatch_why")) continue;
    SCHEDSIM_RETURN_IF_ERROR(CollectMismatchWhy(
        f.reader, f.root["mismatch_why"], c, &by_key, &key_file));
    for (const auto& item : f.root["mismatch_why"].items()) {
      merged_why[item.key()] = item.value();
    }
  }
  ApplyMismatchWhy(by_key, &c);
  // One file is carried as it is; several as the one document they make,
  // which ParseCatalogue reads back as the same catalogue.
  if (files.size() == 1) {
    c.text = files[0].text;
  } else {
    Json merged = Json::object();
    if (!about.is_null()) merged["about"] = about;
    merged["sources"] = c.sources;
    merged["experiments"] = merged_experiments;
    merged["rows"] = merged_rows;
    if (!merged_why.empty()) merged["mismatch_why"] = merged_why;
    c.text = merged.dump(1) + "\n";
  }
  return c;
}

absl::StatusOr<Catalogue> ParseCatalogue(const std::string& text,
                                         const std::string& filename) {
  return ParseCatalogueFiles({{filename, text}}, filename);
}

absl::StatusOr<Catalogue> ReadCatalogue(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec)) {
    SCHEDSIM_ASSIGN_OR_RETURN(
        std::string text, experiments::ReadFileText(path, "catalogue file"));
    return ParseCatalogue(text, path);
  }
  std::vector<std::string> names;
  for (std::filesystem::directory_iterator it(path, ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::filesystem::path& p = it->path();
    if (p.extension() == ".json") names.push_back(p.filename().string());
  }
  if (ec) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": cannot list the directory: ", ec.message()));
  }
  std::sort(names.begin(), names.end());
  std::vector<CatalogueFile> files;
  for (const std::string& n : names) {
    const std::string file = (std::filesystem::path(path) / n).string();
    SCHEDSIM_ASSIGN_OR_RETURN(
        std::string text, experiments::ReadFileText(file, "catalogue file"));
    files.push_back({file, std::move(text)});
  }
  return ParseCatalogueFiles(files, path);
}

std::vector<CatalogueFile> BuiltinCatalogueFiles() {
  std::vector<CatalogueFile> files;
  for (int i = 0; i < kCatalogueFileCount; ++i) {
    files.push_back({kCatalogueFiles[i].name, kCatalogueFiles[i].text});
  }
  return files;
}

absl::string_view BuiltinFloorText() { return kFloorJson; }

absl::StatusOr<Catalogue> BuiltinCatalogue() {
  return ParseCatalogueFiles(BuiltinCatalogueFiles(), "validation/catalogue");
}

std::string NotExpressibleList(const Catalogue& catalogue,
                               const std::regex* only) {
  // reason -> ("<seed>/<benchmark>", rows), both in catalogue order.
  std::vector<std::pair<std::string, std::vector<std::pair<std::string, int>>>>
      reasons;
  int total = 0;
  for (const Row& row : catalogue.rows) {
    if (row.not_expressible.empty()) continue;
    if (only != nullptr && !std::regex_search(row.id, *only)) continue;
    ++total;
    auto r = std::find_if(reasons.begin(), reasons.end(), [&](const auto& x) {
      return x.first == row.not_expressible;
    });
    if (r == reasons.end()) {
      reasons.push_back({row.not_expressible, {}});
      r = reasons.end() - 1;
    }
    const std::string table = absl::StrCat(row.seed, "/", row.benchmark);
    auto t = std::find_if(r->second.begin(), r->second.end(),
                          [&](const auto& x) { return x.first == table; });
    if (t == r->second.end()) {
      r->second.push_back({table, 1});
    } else {
      ++t->second;
    }
  }
  if (total == 0) return "";
  std::string out =
      absl::StrCat("not expressible: ", total, " rows, ", reasons.size(),
                   " reasons (the model's to-do list)\n");
  for (const auto& [reason, tables] : reasons) {
    std::vector<std::string> parts;
    for (const auto& [table, n] : tables) {
      parts.push_back(absl::StrCat(table, " (", n, ")"));
    }
    absl::StrAppend(&out, "- ", reason, "\n    ", absl::StrJoin(parts, ", "),
                    "\n");
  }
  return out;
}

bool InTier(const Row& row, const std::string& tier) {
  return tier != "quick" || row.quick;
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
