// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The built-in catalogue: every row the validation issue lists is there
// exactly once, each published change agrees with the published values,
// and every group's experiment file is a valid experiment for both tiers.

#include "validation/catalogue.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "experiments/experiment.h"
#include "gtest/gtest.h"
#include "validation/validate.h"

namespace schedsim::validation {
namespace {

std::vector<std::string> ExpectedIds() {
  std::vector<std::string> ids;
  for (const char* fs : {"ext4", "xfs"}) {
    for (const char* p : {"1", "2", "4", "8", "64"}) {
      ids.push_back(absl::StrCat("000/dbench4-", fs, "-latency/", p));
    }
  }
  for (const char* fs : {"ext4", "xfs"}) {
    ids.push_back(absl::StrCat("000/sqlite-insert-", fs, "/trans"));
  }
  for (const char* fs : {"ext4", "xfs"}) {
    for (const char* p : {"1", "4", "7", "8"}) {
      ids.push_back(absl::StrCat("000/pgbench-rw-", fs, "/", p));
    }
  }
  for (const char* p : {"1", "3", "5", "7", "12", "18", "24", "30", "32"}) {
    ids.push_back(absl::StrCat("000/hackbench-pipes-process/", p));
  }
  for (const char* k : {"bt", "cg", "ep", "ft", "is", "lu", "mg", "sp", "ua"}) {
    ids.push_back(absl::StrCat("000/nas-omp-C/", k));
  }
  for (const char* nps : {"1", "2", "4"}) {
    for (const char* g :
         {"1", "2", "4", "8", "16", "32", "64", "128", "256", "512"}) {
      ids.push_back(absl::StrCat("001/hackbench-p-nps", nps, "/", g));
    }
  }
  for (const char* test : {"dhry2reg", "syscall", "pipe", "spawn", "execl"}) {
    for (const char* nps : {"1", "2", "4"}) {
      for (const char* c : {"1", "512"}) {
        ids.push_back(
            absl::StrCat("001/unixbench-", test, "-nps", nps, "/", c));
      }
    }
  }
  for (const char* nps : {"1", "2", "4"}) {
    ids.push_back(absl::StrCat("001/ycsb-mongodb-nps", nps, "/ops"));
  }
  for (const char* p :
       {"cpu_dma_latency=0", "revert-e11538d1", "revert-both"}) {
    ids.push_back(absl::StrCat("003/netperf-tcp-rr/", p));
  }
  // Mechanism rows (issue 46 #2): seed 003's %c0 histograms.
  for (const char* side : {"receiver-c0", "sender-c0"}) {
    for (const char* p : {"revert-e11538d1", "revert-both"}) {
      ids.push_back(absl::StrCat("003/", side, "/", p));
    }
  }
  return ids;
}

TEST(Catalogue, HoldsEveryPublishedRowOnce) {
  absl::StatusOr<Catalogue> c = BuiltinCatalogue();
  ASSERT_TRUE(c.ok()) << c.status();
  // The seed reports' rows (sources 000-003); later sources are checked
  // by the other tests.
  std::set<std::string> got;
  size_t seed_rows = 0;
  for (const Row& row : c->rows) {
    if (row.seed > "003") continue;
    got.insert(row.id);
    ++seed_rows;
  }
  const std::vector<std::string> want = ExpectedIds();
  EXPECT_EQ(seed_rows, want.size());
  for (const std::string& id : want) EXPECT_TRUE(got.count(id)) << id;
  EXPECT_EQ(got.size(), seed_rows);
}

TEST(Catalogue, ChangeAgreesWithTheValues) {
  absl::StatusOr<Catalogue> c = BuiltinCatalogue();
  ASSERT_TRUE(c.ok()) << c.status();
  for (const Row& row : c->rows) {
    const Published& p = row.published;
    double d = (p.variant - p.baseline) / p.baseline * 100.0;
    if (!p.higher_is_better) d = -d;
    // Typed to two decimals from rounded values.
    EXPECT_NEAR(d, p.change_pct, 0.03) << row.id;
    if (p.report_pct) {
      // The report printed the other sign convention.
      EXPECT_NEAR(*p.report_pct, -p.change_pct, 0.03) << row.id;
    }
  }
}

TEST(Catalogue, EveryRowSaysWhereItComesFromAndWhyNot) {
  absl::StatusOr<Catalogue> c = BuiltinCatalogue();
  ASSERT_TRUE(c.ok()) << c.status();
  int seed_not_expressible = 0;
  for (const Row& row : c->rows) {
    EXPECT_FALSE(row.where.empty()) << row.id;
    const auto& source = c->sources[row.seed];
    for (const char* key :
         {"author", "date", "list", "machine", "baseline", "variant"}) {
      EXPECT_TRUE(source.contains(key)) << row.seed << " " << key;
    }
    // The seed reports are files the team has; every later source names
    // the message or page its numbers were read in.
    if (row.seed <= "003") {
      EXPECT_TRUE(source.contains("seed_file")) << row.seed;
      if (!row.not_expressible.empty()) ++seed_not_expressible;
    } else {
      EXPECT_TRUE(source.contains("message_id") || source.contains("url"))
          << row.seed;
    }
  }
  // Every seed benchmark row has a model since ycsb-mongodb's (2026-12-04);
  // seed 003's two sender %c0 mechanism rows are of a host the model does
  // not simulate.
  EXPECT_EQ(seed_not_expressible, 2);
}

TEST(Catalogue, Classes) {
  Published p;
  p.change_pct = 6;
  EXPECT_EQ(Classify(p), RowClass::kDirectional);
  p.significant = false;
  EXPECT_EQ(Classify(p), RowClass::kAmbiguous);
  p.change_pct = -2.9;
  EXPECT_EQ(Classify(p), RowClass::kNeutral);
  p.significant = true;
  p.change_pct = -4;
  EXPECT_EQ(Classify(p), RowClass::kAmbiguous);
  p.change_pct = -40;
  EXPECT_EQ(Classify(p), RowClass::kDirectional);
}

// Every group of both tiers is an experiment `schedsim run` accepts.
TEST(Catalogue, EveryGroupIsAValidExperiment) {
  absl::StatusOr<Catalogue> c = BuiltinCatalogue();
  ASSERT_TRUE(c.ok()) << c.status();
  for (const char* tier : {"quick", "full"}) {
    ValidateOptions options;
    options.tier = tier;
    absl::StatusOr<std::vector<Group>> groups = BuildGroups(*c, options);
    ASSERT_TRUE(groups.ok()) << groups.status();
    size_t rows = 0;
    for (const Group& g : *groups) {
      rows += g.rows.size();
      absl::StatusOr<experiments::Experiment> e =
          experiments::ParseExperiment(g.file.dump(), g.key);
      EXPECT_TRUE(e.ok()) << tier << " " << g.key << ": " << e.status();
      if (!e.ok()) continue;
      bool has_metric = false;
      for (const auto& m : e->model->metrics) {
        has_metric |= m.name == g.experiment_template->metric;
      }
      EXPECT_TRUE(has_metric) << g.key;
      EXPECT_GE(e->variants.size(), 2u) << g.key;
    }
    // Every expressible row of the tier has a group.
    size_t want = 0;
    for (const Row& row : c->rows) {
      if (row.not_expressible.empty() && InTier(row, tier)) ++want;
    }
    EXPECT_EQ(rows, want) << tier;
  }
}

// A template's "settle" rule reaches its groups' experiment files.
TEST(Catalogue, TheTemplatesSettleRuleReachesTheGroup) {
  absl::StatusOr<Catalogue> c = BuiltinCatalogue();
  ASSERT_TRUE(c.ok()) << c.status();
  for (auto& [name, t] : c->experiments) {
    if (name == "003-netperf") t.spec["settle"] = false;
  }
  ValidateOptions options;
  options.only = "^003/netperf";
  absl::StatusOr<std::vector<Group>> groups = BuildGroups(*c, options);
  ASSERT_TRUE(groups.ok()) << groups.status();
  ASSERT_EQ(groups->size(), 1u);
  ASSERT_TRUE((*groups)[0].file.contains("settle"));
  absl::StatusOr<experiments::Experiment> e =
      experiments::ParseExperiment((*groups)[0].file.dump(), "g");
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_TRUE(e->fixed_length);
}

TEST(Catalogue, ErrorsNameThePath) {
  absl::StatusOr<Catalogue> c = ParseCatalogue(
      R"({"sources": {"000": {}}, "experiments": {},
          "rows": [{"id": "000/x/1", "seed": "000", "benchmark": "x",
                    "point": "1", "where": "t",
                    "published": {"baseline": 1, "variant": 2, "unit": "s",
                                  "higher_is_better": false,
                                  "change_pct": "big"}}]})",
      "c.json");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("c.json: rows[0].published.change_pct"),
            std::string::npos)
      << c.status();
  c = ParseCatalogue(
      R"({"sources": {"000": {}}, "experiments": {},
          "rows": [{"id": "000/x/2", "seed": "000", "benchmark": "x",
                    "point": "1", "where": "t",
                    "published": {"baseline": 1, "variant": 2, "unit": "s",
                                  "higher_is_better": false,
                                  "change_pct": -100}}]})",
      "c.json");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("rows[0].id"), std::string::npos)
      << c.status();
  // A mechanism row names a known measure, in its unit.
  c = ParseCatalogue(
      R"({"sources": {"000": {}}, "experiments": {},
          "rows": [{"id": "000/x/1", "seed": "000", "benchmark": "x",
                    "point": "1", "where": "t", "measure": "c0",
                    "not_expressible": "n",
                    "published": {"baseline": 1, "variant": 2, "unit": "%",
                                  "higher_is_better": true,
                                  "change_pct": 100}}]})",
      "c.json");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("c.json: rows[0].measure: unknown "
                                      "measure \"c0\"; known: "
                                      "c0_pct_busiest_cpu"),
            std::string::npos)
      << c.status();
  c = ParseCatalogue(
      R"({"sources": {"000": {}}, "experiments": {},
          "rows": [{"id": "000/x/1", "seed": "000", "benchmark": "x",
                    "point": "1", "where": "t",
                    "measure": "c0_pct_busiest_cpu", "not_expressible": "n",
                    "published": {"baseline": 1, "variant": 2, "unit": "s",
                                  "higher_is_better": true,
                                  "change_pct": 100}}]})",
      "c.json");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("is in \"%\", got \"s\""),
            std::string::npos)
      << c.status();
  c = ParseCatalogue("{\"rows\": [", "c.json");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("c.json"), std::string::npos);
}

