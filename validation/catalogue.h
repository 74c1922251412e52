// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The validation catalogue: every table row of the published reports that
// schedsim is judged against (validation/catalogue/*.json, one file per
// source, compiled into the program), each with the question it asks of the
// simulator.
//
// A row is one published comparison: a benchmark at one point (client
// count, group count, test) on one machine, a baseline kernel and a
// patched one, the two published values, their unit and direction, the
// published change in percent (positive = the patched kernel is better),
// and where the report gives them its spread and significance marker. A
// row that schedsim can express names an experiment template (an
// experiment file of docs/experiments.md without its sweep, iterations and
// durations) and the machine, workload parameters and variant it needs; a
// row that it cannot express yet says why (`not_expressible`), and stays in
// the catalogue as a row of the gap.
//
//   absl::StatusOr<Catalogue> c = BuiltinCatalogue();
//   for (const Row& row : c->rows) { ... row.id, row.published.change_pct }
//
// Rules the file follows (docs/validation.md): a row sets only what the
// published setup states (benchmark parameters, client or group counts,
// the policy or option under test, the machine), never a model cost; one
// parameter set per machine preset and per workload model serves every
// row.

#ifndef SCHEDSIM_VALIDATION_CATALOGUE_H_
#define SCHEDSIM_VALIDATION_CATALOGUE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "experiments/json_util.h"

