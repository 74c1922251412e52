// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "validation/scoreboard.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "base/version.h"

namespace schedsim::validation {
namespace {

using Json = experiments::OrderedJson;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

int Sign(double x) { return x > 0 ? 1 : (x < 0 ? -1 : 0); }

std::string Ratio(double x) {
  if (!std::isfinite(x)) return "-";
  return absl::StrFormat("%.2f", x);
}

std::string PValue(const ScoredRow& s) {
  if (!s.simulated) return "-";
  if (!std::isfinite(s.simulated->p_value)) {
    return s.simulated->identical ? "identical" : "n/a";
  }
  return absl::StrFormat("%.3f", s.simulated->p_value);
}

std::string CountPct(int hits, int rows) {
  if (rows == 0) return "0/0";
  return absl::StrFormat("%d/%d (%.0f%%)", hits, rows,
                         100.0 * hits / static_cast<double>(rows));
}

double Percent(int hits, int rows) {
  return rows == 0 ? 0.0 : ReportRound(100.0 * hits / rows, 1);
}

}  // namespace

experiments::OrderedJson ReportNumber(double x) {
  if (!std::isfinite(x)) return nullptr;
  return x;
}

double ReportRound(double x, int digits) {
  if (!std::isfinite(x)) return x;
  const double f = std::pow(10.0, digits);
  return std::round(x * f) / f;
}

std::string ReportPct(double x) {
  if (!std::isfinite(x)) return "n/a";
  return absl::StrFormat("%+.2f%%", x);
}

const char* VerdictName(Verdict v) {
  switch (v) {
    case Verdict::kMatch:
      return "match";
    case Verdict::kMismatch:
      return "mismatch";
    case Verdict::kNeutralAgree:
      return "neutral-agree";
    case Verdict::kNeutralDisagree:
      return "neutral-disagree";
    case Verdict::kNotExpressible:
      return "not-expressible";
  }
  return "?";
}

double PublishedNoisePct(const Published& published) {
  const OrderedJson& spread = published.spread;
  if (!spread.is_object() || !spread.contains("kind")) return kNaN;
  const auto number = [&](const char* key) {
    const auto it = spread.find(key);
    return it != spread.end() && it->is_number() ? it->get<double>() : kNaN;
  };
  const double b = number("baseline"), v = number("variant");
  const std::string kind =
      spread["kind"].is_string() ? spread["kind"].get<std::string>() : "";
  double cv_b = kNaN, cv_v = kNaN;
  if (kind == "stddev") {
    if (published.baseline != 0) cv_b = 100 * b / std::fabs(published.baseline);
    if (published.variant != 0) cv_v = 100 * v / std::fabs(published.variant);
  } else if (kind == "coeffvar_pct" || kind == "var_pct") {
    cv_b = b;
    cv_v = v;
  }
  if (!std::isfinite(cv_b) && !std::isfinite(cv_v)) return kNaN;
  if (!std::isfinite(cv_b)) return std::fabs(cv_v);
  if (!std::isfinite(cv_v)) return std::fabs(cv_b);
  return std::max(std::fabs(cv_b), std::fabs(cv_v));
}

const char* RobustnessVerdict(const RowRobustness& r) {
  if (r.no_change) return "no-change";
  return r.sign_holds ? "robust" : "fragile";
}

bool IsMiss(Verdict v) {
  return v == Verdict::kMismatch || v == Verdict::kNeutralDisagree;
}

ScoredRow ScoreRow(const Row& row, const std::optional<Simulated>& simulated,
                   const std::string& failure) {
  ScoredRow s;
  s.row = &row;
  s.row_class = Classify(row.published);
  s.simulated = simulated;
  s.size_ratio = kNaN;
  s.absolute_ratio = kNaN;
  const double pub = row.published.change_pct;
  if (!simulated) {
    s.verdict = Verdict::kNotExpressible;
    s.reason = !row.not_expressible.empty() ? row.not_expressible : failure;
    return s;
  }
  const double sim = simulated->change_pct;
  if (pub != 0 && std::isfinite(sim)) {
    s.size_ratio = sim / pub;
    s.within_2x =
        s.size_ratio >= 1.0 / kSizeFactor && s.size_ratio <= kSizeFactor;
  }
  if (row.absolute && row.published.baseline > 0 &&
      std::isfinite(simulated->baseline)) {
    s.absolute_ratio = simulated->baseline / row.published.baseline;
  }
  if (s.row_class == RowClass::kNeutral) {
    // Issue 49 #3: neutral means within the published noise or not
    // significant. (It was |simulated| < 5% at any p: a significant +4.59%
    // against a published -1.16% with a 0.5% spread agreed.) Without a
    // p-value (no spread in the runs) only the band counts.
    const double noise = PublishedNoisePct(row.published);
    const bool published_noise = std::isfinite(noise);
    s.neutral_band_pct = published_noise ? noise : kNeutralPct;
    const std::string band =
        published_noise
            ? absl::StrFormat("the published noise (%.2f%%)", noise)
            : absl::StrFormat("the neutral bound (%.0f%%; no published spread)",
                              kNeutralPct);
    const bool tested = std::isfinite(simulated->p_value);
    const bool significant = tested && simulated->p_value < kSignificantP;
    const bool within =
        std::isfinite(sim) && std::fabs(sim) <= s.neutral_band_pct;
    const bool agree = within || (tested && !significant);
    s.verdict = agree ? Verdict::kNeutralAgree : Verdict::kNeutralDisagree;
    if (agree) {
      s.reason = within
                     ? absl::StrFormat("|%s| within %s", ReportPct(sim), band)
                     : absl::StrFormat("%s, not significant (p = %.3f)",
                                       ReportPct(sim), simulated->p_value);
    } else {
      s.reason = absl::StrFormat(
          "published neutral (%s), simulated %s: beyond %s and %s",
          ReportPct(pub), ReportPct(sim), band,
          tested ? absl::StrFormat("significant (p = %.3f)", simulated->p_value)
                 : std::string("no spread in the runs to test it"));
    }
    return s;
  }
  const double need = std::max(kMinMatchPct, std::fabs(pub) / 5.0);
  const bool same_sign = Sign(sim) == Sign(pub);
  // A change the runs cannot tell from their own noise is no answer: with
  // a p-value it must be below kSignificantP; without one (no spread on
  // either side) the difference is exact.
  const bool tested = std::isfinite(simulated->p_value);
  const bool significant = !tested || simulated->p_value < kSignificantP;
  s.sign_only = same_sign && std::fabs(sim) >= need;
  const bool match = s.sign_only && significant;
  s.verdict = match ? Verdict::kMatch : Verdict::kMismatch;
  if (!std::isfinite(sim)) {
    s.reason = "the simulated change is undefined (a baseline of 0)";
  } else if (!same_sign) {
    s.reason = absl::StrFormat(
        "simulated %s against published %s: "
        "the opposite direction",
        ReportPct(sim), ReportPct(pub));
  } else if (!s.sign_only) {
    s.reason = absl::StrFormat(
        "simulated %s against published %s: below max(1%%, a fifth of the "
        "published size)",
        ReportPct(sim), ReportPct(pub));
  } else if (!match) {
    s.reason = absl::StrFormat(
        "simulated %s against published %s: the published direction, but "
        "not significant (p = %.2f)",
        ReportPct(sim), ReportPct(pub), simulated->p_value);
  } else {
    s.reason = s.within_2x
                   ? "direction and size (within 2x)"
                   : absl::StrFormat("direction; size %.2fx", s.size_ratio);
  }
  if (s.row_class == RowClass::kAmbiguous) {
    s.reason =
        absl::StrCat("ambiguous published change (not scored); ", s.reason);
  }
  return s;
}

Summary Summarize(const std::vector<ScoredRow>& rows, const std::string& tier) {
  Summary sum;
  sum.tier = tier;
  for (const ScoredRow& s : rows) {
    if (IsMiss(s.verdict) && s.row->mismatch_why.empty()) {
      sum.unexplained.push_back(s.row->id);
    }
    if (!s.row->measure.empty()) {
      Summary::Mechanism& m = sum.mechanism;
      ++m.rows;
      if (s.verdict == Verdict::kNotExpressible) ++m.not_expressible;
      switch (s.row_class) {
        case RowClass::kDirectional:
          ++m.directional.rows;
          if (s.verdict == Verdict::kMatch) {
            ++m.directional.hits;
            if (s.within_2x) ++m.size_within_2x;
          }
          break;
        case RowClass::kNeutral:
          ++m.neutral.rows;
          if (s.verdict == Verdict::kNeutralAgree) ++m.neutral.hits;
          break;
        case RowClass::kAmbiguous:
          ++m.ambiguous;
          break;
      }
      if (s.row->absolute && s.row->not_expressible.empty()) {
        ++m.absolute.rows;
        if (std::isfinite(s.absolute_ratio) &&
            s.absolute_ratio >= 1.0 / kAbsoluteFactor &&
            s.absolute_ratio <= kAbsoluteFactor) {
          ++m.absolute.hits;
        }
      }
      continue;
    }
    ++sum.rows;
    if (s.verdict == Verdict::kNotExpressible) ++sum.not_expressible;
    if (s.simulated && s.simulated->identical) ++sum.identical;
    switch (s.row_class) {
      case RowClass::kDirectional:
        ++sum.directional.rows;
        if (s.verdict == Verdict::kMatch) {
          ++sum.directional.hits;
          if (s.within_2x) ++sum.size_within_2x;
        } else if (s.sign_only) {
          ++sum.direction_not_significant;
        }
        break;
      case RowClass::kNeutral:
        ++sum.neutral.rows;
        if (s.verdict == Verdict::kNeutralAgree) ++sum.neutral.hits;
        break;
      case RowClass::kAmbiguous:
        ++sum.ambiguous;
        break;
    }
    // Absolute: every row whose published baseline is in a measure the
    // model reports; a row not run counts as a miss.
    if (s.row->absolute && s.row->not_expressible.empty()) {
      ++sum.absolute.rows;
      if (std::isfinite(s.absolute_ratio) &&
          s.absolute_ratio >= 1.0 / kAbsoluteFactor &&
          s.absolute_ratio <= kAbsoluteFactor) {
        ++sum.absolute.hits;
      }
    }
  }
  return sum;
}

std::string SummaryLine(const Summary& s) {
  return absl::StrCat(
      "direction ", CountPct(s.directional.hits, s.directional.rows),
      ", size within 2x ", CountPct(s.size_within_2x, s.directional.rows),
      ", neutral ", CountPct(s.neutral.hits, s.neutral.rows),
      ", absolute within 1.5x ", CountPct(s.absolute.hits, s.absolute.rows),
      " (", s.tier, " tier; ", s.rows, " rows, ", s.ambiguous, " ambiguous, ",
      s.not_expressible, " not expressible)");
}

std::string MechanismLine(const Summary& s) {
  const Summary::Mechanism& m = s.mechanism;
  return absl::StrCat(
      "mechanism rows: direction ",
      CountPct(m.directional.hits, m.directional.rows), ", size within 2x ",
      CountPct(m.size_within_2x, m.directional.rows), ", neutral ",
      CountPct(m.neutral.hits, m.neutral.rows), ", absolute within 1.5x ",
      CountPct(m.absolute.hits, m.absolute.rows), " (", m.rows, " rows, ",
      m.ambiguous, " ambiguous, ", m.not_expressible, " not expressible)");
}

absl::StatusOr<Floor> ParseFloor(const std::string& text,
                                 const std::string& filename) {
  experiments::JsonFileReader r(filename);
  Json root;
  SCHEDSIM_RETURN_IF_ERROR(r.ParseText(text, &root));
  SCHEDSIM_RETURN_IF_ERROR(r.ExpectObject(root, "", "a floor"));
  const std::vector<std::string> keys = {"about",
                                         "tier",
                                         "sources",
                                         "direction_match",
                                         "size_within_2x",
                                         "neutral_agree",
                                         "absolute_within_1_5x"};
  SCHEDSIM_RETURN_IF_ERROR(r.CheckKeys(root, "", keys, "a floor"));
  Floor f;
  if (!root.contains("tier")) return r.Error("", "missing \"tier\"");
  SCHEDSIM_ASSIGN_OR_RETURN(f.tier, r.Name(root["tier"], "tier", "a tier"));
  if (f.tier != "quick" && f.tier != "full") {
    return r.Error("tier", "expected \"quick\" or \"full\"");
  }
  if (root.contains("sources")) {
    SCHEDSIM_RETURN_IF_ERROR(
        r.ExpectArray(root["sources"], "sources", "the sources counted"));
    for (size_t i = 0; i < root["sources"].size(); ++i) {
      SCHEDSIM_ASSIGN_OR_RETURN(
          std::string s,
          r.Name(root["sources"][i], experiments::JsonElement("sources", i),
                 "a source number"));
      f.sources.push_back(std::move(s));
    }
  }
  struct Field {
    const char* key;
    int* out;
  };
  for (const Field& field :
       {Field{"direction_match", &f.direction_match},
        Field{"size_within_2x", &f.size_within_2x},
        Field{"neutral_agree", &f.neutral_agree},
        Field{"absolute_within_1_5x", &f.absolute_within_1_5x}}) {
    if (!root.contains(field.key)) {
      return r.Error("", absl::StrCat("missing \"", field.key, "\""));
    }
    SCHEDSIM_ASSIGN_OR_RETURN(int64_t v,
                              r.Int(root[field.key], field.key, 0, 100000));
    *field.out = static_cast<int>(v);
  }
  return f;
}

Summary FloorSummary(const std::vector<ScoredRow>& rows, const Floor& floor) {
  if (floor.sources.empty() || rows.empty()) {
    return Summarize(rows, floor.tier);
  }
  std::vector<ScoredRow> mine;
  for (const ScoredRow& s : rows) {
    if (std::find(floor.sources.begin(), floor.sources.end(), s.row->seed) !=
        floor.sources.end()) {
      mine.push_back(s);
    }
  }
  return Summarize(mine, floor.tier);
}

absl::Status CheckFloor(const Summary& summary, const Floor& floor) {
  std::vector<std::string> below;
  auto check = [&](const char* name, int got, int want) {
    if (got < want) below.push_back(absl::StrCat(name, " ", got, " < ", want));
  };
  if (summary.tier != floor.tier) {
    return absl::FailedPreconditionError(
        absl::StrCat("the floor is for the ", floor.tier, " tier; this is the ",
                     summary.tier, " tier"));
  }
  check("direction_match", summary.directional.hits, floor.direction_match);
  check("size_within_2x", summary.size_within_2x, floor.size_within_2x);
  check("neutral_agree", summary.neutral.hits, floor.neutral_agree);
  check("absolute_within_1_5x", summary.absolute.hits,
        floor.absolute_within_1_5x);
  if (!below.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("the scoreboard fell below the committed floor "
                     "(validation/floor.json): ",
                     absl::StrJoin(below, ", ")));
  }
  if (!summary.unexplained.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat(summary.unexplained.size(),
                     " rows the model misses have no \"mismatch_why\" in "
                     "validation/catalogue/: ",
                     absl::StrJoin(summary.unexplained, ", ")));
  }
  return absl::OkStatus();
}

