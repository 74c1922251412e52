// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "cli/run_command.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "cli/shadow_command.h"
#include "experiments/run_wiring.h"
#include "experiments/test_workload_model.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "topology/presets.h"
#include "traces/ftrace.h"
#include "traces/ftrace_convert.h"
#include "traces/ftrace_writer.h"
#include "workloads/model_registry.h"

namespace schedsim::cli {

using experiments::kTestModelName;
using experiments::RunOnce;
using experiments::RunOutput;
using experiments::RunSpec;
namespace {

struct Result {
  int code;
  std::string out;
  std::string err;
};

Result RunSchedsimRun(std::vector<std::string> args) {
  std::ostringstream out, err;
  int code = RunCommand(args, out, err);
  return {code, out.str(), err.str()};
}

std::string TempDir() {
  const char* dir = std::getenv("TEST_TMPDIR");
  return dir != nullptr ? dir : "/tmp";
}

std::string WriteTemp(const std::string& name, const std::string& text) {
  std::string path = TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

constexpr char kExperiment[] = R"({
  "description": "the test model at the highest and the lowest frequency",
  "machine": "skylake-e3-1240v5",
  "workload": {"model": "test_compute_sleep",
               "params": {"cycles": 400000, "sleep_us": 300}},
  "sweep": {"param": "tasks", "values": [1, 4]},
  "iterations": 3,
  "seed": 7,
  "duration_ms": 20,
  "variants": [
    {"name": "baseline", "cpufreq": "performance"},
    {"name": "powersave", "cpufreq": "powersave"}
  ]
})";

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The lines of `text` that start with `prefix`.
std::vector<std::string> LinesStartingWith(const std::string& text,
                                           const std::string& prefix) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) == 0) lines.push_back(line);
  }
  return lines;
}

class RunCommandTest : public ::testing::Test {
 protected:
  void SetUp() override { file_ = WriteTemp("exp.json", kExperiment); }
  std::string file_;
};