namespace schedsim::validation {

using experiments::OrderedJson;

// What the report published for one row.
struct Published {
  double baseline = 0;
  double variant = 0;
  std::string unit;  // the benchmark's own: "ms", "tps", "s", "lps", ...
  bool higher_is_better = true;
  // Signed so that positive = the patched variant is better, as printed by
  // the report (mmtests' compare tables and AMD's "pct" columns already
  // are); computed from the values where the report's sign convention
  // differs (then `report_pct` keeps the printed figure).
  double change_pct = 0;
  std::optional<double> report_pct;
  std::string statistic;  // "Amean", "Hmean", "" when a single number
  // The report's significance marker for this row: true/false where the
  // report marks significance, unset where it does not.
  std::optional<bool> significant;
  // The published spread as given ({"kind", "baseline", "variant"}), or
  // null.
  OrderedJson spread;
};

struct Row {
  std::string id;         // "<seed3>/<benchmark>/<point>"
  std::string seed;       // "000"
  std::string benchmark;  // "pgbench-rw-ext4"
  std::string point;      // "4", "trans", "cpu_dma_latency=0"
  std::string where;      // the table and line of the report
  std::string note;
  Published published;
  // Non-empty: the row cannot be expressed yet, and why.
  std::string not_expressible;
  // The kernel version the report ran ("5.19"), for a row without a
  // template (an expressible row's is its template's "kernel").
  std::string kernel;
  // The experiment template, and what the row sets on it.
  std::string experiment;
  std::string machine;                         // "" = the template's
  OrderedJson params = OrderedJson::object();  // over the template's
  std::string variant;  // "" = the template's second variant
  // False when the published baseline is in a unit or measure the model
  // does not report (then no absolute ratio is computed), with the reason.
  bool absolute = true;
  std::string absolute_reason;
  // Why the model misses this row when its verdict is a mismatch or a
  // neutral disagreement: the catalogue's top-level "mismatch_why", keyed
  // by row id or by "<seed>/<benchmark>" (the row id wins). "" = none.
  std::string mismatch_why;
  // False: the row runs in the full tier only, outside its source's
  // quick-tier sample (docs/validation.md, "Tiers, seeds and statistics").
  bool quick = true;
  // A mechanism row (issue 46 #2): what the kernel measured rather than the
  // benchmark's score, read from each run's report instead of the
  // template's metric (kMeasures: "c0_pct_busiest_cpu", ...). "" = a
  // benchmark row. Scored by the same rules, counted on its own summary
  // line.
  std::string measure;
};

// The mechanism measures a row may name, each read from a run's report
// (experiments/reports.h RunReport): its name, unit and what it is.
struct Measure {
  const char* name;
  const char* unit;
  const char* what;
};
const std::vector<Measure>& Measures();

// Iterations and durations of one tier.
struct Tier {
  int iterations = 3;
  int64_t warmup_ms = 0;
  int64_t duration_ms = 0;
};

struct ExperimentTemplate {
  std::string name;
  // An experiment file's keys (description, machine, workload, policies,
  // config, variants); no sweep, iterations, seed or durations.
  OrderedJson spec;
  std::string sweep;   // the workload parameter the rows' points vary; ""
  std::string metric;  // the model's metric the rows compare
  Tier quick;
  Tier full;
};

struct Catalogue {
  // The file, or the directory or name of a catalogue of several files.
  std::string filename;
  // The catalogue as one document: a single file's text as given, several
  // files' merged into one (ParseCatalogue reads it back as the same
  // catalogue). What a `validate --shard` partial carries.
  std::string text;
  OrderedJson sources;  // seed -> {seed_file, subject, author, date, ...}
  std::map<std::string, ExperimentTemplate> experiments;
  std::vector<Row> rows;  // in the file's order
};

// Parses a catalogue. Errors name `filename` and the JSON path
// ("catalogue.json: rows[12].published.change_pct: expected a number").
// Templates are checked for shape here; whether they are valid experiments
// (known machines, models, policies) is checked when they are built
// (scoreboard.h), since that needs the registries.
absl::StatusOr<Catalogue> ParseCatalogue(const std::string& text,
                                         const std::string& filename);

// One file of a catalogue kept in several (validation/catalogue/: one file
// per source).
struct CatalogueFile {
  std::string name;  // what errors name
  std::string text;
};

// Parses the files as one catalogue, merged in the given order: each file
// has a catalogue's keys; its rows keep their order after the earlier
// files' rows; a row may name a template of any file and a "mismatch_why"
// key any file's rows. A source, template, row id or "mismatch_why" key in
// two files is an error naming both. Errors name the file and the JSON path
// in it. `name` becomes Catalogue::filename.
absl::StatusOr<Catalogue> ParseCatalogueFiles(
    const std::vector<CatalogueFile>& files, const std::string& name);

// A catalogue from `path`: a file, or a directory whose *.json files are
// merged in file-name order (byte order), as the built-in one is.
absl::StatusOr<Catalogue> ReadCatalogue(const std::string& path);

// validation/catalogue/*.json as compiled into the program, in file-name
// order, and the catalogue they make.
std::vector<CatalogueFile> BuiltinCatalogueFiles();
absl::StatusOr<Catalogue> BuiltinCatalogue();

// validation/floor.json as compiled into the program.
absl::string_view BuiltinFloorText();

// The rows the model cannot express (`only`: those whose id it matches;
// null = all), grouped by reason in catalogue order, each reason with its
// "<seed>/<benchmark>" tables and row counts: the model's to-do list, which
// `validate --list` ends with. "" when there are none.
std::string NotExpressibleList(const Catalogue& catalogue,
                               const std::regex* only);

// Whether `row` belongs to `tier` ("quick" or "full"): every row is in the
// full tier; the quick tier holds the rows with `quick` true.
bool InTier(const Row& row, const std::string& tier);

// How a row is scored (docs/validation.md): directional when |published
// change| > 5% and, where the report marks significance, significant;
// neutral when |published change| < 3%; ambiguous otherwise (shown, not
// scored).
enum class RowClass { kDirectional, kNeutral, kAmbiguous };
inline constexpr double kDirectionalPct = 5.0;
inline constexpr double kNeutralPct = 3.0;
RowClass Classify(const Published& published);
const char* RowClassName(RowClass c);

}  // namespace schedsim::validation

#endif  // SCHEDSIM_VALIDATION_CATALOGUE_H_