Json SummaryJson(const Summary& s) {
  Json j = Json::object();
  j["tier"] = s.tier;
  j["rows"] = s.rows;
  j["not_expressible"] = s.not_expressible;
  j["identical"] = s.identical;
  j["unexplained_misses"] = s.unexplained;
  j["directional"] = {
      {"rows", s.directional.rows},
      {"direction_match", s.directional.hits},
      {"direction_match_pct", Percent(s.directional.hits, s.directional.rows)},
      {"size_within_2x", s.size_within_2x},
      {"size_within_2x_pct", Percent(s.size_within_2x, s.directional.rows)},
      {"direction_not_significant", s.direction_not_significant}};
  j["neutral"] = {{"rows", s.neutral.rows},
                  {"agree", s.neutral.hits},
                  {"agree_pct", Percent(s.neutral.hits, s.neutral.rows)}};
  j["ambiguous"] = {{"rows", s.ambiguous}};
  j["absolute"] = {
      {"rows", s.absolute.rows},
      {"within_1_5x", s.absolute.hits},
      {"within_1_5x_pct", Percent(s.absolute.hits, s.absolute.rows)}};
  j["line"] = SummaryLine(s);
  const Summary::Mechanism& m = s.mechanism;
  j["mechanism"] = {
      {"rows", m.rows},
      {"not_expressible", m.not_expressible},
      {"directional",
       {{"rows", m.directional.rows},
        {"direction_match", m.directional.hits},
        {"size_within_2x", m.size_within_2x}}},
      {"neutral", {{"rows", m.neutral.rows}, {"agree", m.neutral.hits}}},
      {"ambiguous", {{"rows", m.ambiguous}}},
      {"absolute",
       {{"rows", m.absolute.rows}, {"within_1_5x", m.absolute.hits}}},
      {"line", MechanismLine(s)}};
  return j;
}

