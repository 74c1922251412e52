// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/compare.h"

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "experiments/experiment.h"
#include "experiments/runner.h"
#include "experiments/test_workload_model.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "topology/presets.h"

namespace schedsim::experiments {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;

// A result with chosen samples (no simulation): variants a (baseline), b
// and c; metrics "score" (higher is better) and "latency" (lower is
// better), both arithmetic, with the same samples:
//   a = {10, 12, 14}, b = {11, 13, 15, 17}, c = {30, 31, 32}.
// statistics_test.cc works a against b by hand: means 12 and 14 (+16.67%),
// stddevs 2 and 2.58199, CoeffVar 16.67% and 18.44%, t = 1.1547,
// df = 4.9592, p = 0.300803, CI half-width 4.46342 = 37.195% of 12.
// a against c: t = 19 / sqrt(4/3 + 1/3) = 14.72, p < 0.01: significant.
class CompareTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<Experiment> e = ParseExperiment(
        R"({"machine": "skylake-e3-1240v5",
            "workload": {"model": "test_compute_sleep"},
            "iterations": 3, "duration_ms": 10, "seed": 3,
            "variants": [{"name": "a", "cpufreq": "performance"},
                         {"name": "b", "cpufreq": "powersave"},
                         {"name": "c", "cpufreq": "performance",
                          "config": {"turbo": false}}]})",
        "exp.json");
    ASSERT_TRUE(e.ok()) << e.status();
    experiment_ = *std::move(e);
    absl::StatusOr<topology::Topology> machine =
        topology::MakePreset("skylake-e3-1240v5");
    ASSERT_TRUE(machine.ok());
    result_.machine =
        std::make_shared<const topology::Topology>(*std::move(machine));
    for (const topology::CState& s : result_.machine->cstates()) {
      result_.cstate_names.push_back(s.name);
    }
    result_.metrics = {
        {"score", "points", true, workloads::MeanKind::kArithmetic, ""},
        {"latency", "us", false, workloads::MeanKind::kArithmetic, ""},
    };
    result_.variants = experiment_.variants;
    absl::StatusOr<platform::Params> params = experiment_.PointParams(0);
    ASSERT_TRUE(params.ok());
    result_.point_params = {*params};
    SetSamples({{10, 12, 14}, {11, 13, 15, 17}, {30, 31, 32}});
  }

  // Per variant, the samples of both metrics.
  void SetSamples(const std::vector<std::vector<double>>& samples) {
    result_.runs.assign(1, std::vector<std::vector<RunResult>>(3));
    for (size_t v = 0; v < samples.size(); ++v) {
      for (double x : samples[v]) {
        RunResult run;
        run.seed = 100 + result_.runs[0][v].size();
        run.metrics = {x, x};
        run.report.duration_s = 0.01;
        run.report.energy_j = 0.1;
        run.report.c0_pct = {50, 20};
        run.report.cstate_pct = {{0, 50}, {0, 80}};
        result_.runs[0][v].push_back(run);
      }
    }
  }

  Experiment experiment_;
  ExperimentResult result_;
};

