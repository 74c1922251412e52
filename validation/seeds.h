// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The scoreboard at several experiment seeds (`schedsim validate
// --seeds=1,2,3`): which rows' verdicts hold at every seed and which turn
// on the seed's draws. A verdict that flips between seeds is a draw of the
// model's own noise, not evidence about a mechanism; docs/validation.md,
// "Verdicts across seeds".
//
//   std::vector<SeedScoreboard> runs = ...;  // one RunValidation per seed
//   absl::StatusOr<AcrossSeeds> a = CompareSeeds(runs);
//   std::cout << AcrossSeedsTable(runs, *a);

#ifndef SCHEDSIM_VALIDATION_SEEDS_H_
#define SCHEDSIM_VALIDATION_SEEDS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "experiments/json_util.h"
#include "validation/catalogue.h"
#include "validation/scoreboard.h"

namespace schedsim::validation {

// The scoreboard of one seed.
struct SeedScoreboard {
  uint64_t seed = 0;
  std::vector<ScoredRow> rows;  // the selected rows, in catalogue order
  Summary summary;
};

// One row at every seed, in the order of the seeds.
struct RowAcrossSeeds {
  const Row* row = nullptr;
  RowClass row_class = RowClass::kAmbiguous;
  std::vector<Verdict> verdicts;
  std::vector<double> change_pct;  // NaN where the row was not run
  std::vector<double> p_value;     // NaN where there is no test
  bool holds = true;               // the same verdict at every seed
};

struct AcrossSeeds {
  std::vector<uint64_t> seeds;
  std::vector<RowAcrossSeeds> rows;
  int holds = 0;  // rows whose verdict is the same at every seed
};

// Lines the seeds' rows up. Fails unless there are at least two seeds,
// all distinct, and every seed scored the same rows in the same order.
absl::StatusOr<AcrossSeeds> CompareSeeds(
    const std::vector<SeedScoreboard>& runs);

// "verdicts hold at every seed for 96/104 rows; direction 18-21/42, size
// within 2x 13-14/42, neutral 52-53/53, absolute within 1.5x 95/95 (seeds
// 1, 2, 3)": each figure's least and greatest count over the seeds.
std::string AcrossSeedsLine(const std::vector<SeedScoreboard>& runs,
                            const AcrossSeeds& across);

// Each seed's summary line, then the rows whose verdict differs between
// seeds (verdict and simulated change at each), then AcrossSeedsLine.
std::string AcrossSeedsTable(const std::vector<SeedScoreboard>& runs,
                             const AcrossSeeds& across);

// {"seeds": [...], "per_seed": [{"seed", "summary"}], "rows": [{"id",
// "class", "holds", "verdicts", "change_pct", "p_value"}], "summary":
// {"rows", "hold", "line"}}; every selected row is listed.
experiments::OrderedJson AcrossSeedsJson(
    const std::vector<SeedScoreboard>& runs, const AcrossSeeds& across);

}  // namespace schedsim::validation

#endif  // SCHEDSIM_VALIDATION_SEEDS_H_