TEST(Catalogue, MismatchWhyByRowIdOrBenchmark) {
  const std::string rows = R"("rows": [
      {"id": "000/x/1", "seed": "000", "benchmark": "x", "point": "1",
       "where": "t", "not_expressible": "n",
       "published": {"baseline": 1, "variant": 2, "unit": "s",
                     "higher_is_better": false, "change_pct": -100}},
      {"id": "000/x/2", "seed": "000", "benchmark": "x", "point": "2",
       "where": "t", "not_expressible": "n",
       "published": {"baseline": 1, "variant": 2, "unit": "s",
                     "higher_is_better": false, "change_pct": -100}}])";
  absl::StatusOr<Catalogue> c = ParseCatalogue(
      R"({"sources": {"000": {}}, "experiments": {}, )" + rows +
          R"(, "mismatch_why": {"000/x": "group", "000/x/2": "row"}})",
      "c.json");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->rows[0].mismatch_why, "group");
  EXPECT_EQ(c->rows[1].mismatch_why, "row");
  c = ParseCatalogue(R"({"sources": {"000": {}}, "experiments": {}, )" + rows +
                         R"(, "mismatch_why": {"000/y": "stale"}})",
                     "c.json");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("c.json: mismatch_why.000/y"),
            std::string::npos)
      << c.status();
  EXPECT_NE(c.status().message().find("names no row"), std::string::npos);
  c = ParseCatalogue(R"({"sources": {"000": {}}, "experiments": {}, )" + rows +
                         R"(, "mismatch_why": {"000/x": ""}})",
                     "c.json");
  ASSERT_FALSE(c.ok());
}

