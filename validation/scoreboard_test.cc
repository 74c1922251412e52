// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The verdict rules, the summary and the floor (scoreboard.h).

#include "validation/scoreboard.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace schedsim::validation {
namespace {

Row MakeRow(double pub_change, std::optional<bool> significant = {}) {
  Row r;
  r.id = "000/x/1";
  r.published.baseline = 100;
  r.published.variant = 100 + pub_change;
  r.published.change_pct = pub_change;
  r.published.significant = significant;
  r.experiment = "e";
  return r;
}

Simulated Sim(double change, double p = 0.01, double baseline = 100) {
  Simulated s;
  s.baseline = baseline;
  s.variant = baseline + change;
  s.change_pct = change;
  s.p_value = p;
  s.iterations = 3;
  return s;
}

TEST(Verdict, DirectionalMatchNeedsSignAndAFifthOfTheSize) {
  const Row r = MakeRow(20);
  EXPECT_EQ(ScoreRow(r, Sim(4)).verdict, Verdict::kMatch);  // 20 / 5
  EXPECT_EQ(ScoreRow(r, Sim(3.9)).verdict, Verdict::kMismatch);
  EXPECT_EQ(ScoreRow(r, Sim(-10)).verdict, Verdict::kMismatch);
  const Row six = MakeRow(-6);
  EXPECT_EQ(ScoreRow(six, Sim(-1.2)).verdict, Verdict::kMatch);
  EXPECT_EQ(ScoreRow(six, Sim(-1.1)).verdict, Verdict::kMismatch);
  const Row four = MakeRow(4);  // ambiguous, but judged the same way
  EXPECT_EQ(ScoreRow(four, Sim(1.0)).verdict, Verdict::kMatch);  // max(1%)
  EXPECT_EQ(ScoreRow(four, Sim(0.9)).verdict, Verdict::kMismatch);
}

TEST(Verdict, DirectionalMatchNeedsASignificantChange) {
  const Row r = MakeRow(20);
  // The published direction and size, but the runs cannot tell it from
  // their noise: a miss, counted apart.
  const ScoredRow noisy = ScoreRow(r, Sim(8, 0.48));
  EXPECT_EQ(noisy.verdict, Verdict::kMismatch);
  EXPECT_TRUE(noisy.sign_only);
  EXPECT_NE(noisy.reason.find("not significant (p = 0.48)"), std::string::npos)
      << noisy.reason;
  EXPECT_EQ(ScoreRow(r, Sim(8, 0.049)).verdict, Verdict::kMatch);
  // No spread on either side: the difference is exact.
  EXPECT_EQ(
      ScoreRow(r, Sim(8, std::numeric_limits<double>::quiet_NaN())).verdict,
      Verdict::kMatch);
  const Summary sum = Summarize(
      {noisy, ScoreRow(r, Sim(8, 0.01)), ScoreRow(r, Sim(-8, 0.3))}, "quick");
  EXPECT_EQ(sum.directional.rows, 3);
  EXPECT_EQ(sum.directional.hits, 1);
  EXPECT_EQ(sum.direction_not_significant, 1);
  // The markdown counts them in a sentence whose number agrees.
  const std::vector<ScoredRow> one = {noisy, ScoreRow(r, Sim(8, 0.01))};
  EXPECT_NE(ScoreboardMarkdown(one, Summarize(one, "quick"), "")
                .find("1 directional row has the published direction and "
                      "size but a change its runs cannot tell from noise "
                      "(p >= 0.05): counted as a miss."),
            std::string::npos);
  const std::vector<ScoredRow> two = {noisy, noisy};
  EXPECT_NE(ScoreboardMarkdown(two, Summarize(two, "quick"), "")
                .find("2 directional rows have the published direction and "
                      "size but a change their runs cannot tell from noise "
                      "(p >= 0.05): counted as misses."),
            std::string::npos);
}

TEST(Verdict, SizeRatioAndWithin2x) {
  const Row r = MakeRow(10);
  ScoredRow s = ScoreRow(r, Sim(5));
  EXPECT_DOUBLE_EQ(s.size_ratio, 0.5);
  EXPECT_TRUE(s.within_2x);
  s = ScoreRow(r, Sim(21));
  EXPECT_FALSE(s.within_2x);
  s = ScoreRow(r, Sim(-10));
  EXPECT_FALSE(s.within_2x);
}

// Issue 49 #3: a neutral row agrees when the simulated change is within
// the published noise, or not significant. Under the old rule (|sim| < 5%
// at any p) a significant +4.59% against a published -1.16% with a 0.5%
// spread agreed.
TEST(Verdict, NeutralAgreesWithinThePublishedNoiseOrWhenNotSignificant) {
  Row r = MakeRow(-1.16);
  r.published.spread = OrderedJson::parse(
      R"({"kind": "stddev", "baseline": 0.5, "variant": 0.4})");
  EXPECT_NEAR(PublishedNoisePct(r.published), 0.5, 1e-12);
  const ScoredRow loud = ScoreRow(r, Sim(4.59, 0.0001));
  EXPECT_EQ(loud.verdict, Verdict::kNeutralDisagree);
  EXPECT_EQ(loud.reason,
            "published neutral (-1.16%), simulated +4.59%: beyond the "
            "published noise (0.50%) and significant (p = 0.000)");
  EXPECT_EQ(ScoreRow(r, Sim(4.59, 0.2)).verdict, Verdict::kNeutralAgree);
  const ScoredRow quiet = ScoreRow(r, Sim(-0.4, 0.0001));
  EXPECT_EQ(quiet.verdict, Verdict::kNeutralAgree);
  EXPECT_EQ(quiet.reason, "|-0.40%| within the published noise (0.50%)");
  EXPECT_DOUBLE_EQ(quiet.neutral_band_pct, 0.5);
  // No spread in the runs: only the band counts.
  EXPECT_EQ(
      ScoreRow(r, Sim(-8, std::numeric_limits<double>::quiet_NaN())).verdict,
      Verdict::kNeutralDisagree);
  EXPECT_EQ(
      ScoreRow(r, Sim(0, std::numeric_limits<double>::quiet_NaN())).verdict,
      Verdict::kNeutralAgree);
  // CoeffVar percentages as printed, the larger side.
  Row cv = MakeRow(0.3);
  cv.published.spread = OrderedJson::parse(
      R"({"kind": "coeffvar_pct", "baseline": 0.1, "variant": 3.5})");
  EXPECT_DOUBLE_EQ(PublishedNoisePct(cv.published), 3.5);
  EXPECT_EQ(ScoreRow(cv, Sim(3.4, 0.001)).verdict, Verdict::kNeutralAgree);
  EXPECT_EQ(ScoreRow(cv, Sim(3.6, 0.001)).verdict, Verdict::kNeutralDisagree);
  // Without a published spread, the neutral class's own bound (3%).
  const Row bare = MakeRow(1);
  EXPECT_TRUE(std::isnan(PublishedNoisePct(bare.published)));
  EXPECT_EQ(ScoreRow(bare, Sim(2.9, 0.001)).verdict, Verdict::kNeutralAgree);
  EXPECT_EQ(ScoreRow(bare, Sim(4.9, 0.001)).verdict,
            Verdict::kNeutralDisagree);  // agreed under the old 5% rule
  EXPECT_EQ(ScoreRow(bare, Sim(8, 0.2)).verdict, Verdict::kNeutralAgree);
  EXPECT_EQ(ScoreRow(bare, Sim(8, 0.01)).verdict, Verdict::kNeutralDisagree);
}

// Issue 49 #2: a row whose simulated change is exactly +0.00% was called
// robust; a direction that never appeared cannot survive a perturbation.
TEST(Robustness, AZeroChangeIsNeitherRobustNorFragile) {
  const Row zero = MakeRow(-0.88), moved = MakeRow(10), flipped = MakeRow(5);
  std::vector<ScoredRow> rows = {ScoreRow(zero, Sim(0, 0.9)),
                                 ScoreRow(moved, Sim(9)),
                                 ScoreRow(flipped, Sim(4))};
  rows[0].robustness = RowRobustness{true, {}, /*no_change=*/true};
  rows[1].robustness = RowRobustness{true, {}, false};
  rows[2].robustness = RowRobustness{false, {"config.x-25%"}, false};
  EXPECT_STREQ(RobustnessVerdict(*rows[0].robustness), "no-change");
  EXPECT_STREQ(RobustnessVerdict(*rows[1].robustness), "robust");
  EXPECT_STREQ(RobustnessVerdict(*rows[2].robustness), "fragile");
  const std::string table = ScoreboardTable(rows, Summarize(rows, "quick"));
  EXPECT_NE(table.find("no-change: the simulated change is +0.00%, no "
                       "direction to hold"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("1 robust, 1 fragile, 1 without a change"),
            std::string::npos)
      << table;
  const OrderedJson j = ScoreboardJson(rows, Summarize(rows, "quick"));
  EXPECT_EQ(j["rows"][0]["robustness"]["verdict"], "no-change");
  EXPECT_EQ(j["rows"][1]["robustness"]["verdict"], "robust");
}

TEST(Verdict, AmbiguousIsShownNotScored) {
  const Row r = MakeRow(4);
  ScoredRow s = ScoreRow(r, Sim(4));
  EXPECT_EQ(s.row_class, RowClass::kAmbiguous);
  EXPECT_EQ(s.verdict, Verdict::kMatch);
  const Summary sum = Summarize({s}, "quick");
  EXPECT_EQ(sum.ambiguous, 1);
  EXPECT_EQ(sum.directional.rows, 0);
  EXPECT_EQ(sum.neutral.rows, 0);
}

TEST(Verdict, NotExpressibleCountsAgainstItsClass) {
  Row r = MakeRow(30);
  r.not_expressible = "no model";
  ScoredRow s = ScoreRow(r, std::nullopt);
  EXPECT_EQ(s.verdict, Verdict::kNotExpressible);
  EXPECT_EQ(s.reason, "no model");
  const Summary sum = Summarize({s}, "quick");
  EXPECT_EQ(sum.directional.rows, 1);
  EXPECT_EQ(sum.directional.hits, 0);
  EXPECT_EQ(sum.not_expressible, 1);
  EXPECT_EQ(sum.absolute.rows, 0);
}

TEST(Summary, MechanismRowsHaveTheirOwnLine) {
  // Issue 46 #2: a row of what the kernel measured (a C0 residency) is
  // scored by the same rules but counted on its own line, never in the
  // benchmark figures the floor guards.
  Row bench = MakeRow(10);
  Row c0_up = MakeRow(80), c0_flat = MakeRow(-1.4), sender = MakeRow(90);
  for (Row* r : {&c0_up, &c0_flat, &sender}) {
    r->measure = "c0_pct_busiest_cpu";
    r->published.unit = "%";
  }
  sender.not_expressible = "the sender is another host";
  const std::vector<ScoredRow> rows = {
      ScoreRow(bench, Sim(5)), ScoreRow(c0_up, Sim(40)),
      ScoreRow(c0_flat, Sim(0.5, 0.6)), ScoreRow(sender, std::nullopt)};
  const Summary s = Summarize(rows, "quick");
  EXPECT_EQ(s.rows, 1);
  EXPECT_EQ(s.directional.rows, 1);
  EXPECT_EQ(s.directional.hits, 1);
  EXPECT_EQ(s.neutral.rows, 0);
  EXPECT_EQ(s.mechanism.rows, 3);
  EXPECT_EQ(s.mechanism.not_expressible, 1);
  EXPECT_EQ(s.mechanism.directional.rows, 2);
  EXPECT_EQ(s.mechanism.directional.hits, 1);
  EXPECT_EQ(s.mechanism.neutral.rows, 1);
  EXPECT_EQ(s.mechanism.neutral.hits, 1);
  EXPECT_EQ(s.mechanism.absolute.rows, 2);
  EXPECT_EQ(s.mechanism.absolute.hits, 2);
  EXPECT_EQ(MechanismLine(s),
            "mechanism rows: direction 1/2 (50%), size within 2x 1/2 (50%), "
            "neutral 1/1 (100%), absolute within 1.5x 2/2 (100%) (3 rows, "
            "0 ambiguous, 1 not expressible)");
  EXPECT_NE(ScoreboardTable(rows, s).find("summary: mechanism rows: "),
            std::string::npos);
  EXPECT_NE(ScoreboardMarkdown(rows, s, "").find("**Mechanism rows**"),
            std::string::npos);
  const OrderedJson j = ScoreboardJson(rows, s);
  EXPECT_EQ(j["summary"]["mechanism"]["rows"], 3);
  EXPECT_EQ(j["summary"]["mechanism"]["directional"]["direction_match"], 1);
  EXPECT_EQ(j["rows"][1]["measure"], "c0_pct_busiest_cpu");
  EXPECT_TRUE(j["rows"][0]["measure"].is_null());
}

TEST(Summary, CountsAndAbsoluteRatio) {
  const Row a = MakeRow(10), b = MakeRow(-10), n = MakeRow(0.5);
  Row no_abs = MakeRow(20);
  no_abs.absolute = false;
  std::vector<ScoredRow> rows = {
      ScoreRow(a, Sim(9, 0.01, 140)),   // match, 2x, abs 1.4
      ScoreRow(b, Sim(-30, 0.01, 40)),  // match, not 2x, abs 0.4
      ScoreRow(n, Sim(0.1, 0.9, 100)),  // agree, abs 1
      ScoreRow(no_abs, Sim(-5, 0.01, 1000)),
  };
  EXPECT_NEAR(rows[0].absolute_ratio, 1.4, 1e-12);
  EXPECT_TRUE(std::isnan(rows[3].absolute_ratio));
  const Summary s = Summarize(rows, "full");
  EXPECT_EQ(s.directional.rows, 3);
  EXPECT_EQ(s.directional.hits, 2);
  EXPECT_EQ(s.size_within_2x, 1);
  EXPECT_EQ(s.neutral.rows, 1);
  EXPECT_EQ(s.neutral.hits, 1);
  EXPECT_EQ(s.absolute.rows, 3);
  EXPECT_EQ(s.absolute.hits, 2);
  EXPECT_NE(SummaryLine(s).find("direction 2/3 (67%)"), std::string::npos)
      << SummaryLine(s);

  const auto j = ScoreboardJson(rows, s);
  ASSERT_EQ(j["rows"].size(), 4u);
  for (const char* key :
       {"id", "seed", "benchmark", "point", "published", "simulated", "class",
        "verdict", "size_ratio", "within_2x", "absolute_ratio", "reason"}) {
    EXPECT_TRUE(j["rows"][0].contains(key)) << key;
  }
  for (const char* key : {"baseline", "variant", "change_pct", "significant"}) {
    EXPECT_TRUE(j["rows"][0]["published"].contains(key)) << key;
  }
  for (const char* key : {"baseline", "variant", "change_pct", "p_value",
                          "coeffvar_baseline_pct", "coeffvar_variant_pct"}) {
    EXPECT_TRUE(j["rows"][0]["simulated"].contains(key)) << key;
  }
  EXPECT_EQ(j["summary"]["directional"]["direction_match"], 2);
}

TEST(Floor, ParsesAndChecks) {
  absl::StatusOr<Floor> f = ParseFloor(
      R"({"tier": "quick", "direction_match": 2, "size_within_2x": 1,
          "neutral_agree": 1, "absolute_within_1_5x": 0})",
      "floor.json");
  ASSERT_TRUE(f.ok()) << f.status();
  Summary s;
  s.tier = "quick";
  s.directional.hits = 2;
  s.size_within_2x = 1;
  s.neutral.hits = 1;
  EXPECT_TRUE(CheckFloor(s, *f).ok());
  s.directional.hits = 1;
  absl::Status below = CheckFloor(s, *f);
  EXPECT_FALSE(below.ok());
  EXPECT_NE(below.message().find("direction_match 1 < 2"), std::string::npos)
      << below;
  s.tier = "full";
  EXPECT_FALSE(CheckFloor(s, *f).ok());
  absl::StatusOr<Floor> bad =
      ParseFloor(R"({"tier": "quick", "direction_match": -1})", "floor.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("floor.json: direction_match"),
            std::string::npos)
      << bad.status();
}

