// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/plots.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "experiments/experiment.h"
#include "experiments/runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "traces/cpu_timeline.h"
#include "traces/trace_file.h"
#include "traces/trace_select.h"

namespace schedsim::experiments {
namespace {

using ::testing::HasSubstr;

constexpr char kSweep[] = R"({
  "machine": "skylake-e3-1240v5",
  "workload": {"model": "test_compute_sleep",
               "params": {"cycles": 400000, "sleep_us": 300}},
  "sweep": {"param": "tasks", "values": [1, 4]},
  "iterations": 3,
  "seed": 7,
  "duration_ms": 20,
  "variants": [
    {"name": "fast", "cpufreq": "performance"},
    {"name": "slow", "cpufreq": "powersave"}
  ]
})";

constexpr char kNoSweep[] = R"({
  "machine": "skylake-e3-1240v5",
  "workload": {"model": "test_compute_sleep", "params": {"tasks": 2}},
  "iterations": 2,
  "duration_ms": 20,
  "variants": [
    {"name": "menu", "cpuidle": "menu"},
    {"name": "teo", "cpuidle": "teo"}
  ]
})";

struct Ran {
  Experiment e;
  ExperimentResult r;
};

Ran RunIt(const std::string& text) {
  absl::StatusOr<Experiment> e = ParseExperiment(text, "exp.json");
  EXPECT_TRUE(e.ok()) << e.status();
  RunnerOptions options;
  options.jobs = 1;
  absl::StatusOr<ExperimentResult> r = RunExperiment(*e, options);
  EXPECT_TRUE(r.ok()) << r.status();
  return {*std::move(e), *std::move(r)};
}

std::map<std::string, std::string> ByName(const PlotFiles& plots) {
  std::map<std::string, std::string> files;
  for (const auto& [name, text] : plots.files) files[name] = text;
  return files;
}

// The data lines (not '#') of a .dat file, split at blanks.
std::vector<std::vector<std::string>> Rows(const std::string& dat) {
  std::vector<std::vector<std::string>> rows;
  for (absl::string_view line : absl::StrSplit(dat, '\n')) {
    if (line.empty() || line[0] == '#') continue;
    rows.push_back(absl::StrSplit(line, ' '));
  }
  return rows;
}

TEST(PlotsTest, SweepDataAndScript) {
  const Ran ran = RunIt(kSweep);
  const PlotFiles plots = MakePlots(ran.e, ran.r);
  const std::map<std::string, std::string> files = ByName(plots);
  for (const char* name :
       {"plots.gp", "metric-ops_per_s.dat", "metric-op_latency_us.dat",
        "cstates-1.dat", "cstates-4.dat", "freq-1.dat", "freq-4.dat"}) {
    EXPECT_EQ(files.count(name), 1u) << name;
  }
  EXPECT_EQ(plots.pngs,
            (std::vector<std::string>{
                "metric-ops_per_s.png", "metric-op_latency_us.png",
                "cstates-1.png", "freq-1.png", "cstates-4.png", "freq-4.png"}));

  // ops_per_s: per sweep value, each variant's Hmean, min and max.
  const auto rows = Rows(files.at("metric-ops_per_s.dat"));
  ASSERT_EQ(rows.size(), 2u);
  for (int p = 0; p < 2; ++p) {
    ASSERT_EQ(rows[p].size(), 2u + 3 * 2);
    EXPECT_EQ(rows[p][1], p == 0 ? "\"1\"" : "\"4\"");
    for (int v = 0; v < 2; ++v) {
      const std::vector<double> x = ran.r.Samples(p, v, 0);
      const double lo = *std::min_element(x.begin(), x.end());
      const double hi = *std::max_element(x.begin(), x.end());
      const double mean = std::stod(rows[p][2 + 3 * v]);
      EXPECT_NEAR(std::stod(rows[p][3 + 3 * v]), lo, 1e-6 * lo);
      EXPECT_NEAR(std::stod(rows[p][4 + 3 * v]), hi, 1e-6 * hi);
      EXPECT_GE(mean, lo * (1 - 1e-9));
      EXPECT_LE(mean, hi * (1 + 1e-9));
    }
  }
  // C-states: C0 then the machine's states, one column per variant.
  const auto cstates = Rows(files.at("cstates-4.dat"));
  ASSERT_EQ(cstates.size(), 1 + ran.r.cstate_names.size());
  EXPECT_EQ(cstates[0][0], "\"C0\"");
  EXPECT_EQ(cstates[1][0], "\"" + ran.r.cstate_names[0] + "\"");
  EXPECT_EQ(cstates[0].size(), 3u);

  const std::string& gp = files.at("plots.gp");
  EXPECT_THAT(gp, HasSubstr("set terminal pngcairo"));
  EXPECT_THAT(gp, HasSubstr("with yerrorlines title 'fast'"));
  EXPECT_THAT(gp, HasSubstr("with yerrorlines title 'slow'"));
  EXPECT_THAT(gp, HasSubstr("set style histogram clustered"));
  for (const std::string& png : plots.pngs) {
    EXPECT_THAT(gp, HasSubstr("set output '" + png + "'"));
  }
}

