// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// `schedsim validate` end to end on a small catalogue of the test workload
// model (experiments/test_workload_model.h): the JSON keys, the verdicts,
// --only, --check-floor, --out and the errors.

#include "validation/validate_command.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "cli/merge_command.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "validation/catalogue.h"
#include "validation/validate.h"

namespace schedsim::validation {
namespace {

// Two variants of one compute-and-sleep model: the second computes twice
// as much per op, so its ops/s is lower (a published loss is matched) and
// its op latency higher.
constexpr char kCatalogue[] = R"({
 "sources": {"900": {"seed_file": "none", "author": "a test", "date": "2026",
                     "list": "none", "machine": "skylake-e3-1240v5"}},
 "experiments": {
  "t": {"machine": "skylake-e3-1240v5",
        "workload": {"model": "test_compute_sleep", "params": {"sleep_us": 100}},
        "sweep": "tasks",
        "variants": [{"name": "base"},
                     {"name": "slow", "config": {"context_switch_ns": 200000}}],
        "metric": "ops_per_s",
        "tiers": {"quick": {"iterations": 2, "warmup_ms": 1, "duration_ms": 20},
                  "full": {"iterations": 3, "warmup_ms": 1, "duration_ms": 30}}}
 },
 "rows": [
  {"id": "900/t-loss/1", "seed": "900", "benchmark": "t-loss", "point": "1",
   "where": "test", "experiment": "t", "params": {"tasks": 1},
   "published": {"baseline": 2000, "variant": 1000, "unit": "ops/s",
                 "higher_is_better": true, "change_pct": -50}},
  {"id": "900/t-loss/2", "seed": "900", "benchmark": "t-loss", "point": "2",
   "where": "test", "experiment": "t", "params": {"tasks": 2},
   "published": {"baseline": 4000, "variant": 4000, "unit": "ops/s",
                 "higher_is_better": true, "change_pct": 0}},
  {"id": "900/t-gap/x", "seed": "900", "benchmark": "t-gap", "point": "x",
   "where": "test", "not_expressible": "no model of x",
   "published": {"baseline": 1, "variant": 2, "unit": "ops/s",
                 "higher_is_better": true, "change_pct": 100}}
 ]
})";

std::string TempFile(const std::string& name, const std::string& text) {
  const std::string path =
      (std::filesystem::path(testing::TempDir()) / name).string();
  std::ofstream(path) << text;
  return path;
}

int Validate(const std::vector<std::string>& args, std::string* out,
             std::string* err) {
  std::ostringstream o, e;
  const int rc = ValidateCommand(args, o, e);
  *out = o.str();
  *err = e.str();
  return rc;
}

int Merge(const std::vector<std::string>& args, std::string* out,
          std::string* err) {
  static const bool registered = RegisterValidateMerger();
  EXPECT_TRUE(registered);
  std::ostringstream o, e;
  const int rc = cli::MergeCommand(args, o, e);
  *out = o.str();
  *err = e.str();
  return rc;
}

TEST(ValidateCommand, MergedShardsGiveTheUnshardedScoreboard) {
  const std::string cat = TempFile("cat-shard.json", kCatalogue);
  const std::string dir =
      (std::filesystem::path(testing::TempDir()) / "validate-shards").string();
  std::filesystem::remove_all(dir);
  std::string whole, out, err;
  ASSERT_EQ(Validate({"--catalogue=" + cat, "--jobs=1", "--out=" + dir + "/w"},
                     &whole, &err),
            0)
      << err;
  for (int n : {1, 3}) {
    const std::string shards = dir + "/n" + std::to_string(n);
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(
          Validate({"--catalogue=" + cat, "--jobs=1", "--out=" + shards,
                    "--shard=" + std::to_string(i) + "/" + std::to_string(n)},
                   &out, &err),
          0)
          << err;
      EXPECT_EQ(out, "");
    }
    ASSERT_EQ(Merge({shards, "--out=" + dir + "/m"}, &out, &err), 0) << err;
    EXPECT_EQ(out, whole);
    for (const char* f :
         {"scoreboard.json", "scoreboard.md", "scoreboard.txt"}) {
      std::ifstream a(dir + "/w/" + f), b(dir + "/m/" + f);
      std::stringstream ta, tb;
      ta << a.rdbuf();
      tb << b.rdbuf();
      EXPECT_EQ(ta.str(), tb.str()) << f;
    }
  }
  // Shards of other settings do not mix.
  ASSERT_EQ(Validate({"--catalogue=" + cat, "--jobs=1", "--seed=2",
                      "--out=" + dir + "/s2", "--shard=1/3"},
                     &out, &err),
            0);
  EXPECT_EQ(Merge({dir + "/n3/shard-0-of-3.json", dir + "/n3/shard-2-of-3.json",
                   dir + "/s2"},
                  &out, &err),
            1);
  EXPECT_NE(err.find("different settings"), std::string::npos) << err;
  EXPECT_EQ(Merge({dir + "/n3", "--format=csv"}, &out, &err), 2);
  EXPECT_NE(err.find("table, json or markdown"), std::string::npos) << err;
  EXPECT_EQ(Validate({"--catalogue=" + cat, "--shard=0/2", "--check-floor"},
                     &out, &err),
            2);
  EXPECT_NE(err.find("--shard writes a partial result"), std::string::npos);
}