TEST(Floor, CountsOnlyItsOwnSources) {
  // A seed row that matches, and a later source's row that misses without
  // an explanation: a floor naming the seed counts the first alone.
  Row seed = MakeRow(20);
  seed.id = "000/x/1";
  seed.seed = "000";
  Row later = MakeRow(20);
  later.id = "004/x/1";
  later.seed = "004";
  Row later_hit = MakeRow(20);
  later_hit.id = "004/x/2";
  later_hit.seed = "004";
  const std::vector<ScoredRow> rows = {ScoreRow(seed, Sim(15)),
                                       ScoreRow(later, Sim(-3)),
                                       ScoreRow(later_hit, Sim(15))};
  absl::StatusOr<Floor> f = ParseFloor(
      R"({"tier": "quick", "sources": ["000"], "direction_match": 1,
          "size_within_2x": 1, "neutral_agree": 0,
          "absolute_within_1_5x": 0})",
      "floor.json");
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_EQ(f->sources, std::vector<std::string>{"000"});
  const Summary mine = FloorSummary(rows, *f);
  EXPECT_EQ(mine.rows, 1);
  EXPECT_EQ(mine.directional.hits, 1);
  EXPECT_TRUE(CheckFloor(mine, *f).ok());
  // 004's hit does not make up for a seed row lost: the floor of 2 fails
  // on the seed rows though the whole board has 2 matches.
  f->direction_match = 2;
  EXPECT_FALSE(CheckFloor(FloorSummary(rows, *f), *f).ok());
  EXPECT_EQ(Summarize(rows, "quick").directional.hits, 2);
  // Without "sources" every row counts, 004's unexplained miss included.
  f->sources.clear();
  f->direction_match = 1;
  absl::Status all = CheckFloor(FloorSummary(rows, *f), *f);
  EXPECT_FALSE(all.ok());
  EXPECT_NE(all.message().find("004/x/1"), std::string::npos) << all;
  EXPECT_FALSE(
      ParseFloor(R"({"tier": "quick", "sources": "000"})", "f.json").ok());
}