TEST_F(CompareTest, TableRowsHaveValuesPercentagesAndMarkers) {
  const std::string table = ComparisonTable(experiment_, result_);
  // Title, variants, header.
  EXPECT_THAT(table, HasSubstr("exp.json: test_compute_sleep on "
                               "skylake-e3-1240v5 (8 CPUs), 3 iterations of "
                               "10 ms, seed 3\n"));
  EXPECT_THAT(table, HasSubstr("  b  cpufreq powersave, cpuidle menu, "
                               "placement sis_util\n"));
  EXPECT_THAT(table, HasSubstr("  c  cpufreq performance, cpuidle menu, "
                               "placement sis_util; config turbo=false\n"));
  EXPECT_THAT(table, ContainsRegex("\n +a +b +c\n"));
  EXPECT_THAT(table, HasSubstr("score (points, higher is better)\n"));
  // Without a sweep the rows are labelled with the metric alone.
  EXPECT_THAT(table,
              ContainsRegex("\nMin +score +10.00 \\(   0.00%\\) +11.00 "
                            "\\( \\+10.00%\\) +30.00 \\(\\+200.00%\\)\n"));
  EXPECT_THAT(table,
              ContainsRegex("\nMax +score +14.00 \\(   0.00%\\) +17.00 "
                            "\\( \\+21.43%\\) +32.00 \\(\\+128.57%\\)\n"));
  // b is not significant (p = 0.30), c is (*...*).
  EXPECT_THAT(table,
              ContainsRegex("\nAmean +score +12.00 \\(   0.00%\\) +14.00 "
                            "\\( \\+16.67%\\) +31.00 \\*\\+158.33%\\*\n"));
  // Smaller spread is better: b's larger Stddev and CoeffVar are negative.
  EXPECT_THAT(table, ContainsRegex("\nStddev +score +2.00 \\(   0.00%\\) +2.58 "
                                   "\\( -29.10%\\) +1.00 \\( \\+50.00%\\)\n"));
  EXPECT_THAT(table,
              ContainsRegex("\nCoeffVar +score +16.67 \\(   0.00%\\) +18.44 "
                            "\\( -10.66%\\) +3.23 \\( \\+80.65%\\)\n"));
  EXPECT_THAT(table,
              ContainsRegex("\nDiff +score +- +d=\\+16.67% ±37.20% "
                            "p=30.08% +d=\\+158.33% ±[0-9.]+% p=0.[0-9]+%\n"));
  // Lower is better: the same samples read the other way round.
  EXPECT_THAT(table, HasSubstr("latency (us, lower is better)\n"));
  EXPECT_THAT(table,
              ContainsRegex("\nAmean +latency +12.00 \\(   0.00%\\) +14.00 "
                            "\\( -16.67%\\) +31.00 \\*-158.33%\\*\n"));
  EXPECT_THAT(table, ContainsRegex("\nDiff +latency +- +d=-16.67% ±37.20% "
                                   "p=30.08%"));
}

TEST_F(CompareTest, JsonHoldsTheTestAgainstTheBaseline) {
  OrderedJson j = ResultJson(experiment_, result_);
  EXPECT_EQ(j["sweep"], nullptr);
  const OrderedJson& point = j["points"][0];
  EXPECT_EQ(point["sweep_value"], nullptr);
  const OrderedJson& a = point["variants"]["a"]["metrics"]["score"];
  EXPECT_EQ(a["diff_pct"], 0.0);
  EXPECT_EQ(a["p_value"], nullptr);
  const OrderedJson& b = point["variants"]["b"]["metrics"]["score"];
  EXPECT_EQ(b["samples"].size(), 4u);
  EXPECT_NEAR(b["summary"]["amean"].get<double>(), 14, 1e-12);
  EXPECT_NEAR(b["summary"]["stddev"].get<double>(), 2.58198889747161, 1e-9);
  EXPECT_NEAR(b["diff_pct"].get<double>(), 16.6666666666667, 1e-9);
  EXPECT_NEAR(b["t"].get<double>(), 1.15470053837925, 1e-9);
  EXPECT_NEAR(b["df"].get<double>(), 243.0 / 49.0, 1e-9);
  EXPECT_NEAR(b["p_value"].get<double>(), 0.300802707255176, 1e-9);
  EXPECT_NEAR(b["ci95_pct"].get<double>(), 4.46342296267758 / 12 * 100, 1e-6);
  EXPECT_EQ(b["significant"], false);
  EXPECT_EQ(point["variants"]["c"]["metrics"]["score"]["significant"], true);
  const OrderedJson& latency = point["variants"]["b"]["metrics"]["latency"];
  EXPECT_NEAR(latency["diff_pct"].get<double>(), -16.6666666666667, 1e-9);
  EXPECT_EQ(j["variants"][2]["config"].dump(), R"({"turbo":false})");
}