Json ScoreboardJson(const std::vector<ScoredRow>& rows,
                    const Summary& summary) {
  Json out = Json::object();
  out["schema_version"] = base::kResultSchemaVersion;
  Json list = Json::array();
  for (const ScoredRow& s : rows) {
    const Row& r = *s.row;
    Json j = Json::object();
    j["id"] = r.id;
    j["seed"] = r.seed;
    j["benchmark"] = r.benchmark;
    j["point"] = r.point;
    // The mechanism measure, null for a benchmark row (its metric).
    j["measure"] = r.measure.empty() ? Json(nullptr) : Json(r.measure);
    j["published"] = {{"baseline", r.published.baseline},
                      {"variant", r.published.variant},
                      {"unit", r.published.unit},
                      {"higher_is_better", r.published.higher_is_better},
                      {"change_pct", r.published.change_pct}};
    if (r.published.significant) {
      j["published"]["significant"] = *r.published.significant;
    } else {
      j["published"]["significant"] = nullptr;
    }
    if (s.simulated) {
      const Simulated& m = *s.simulated;
      j["simulated"] = {
          {"baseline", ReportNumber(m.baseline)},
          {"variant", ReportNumber(m.variant)},
          {"change_pct", ReportNumber(ReportRound(m.change_pct, 4))},
          {"p_value", ReportNumber(ReportRound(m.p_value, 6))},
          {"coeffvar_baseline_pct",
           ReportNumber(ReportRound(m.coeffvar_baseline_pct, 4))},
          {"coeffvar_variant_pct",
           ReportNumber(ReportRound(m.coeffvar_variant_pct, 4))},
          {"iterations", m.iterations},
          {"identical", m.identical}};
    } else {
      j["simulated"] = nullptr;
    }
    j["class"] = RowClassName(s.row_class);
    j["verdict"] = VerdictName(s.verdict);
    j["size_ratio"] = ReportNumber(ReportRound(s.size_ratio, 4));
    j["within_2x"] = s.within_2x;
    j["absolute_ratio"] = ReportNumber(ReportRound(s.absolute_ratio, 4));
    j["reason"] = s.reason;
    if (IsMiss(s.verdict)) {
      j["why"] = s.row->mismatch_why.empty() ? Json(nullptr)
                                             : Json(s.row->mismatch_why);
    }
    if (s.robustness) {
      j["robustness"] = {{"verdict", RobustnessVerdict(*s.robustness)},
                         {"sign_holds", s.robustness->sign_holds},
                         {"flipped_by", s.robustness->flipped_by}};
    }
    list.push_back(std::move(j));
  }
  out["rows"] = std::move(list);
  out["summary"] = SummaryJson(summary);
  return out;
}