TEST_F(RunCommandTest, JsonResultHasSamplesSummariesAndTests) {
  Result r = RunSchedsimRun({file_, "--format=json", "--jobs=1"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["experiment"], file_);
  EXPECT_EQ(j["schedsim"]["version"], "0.1.0");
  EXPECT_TRUE(j["schedsim"]["commit"].is_string());
  EXPECT_EQ(j["machine"], "skylake-e3-1240v5");
  EXPECT_EQ(j["num_cpus"], 8);
  EXPECT_EQ(j["workload"]["model"], kTestModelName);
  EXPECT_EQ(j["sweep"]["param"], "tasks");
  EXPECT_EQ(j["sweep"]["values"], nlohmann::json({1, 4}));
  EXPECT_EQ(j["iterations"], 3);
  EXPECT_EQ(j["seed"], 7);
  EXPECT_EQ(j["baseline"], "baseline");
  ASSERT_EQ(j["variants"].size(), 2u);
  EXPECT_EQ(j["variants"][1]["cpufreq"]["name"], "powersave");
  EXPECT_EQ(j["variants"][1]["cpuidle"]["name"], "menu");
  ASSERT_EQ(j["metrics"].size(), 2u);
  EXPECT_EQ(j["metrics"][0]["mean"], "hmean");

  ASSERT_EQ(j["points"].size(), 2u);
  for (const nlohmann::json& point : j["points"]) {
    EXPECT_TRUE(point["params"].contains("cycles"));
    for (const char* variant : {"baseline", "powersave"}) {
      SCOPED_TRACE(variant);
      const nlohmann::json& v = point["variants"][variant];
      for (const char* metric : {"ops_per_s", "op_latency_us"}) {
        SCOPED_TRACE(metric);
        const nlohmann::json& m = v["metrics"][metric];
        EXPECT_TRUE(m["unit"].is_string());
        EXPECT_TRUE(m["higher_is_better"].is_boolean());
        ASSERT_EQ(m["samples"].size(), 3u);
        for (const char* key : {"n", "amean", "hmean", "gmean", "stddev",
                                "coeffvar", "min", "max"}) {
          EXPECT_TRUE(m["summary"][key].is_number()) << key;
        }
        EXPECT_EQ(m["summary"]["n"], 3);
        EXPECT_TRUE(m["diff_pct"].is_number());
        for (const char* key : {"p_value", "t", "df", "ci95_pct"}) {
          // No test of the baseline against itself.
          EXPECT_EQ(m[key].is_null(), std::string(variant) == "baseline")
              << key;
        }
        EXPECT_TRUE(m["significant"].is_boolean());
      }
      EXPECT_EQ(v["metrics"]["ops_per_s"]["unit"], "ops/s");
      EXPECT_EQ(v["metrics"]["ops_per_s"]["higher_is_better"], true);
      EXPECT_EQ(v["metrics"]["op_latency_us"]["higher_is_better"], false);
      // The reports, over the iterations and per run.
      const nlohmann::json& report = v["report"];
      int cpus_in_histogram = 0;
      for (const nlohmann::json& bin : report["c0_histogram"]) {
        cpus_in_histogram += bin["count"].get<int>();
      }
      EXPECT_EQ(cpus_in_histogram, 8 * 3);
      EXPECT_EQ(report["c0_pct"].size(), 8u);
      EXPECT_TRUE(report["cstate_avg_pct"].contains("C6"));
      EXPECT_GT(report["energy_j"].get<double>(), 0);
      EXPECT_EQ(report["energy_per_op_metric"], "ops_per_s");
      EXPECT_GT(report["energy_per_op_j"].get<double>(), 0);
      EXPECT_GT(report["avg_busy_mhz"].get<double>(), 0);
      EXPECT_TRUE(report["placement"].contains("probes_per_search"));
      ASSERT_EQ(v["runs"].size(), 3u);
      const nlohmann::json& run = v["runs"][2];
      EXPECT_EQ(run["iteration"], 2);
      EXPECT_TRUE(run["seed"].is_number_unsigned());
      EXPECT_TRUE(run["metrics"]["ops_per_s"].is_number());
      EXPECT_EQ(run["report"]["c0_pct"].size(), 8u);
      EXPECT_TRUE(run["report"]["cstate_pct"].contains("C1"));
      EXPECT_GT(run["report"]["energy_j"].get<double>(), 0);
      EXPECT_TRUE(run["report"]["placement"].contains("searches"));
    }
    // Paired runs: iteration i has the same seed in every variant.
    EXPECT_EQ(point["variants"]["baseline"]["runs"][1]["seed"],
              point["variants"]["powersave"]["runs"][1]["seed"]);
  }
  // The lowest frequency loses throughput: negative is worse.
  EXPECT_LT(j["points"][0]["variants"]["powersave"]["metrics"]["ops_per_s"]
             ["diff_pct"]
                 .get<double>(),
            0);
}

// docs/experiments-results.md names every key of the JSON result, and
// docs/experiments.md ("Robustness") those of its robustness section.
TEST_F(RunCommandTest, DocsNameEveryJsonKey) {
  Result r = RunSchedsimRun(
      {file_, "--format=json", "--iterations=2", "--robustness"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  const std::string docs = ReadFile("docs/experiments-results.md");
  ASSERT_FALSE(docs.empty())
      << "docs/experiments-results.md is a data dependency";
  const std::string robustness_docs = ReadFile("docs/experiments.md");
  ASSERT_FALSE(robustness_docs.empty())
      << "docs/experiments.md is a data dependency";
  auto documented_in = [&](const std::string& page,
                           const nlohmann::json& object) {
    for (const auto& item : object.items()) {
      EXPECT_THAT(page, ::testing::HasSubstr("`" + item.key() + "`"))
          << item.key();
    }
  };
  auto documented = [&](const nlohmann::json& object) {
    documented_in(docs, object);
  };
  const nlohmann::json& v = j["points"][0]["variants"]["powersave"];
  ASSERT_FALSE(v["report"]["busy_pct_at_khz"].empty());
  ASSERT_FALSE(v["runs"][0]["report"]["busy_ns_at_khz"].empty());
  documented(j);
  documented(j["points"][0]);
  documented(j["variants"][0]);
  documented(j["metrics"][0]);
  documented(v);
  documented(v["metrics"]["ops_per_s"]);
  documented(v["metrics"]["ops_per_s"]["summary"]);
  documented(v["report"]);
  documented(v["report"]["c0_histogram"][0]);
  documented(v["report"]["busy_pct_at_khz"][0]);
  documented(v["report"]["placement"]);
  documented(v["runs"][0]);
  documented(v["runs"][0]["report"]);
  documented(v["runs"][0]["report"]["busy_ns_at_khz"][0]);
  documented(v["runs"][0]["report"]["placement"]);
  ASSERT_FALSE(j["robustness"].empty());
  documented_in(robustness_docs, j["robustness"][0]);
  documented_in(robustness_docs, j["robustness"][0]["scaled"][0]);
}

// --robustness: one verdict per metric x sweep point x non-baseline
// variant, in the JSON and in the table.
// docs/traces.md's replay experiment runs as written: the "replay" model
// from the command line, on a trace-cmd .dat file.
TEST_F(RunCommandTest, TracesDocReplayExampleRuns) {
  const std::string docs = ReadFile("docs/traces.md");
  const size_t section = docs.find("the workload model `replay`");
  ASSERT_NE(section, std::string::npos)
      << "docs/traces.md is a data dependency";
  size_t start = docs.find("```json\n", section);
  ASSERT_NE(start, std::string::npos);
  start += 8;
  const size_t end = docs.find("```", start);
  const std::string file =
      WriteTemp("replay.json", docs.substr(start, end - start));
  const Result r = RunSchedsimRun({file, "--format=json", "--jobs=1"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["workload"]["model"], "replay");
  const nlohmann::json& perf = j["points"][0]["variants"]["performance"];
  EXPECT_EQ(perf["metrics"]["burst_us_mean"]["samples"].size(), 3u);
  // The same cycles at a higher frequency: the bursts are shorter.
  EXPECT_GT(perf["metrics"]["burst_us_mean"]["diff_pct"].get<double>(), 0);
}

TEST_F(RunCommandTest, RobustnessHasOneEntryPerMetricPointAndVariant) {
  Result r = RunSchedsimRun(
      {file_, "--format=json", "--iterations=2", "--robustness"});
  ASSERT_EQ(r.code, 0) << r.err;
  // 9 nonzero config costs (smt_migration_penalty_ns is 0): 19 passes of
  // 2 points x 2 variants x 2 iterations.
  EXPECT_THAT(r.err, ::testing::HasSubstr("= 152 runs (8 per pass)"));
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.contains("robustness"));
  const nlohmann::json& v = j["robustness"];
  ASSERT_EQ(v.size(), 2u * 2u * 1u);  // metrics x points x variants
  std::vector<std::string> seen;
  for (const nlohmann::json& entry : v) {
    for (const char* key :
         {"metric", "sweep_value", "variant", "sign_holds", "flipped_by"}) {
      EXPECT_TRUE(entry.contains(key)) << key;
    }
    EXPECT_EQ(entry["variant"], "powersave");
    EXPECT_TRUE(entry["sweep_value"].is_number_integer());
    EXPECT_TRUE(entry["flipped_by"].is_array());
    EXPECT_EQ(entry["sign_holds"], entry["flipped_by"].empty());
    EXPECT_EQ(entry["pct"], 25.0);
    EXPECT_EQ(entry["scaled"].size(), 18u);
    seen.push_back(entry["metric"].get<std::string>() + "-" +
                   entry["sweep_value"].dump());
  }
  EXPECT_THAT(seen,
              ::testing::ElementsAre("ops_per_s-1", "ops_per_s-4",
                                     "op_latency_us-1", "op_latency_us-4"));
  // The nominal result is the one without --robustness.
  Result plain = RunSchedsimRun({file_, "--format=json", "--iterations=2"});
  nlohmann::json k = nlohmann::json::parse(plain.out);
  EXPECT_FALSE(k.contains("robustness"));
  EXPECT_EQ(j["points"], k["points"]);

  Result table = RunSchedsimRun({file_, "--iterations=2", "--robustness=10"});
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_THAT(table.out,
              ::testing::HasSubstr("scaled by -10% and +10%, one at a time"));
  EXPECT_THAT(table.out,
              ::testing::ContainsRegex("\n  ops_per_s-1 +powersave +-[0-9.]+%  "
                                       "(robust|fragile: flipped by .*)\n"));
  // The section comes after the comparison and before the reports.
  EXPECT_LT(table.out.find("Diff "), table.out.find("\nRobustness: "));
  EXPECT_LT(table.out.find("\nRobustness: "), table.out.find("\nReports"));
}

TEST_F(RunCommandTest, RobustnessPercentageIsChecked) {
  for (const char* flag : {"--robustness=0", "--robustness=100",
                           "--robustness=-5", "--robustness=nan"}) {
    Result r = RunSchedsimRun({file_, flag});
    EXPECT_EQ(r.code, 2) << flag;
    EXPECT_THAT(r.err, ::testing::HasSubstr(
                           "--robustness expects a percentage in (0, 100)"))
        << flag;
  }
  Result word = RunSchedsimRun({file_, "--robustness=lots"});
  EXPECT_EQ(word.code, 2);
  EXPECT_THAT(word.err, ::testing::HasSubstr(
                            "--robustness expects a number, got 'lots'"));
}

TEST_F(RunCommandTest, OutputDoesNotDependOnJobs) {
  for (const char* format :
       {"--format=table", "--format=json", "--format=csv"}) {
    Result one = RunSchedsimRun({file_, format, "--jobs=1"});
    Result two = RunSchedsimRun({file_, format, "--jobs=2"});
    ASSERT_EQ(one.code, 0) << one.err;
    ASSERT_EQ(two.code, 0) << two.err;
    EXPECT_EQ(one.out, two.out) << format;
  }
  // And a second run with the same seed prints the same.
  Result again = RunSchedsimRun({file_, "--jobs=2"});
  EXPECT_EQ(again.out, RunSchedsimRun({file_, "--jobs=1"}).out);
}

TEST_F(RunCommandTest, TableHasTheMmtestsLayout) {
  Result r = RunSchedsimRun({file_});
  ASSERT_EQ(r.code, 0) << r.err;
  // The header names the variants, baseline first.
  EXPECT_THAT(r.out, ::testing::ContainsRegex("\n +baseline +powersave\n"));
  // Per metric and sweep value: Min, Max, the mean, Stddev, CoeffVar, Diff,
  // each with the baseline's value and (0.00%), then the variant's value
  // and its difference, * when significant.
  const std::string value = "[0-9]+\\.[0-9]+";
  const std::string base = value + " \\(   0\\.00%\\)";
  const std::string other = value + " [(*] *[-+][0-9]+\\.[0-9]+%[)*]";
  for (const char* stat : {"Min", "Max", "Hmean", "Stddev", "CoeffVar"}) {
    std::vector<std::string> rows =
        LinesStartingWith(r.out, std::string(stat) + " ");
    ASSERT_EQ(rows.size(), stat == std::string("Hmean") ? 2u : 4u) << stat;
    EXPECT_THAT(rows[0],
                ::testing::MatchesRegex(std::string(stat) + " +ops_per_s-1 +" +
                                        base + " +" + other));
  }
  std::vector<std::string> amean = LinesStartingWith(r.out, "Amean ");
  ASSERT_EQ(amean.size(), 2u);
  EXPECT_THAT(amean[0], ::testing::MatchesRegex("Amean +op_latency_us-1 +" +
                                                base + " +" + other));
  EXPECT_THAT(amean[1], ::testing::MatchesRegex("Amean +op_latency_us-4 +" +
                                                base + " +" + other));
  std::vector<std::string> diff = LinesStartingWith(r.out, "Diff ");
  ASSERT_EQ(diff.size(), 4u);
  EXPECT_THAT(diff[0], ::testing::MatchesRegex(
                           "Diff +ops_per_s-1 +- +d=[-+][0-9.]+% ±[0-9.]+% "
                           "p=[0-9.]+%"));
  // Rows come grouped by statistic, sweep values in order, as mmtests
  // prints them.
  size_t min1 = r.out.find("Min       ops_per_s-1");
  size_t min4 = r.out.find("Min       ops_per_s-4");
  size_t max1 = r.out.find("Max       ops_per_s-1");
  size_t mean1 = r.out.find("Hmean     ops_per_s-1");
  ASSERT_NE(min1, std::string::npos) << r.out;
  EXPECT_LT(min1, min4);
  EXPECT_LT(min4, max1);
  EXPECT_LT(max1, mean1);
  // The reports follow the table.
  for (const char* text :
       {"Reports, tasks=1 (means over 3 runs per variant)",
        "%C0 (mean of CPUs)", "Energy per op J (ops_per_s)",
        "Probes per search", "%C0 histogram, baseline (8 CPUs x 3 runs)",
        " 0.0000 -  10.0000 [", "90.0000 - 100.0000 [",
        "Busy time at frequency %", "Reports, tasks=4"}) {
    EXPECT_THAT(r.out, ::testing::HasSubstr(text)) << text;
  }
}

TEST_F(RunCommandTest, CsvHasOneRowPerSampleAndSummaryRows) {
  Result r = RunSchedsimRun({file_, "--format=csv"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(LinesStartingWith(r.out, "sweep_param,").size(), 1u);
  EXPECT_EQ(LinesStartingWith(r.out,
                              "sweep_param,sweep_value,variant,metric,unit,"
                              "row,iteration,seed,value")
                .size(),
            1u);
  int samples = 0, summary = 0;
  std::istringstream in(r.out);
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    if (line.find(",sample,") != std::string::npos) {
      ++samples;
    } else {
      ++summary;
    }
  }
  EXPECT_EQ(samples, 2 * 2 * 2 * 3);  // points x variants x metrics x runs
  EXPECT_EQ(summary, 2 * 2 * 2 * 10);
  EXPECT_THAT(r.out, ::testing::HasSubstr(
                         "tasks,4,powersave,op_latency_us,us,sample,2,"));
  EXPECT_THAT(r.out, ::testing::HasSubstr(
                         "tasks,1,baseline,ops_per_s,ops/s,diff_pct,,,0\n"));
}

TEST_F(RunCommandTest, OutDirectoryAndTraces) {
  const std::string dir = TempDir() + "/run_out";
  Result r = RunSchedsimRun(
      {file_, "--out=" + dir, "--trace=perfetto", "--trace-iteration=2"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(ReadFile(dir + "/result.txt"), r.out);
  Result json = RunSchedsimRun({file_, "--format=json"});
  EXPECT_EQ(ReadFile(dir + "/result.json"), json.out);
  Result csv = RunSchedsimRun({file_, "--format=csv"});
  EXPECT_EQ(ReadFile(dir + "/result.csv"), csv.out);
  for (const char* variant : {"baseline", "powersave"}) {
    const std::string path = dir + "/trace-" + variant + ".json";
    EXPECT_THAT(r.err, ::testing::HasSubstr("wrote " + path));
    nlohmann::json trace = nlohmann::json::parse(ReadFile(path));
    ASSERT_TRUE(trace.contains("traceEvents")) << path;
    bool worker = false;
    for (const nlohmann::json& e : trace["traceEvents"]) {
      if (e["ph"] == "X" && e["name"] == "worker") worker = true;
    }
    EXPECT_TRUE(worker) << path;
  }
}

// --trace-window and --trace-cpus bound the trace in every format:
// the CSV rows are inside the window and on the CPUs listed, each CPU's
// state is written at the window's start, and --trace-gzip compresses.
TEST_F(RunCommandTest, BoundedTracesInEveryFormat) {
  const std::string dir = TempDir() + "/run_bounded";
  Result r = RunSchedsimRun({file_, "--out=" + dir, "--trace=csv",
                             "--trace-window=5:10.5", "--trace-cpus=1-2",
                             "--jobs=1", "--format=csv"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string csv = ReadFile(dir + "/trace-baseline.csv");
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "time_ns,event,cpu,task,arg1,arg2");
  int rows = 0;
  int64_t first = -1, last = -1;
  std::set<int> cpus;
  while (std::getline(in, line)) {
    const std::vector<std::string> f = absl::StrSplit(line, ',');
    ASSERT_GE(f.size(), 3u) << line;
    if (f[1] == "task_name") continue;
    int64_t t = 0;
    ASSERT_TRUE(absl::SimpleAtoi(f[0], &t)) << line;
    if (first < 0) first = t;
    last = t;
    ++rows;
    int cpu = 0;
    if (!f[2].empty() && absl::SimpleAtoi(f[2], &cpu)) cpus.insert(cpu);
  }
  EXPECT_GT(rows, 10);
  EXPECT_EQ(first, 5000000);  // the state at the window's start
  EXPECT_LT(last, 10500000);
  EXPECT_THAT(cpus, ::testing::ElementsAre(1, 2));

  Result all = RunSchedsimRun({file_, "--out=" + dir + "/all", "--trace=csv",
                               "--jobs=1", "--format=csv"});
  ASSERT_EQ(all.code, 0) << all.err;
  EXPECT_GT(ReadFile(dir + "/all/trace-baseline.csv").size(), 2 * csv.size());

  for (const char* format : {"perfetto", "perfetto-proto", "ftrace", "csv"}) {
    const std::string sub = dir + "/" + format;
    Result g =
        RunSchedsimRun({file_, "--out=" + sub, std::string("--trace=") + format,
                        "--trace-window=5:10", "--trace-cpus=0", "--trace-gzip",
                        "--format=csv", "--jobs=1"});
    ASSERT_EQ(g.code, 0) << g.err;
    const std::string ext = std::string(format) == "perfetto" ? ".json"
                            : std::string(format) == "perfetto-proto"
                                ? ".pftrace"
                            : std::string(format) == "ftrace" ? ".txt"
                                                              : ".csv";
    const std::string path = sub + "/trace-powersave" + ext + ".gz";
    EXPECT_THAT(g.err, ::testing::HasSubstr("wrote " + path));
    const std::string data = ReadFile(path);
    ASSERT_GT(data.size(), 20u) << path;
    EXPECT_EQ(static_cast<unsigned char>(data[0]), 0x1f) << path;
    EXPECT_EQ(static_cast<unsigned char>(data[1]), 0x8b) << path;
  }
}

// A metric that measured nothing (one rt-app loop of 50 ms in a 20 ms
// window: no loop completes) is 0 in every run: run warns, naming it.
TEST_F(RunCommandTest, EmptyMetricIsAWarning) {
  const std::string file = WriteTemp("long_loop.json", R"({
    "machine": "skylake-e3-1240v5",
    "workload": {"model": "rtapp", "params": {"json":
      "{\"tasks\": {\"t\": {\"loop\": -1, \"run\": 50000}}}"}},
    "iterations": 2,
    "duration_ms": 20,
    "variants": [{"name": "a"}, {"name": "b", "cpuidle": "teo"}]
  })");
  Result r = RunSchedsimRun({file, "--format=csv", "--jobs=1"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, ::testing::HasSubstr(
                         "schedsim run: warning: metric loops_per_s is 0 in "
                         "all 4 runs: nothing it measures happened in the 20 "
                         "ms measured"));
  // A metric that measured something is not named.
  Result fine = RunSchedsimRun({file_, "--format=csv", "--jobs=1"});
  ASSERT_EQ(fine.code, 0) << fine.err;
  EXPECT_THAT(fine.err,
              ::testing::Not(::testing::HasSubstr("warning: metric")));
}

// An rt-app template runs with --define; without it the error names the
// placeholder; --define on a model without templates is a usage error.
TEST_F(RunCommandTest, RtAppTemplateDefines) {
  const std::string tmpl = WriteTemp(
      "tmpl.json",
      R"({"tasks": {"t": {"loop": -1, "run": __RUN__, "sleep": __SLEEP__}}})");
  const std::string file = WriteTemp(
      "tmpl_exp.json", absl::StrCat(R"({"machine": "skylake-e3-1240v5",
        "workload": {"model": "rtapp", "params": {"file": ")",
                                    tmpl, R"(", "define": "__SLEEP__=2000"}},
        "iterations": 1, "duration_ms": 20,
        "variants": [{"name": "a"}]})"));
  Result r = RunSchedsimRun(
      {file, "--define=__RUN__=1000", "--format=csv", "--jobs=1"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, ::testing::HasSubstr("loops_per_s"));
  Result missing = RunSchedsimRun({file, "--format=csv", "--jobs=1"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_THAT(missing.err,
              ::testing::HasSubstr("template placeholder __RUN__ without a "
                                   "value"));
  Result other = RunSchedsimRun({file_, "--define=__X__=1"});
  EXPECT_EQ(other.code, 2);
  EXPECT_THAT(other.err, ::testing::HasSubstr("--define is for workload "
                                              "models read from templates"));
  Result bad = RunSchedsimRun({file, "--define=__RUN__"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_THAT(bad.err, ::testing::HasSubstr("--define expects KEY=VALUE"));
}

// --mmtests writes what mmtests' hackbench extraction reads (its documented
// layout, MMTests::ExtractHackbench): under <run>/iter-0/hackbench/logs the
// files hackbench-<group>-<n>, the groups found from the files
// hackbench-*-1 (the field before the last '-'), each value the number of
// "Total time: ([0-9.]*)". This reads them that way and finds every
// iteration's time_s of the JSON result, per variant and group.
TEST_F(RunCommandTest, MmtestsLogsAsMmtestsReadsThem) {
  const std::string file = WriteTemp("hb.json", R"({
    "machine": "skylake-e3-1240v5",
    "workload": {"model": "hackbench", "params": {"pipe": true}},
    "sweep": {"param": "groups", "values": [1, 2]},
    "iterations": 3, "duration_ms": 5,
    "variants": [{"name": "menu"}, {"name": "teo", "cpuidle": "teo"}]})");
  const std::string dir = TempDir() + "/mmtests_log";
  Result r =
      RunSchedsimRun({file, "--format=json", "--jobs=1", "--mmtests=" + dir});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, ::testing::HasSubstr("wrote 12 mmtests logs under"));
  const nlohmann::json j = nlohmann::json::parse(r.out);
  for (const char* variant : {"menu", "teo"}) {
    const std::string logs = dir + "/" + variant + "/iter-0/hackbench/logs";
    std::set<int> groups;
    for (const auto& entry : std::filesystem::directory_iterator(logs)) {
      const std::string name = entry.path().filename().string();
      const std::vector<std::string> split = absl::StrSplit(name, '-');
      ASSERT_EQ(split.size(), 3u) << name;
      if (split[2] == "1") groups.insert(std::stoi(split[1]));
    }
    EXPECT_THAT(groups, ::testing::ElementsAre(1, 2)) << variant;
    for (int p = 0; p < 2; ++p) {
      const int group = p + 1;
      const nlohmann::json& samples =
          j["points"][p]["variants"][variant]["metrics"]["time_s"]["samples"];
      ASSERT_EQ(samples.size(), 3u);
      for (int n = 1; n <= 3; ++n) {
        const std::string text =
            ReadFile(logs + "/hackbench-" + std::to_string(group) + "-" +
                     std::to_string(n));
        const size_t at = text.find("Total time: ");
        ASSERT_NE(at, std::string::npos) << text;
        const double value = std::stod(text.substr(at + 12));
        EXPECT_NEAR(value, samples[n - 1].get<double>(), 1e-6)
            << variant << " group " << group << " iteration " << n;
      }
    }
  }
  Result other = RunSchedsimRun({file_, "--format=csv", "--mmtests=" + dir});
  EXPECT_EQ(other.code, 1);
  EXPECT_THAT(other.err,
              ::testing::HasSubstr("--mmtests: only hackbench results have an "
                                   "mmtests log layout here"));
}

TEST_F(RunCommandTest, JsonStartsWithTheSchemaVersion) {
  Result r = RunSchedsimRun({file_, "--format=json", "--jobs=1"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::ordered_json j = nlohmann::ordered_json::parse(r.out);
  EXPECT_EQ(j.begin().key(), "schema_version");
  EXPECT_EQ(j["schema_version"], 1);
}

TEST_F(RunCommandTest, BoundedTraceErrors) {
  Result no_trace = RunSchedsimRun({file_, "--trace-window=1:2"});
  EXPECT_EQ(no_trace.code, 2);
  EXPECT_THAT(no_trace.err, ::testing::HasSubstr("--trace-window needs "
                                                 "--trace="));
  Result bad = RunSchedsimRun({file_, "--trace=csv", "--trace-window=2"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_THAT(bad.err, ::testing::HasSubstr("expected FROM_MS:TO_MS"));
  Result outside =
      RunSchedsimRun({file_, "--trace=csv", "--trace-window=30:40"});
  EXPECT_EQ(outside.code, 2);
  EXPECT_THAT(outside.err,
              ::testing::HasSubstr("starts after the run ends at 20 ms"));
  Result cpus = RunSchedsimRun({file_, "--trace=csv", "--trace-cpus=0-99"});
  EXPECT_EQ(cpus.code, 2);
  EXPECT_THAT(cpus.err, ::testing::HasSubstr("--trace-cpus: '0-99'"));
  EXPECT_THAT(cpus.err, ::testing::HasSubstr("(CPUs 0-7) of machine"));
}

// Events of an ftrace trace, counted as the run's counters count them.
struct EventCounts {
  int64_t switches_to_task = 0;  // sched_switch with a task as next
  int64_t wakeups = 0;
  int64_t migrations = 0;
  int64_t idle_enters = 0;
  int64_t frequencies = 0;
};

EventCounts CountFtraceEvents(const std::string& path) {
  EventCounts c;
  absl::Status read =
      traces::ForEachFtraceEvent(path, [&](const traces::TraceEvent& e) {
        switch (e.type) {
          case traces::EventType::kSchedSwitch:
            if (e.next_pid != 0) ++c.switches_to_task;
            break;
          case traces::EventType::kSchedWakeup:
            ++c.wakeups;
            break;
          case traces::EventType::kSchedMigrateTask:
            ++c.migrations;
            break;
          case traces::EventType::kCpuIdle:
            if (e.idle_state() >= 0) ++c.idle_enters;
            break;
          case traces::EventType::kCpuFrequency:
            ++c.frequencies;
            break;
          default:
            break;
        }
        return absl::OkStatus();
      });
  EXPECT_TRUE(read.ok()) << read;
  return c;
}

// The same, from the converter's sink calls.
class CountingSink : public traces::NamedTraceSink {
 public:
  void SetTaskName(int, absl::string_view) override {}
  void OnSwitch(int64_t, int, int, int next) override {
    if (next >= 0) ++c.switches_to_task;
  }
  void OnWakeup(int64_t, int, int, int) override { ++c.wakeups; }
  void OnMigrate(int64_t, int, int, int) override { ++c.migrations; }
  void OnIdle(int64_t, int, int state) override {
    if (state >= 0) ++c.idle_enters;
  }
  void OnFrequency(int64_t, int, int64_t) override { ++c.frequencies; }
  EventCounts c;
};

// --trace=ftrace writes text whose events are the run's own counters, and
// which the converter and `schedsim shadow` read.
TEST_F(RunCommandTest, FtraceTraceMatchesTheRunsCounters) {
  const std::string dir = TempDir() + "/run_ftrace";
  Result r = RunSchedsimRun({file_, "--out=" + dir, "--trace=ftrace",
                             "--trace-iteration=1", "--jobs=1"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(ReadFile(dir + "/result.json"));
  for (const char* variant : {"baseline", "powersave"}) {
    SCOPED_TRACE(variant);
    const std::string path = dir + "/trace-" + variant + ".txt";
    EXPECT_THAT(r.err, ::testing::HasSubstr("wrote " + path));
    const nlohmann::json& report =
        j["points"][0]["variants"][variant]["runs"][1]["report"];
    const EventCounts c = CountFtraceEvents(path);
    EXPECT_GT(c.switches_to_task, 20);
    EXPECT_EQ(c.switches_to_task, report["context_switches"].get<int64_t>());
    EXPECT_EQ(c.wakeups, report["placement"]["wakeups"].get<int64_t>());
    EXPECT_EQ(c.migrations, report["migrations"].get<int64_t>());
    EXPECT_GT(c.idle_enters, 0);

    CountingSink sink;
    ASSERT_TRUE(traces::ConvertFtraceFile(path, &sink).ok());
    EXPECT_EQ(sink.c.switches_to_task, c.switches_to_task);
    EXPECT_EQ(sink.c.wakeups, c.wakeups);
    EXPECT_EQ(sink.c.migrations, c.migrations);
    EXPECT_EQ(sink.c.idle_enters, c.idle_enters);
    EXPECT_EQ(sink.c.frequencies, c.frequencies);

    std::ostringstream out, err;
    ASSERT_EQ(ShadowCommand({"--trace=" + path, "--cpuidle=menu",
                             "--machine=skylake-e3-1240v5", "--format=json"},
                            out, err),
              0)
        << err.str();
    nlohmann::json shadow = nlohmann::json::parse(out.str());
    EXPECT_EQ(shadow["total"]["periods"].get<int64_t>(), c.idle_enters);
  }
}

// Every event the simulator counts is one line of the written trace:
// switches to a task, wakeups, migrations and idle-state entries (each
// state's usage).
TEST(FtraceTraceTest, EventCountsEqualTheSimulatorsStats) {
  absl::StatusOr<topology::Topology> machine =
      topology::MakePreset("skylake-e3-1240v5");
  ASSERT_TRUE(machine.ok());
  absl::StatusOr<const workloads::WorkloadModel*> found =
      workloads::WorkloadRegistry::Global().Lookup(kTestModelName);
  ASSERT_TRUE(found.ok()) << found.status();
  const workloads::WorkloadModel* model = *found;
  absl::StatusOr<platform::Params> params =
      workloads::WorkloadRegistry::Global().ResolveParams(
          *model, {{"tasks", int64_t{6}}, {"sleep_us", int64_t{200}}});
  ASSERT_TRUE(params.ok()) << params.status();
  absl::StatusOr<sim::Workload> workload = model->build(*params, *machine);
  ASSERT_TRUE(workload.ok()) << workload.status();
  std::ostringstream text;
  traces::FtraceWriter writer(&text, machine->num_cpus(), {});
  RunSpec spec;
  spec.machine = &*machine;
  spec.workload = &*workload;
  spec.cpufreq = {"schedutil", {}};
  spec.config.hwp = false;
  spec.seed = 3;
  spec.warmup = sim::Milliseconds(5);
  spec.duration = sim::Milliseconds(30);
  spec.trace = &writer;
  absl::StatusOr<RunOutput> run = RunOnce(spec);
  ASSERT_TRUE(run.ok()) << run.status();
  writer.Finish();
  const sim::SimStats& s = run->stats;
  int64_t usage = 0;
  for (const sim::CpuStats& cpu : s.cpus) {
    for (const platform::IdleStateStats& st : cpu.states) usage += st.usage;
  }
  const traces::FtraceWriter::Counts& w = writer.counts();
  EXPECT_EQ(w.switches_to_task, static_cast<int64_t>(s.context_switches));
  EXPECT_EQ(w.wakeups, static_cast<int64_t>(s.placement.wakeups));
  EXPECT_EQ(w.migrations, static_cast<int64_t>(s.migrations));
  EXPECT_EQ(w.idle_enters, usage);
  EXPECT_GT(usage, 0);
  EXPECT_GT(w.frequencies, 0);  // schedutil changes the frequency

  // And the text holds exactly those lines.
  const std::string path = WriteTemp("counts.txt", text.str());
  const EventCounts c = CountFtraceEvents(path);
  EXPECT_EQ(c.switches_to_task, w.switches_to_task);
  EXPECT_EQ(c.wakeups, w.wakeups);
  EXPECT_EQ(c.migrations, w.migrations);
  EXPECT_EQ(c.idle_enters, w.idle_enters);
  EXPECT_EQ(c.frequencies, w.frequencies);
}

TEST_F(RunCommandTest, PlotsFlag) {
  Result empty = RunSchedsimRun({file_, "--plots="});
  EXPECT_EQ(empty.code, 2);
  EXPECT_THAT(empty.err, ::testing::HasSubstr("--plots expects a directory"));
  const std::string dir = TempDir() + "/run_plots";
  Result r = RunSchedsimRun({file_, "--plots=" + dir, "--iterations=2"});
  // Drawn when gnuplot is installed; otherwise exit 1 naming it, with the
  // data and the script written.
  if (r.code == 0) {
    EXPECT_THAT(r.err, ::testing::HasSubstr("drew " + dir));
    EXPECT_TRUE(!ReadFile(dir + "/metric-ops_per_s.png").empty());
  } else {
    EXPECT_EQ(r.code, 1);
    EXPECT_THAT(r.err, ::testing::HasSubstr("gnuplot not found"));
  }
  EXPECT_THAT(ReadFile(dir + "/plots.gp"),
              ::testing::HasSubstr("metric-ops_per_s.dat"));
}

TEST_F(RunCommandTest, SeedAndIterationsFlags) {
  Result base = RunSchedsimRun({file_, "--format=json"});
  Result seeded = RunSchedsimRun({file_, "--format=json", "--seed=8"});
  Result two = RunSchedsimRun({file_, "--format=json", "--iterations=2"});
  ASSERT_EQ(seeded.code, 0) << seeded.err;
  ASSERT_EQ(two.code, 0) << two.err;
  EXPECT_NE(base.out, seeded.out);
  nlohmann::json j = nlohmann::json::parse(two.out);
  EXPECT_EQ(j["iterations"], 2);
  EXPECT_EQ(
      j["points"][0]["variants"]["baseline"]["metrics"]["ops_per_s"]["samples"]
          .size(),
      2u);
}

TEST_F(RunCommandTest, TheCostIsEstimatedAndLimitedByMaxRuns) {
  Result r = RunSchedsimRun({file_, "--format=csv"});
  ASSERT_EQ(r.code, 0) << r.err;
  // 2 sweep values x 2 variants x 3 iterations of 20 ms on 8 CPUs.
  EXPECT_THAT(r.err, ::testing::HasSubstr(
                         "schedsim run: estimate: 12 runs, 0.24 simulated s "
                         "(1.92 simulated CPU-s), about "));
  // Each run's measured cost (cost_model.h): 0.0 or 0.1 s as the jobs are.
  EXPECT_THAT(r.err, ::testing::ContainsRegex("about 0\\.[01] s of wall time"));
  // 12 x (4096 + 2048 x 8) bytes.
  EXPECT_THAT(r.err,
              ::testing::HasSubstr("about 1 MB of memory for the results"));
  std::string text = kExperiment;
  text.replace(text.find("\"seed\""), 0, "\"max_runs\": 10, ");
  const std::string capped = WriteTemp("capped.json", text);
  Result refused = RunSchedsimRun({capped});
  EXPECT_EQ(refused.code, 1);
  EXPECT_THAT(refused.err, ::testing::HasSubstr("12 runs, 0.24 simulated s"));
  EXPECT_THAT(refused.err,
              ::testing::HasSubstr("more than the limit of 10 runs (the file's "
                                   "\"max_runs\"); raise \"max_runs\""));
  EXPECT_EQ(RunSchedsimRun({capped, "--yes", "--format=csv"}).code, 0);
}

// Issue 49 #12: results stay in memory until the output is written; 2 x
// 10^6 runs ended in std::bad_alloc (exit 134, every run lost). The
// estimate states the memory, and more than half of the machine's is
// refused before anything runs, --yes or not. 10^4 iterations x 100
// sweep values x 100 variants: 10^8 runs, about 2 TB.
TEST_F(RunCommandTest, ResultsBeyondTheMachinesMemoryAreRefusedEvenWithYes) {
  std::string values, variants;
  for (int i = 1; i <= 100; ++i) {
    absl::StrAppend(&values, i == 1 ? "" : ",", i);
    absl::StrAppend(&variants, i == 1 ? "" : ",", "{\"name\": \"v", i, "\"}");
  }
  const std::string huge =
      WriteTemp("huge.json", absl::StrCat(R"({"machine": "skylake-e3-1240v5",
        "workload": {"model": "rtapp", "params": {"json":
          "{\"tasks\": {\"t\": {\"run\": 100, \"sleep\": 900}}}"}},
        "sweep": {"param": "work_cv_pct", "values": [)",
                                          values, R"(]},
        "iterations": 10000, "duration_ms": 1, "max_runs": 1000000000,
        "variants": [)",
                                          variants, "]}"));
  Result r = RunSchedsimRun({huge, "--yes", "--format=csv"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_THAT(r.err,
              ::testing::HasSubstr("100000000 runs, 100000 simulated s (800000 "
                                   "simulated CPU-s)"));
  EXPECT_THAT(r.err,
              ::testing::HasSubstr("about 2.0 TB of memory for the results"));
  EXPECT_THAT(r.err, ::testing::HasSubstr("which --yes does not lift; split "
                                          "the runs with --shard=I/N"));
  EXPECT_EQ(r.out, "");
}

TEST_F(RunCommandTest, ErrorsAndExitCodes) {
  Result none = RunSchedsimRun({});
  EXPECT_EQ(none.code, 2);
  EXPECT_THAT(none.err, ::testing::HasSubstr("expected an experiment FILE"));
  EXPECT_EQ(RunSchedsimRun({file_, file_}).code, 2);
  Result format = RunSchedsimRun({file_, "--format=xml"});
  EXPECT_EQ(format.code, 2);
  EXPECT_THAT(format.err,
              ::testing::HasSubstr("--format must be table, json or csv"));
  EXPECT_EQ(RunSchedsimRun({file_, "--jobs=-1"}).code, 2);
  Result trace = RunSchedsimRun({file_, "--trace=chrome"});
  EXPECT_EQ(trace.code, 2);
  EXPECT_THAT(trace.err,
              ::testing::HasSubstr("--trace: expected one of "
                                   "perfetto|perfetto-proto|csv|ftrace, got "
                                   "'chrome'"));
  Result iteration =
      RunSchedsimRun({file_, "--trace=perfetto", "--trace-iteration=3"});
  EXPECT_EQ(iteration.code, 2);
  EXPECT_THAT(iteration.err,
              ::testing::HasSubstr("--trace-iteration must be in 0..2"));
  EXPECT_EQ(RunSchedsimRun({file_, "--seed=x"}).code, 2);
  Result flag = RunSchedsimRun({file_, "--itrations=2"});
  EXPECT_EQ(flag.code, 2);
  EXPECT_THAT(flag.err, ::testing::HasSubstr("unknown flag --itrations"));

  Result missing = RunSchedsimRun({"/nonexistent/exp.json"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_THAT(missing.err, ::testing::HasSubstr(
                               "schedsim run: /nonexistent/exp.json: cannot "
                               "open"));
  std::string bad =
      WriteTemp("bad.json",
                R"({"machine": "skylake-e3-1240v5", "duration_ms": 5,
          "workload": {"model": "test_compute_sleep"},
          "variants": [{"name": "a", "cpuidle": "menuu"}]})");
  Result invalid = RunSchedsimRun({bad});
  EXPECT_EQ(invalid.code, 1);
  EXPECT_THAT(invalid.err,
              ::testing::HasSubstr(bad + ": variants[0].cpuidle: unknown "
                                         "cpuidle policy 'menuu' (did you "
                                         "mean 'menu'?)"));
  Result help = RunSchedsimRun({"--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_THAT(help.out, ::testing::HasSubstr("--trace-iteration"));
}

}  // namespace
}  // namespace schedsim::cli