TEST(PlotsTest, WithoutASweepTheVariantsAreBars) {
  const Ran ran = RunIt(kNoSweep);
  const std::map<std::string, std::string> files =
      ByName(MakePlots(ran.e, ran.r));
  const auto rows = Rows(files.at("metric-ops_per_s.dat"));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0][1], "\"menu\"");
  EXPECT_EQ(rows[1][1], "\"teo\"");
  EXPECT_THAT(files.at("plots.gp"), HasSubstr("with boxes"));
  EXPECT_THAT(files.at("plots.gp"), HasSubstr("with yerrorbars"));
  EXPECT_EQ(files.count("cstates.dat"), 1u);
}

std::string TempDir(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
}

TEST(PlotsTest, WithoutGnuplotTheDataIsWrittenAndTheErrorSaysSo) {
  const Ran ran = RunIt(kNoSweep);
  const std::string dir = TempDir("plots_missing");
  absl::Status s = WritePlots(ran.e, ran.r, dir, "/nonexistent/gnuplot");
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(s.message(), HasSubstr("gnuplot not found"));
  EXPECT_THAT(s.message(), HasSubstr("gnuplot-nox"));
  EXPECT_THAT(s.message(), HasSubstr("dev/setup"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/plots.gp"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/metric-ops_per_s.dat"));
}

bool GnuplotInstalled() {
  const char* path = std::getenv("PATH");
  for (absl::string_view d :
       absl::StrSplit(path != nullptr ? path : "/usr/bin:/bin", ':')) {
    if (std::filesystem::exists(std::string(d) + "/gnuplot")) return true;
  }
  return false;
}

TEST(PlotsTest, GnuplotDrawsEveryPng) {
  if (!GnuplotInstalled()) GTEST_SKIP() << "gnuplot is not installed";
  const Ran ran = RunIt(kSweep);
  const std::string dir = TempDir("plots_drawn");
  absl::Status s = WritePlots(ran.e, ran.r, dir);
  ASSERT_TRUE(s.ok()) << s;
  for (const std::string& png : MakePlots(ran.e, ran.r).pngs) {
    std::ifstream in(dir + "/" + png, std::ios::binary);
    std::string magic(8, '\0');
    in.read(&magic[0], 8);
    EXPECT_EQ(magic, "\x89PNG\r\n\x1a\n") << png;
  }
}

// A traced run's per-CPU timeline: one row per selected CPU and bin, the
// frequency in MHz and the idle state (0 = C0, s + 1 = state s), drawn.
TEST(PlotsTest, TimelinesOfATracedRun) {
  const Ran ran = RunIt(kSweep);
  const std::string dir = TempDir("plots_timeline");
  std::filesystem::create_directories(dir);
  std::vector<std::unique_ptr<traces::CpuTimeline>> timelines;
  std::vector<TimelinePlot> plots_in;
  traces::TraceFileOptions options;
  options.format = traces::TraceFileFormat::kCsv;
  ASSERT_TRUE(traces::ParseTraceCpus("2-5", 8, &options.selection).ok());
  ASSERT_TRUE(traces::ParseTraceWindow("5:15", &options.selection).ok());
  for (int v = 0; v < 2; ++v) {
    timelines.push_back(std::make_unique<traces::CpuTimeline>(
        8, 5000000, 15000000, 50, options.selection.cpus));
    plots_in.push_back({ran.r.variants[v].name, timelines.back().get()});
    ASSERT_TRUE(WriteTraceFile(ran.e, ran.r, 0, v, 0, options,
                               dir + "/t" + std::to_string(v) + ".csv",
                               timelines.back().get())
                    .ok());
  }
  const PlotFiles plots = MakePlots(ran.e, ran.r, plots_in);
  auto files = ByName(plots);
  ASSERT_EQ(files.count("timeline-freq-fast.dat"), 1u);
  ASSERT_EQ(files.count("timeline-idle-slow.dat"), 1u);
  const auto freq = Rows(files["timeline-freq-fast.dat"]);
  ASSERT_EQ(freq.size(), 4u * 50);  // CPUs 2-5, 50 bins
  std::set<std::string> mhz;
  for (const auto& row : freq) {
    ASSERT_EQ(row.size(), 3u);
    mhz.insert(row[2]);
  }
  EXPECT_EQ(mhz.count("NaN"), 0u);  // traced from the start: known
  const auto idle = Rows(files["timeline-idle-slow.dat"]);
  ASSERT_EQ(idle.size(), 4u * 50);
  std::set<std::string> states;
  for (const auto& row : idle) states.insert(row[2]);
  EXPECT_GE(states.size(), 2u);  // C0 and at least one idle state
  const std::string& script = files[kPlotScript];
  EXPECT_THAT(script, HasSubstr("set output 'timeline-freq-fast.png'"));
  EXPECT_THAT(script, HasSubstr("set cbtics ('C0' 0, "));
  EXPECT_THAT(script, HasSubstr("set ytics ('2' 0, '3' 1, '4' 2, '5' 3)"));
  if (!GnuplotInstalled()) GTEST_SKIP() << "gnuplot is not installed";
  ASSERT_TRUE(WritePlots(ran.e, ran.r, dir, "gnuplot", plots_in).ok());
  for (const char* png : {"timeline-freq-fast.png", "timeline-idle-slow.png"}) {
    std::ifstream in(dir + "/" + png, std::ios::binary);
    std::string magic(8, '\0');
    in.read(&magic[0], 8);
    EXPECT_EQ(magic, "\x89PNG\r\n\x1a\n") << png;
  }
}

}  // namespace
}  // namespace schedsim::experiments