// A source's file: one source "<seed>", optionally a template "<seed>-t",
// and rows "<seed>/x/<point>" on template `experiment` (not expressible
// when empty).
std::string SourceFile(const std::string& seed,
                       const std::vector<std::string>& points,
                       const std::string& experiment,
                       const std::string& extra = "") {
  std::string rows;
  for (const std::string& p : points) {
    if (!rows.empty()) rows += ",";
    rows += absl::StrCat(
        R"({"id": ")", seed, "/x/", p, R"(", "seed": ")", seed,
        R"(", "benchmark": "x", "point": ")", p, R"(", "where": "t", )",
        experiment.empty() ? std::string(R"("not_expressible": "n", )")
                           : absl::StrCat(R"("experiment": ")", experiment,
                                          R"(", "machine": "m", )"),
        R"("published": {"baseline": 1, "variant": 2, "unit": "s",
                         "higher_is_better": false, "change_pct": -100}})");
  }
  return absl::StrCat(
      R"({"sources": {")", seed, R"(": {}}, "experiments": {)",
      experiment.empty() || experiment.rfind(seed, 0) != 0
          ? std::string()
          : absl::StrCat(R"(")", experiment,
                         R"(": {"workload": {"model": "w"}, "variants": [],
                       "metric": "m", "tiers": {
                         "quick": {"iterations": 1, "warmup_ms": 0,
                                   "duration_ms": 1},
                         "full": {"iterations": 1, "warmup_ms": 0,
                                  "duration_ms": 1}}})"),
      R"(}, "rows": [)", rows, "]", extra, "}");
}