TEST(ValidateCommand, JsonHasEveryRowAndTheSummary) {
  const std::string cat = TempFile("cat.json", kCatalogue);
  std::string out, err;
  ASSERT_EQ(
      Validate({"--catalogue=" + cat, "--format=json", "--jobs=2"}, &out, &err),
      0)
      << err;
  const nlohmann::json j = nlohmann::json::parse(out);
  EXPECT_EQ(j["schema_version"], 1);
  ASSERT_EQ(j["rows"].size(), 3u);
  EXPECT_EQ(j["rows"][0]["id"], "900/t-loss/1");
  EXPECT_EQ(j["rows"][0]["class"], "directional");
  EXPECT_TRUE(j["rows"][0]["simulated"].is_object());
  EXPECT_EQ(j["rows"][1]["class"], "neutral");
  EXPECT_EQ(j["rows"][2]["verdict"], "not-expressible");
  EXPECT_TRUE(j["rows"][2]["simulated"].is_null());
  EXPECT_EQ(j["rows"][2]["reason"], "no model of x");
  EXPECT_EQ(j["summary"]["rows"], 3);
  EXPECT_EQ(j["summary"]["not_expressible"], 1);
  EXPECT_NE(err.find("estimated"), std::string::npos) << err;
  EXPECT_NE(err.find("summary: direction"), std::string::npos) << err;
}

TEST(ValidateCommand, OnlyAndTableAndOut) {
  const std::string cat = TempFile("cat2.json", kCatalogue);
  const std::string dir =
      (std::filesystem::path(testing::TempDir()) / "vout").string();
  std::string out, err;
  ASSERT_EQ(Validate({"--catalogue=" + cat, "--only=t-loss/1$", "--out=" + dir,
                      "--progress"},
                     &out, &err),
            0)
      << err;
  EXPECT_NE(out.find("900/t-loss/1"), std::string::npos) << out;
  EXPECT_EQ(out.find("900/t-loss/2"), std::string::npos) << out;
  EXPECT_NE(out.find("summary: direction"), std::string::npos) << out;
  EXPECT_NE(err.find("[  1/1] 900/t-loss/1"), std::string::npos) << err;
  EXPECT_TRUE(std::filesystem::exists(dir + "/scoreboard.json"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/scoreboard.md"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/experiments/t.json"));
}

// RunValidation reports every run as it finishes (the terminal's progress
// line redraws on each), not only each group's end.
TEST(ValidateCommand, RunProgressAfterEveryRun) {
  absl::StatusOr<Catalogue> cat = ParseCatalogue(kCatalogue, "cat.json");
  ASSERT_TRUE(cat.ok()) << cat.status();
  ValidateOptions options;
  options.jobs = 1;
  std::vector<std::pair<int, int>> calls;
  options.run_progress = [&](int done, int total) {
    calls.emplace_back(done, total);
  };
  int groups_reported = 0;
  options.progress = [&](const std::vector<ScoredRow>&, int, int, double) {
    ++groups_reported;
  };
  absl::StatusOr<ValidationResult> r = RunValidation(*cat, options);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_FALSE(calls.empty());
  const int total = calls.back().second;
  EXPECT_EQ(static_cast<int>(calls.size()), total);
  for (size_t i = 0; i < calls.size(); ++i) {
    EXPECT_EQ(calls[i].first, static_cast<int>(i) + 1);
    EXPECT_EQ(calls[i].second, total);
  }
  EXPECT_GT(static_cast<int>(calls.size()), groups_reported);
}