namespace {

struct Columns {
  std::string id, cls, pub, sim, p, cvb, cvv, verdict, ratio, in2x, abs;
};

Columns RowColumns(const ScoredRow& s) {
  Columns c;
  c.id = s.row->id;
  c.cls = RowClassName(s.row_class);
  c.pub = ReportPct(s.row->published.change_pct);
  if (s.simulated) {
    c.sim = ReportPct(s.simulated->change_pct);
    c.p = PValue(s);
    c.cvb = absl::StrFormat("%.2f", s.simulated->coeffvar_baseline_pct);
    c.cvv = absl::StrFormat("%.2f", s.simulated->coeffvar_variant_pct);
  } else {
    c.sim = c.p = c.cvb = c.cvv = "-";
  }
  c.verdict = VerdictName(s.verdict);
  c.ratio = Ratio(s.size_ratio);
  c.in2x = s.simulated ? (s.within_2x ? "yes" : "no") : "-";
  c.abs = Ratio(s.absolute_ratio);
  return c;
}

// With --robustness: one line per row, `robust` or `fragile: flipped by
// ...`; "" when no row has a verdict.
std::string RobustnessSection(const std::vector<ScoredRow>& rows) {
  std::string out;
  int robust = 0, fragile = 0, no_change = 0;
  for (const ScoredRow& s : rows) {
    if (!s.robustness) continue;
    if (out.empty())
      absl::StrAppend(&out,
                      "\nrobustness (the sign of each row's simulated change "
                      "under each cost scaled):\n");
    if (s.robustness->no_change) {
      ++no_change;
      absl::StrAppend(
          &out, absl::StrFormat("  %-42s no-change: the simulated change is "
                                "+0.00%%, no direction to hold\n",
                                s.row->id));
    } else if (s.robustness->sign_holds) {
      ++robust;
      absl::StrAppend(&out, absl::StrFormat("  %-42s robust\n", s.row->id));
    } else {
      ++fragile;
      absl::StrAppend(
          &out, absl::StrFormat("  %-42s fragile: flipped by %s\n", s.row->id,
                                absl::StrJoin(s.robustness->flipped_by, ", ")));
    }
  }
  if (!out.empty()) {
    absl::StrAppend(
        &out, absl::StrFormat("  %d robust, %d fragile", robust, fragile),
        no_change > 0 ? absl::StrFormat(", %d without a change", no_change)
                      : std::string(),
        "\n");
  }
  return out;
}

// The model's reasons for its misses, one paragraph per explanation with
// the rows it covers.
std::string WhySection(const std::vector<ScoredRow>& rows) {
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;
  std::vector<std::string> unexplained;
  for (const ScoredRow& s : rows) {
    if (!IsMiss(s.verdict)) continue;
    const std::string& why = s.row->mismatch_why;
    if (why.empty()) {
      unexplained.push_back(absl::StrCat("`", s.row->id, "`"));
      continue;
    }
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const auto& g) { return g.first == why; });
    if (it == groups.end()) {
      groups.push_back({why, {}});
      it = groups.end() - 1;
    }
    it->second.push_back(absl::StrCat("`", s.row->id, "`"));
  }
  if (groups.empty() && unexplained.empty()) return "";
  std::string out =
      "\nWhy the model misses them (validation/catalogue/, "
      "\"mismatch_why\"):\n\n";
  for (const auto& [why, ids] : groups) {
    absl::StrAppend(&out, "- ", absl::StrJoin(ids, ", "), ": ", why, "\n");
  }
  if (!unexplained.empty()) {
    absl::StrAppend(&out, "- ", absl::StrJoin(unexplained, ", "),
                    ": no explanation yet.\n");
  }
  return out;
}

}  // namespace