TEST(Catalogue, SeveralFilesMergeInTheGivenOrder) {
  // 005's row names 004's template; 004's mismatch_why names 005's row.
  absl::StatusOr<Catalogue> c = ParseCatalogueFiles(
      {{"d/004.json", SourceFile("004", {"1", "2"}, "004-t",
                                 R"(, "mismatch_why": {"005/x": "w"})")},
       {"d/005.json", SourceFile("005", {"1"}, "004-t")}},
      "d");
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_EQ(c->rows.size(), 3u);
  EXPECT_EQ(c->rows[0].id, "004/x/1");
  EXPECT_EQ(c->rows[1].id, "004/x/2");
  EXPECT_EQ(c->rows[2].id, "005/x/1");
  EXPECT_EQ(c->rows[2].experiment, "004-t");
  EXPECT_EQ(c->rows[2].mismatch_why, "w");
  EXPECT_EQ(c->rows[0].mismatch_why, "");
  EXPECT_EQ(c->filename, "d");
  EXPECT_TRUE(c->sources.contains("004"));
  EXPECT_TRUE(c->sources.contains("005"));
  // The merged text is the same catalogue as one file (what shards carry).
  absl::StatusOr<Catalogue> again = ParseCatalogue(c->text, "merged.json");
  ASSERT_TRUE(again.ok()) << again.status();
  ASSERT_EQ(again->rows.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(again->rows[i].id, c->rows[i].id);
    EXPECT_EQ(again->rows[i].mismatch_why, c->rows[i].mismatch_why);
  }
  EXPECT_EQ(again->experiments.size(), 1u);
  // One file keeps its own text.
  const std::string one = SourceFile("004", {"1"}, "");
  c = ParseCatalogue(one, "one.json");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->text, one);
}