TEST(ValidateCommand, RobustnessPerRow) {
  const std::string cat = TempFile("cat4.json", kCatalogue);
  std::string out, err;
  ASSERT_EQ(Validate({"--catalogue=" + cat, "--only=t-loss/1$",
                      "--robustness=20", "--format=json"},
                     &out, &err),
            0)
      << err;
  const nlohmann::json j = nlohmann::json::parse(out);
  ASSERT_EQ(j["rows"].size(), 1u);
  ASSERT_TRUE(j["rows"][0].contains("robustness")) << j.dump(1);
  EXPECT_TRUE(j["rows"][0]["robustness"]["sign_holds"].is_boolean());
  EXPECT_TRUE(j["rows"][0]["robustness"]["flipped_by"].is_array());
  EXPECT_NE(err.find("robustness re-runs included"), std::string::npos) << err;
}

TEST(ValidateCommand, FloorFailsBelow) {
  const std::string cat = TempFile("cat3.json", kCatalogue);
  const std::string floor =
      TempFile("floor.json",
               R"({"tier": "quick", "direction_match": 5, "size_within_2x": 0,
          "neutral_agree": 0, "absolute_within_1_5x": 0})");
  std::string out, err;
  EXPECT_EQ(Validate({"--catalogue=" + cat, "--floor=" + floor}, &out, &err),
            1);
  EXPECT_NE(err.find("below the committed floor"), std::string::npos) << err;
  EXPECT_NE(err.find("direction_match"), std::string::npos) << err;
}

TEST(ValidateCommand, UsageErrors) {
  std::string out, err;
  EXPECT_EQ(Validate({"--tier=slow"}, &out, &err), 2);
  EXPECT_NE(err.find("--tier must be quick or full"), std::string::npos);
  EXPECT_EQ(Validate({"--format=xml"}, &out, &err), 2);
  EXPECT_EQ(Validate({"--robustness=200"}, &out, &err), 2);
  EXPECT_EQ(Validate({"--bogus"}, &out, &err), 2);
  EXPECT_EQ(Validate({"--only=("}, &out, &err), 1);
  EXPECT_NE(err.find("--only"), std::string::npos) << err;
  const std::string bad = TempFile("bad.json", "{\"rows\": 3}");
  EXPECT_EQ(Validate({"--catalogue=" + bad}, &out, &err), 1);
  EXPECT_NE(err.find("bad.json"), std::string::npos) << err;
  EXPECT_EQ(Validate({"--catalogue=/nonexistent/cat.json"}, &out, &err), 1);
  EXPECT_NE(err.find("/nonexistent/cat.json"), std::string::npos) << err;
}