std::string ScoreboardTable(const std::vector<ScoredRow>& rows,
                            const Summary& summary) {
  std::string out =
      absl::StrFormat("%-42s %-11s %9s %9s %9s %7s %7s %-16s %6s %3s %6s\n",
                      "row", "class", "published", "simulated", "p", "cv_base",
                      "cv_var", "verdict", "size", "2x", "abs");
  for (const ScoredRow& s : rows) {
    const Columns c = RowColumns(s);
    absl::StrAppend(
        &out,
        absl::StrFormat("%-42s %-11s %9s %9s %9s %7s %7s %-16s %6s %3s %6s\n",
                        c.id, c.cls, c.pub, c.sim, c.p, c.cvb, c.cvv, c.verdict,
                        c.ratio, c.in2x, c.abs));
  }
  absl::StrAppend(&out, RobustnessSection(rows));
  if (summary.identical > 0) {
    absl::StrAppend(&out, "warning: ", summary.identical,
                    " rows have identical iterations (no spread): their "
                    "p-values are not tests\n");
  }
  if (!summary.unexplained.empty()) {
    absl::StrAppend(&out, "warning: ", summary.unexplained.size(),
                    " rows the model misses have no \"mismatch_why\" in the "
                    "catalogue: ",
                    absl::StrJoin(summary.unexplained, ", "), "\n");
  }
  absl::StrAppend(&out, "\nsummary: ", SummaryLine(summary), "\n");
  if (summary.mechanism.rows > 0) {
    absl::StrAppend(&out, "summary: ", MechanismLine(summary), "\n");
  }
  return out;
}