TEST(Catalogue, SeveralFilesErrorsNameBothFiles) {
  struct Case {
    std::vector<CatalogueFile> files;
    std::string want;
  };
  const std::vector<Case> cases = {
      // the same source twice
      {{{"a.json", SourceFile("004", {"1"}, "")},
        {"b.json", SourceFile("004", {"2"}, "")}},
       "b.json: sources.004: source \"004\" is already in a.json"},
      // the same row id in two files (two sources may not share a seed,
      // so the second file's source is another one with a row of 004)
      {{{"a.json", SourceFile("004", {"1"}, "")},
        {"b.json",
         R"({"sources": {"005": {}}, "experiments": {}, "rows": [
              {"id": "004/x/1", "seed": "004", "benchmark": "x",
               "point": "1", "where": "t", "not_expressible": "n",
               "published": {"baseline": 1, "variant": 2, "unit": "s",
                             "higher_is_better": false,
                             "change_pct": -100}}]})"}},
       "b.json: rows[0].id: duplicate id \"004/x/1\" (also in a.json)"},
      // the same template twice
      {{{"a.json", SourceFile("004", {"1"}, "004-t")},
        {"b.json",
         R"({"sources": {"005": {}}, "rows": [], "experiments": {"004-t":
              {"workload": {}, "variants": [], "metric": "m", "tiers": {
               "quick": {"iterations": 1, "warmup_ms": 0, "duration_ms": 1},
               "full": {"iterations": 1, "warmup_ms": 0,
                        "duration_ms": 1}}}}})"}},
       "b.json: experiments.004-t: template \"004-t\" is already in a.json"},
      // one mismatch_why key in two files
      {{{"a.json",
         SourceFile("004", {"1"}, "", R"(, "mismatch_why": {"004/x": "w"})")},
        {"b.json",
         SourceFile("005", {"1"}, "", R"(, "mismatch_why": {"004/x": "v"})")}},
       "b.json: mismatch_why.004/x: already explained in a.json"},
      // a row naming a template no file has
      {{{"a.json", SourceFile("004", {"1"}, "")},
        {"b.json", SourceFile("005", {"1"}, "004-t")}},
       "b.json: rows[0].experiment: no experiment template \"004-t\""},
      // a file that is not a catalogue
      {{{"a.json", SourceFile("004", {"1"}, "")}, {"b.json", "[]"}}, "b.json"},
  };
  for (const Case& k : cases) {
    absl::StatusOr<Catalogue> c = ParseCatalogueFiles(k.files, "d");
    ASSERT_FALSE(c.ok()) << k.want;
    EXPECT_NE(c.status().message().find(k.want), std::string::npos)
        << c.status() << "\nwant: " << k.want;
  }
  absl::StatusOr<Catalogue> c = ParseCatalogueFiles({}, "d");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("d: no catalogue files"),
            std::string::npos)
      << c.status();
}

TEST(Catalogue, BuiltinIsOneFilePerSourceInNameOrder) {
  const std::vector<CatalogueFile> files = BuiltinCatalogueFiles();
  ASSERT_GE(files.size(), 3u);
  absl::StatusOr<Catalogue> c = BuiltinCatalogue();
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->filename, "validation/catalogue");
  std::string last_seed;
  size_t at = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    if (i > 0) {
      EXPECT_LT(files[i - 1].name, files[i].name);
    }
    EXPECT_EQ(files[i].name.rfind("validation/catalogue/", 0), 0u)
        << files[i].name;
    absl::StatusOr<Catalogue> one =
        ParseCatalogueFiles({files[i]}, files[i].name);
    // A file alone may name another file's template, so only the sources
    // are checked file by file.
    if (!one.ok()) continue;
    ASSERT_EQ(one->sources.size(), 1u) << files[i].name;
    // The file is named after its source, and its rows come in order.
    const std::string seed = one->sources.begin().key();
    EXPECT_EQ(files[i].name,
              absl::StrCat("validation/catalogue/", seed, ".json"));
    for (const Row& row : one->rows) {
      ASSERT_LT(at, c->rows.size());
      EXPECT_EQ(c->rows[at++].id, row.id);
    }
  }
  EXPECT_EQ(at, c->rows.size());
}

TEST(Catalogue, ReadsAFileOrADirectory) {
  const std::string dir = absl::StrCat(
      getenv("TEST_TMPDIR") ? getenv("TEST_TMPDIR") : "/tmp", "/cat_dir");
  std::filesystem::create_directories(dir);
  auto write = [](const std::string& path, const std::string& text) {
    std::ofstream(path) << text;
  };
  // Name order, not the order written; a file not *.json is ignored.
  write(dir + "/010.json", SourceFile("010", {"1"}, ""));
  write(dir + "/002.json", SourceFile("002", {"1"}, ""));
  write(dir + "/README", "not json");
  absl::StatusOr<Catalogue> c = ReadCatalogue(dir);
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_EQ(c->rows.size(), 2u);
  EXPECT_EQ(c->rows[0].id, "002/x/1");
  EXPECT_EQ(c->rows[1].id, "010/x/1");
  c = ReadCatalogue(dir + "/010.json");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->rows.size(), 1u);
  write(dir + "/005.json", "{");
  c = ReadCatalogue(dir);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find(dir + "/005.json"), std::string::npos)
      << c.status();
  c = ReadCatalogue(dir + "/missing");
  ASSERT_FALSE(c.ok());
}

