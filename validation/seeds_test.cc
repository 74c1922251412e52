// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The scoreboard across seeds (seeds.h): which verdicts hold, the ranges
// and the errors.

#include "validation/seeds.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace schedsim::validation {
namespace {

Row MakeRow(const std::string& id, double pub_change) {
  Row r;
  r.id = id;
  r.published.baseline = 100;
  r.published.variant = 100 + pub_change;
  r.published.change_pct = pub_change;
  r.experiment = "e";
  return r;
}

Simulated Sim(double change, double p) {
  Simulated s;
  s.baseline = 100;
  s.variant = 100 + change;
  s.change_pct = change;
  s.p_value = p;
  s.iterations = 5;
  return s;
}

// One seed's scoreboard of the rows, each with (change, p).
SeedScoreboard Board(uint64_t seed, const std::vector<Row>& rows,
                     const std::vector<std::pair<double, double>>& sims) {
  SeedScoreboard b;
  b.seed = seed;
  for (size_t i = 0; i < rows.size(); ++i) {
    b.rows.push_back(ScoreRow(rows[i], Sim(sims[i].first, sims[i].second)));
  }
  b.summary = Summarize(b.rows, "quick");
  return b;
}

TEST(AcrossSeeds, AVerdictThatFlipsIsListedWithEachSeedsChange) {
  const std::vector<Row> rows = {MakeRow("001/a/16", 0.5),  // neutral
                                 MakeRow("001/a/32", 10)};  // directional
  // Seed 1: the neutral row's +7.1% is significant (a disagreement); seed
  // 3: +2.5%, under 5%. The directional row matches at both.
  const std::vector<SeedScoreboard> runs = {
      Board(1, rows, {{7.1, 0.01}, {9.0, 0.001}}),
      Board(3, rows, {{2.5, 0.37}, {8.0, 0.002}})};
  absl::StatusOr<AcrossSeeds> a = CompareSeeds(runs);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->seeds, (std::vector<uint64_t>{1, 3}));
  ASSERT_EQ(a->rows.size(), 2u);
  EXPECT_FALSE(a->rows[0].holds);
  EXPECT_EQ(a->rows[0].verdicts[0], Verdict::kNeutralDisagree);
  EXPECT_EQ(a->rows[0].verdicts[1], Verdict::kNeutralAgree);
  EXPECT_TRUE(a->rows[1].holds);
  EXPECT_EQ(a->holds, 1);
  EXPECT_EQ(AcrossSeedsLine(runs, *a),
            "verdicts hold at every seed for 1/2 rows; direction 1/1, size "
            "within 2x 1/1, neutral 0-1/1, absolute within 1.5x 2/2 (seeds "
            "1, 3)");
  const std::string table = AcrossSeedsTable(runs, *a);
  EXPECT_NE(table.find("001/a/16"), std::string::npos) << table;
  EXPECT_NE(table.find("neutral-disagree (+7.10%)"), std::string::npos)
      << table;
  EXPECT_NE(table.find("neutral-agree (+2.50%)"), std::string::npos) << table;
  EXPECT_EQ(table.find("001/a/32"), std::string::npos) << table;
  const experiments::OrderedJson j = AcrossSeedsJson(runs, *a);
  EXPECT_EQ(j["summary"]["hold"], 1);
  EXPECT_EQ(j["rows"][0]["verdicts"][0], "neutral-disagree");
  EXPECT_EQ(j["rows"][0]["change_pct"][1], 2.5);
  EXPECT_EQ(j["per_seed"][1]["seed"], 3);
}

TEST(AcrossSeeds, NeedsTwoDistinctSeedsOverTheSameRows) {
  const std::vector<Row> rows = {MakeRow("001/a/16", 0.5),
                                 MakeRow("001/a/32", 10)};
  const SeedScoreboard one = Board(1, rows, {{1, 0.5}, {9, 0.001}});
  EXPECT_FALSE(CompareSeeds({one}).ok());
  EXPECT_FALSE(CompareSeeds({one, one}).ok());
  // The scored rows point into these, which must outlive the boards.
  const std::vector<Row> first = {rows[0]};
  const std::vector<Row> reversed = {rows[1], rows[0]};
  SeedScoreboard fewer = Board(2, first, {{1, 0.5}});
  EXPECT_FALSE(CompareSeeds({one, fewer}).ok());
  SeedScoreboard swapped = Board(2, reversed, {{9, 0.001}, {1, 0.5}});
  absl::StatusOr<AcrossSeeds> a = CompareSeeds({one, swapped});
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().message().find("001/a/32"), std::string::npos)
      << a.status();
}

}  // namespace
}  // namespace schedsim::validation