std::string ScoreboardMarkdown(const std::vector<ScoredRow>& rows,
                               const Summary& summary,
                               const std::string& label) {
  std::string out;
  absl::StrAppend(&out, "**Summary (", summary.tier, " tier):** ",
                  SummaryLine(summary), "\n\n");
  if (summary.mechanism.rows > 0) {
    absl::StrAppend(&out, "**Mechanism rows** (what the kernel measured, ",
                    "not the benchmark's score; not in the line above): ",
                    MechanismLine(summary), "\n\n");
  }
  if (summary.direction_not_significant > 0) {
    const bool one = summary.direction_not_significant == 1;
    absl::StrAppend(&out, "Besides the direction matches, ",
                    summary.direction_not_significant,
                    one ? " directional row has" : " directional rows have",
                    " the published direction and size but a change ",
                    one ? "its runs cannot" : "their runs cannot",
                    " tell from noise (p >= 0.05): counted as ",
                    one ? "a miss" : "misses", ".\n\n");
  }
  if (!label.empty()) absl::StrAppend(&out, "Made from ", label, ".\n\n");
  absl::StrAppend(
      &out,
      "| row | class | published | simulated | p | CoeffVar base / var | "
      "verdict | size ratio | within 2x | absolute ratio |\n"
      "|---|---|---|---|---|---|---|---|---|---|\n");
  for (const ScoredRow& s : rows) {
    const Columns c = RowColumns(s);
    absl::StrAppend(&out, "| `", c.id, "` | ", c.cls, " | ", c.pub, " | ",
                    c.sim, " | ", c.p, " | ", c.cvb, " / ", c.cvv, " | ",
                    c.verdict, " | ", c.ratio, " | ", c.in2x, " | ", c.abs,
                    " |\n");
  }
  absl::StrAppend(&out, RobustnessSection(rows));
  absl::StrAppend(&out,
                  "\nWhy each row that is not a match or an agreement "
                  "got its verdict:\n\n");
  for (const ScoredRow& s : rows) {
    if (s.verdict == Verdict::kMatch || s.verdict == Verdict::kNeutralAgree) {
      continue;
    }
    absl::StrAppend(&out, "- `", s.row->id, "` (", VerdictName(s.verdict),
                    "): ", s.reason, "\n");
  }
  absl::StrAppend(&out, WhySection(rows));
  return out;
}

std::string ProgressLine(const ScoredRow& s) {
  const Columns c = RowColumns(s);
  return absl::StrFormat("%-42s published %9s simulated %9s %s", c.id, c.pub,
                         c.sim, c.verdict);
}

}  // namespace schedsim::validation