TEST_F(CompareTest, CsvRows) {
  const std::string csv = ResultCsv(experiment_, result_);
  EXPECT_THAT(csv, HasSubstr(",,b,score,points,sample,3,103,17\n"));
  EXPECT_THAT(csv, HasSubstr(",,b,score,points,amean,,,14\n"));
  EXPECT_THAT(csv, HasSubstr(",,b,score,points,p_value,,,0.3008027073\n"));
  EXPECT_THAT(csv, HasSubstr(",,a,score,points,p_value,,,\n"));
}

// Identical iterations (a deterministic model): a = {10, 10, 10} and
// b = {12, 12, 12} have no spread, so no test; c = {30, 31, 32} varies, so
// a against c is tested on c's spread alone.
TEST_F(CompareTest, IdenticalIterationsHaveNoTestAndAWarning) {
  SetSamples({{10, 10, 10}, {12, 12, 12}, {30, 31, 32}});
  const std::string table = ComparisonTable(experiment_, result_);
  EXPECT_THAT(table, HasSubstr("\nwarning: score: every iteration of a and b "
                               "is identical (no spread): no significance "
                               "test\n"));
  EXPECT_THAT(table, HasSubstr("\nwarning: score: every iteration of a is "
                               "identical (no spread): the test rests on c's "
                               "spread alone\n"));
  EXPECT_THAT(table, HasSubstr("\nwarning: latency: every iteration of a and "
                               "b is identical"));
  // No marker on b's mean, and no p-value or interval on its Diff row; c
  // is still tested (t = 21 / sqrt(1/3), p < 0.05).
  EXPECT_THAT(table,
              ContainsRegex("\nAmean +score +10.00 \\(   0.00%\\) +12.00 "
                            "\\( \\+20.00%\\) +31.00 \\*\\+210.00%\\*\n"));
  EXPECT_THAT(table, ContainsRegex("\nDiff +score +- +d=\\+20.00% ±n/a p=n/a "
                                   "+d=\\+210.00% ±[0-9.]+% p=[0-9.]+%\n"));

  OrderedJson j = ResultJson(experiment_, result_);
  const OrderedJson& point = j["points"][0]["variants"];
  EXPECT_EQ(point["a"]["metrics"]["score"]["identical"], true);
  EXPECT_EQ(point["b"]["metrics"]["score"]["identical"], true);
  EXPECT_EQ(point["c"]["metrics"]["score"]["identical"], false);
  EXPECT_EQ(point["b"]["metrics"]["score"]["p_value"], nullptr);
  EXPECT_EQ(point["b"]["metrics"]["score"]["t"], nullptr);
  EXPECT_EQ(point["b"]["metrics"]["score"]["ci95_pct"], nullptr);
  EXPECT_EQ(point["b"]["metrics"]["score"]["significant"], false);
  EXPECT_NEAR(point["b"]["metrics"]["score"]["diff_pct"].get<double>(), 20,
              1e-9);
  EXPECT_TRUE(point["c"]["metrics"]["score"]["p_value"].is_number());
  EXPECT_EQ(point["c"]["metrics"]["score"]["significant"], true);
  ASSERT_EQ(j["warnings"].size(), 4u);  // 2 metrics x (b, c)
  EXPECT_EQ(j["warnings"][0],
            "score: every iteration of a and b is identical (no spread): no "
            "significance test");
  EXPECT_EQ(SpreadWarnings(experiment_, result_).size(), 4u);

  const std::string csv = ResultCsv(experiment_, result_);
  EXPECT_THAT(csv, HasSubstr(",,b,score,points,p_value,,,\n"));
  EXPECT_THAT(csv, HasSubstr(",,b,score,points,ci95_pct,,,\n"));
}