TEST(Catalogue, QuickSampleAndTheNotExpressibleList) {
  const std::string rows = R"("rows": [
      {"id": "004/x/1", "seed": "004", "benchmark": "x", "point": "1",
       "where": "t", "not_expressible": "no model of y",
       "published": {"baseline": 1, "variant": 2, "unit": "s",
                     "higher_is_better": false, "change_pct": -100}},
      {"id": "004/z/2", "seed": "004", "benchmark": "z", "point": "2",
       "where": "t", "not_expressible": "no model of y",
       "published": {"baseline": 1, "variant": 2, "unit": "s",
                     "higher_is_better": false, "change_pct": -100}},
      {"id": "004/x/3", "seed": "004", "benchmark": "x", "point": "3",
       "where": "t", "not_expressible": "machine w", "quick": false,
       "published": {"baseline": 1, "variant": 2, "unit": "s",
                     "higher_is_better": false, "change_pct": -100}}])";
  absl::StatusOr<Catalogue> c = ParseCatalogue(
      R"({"sources": {"004": {}}, "experiments": {}, )" + rows + "}", "c.json");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE(c->rows[0].quick);
  EXPECT_FALSE(c->rows[2].quick);
  EXPECT_TRUE(InTier(c->rows[0], "quick"));
  EXPECT_FALSE(InTier(c->rows[2], "quick"));
  EXPECT_TRUE(InTier(c->rows[2], "full"));
  const std::string list = NotExpressibleList(*c, nullptr);
  EXPECT_NE(list.find("not expressible: 3 rows, 2 reasons"), std::string::npos)
      << list;
  EXPECT_NE(list.find("- no model of y\n    004/x (1), 004/z (1)\n"),
            std::string::npos)
      << list;
  EXPECT_NE(list.find("- machine w\n    004/x (1)\n"), std::string::npos)
      << list;
  const std::regex only("^004/z");
  EXPECT_NE(NotExpressibleList(*c, &only).find("1 rows, 1 reasons"),
            std::string::npos);
  const std::regex none("^009");
  EXPECT_EQ(NotExpressibleList(*c, &none), "");
  c = ParseCatalogue(R"({"sources": {"004": {}}, "experiments": {},
      "rows": [{"id": "004/x/1", "seed": "004", "benchmark": "x",
                "point": "1", "where": "t", "not_expressible": "n",
                "quick": "no",
                "published": {"baseline": 1, "variant": 2, "unit": "s",
                              "higher_is_better": false,
                              "change_pct": -100}}]})",
                     "c.json");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("rows[0].quick"), std::string::npos)
      << c.status();
}

// The quick tier runs a source's sample only; the full tier every row.
TEST(Catalogue, QuickTierRunsTheSampleOnly) {
  absl::StatusOr<Catalogue> c = BuiltinCatalogue();
  ASSERT_TRUE(c.ok()) << c.status();
  size_t out_of_quick = 0;
  for (const Row& row : c->rows) {
    if (!row.quick) ++out_of_quick;
    // The seed reports run whole in both tiers.
    if (row.seed <= "003") {
      EXPECT_TRUE(row.quick) << row.id;
    }
  }
  ASSERT_GT(out_of_quick, 0u);
  size_t quick_rows = 0, full_rows = 0;
  for (const char* tier : {"quick", "full"}) {
    ValidateOptions options;
    options.tier = tier;
    absl::StatusOr<std::vector<Group>> groups = BuildGroups(*c, options);
    ASSERT_TRUE(groups.ok()) << groups.status();
    for (const Group& g : *groups) {
      for (const Row* row : g.rows) {
        if (std::string(tier) == "quick") {
          EXPECT_TRUE(row->quick) << row->id;
          ++quick_rows;
        } else {
          ++full_rows;
        }
      }
    }
  }
  size_t expressible = 0, expressible_quick = 0;
  for (const Row& row : c->rows) {
    if (!row.not_expressible.empty()) continue;
    ++expressible;
    if (row.quick) ++expressible_quick;
  }
  EXPECT_EQ(full_rows, expressible);
  EXPECT_EQ(quick_rows, expressible_quick);
}

}  // namespace
}  // namespace schedsim::validation
