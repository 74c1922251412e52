// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The built-in catalogue: every row the validation issue lists is there
// exactly once, each published change agrees with the published values,
// and every group's experiment file is a valid experiment for both tiers.

#include "validation/catalogue.h"

#include <cmath>
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
  std::set<std::string> got;
  for (const Row& row : c->rows) got.insert(row.id);
  const std::vector<std::string> want = ExpectedIds();
  EXPECT_EQ(c->rows.size(), want.size());
  for (const std::string& id : want) EXPECT_TRUE(got.count(id)) << id;
  EXPECT_EQ(got.size(), c->rows.size());
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
  int not_expressible = 0;
  for (const Row& row : c->rows) {
    EXPECT_FALSE(row.where.empty()) << row.id;
    const auto& source = c->sources[row.seed];
    for (const char* key : {"seed_file", "author", "date", "list", "machine"}) {
      EXPECT_TRUE(source.contains(key)) << row.seed << " " << key;
    }
    if (!row.not_expressible.empty()) ++not_expressible;
  }
  // Every benchmark row has a model since ycsb-mongodb's (2026-12-04); seed
  // 003's two sender %c0 rows are of a host the model does not simulate.
  EXPECT_EQ(not_expressible, 2);
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
    // Every row has a group, but the not-expressible ones.
    size_t expressible = 0;
    for (const Row& row : c->rows) expressible += row.not_expressible.empty();
    EXPECT_EQ(rows, expressible) << tier;
  }
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

}  // namespace
}  // namespace schedsim::validation