TEST_F(CompareTest, SpreadEverywhereHasNoWarnings) {
  EXPECT_TRUE(SpreadWarnings(experiment_, result_).empty());
  EXPECT_THAT(ComparisonTable(experiment_, result_),
              ::testing::Not(HasSubstr("warning:")));
  EXPECT_TRUE(ResultJson(experiment_, result_)["warnings"].empty());
}

TEST_F(CompareTest, OneIterationHasNoTest) {
  for (auto& variant : result_.runs[0]) variant.resize(1);
  experiment_.iterations = 1;
  const std::string table = ComparisonTable(experiment_, result_);
  EXPECT_THAT(table, HasSubstr("1 iteration of 10 ms"));
  EXPECT_THAT(table,
              ContainsRegex("\nAmean +score +10.00 \\(   0.00%\\) +11.00 "
                            "\\( \\+10.00%\\)"));
  EXPECT_THAT(table, HasSubstr("d=+10.00% ±n/a p=n/a"));
  // One sample is not "identical iterations": no warning.
  EXPECT_THAT(table, ::testing::Not(HasSubstr("warning:")));
}

TEST_F(CompareTest, ReportsPerSweepPoint) {
  const std::string text = ReportsSection(experiment_, result_);
  EXPECT_THAT(text, HasSubstr("\nReports (means over 3 runs per variant)\n"));
  EXPECT_THAT(text, HasSubstr("%C0 histogram, a (2 CPUs x 3 runs)\n"));
  EXPECT_THAT(text, HasSubstr("20.0000 -  30.0000 [  3]: ***\n"));
  EXPECT_THAT(text, HasSubstr("50.0000 -  60.0000 [  3]: ***\n"));
}

TEST_F(CompareTest, SettledRunsSayHowTheyStoppedAndWhatIsExtrapolated) {
  EXPECT_EQ(SettleSection(experiment_, result_), "");  // nothing settles
  SettleOutcome s;
  s.stop_reason = "settled";
  s.batches = 26;
  s.batch_s = 0.02;
  s.rate = 43009493.75;
  s.ci_low = 42623645.96;
  s.ci_high = 43395341.54;
  s.relative_half_width = 0.00897;
  s.extrapolated_metric = "time_s";
  s.length = "50000 loops";
  s.extrapolated = 59.41585;
  s.extrapolated_low = 58.89307;
  s.extrapolated_high = 59.94810;
  for (auto& variant : result_.runs[0]) variant.resize(1);
  result_.runs[0][0][0].settle = s;
  SettleOutcome fixed;
  fixed.fixed_length = true;
  fixed.stop_reason = "fixed_length";
  result_.runs[0][1][0].settle = fixed;  // b ran its fixed length: no line
  const std::string one = SettleSection(experiment_, result_);
  EXPECT_THAT(one, HasSubstr("  a: 1 settled of 1 runs, after 26 batches of "
                             "20 ms; rate 43009494/s [42623646, 43395342] "
                             "(95%); time_s at 50000 loops: 59.416 [58.893, "
                             "59.948] (95%), extrapolated\n"));
  EXPECT_THAT(one, ::testing::Not(HasSubstr("  b:")));
  EXPECT_THAT(one, HasSubstr("not simulated to the end"));

  // Several runs: how each stopped, the range of batches and of the
  // extrapolated values.
  result_.runs[0][0].resize(3, result_.runs[0][0][0]);
  result_.runs[0][0][1].settle->batches = 40;
  result_.runs[0][0][1].settle->extrapolated = 60.5;
  result_.runs[0][0][2].settle->stop_reason = "max_length";
  const std::string three = SettleSection(experiment_, result_);
  EXPECT_THAT(three, HasSubstr("  a: 1 max_length, 2 settled of 3 runs, after "
                               "26-40 batches of 20 ms"));
  EXPECT_THAT(three, HasSubstr("time_s at 50000 loops, extrapolated: "
                               "59.416-60.500 over the runs"));
}

}  // namespace
}  // namespace schedsim::experiments
