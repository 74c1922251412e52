// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "validation/seeds.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/version.h"

namespace schedsim::validation {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// "18/42" or "18-21/42": the least and greatest hits over the seeds.
std::string Range(const std::vector<SeedScoreboard>& runs,
                  ClassCount (*count)(const Summary&)) {
  int lo = std::numeric_limits<int>::max(), hi = 0, rows = 0;
  for (const SeedScoreboard& r : runs) {
    const ClassCount c = count(r.summary);
    lo = std::min(lo, c.hits);
    hi = std::max(hi, c.hits);
    rows = c.rows;
  }
  return lo == hi ? absl::StrCat(lo, "/", rows)
                  : absl::StrCat(lo, "-", hi, "/", rows);
}

ClassCount Direction(const Summary& s) { return s.directional; }
ClassCount Size(const Summary& s) {
  return {s.directional.rows, s.size_within_2x};
}
ClassCount Neutral(const Summary& s) { return s.neutral; }
ClassCount Absolute(const Summary& s) { return s.absolute; }

std::string SeedList(const std::vector<uint64_t>& seeds) {
  return absl::StrJoin(seeds, ", ");
}

}  // namespace

absl::StatusOr<AcrossSeeds> CompareSeeds(
    const std::vector<SeedScoreboard>& runs) {
  if (runs.size() < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("comparing seeds needs at least 2, got ", runs.size()));
  }
  AcrossSeeds across;
  std::set<uint64_t> seen;
  for (const SeedScoreboard& r : runs) {
    if (!seen.insert(r.seed).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("seed ", r.seed, " is given twice"));
    }
    across.seeds.push_back(r.seed);
    if (r.rows.size() != runs[0].rows.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("seed ", r.seed, " scored ", r.rows.size(),
                       " rows, seed ", runs[0].seed, " ", runs[0].rows.size()));
    }
  }
  for (size_t i = 0; i < runs[0].rows.size(); ++i) {
    RowAcrossSeeds a;
    a.row = runs[0].rows[i].row;
    a.row_class = runs[0].rows[i].row_class;
    for (const SeedScoreboard& r : runs) {
      const ScoredRow& s = r.rows[i];
      if (s.row->id != a.row->id) {
        return absl::InvalidArgumentError(
            absl::StrCat("seed ", r.seed, " scored row ", s.row->id,
                         " where seed ", runs[0].seed, " scored ", a.row->id));
      }
      a.verdicts.push_back(s.verdict);
      a.change_pct.push_back(s.simulated ? s.simulated->change_pct : kNaN);
      a.p_value.push_back(s.simulated ? s.simulated->p_value : kNaN);
      if (s.verdict != a.verdicts[0]) a.holds = false;
    }
    if (a.holds) ++across.holds;
    across.rows.push_back(std::move(a));
  }
  return across;
}

std::string AcrossSeedsLine(const std::vector<SeedScoreboard>& runs,
                            const AcrossSeeds& across) {
  return absl::StrCat("verdicts hold at every seed for ", across.holds, "/",
                      across.rows.size(), " rows; direction ",
                      Range(runs, &Direction), ", size within 2x ",
                      Range(runs, &Size), ", neutral ", Range(runs, &Neutral),
                      ", absolute within 1.5x ", Range(runs, &Absolute),
                      " (seeds ", SeedList(across.seeds), ")");
}

std::string AcrossSeedsTable(const std::vector<SeedScoreboard>& runs,
                             const AcrossSeeds& across) {
  std::string out;
  for (const SeedScoreboard& r : runs) {
    absl::StrAppend(&out, "seed ", r.seed, ": ", SummaryLine(r.summary), "\n");
  }
  const size_t flips = across.rows.size() - across.holds;
  absl::StrAppend(&out, "\n",
                  flips == 0 ? "No row's verdict" : "Rows whose verdict",
                  " differs between seeds", flips == 0 ? "." : ":", "\n");
  if (flips > 0) {
    std::string line = absl::StrFormat("%-42s %-11s", "row", "class");
    for (uint64_t seed : across.seeds) {
      absl::StrAppend(&line,
                      absl::StrFormat(" %-27s", absl::StrCat("seed ", seed)));
    }
    absl::StripTrailingAsciiWhitespace(&line);
    absl::StrAppend(&out, line, "\n");
    for (const RowAcrossSeeds& a : across.rows) {
      if (a.holds) continue;
      line =
          absl::StrFormat("%-42s %-11s", a.row->id, RowClassName(a.row_class));
      for (size_t k = 0; k < a.verdicts.size(); ++k) {
        absl::StrAppend(
            &line,
            absl::StrFormat(" %-27s",
                            absl::StrCat(VerdictName(a.verdicts[k]), " (",
                                         ReportPct(a.change_pct[k]), ")")));
      }
      absl::StripTrailingAsciiWhitespace(&line);
      absl::StrAppend(&out, line, "\n");
    }
  }
  absl::StrAppend(&out, "\n", AcrossSeedsLine(runs, across), "\n");
  return out;
}

experiments::OrderedJson AcrossSeedsJson(
    const std::vector<SeedScoreboard>& runs, const AcrossSeeds& across) {
  using Json = experiments::OrderedJson;
  Json j = Json::object();
  j["schema_version"] = base::kResultSchemaVersion;
  j["seeds"] = across.seeds;
  Json per_seed = Json::array();
  for (const SeedScoreboard& r : runs) {
    per_seed.push_back({{"seed", r.seed}, {"summary", SummaryJson(r.summary)}});
  }
  j["per_seed"] = std::move(per_seed);
  Json rows = Json::array();
  for (const RowAcrossSeeds& a : across.rows) {
    Json row = Json::object();
    row["id"] = a.row->id;
    row["class"] = RowClassName(a.row_class);
    row["holds"] = a.holds;
    Json verdicts = Json::array(), changes = Json::array(), ps = Json::array();
    for (size_t k = 0; k < a.verdicts.size(); ++k) {
      verdicts.push_back(VerdictName(a.verdicts[k]));
      changes.push_back(ReportNumber(ReportRound(a.change_pct[k], 4)));
      ps.push_back(ReportNumber(ReportRound(a.p_value[k], 6)));
    }
    row["verdicts"] = std::move(verdicts);
    row["change_pct"] = std::move(changes);
    row["p_value"] = std::move(ps);
    rows.push_back(std::move(row));
  }
  j["rows"] = std::move(rows);
  j["summary"] = {{"rows", across.rows.size()},
                  {"hold", across.holds},
                  {"line", AcrossSeedsLine(runs, across)}};
  return j;
}

}  // namespace schedsim::validation