TEST(Floor, FailsOnAMissWithoutAnExplanation) {
  Row explained = MakeRow(20);
  explained.id = "000/x/1";
  explained.mismatch_why = "the model has no IO path";
  Row bare = MakeRow(20);
  bare.id = "000/x/2";
  Row hit = MakeRow(20);
  hit.id = "000/x/3";
  const std::vector<ScoredRow> rows = {ScoreRow(explained, Sim(0.1)),
                                       ScoreRow(bare, Sim(-3)),
                                       ScoreRow(hit, Sim(15))};
  const Summary s = Summarize(rows, "quick");
  ASSERT_EQ(s.unexplained, std::vector<std::string>{"000/x/2"});
  Floor f;
  f.tier = "quick";
  absl::Status st = CheckFloor(s, f);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("000/x/2"), std::string::npos) << st;
  const experiments::OrderedJson j = ScoreboardJson(rows, s);
  EXPECT_EQ(j["rows"][0]["why"], "the model has no IO path");
  EXPECT_TRUE(j["rows"][1]["why"].is_null());
  EXPECT_FALSE(j["rows"][2].contains("why"));
  EXPECT_EQ(j["summary"]["unexplained_misses"].size(), 1u);
  const std::string md = ScoreboardMarkdown(rows, s, "");
  EXPECT_NE(md.find("- `000/x/1`: the model has no IO path"), std::string::npos)
      << md;
  EXPECT_NE(md.find("- `000/x/2`: no explanation yet."), std::string::npos)
      << md;
}

TEST(Floor, TheBuiltInFloorParses) {
  absl::StatusOr<Floor> f =
      ParseFloor(std::string(BuiltinFloorText()), "validation/floor.json");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->tier, "quick");
}

}  // namespace
}  // namespace schedsim::validation