TEST(ValidateCommand, SeedsLineUpEachSeedsScoreboard) {
  const std::string cat = TempFile("cat-seeds.json", kCatalogue);
  std::string out, err;
  ASSERT_EQ(Validate({"--catalogue=" + cat, "--jobs=2", "--seeds=1,7",
                      "--format=json"},
                     &out, &err),
            0)
      << err;
  const nlohmann::json j = nlohmann::json::parse(out);
  EXPECT_EQ(j["seeds"], nlohmann::json::array({1, 7}));
  ASSERT_EQ(j["per_seed"].size(), 2u);
  ASSERT_EQ(j["rows"].size(), 3u);
  int hold = 0;
  for (const auto& row : j["rows"]) {
    ASSERT_EQ(row["verdicts"].size(), 2u);
    ASSERT_EQ(row["change_pct"].size(), 2u);
    EXPECT_EQ(row["holds"], row["verdicts"][0] == row["verdicts"][1]);
    hold += row["holds"].get<bool>();
  }
  EXPECT_EQ(j["summary"]["hold"], hold);
  EXPECT_EQ(j["rows"][2]["verdicts"][1], "not-expressible");
  EXPECT_TRUE(j["rows"][2]["change_pct"][0].is_null());
  // Each seed's summary is what a run at that seed alone gives.
  for (int k = 0; k < 2; ++k) {
    const std::string seed = k == 0 ? "1" : "7";
    std::string one, one_err;
    ASSERT_EQ(Validate({"--catalogue=" + cat, "--jobs=1", "--seed=" + seed,
                        "--format=json"},
                       &one, &one_err),
              0)
        << one_err;
    const nlohmann::json s = nlohmann::json::parse(one);
    EXPECT_EQ(j["per_seed"][k]["seed"], std::stoi(seed));
    EXPECT_EQ(j["per_seed"][k]["summary"], s["summary"]) << seed;
    for (int r = 0; r < 2; ++r) {
      EXPECT_EQ(j["rows"][r]["verdicts"][k], s["rows"][r]["verdict"]);
      EXPECT_EQ(j["rows"][r]["change_pct"][k],
                s["rows"][r]["simulated"]["change_pct"]);
    }
  }
  EXPECT_NE(err.find("(2 seeds)"), std::string::npos) << err;
  EXPECT_NE(err.find("seed 7: direction"), std::string::npos) << err;
  EXPECT_NE(err.find("verdicts hold at every seed for"), std::string::npos)
      << err;
  // The table names the seeds and ends with the same line.
  ASSERT_EQ(Validate({"--catalogue=" + cat, "--seeds=1,7"}, &out, &err), 0);
  EXPECT_NE(out.find("seed 1: direction"), std::string::npos) << out;
  EXPECT_NE(out.find("(seeds 1, 7)"), std::string::npos) << out;

  for (const std::vector<std::string>& bad :
       std::vector<std::vector<std::string>>{
           {"--seeds=1"},
           {"--seeds=1,1"},
           {"--seeds=1,x"},
           {"--seeds=1,,2"},
           {"--seeds=1,2", "--seed=3"},
           {"--seeds=1,2", "--check-floor"},
           {"--seeds=1,2", "--shard=0/2"},
           {"--seeds=1,2", "--format=markdown"},
           {"--seeds=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17"}}) {
    std::vector<std::string> args = {"--catalogue=" + cat};
    args.insert(args.end(), bad.begin(), bad.end());
    EXPECT_EQ(Validate(args, &out, &err), 2) << bad.back();
    EXPECT_NE(err.find("--seeds"), std::string::npos) << err;
  }
}

TEST(ValidateCommand, ListsTheBuiltInCatalogue) {
  std::string out, err;
  ASSERT_EQ(Validate({"--list"}, &out, &err), 0) << err;
  EXPECT_NE(out.find("001/hackbench-p-nps4/512"), std::string::npos);
  EXPECT_NE(out.find("group 000-pgbench"), std::string::npos) << out;
  // Every row names the kernel its report ran (issue 44).
  // The list ends with the not expressible rows' reasons.
  const size_t todo = out.find("\nnot expressible: ");
  ASSERT_NE(todo, std::string::npos) << out;
  for (absl::string_view line :
       absl::StrSplit(absl::string_view(out).substr(0, todo), '\n')) {
    if (line.empty() || absl::StartsWith(line, "group ")) continue;
    const std::vector<absl::string_view> fields =
        absl::StrSplit(line, ' ', absl::SkipEmpty());
    ASSERT_GE(fields.size(), 4u) << line;
    // A row no experiment runs (not expressible) runs no kernel.
    if (absl::StrContains(line, "not expressible")) continue;
    EXPECT_NE(fields[2], "-") << line;
  }
}

// Issue 49 #5: --only filtered the group lines but listed all 104 rows.
TEST(ValidateCommand, ListWithOnlyListsTheMatchingRowsOnly) {
  std::string out, err;
  ASSERT_EQ(Validate({"--list", "--only=^003/"}, &out, &err), 0) << err;
  // The rows, before the not expressible rows' reasons at the end.
  const absl::string_view rows_part =
      absl::string_view(out).substr(0, out.find("\nnot expressible: "));
  int rows = 0;
  for (absl::string_view line : absl::StrSplit(rows_part, '\n')) {
    if (line.empty() || absl::StartsWith(line, "group ")) continue;
    ++rows;
    EXPECT_TRUE(absl::StartsWith(line, "003/")) << line;
  }
  EXPECT_GT(rows, 0);
  EXPECT_LT(rows, 20);
  EXPECT_EQ(out.find("001/hackbench"), std::string::npos) << out;
  EXPECT_NE(out.find("group 003-netperf"), std::string::npos) << out;
}

}  // namespace
}  // namespace schedsim::validation
