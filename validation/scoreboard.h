// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Scoring the catalogue's rows (catalogue.h) against simulated results, the
// summary, the committed floor, and the scoreboard as a table, JSON and
// markdown (docs/validation.md).
//
//   ScoredRow s = ScoreRow(row, simulated);   // verdict, ratios
//   Summary sum = Summarize(scored);
//   std::cout << ScoreboardTable(scored, sum);
//
// The rules (docs/validation.md, "Verdicts"):
// - a directional row (Classify) `match`es when the simulated change has
//   the published sign and at least max(1%, a fifth of the published size);
//   otherwise `mismatch`;
// - a neutral row is `neutral-agree` when |simulated change| < 5% or the
//   simulated difference is not significant (p >= 0.05); without a p-value
//   (identical iterations) only the size counts; otherwise
//   `neutral-disagree`;
// - an ambiguous row (3% <= |published| <= 5%, or beyond 5% but marked not
//   significant) gets the directional verdict but is not scored;
// - a row the model cannot express is `not-expressible`; it counts in its
//   class's total, never as a success.
// The size ratio is simulated / published change (within 2x: 0.5..2); the
// absolute ratio is simulated baseline / published baseline in the
// benchmark's unit (within 1.5x: 1/1.5..1.5), for rows whose published
// baseline is in a measure the model reports.

#ifndef SCHEDSIM_VALIDATION_SCOREBOARD_H_
#define SCHEDSIM_VALIDATION_SCOREBOARD_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "experiments/json_util.h"
#include "validation/catalogue.h"

namespace schedsim::validation {

// What the simulator gave for a row: the mean (of the kind the metric
// declares) of the baseline and of the variant over the iterations, the
// change signed better-is-positive, Welch's p (NaN when there is no test:
// fewer than 2 iterations or no spread) and the CoeffVars.
struct Simulated {
  double baseline = 0;
  double variant = 0;
  double change_pct = 0;
  double p_value = 0;
  double coeffvar_baseline_pct = 0;
  double coeffvar_variant_pct = 0;
  int iterations = 0;
  // Every iteration of both variants gave the same value: no spread.
  bool identical = false;
};

// The robustness verdict for a row (schedsim validate --robustness).
// A row whose nominal simulated change is exactly 0 has no direction to
// hold: its verdict is "no-change", neither robust nor fragile (issue 49
// #2: seed 003's revert rows at +0.00% were called robust).
struct RowRobustness {
  bool sign_holds = true;
  std::vector<std::string> flipped_by;
  bool no_change = false;
};
// "robust", "fragile" or "no-change".
const char* RobustnessVerdict(const RowRobustness& r);

enum class Verdict {
  kMatch,
  kMismatch,
  kNeutralAgree,
  kNeutralDisagree,
  kNotExpressible
};
const char* VerdictName(Verdict v);

// The published run-to-run noise of a row, in percent: the larger of its
// two sides' coefficient of variation, from the report's spread (a stddev
// over the mean, or a CoeffVar / variation percentage as printed). NaN when
// the report gives no spread. A neutral row agrees when the simulated
// change is within it (or, without a published spread, within the
// neutral class's own bound, kNeutralPct), or is not significant.
double PublishedNoisePct(const Published& published);

inline constexpr double kMinMatchPct = 1.0;
// A simulated change counts only when the runs tell it from their noise:
// Welch's p below this (or no spread at all on either side).
inline constexpr double kSignificantP = 0.05;
inline constexpr double kSizeFactor = 2.0;
inline constexpr double kAbsoluteFactor = 1.5;

struct ScoredRow {
  const Row* row = nullptr;
  RowClass row_class = RowClass::kAmbiguous;
  std::optional<Simulated> simulated;  // unset when not expressible
  Verdict verdict = Verdict::kNotExpressible;
  double size_ratio = 0;  // NaN when undefined
  bool within_2x = false;
  // The published direction and enough of its size, significant or not
  // (what a match was before significance was required).
  bool sign_only = false;
  double absolute_ratio = 0;  // NaN when undefined
  // Neutral rows: the band the simulated change may lie in, in percent
  // (PublishedNoisePct, or kNeutralPct without a published spread).
  double neutral_band_pct = 0;
  std::string reason;  // why this verdict, in words
  std::optional<RowRobustness> robustness;
};

// True for the verdicts that need an explanation: mismatch and neutral
// disagreement.
bool IsMiss(Verdict v);

// Scores one row; `simulated` is unset for a row that was not run (not
// expressible, or its experiment failed: then `failure` says why).
ScoredRow ScoreRow(const Row& row, const std::optional<Simulated>& simulated,
                   const std::string& failure = "");

struct ClassCount {
  int rows = 0;
  int hits = 0;  // direction matches / neutral agreements / within 1.5x
};

struct Summary {
  std::string tier;
  int rows = 0;
  int not_expressible = 0;
  ClassCount directional;  // hits = direction matches
  int size_within_2x = 0;  // of the directional rows
  // Directional rows with the published direction and enough of its size
  // whose simulated change is not significant (p >= kSignificantP): matches
  // by the sign alone, not counted as matches.
  int direction_not_significant = 0;
  ClassCount neutral;  // hits = called neutral
  int ambiguous = 0;
  ClassCount absolute;  // hits = within 1.5x
  // Rows where every iteration gave the same value (no spread).
  int identical = 0;
  // Ids of the mismatches and neutral disagreements that have no
  // explanation (Row::mismatch_why).
  std::vector<std::string> unexplained;
  // The mechanism rows (Row::measure: what the kernel measured, not the
  // benchmark's score), scored by the same rules and counted here only:
  // none of the figures above (nor the floor) includes them.
  struct Mechanism {
    int rows = 0;
    int not_expressible = 0;
    ClassCount directional;
    int size_within_2x = 0;
    ClassCount neutral;
    int ambiguous = 0;
    ClassCount absolute;
  };
  Mechanism mechanism;
};

Summary Summarize(const std::vector<ScoredRow>& rows, const std::string& tier);

// "direction 23/57 (40%), size within 2x 6/57 (11%), neutral 30/40 (75%),
// absolute within 1.5x 20/60 (33%)": the README's scoreboard line.
std::string SummaryLine(const Summary& s);
// "mechanism rows: direction 1/1 (100%), size within 2x 0/1 (0%), neutral
// 1/1 (100%), absolute within 1.5x 2/2 (100%) (4 rows, 2 not
// expressible)": the summary's own line for the mechanism rows.
std::string MechanismLine(const Summary& s);

// The committed floor (validation/floor.json): the least count of each
// summary figure the quick tier may give. CheckFloor fails naming every
// figure below it, and every mismatch or neutral disagreement that has no
// "mismatch_why" in the catalogue (issue 13: every row the model still
// misses says why).
struct Floor {
  std::string tier;
  // The sources whose rows the floor counts ("sources" in floor.json); empty
  // = every row. A source added to the catalogue does not move the floor
  // until it is named here (docs/validation.md, "The floor").
  std::vector<std::string> sources;
  int direction_match = 0;
  int size_within_2x = 0;
  int neutral_agree = 0;
  int absolute_within_1_5x = 0;
};
absl::StatusOr<Floor> ParseFloor(const std::string& text,
                                 const std::string& filename);
absl::Status CheckFloor(const Summary& summary, const Floor& floor);
// The summary of the rows of the floor's sources, which CheckFloor compares.
Summary FloorSummary(const std::vector<ScoredRow>& rows, const Floor& floor);

// The scoreboard: a fixed-width table, the JSON document of
// docs/validation.md ({"rows": [...], "summary": {...}}), and markdown.
std::string ScoreboardTable(const std::vector<ScoredRow>& rows,
                            const Summary& summary);
experiments::OrderedJson ScoreboardJson(const std::vector<ScoredRow>& rows,
                                        const Summary& summary);
experiments::OrderedJson SummaryJson(const Summary& summary);
// `label` says what the scoreboard was made from (commit, date); may be "".
std::string ScoreboardMarkdown(const std::vector<ScoredRow>& rows,
                               const Summary& summary,
                               const std::string& label);

// How the scoreboard writes numbers, for the reports built on it: a JSON
// number or null when not finite; rounded to `digits` decimals (JSON keeps
// 4 of percentages and ratios, 6 of p-values); a signed percentage with 2
// decimals, "n/a" when not finite.
experiments::OrderedJson ReportNumber(double x);
double ReportRound(double x, int digits);
std::string ReportPct(double x);

// One line for the progress output: id, published and simulated change,
// verdict.
std::string ProgressLine(const ScoredRow& row);

}  // namespace schedsim::validation

#endif  // SCHEDSIM_VALIDATION_SCOREBOARD_H_
