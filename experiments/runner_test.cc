// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/runner.h"

#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "experiments/cost_model.h"
#include "experiments/experiment.h"
#include "experiments/test_workload_model.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "sim/rng.h"

namespace schedsim::experiments {
namespace {

using ::testing::HasSubstr;

// 2 variants x 3 iterations x 2 sweep points of 20 ms on the Skylake
// preset: the baseline at the highest frequency, the other at the lowest.
constexpr char kExperiment[] = R"({
  "machine": "skylake-e3-1240v5",
  "workload": {"model": "test_compute_sleep",
               "params": {"cycles": 400000, "sleep_us": 300}},
  "sweep": {"param": "tasks", "values": [1, 4]},
  "iterations": 3,
  "seed": 7,
  "warmup_ms": 2,
  "duration_ms": 20,
  "policies": {"cpuidle": "menu", "placement": "sis_util"},
  "variants": [
    {"name": "fast", "cpufreq": "performance"},
    {"name": "slow", "cpufreq": "powersave"}
  ]
})";

Experiment Load(const std::string& text = kExperiment) {
  absl::StatusOr<Experiment> e = ParseExperiment(text, "exp.json");
  EXPECT_TRUE(e.ok()) << e.status();
  return *std::move(e);
}

TEST(RunnerTest, RunsEveryPointVariantAndIteration) {
  Experiment e = Load();
  int calls = 0, last_done = 0, last_total = 0;
  RunnerOptions options;
  options.jobs = 2;
  options.progress = [&](int done, int total) {
    ++calls;
    EXPECT_EQ(done, last_done + 1);
    last_done = done;
    last_total = total;
  };
  absl::StatusOr<ExperimentResult> r = RunExperiment(e, options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(calls, 12);
  EXPECT_EQ(last_total, 12);
  ASSERT_EQ(r->runs.size(), 2u);
  ASSERT_EQ(r->runs[0].size(), 2u);
  ASSERT_EQ(r->runs[0][0].size(), 3u);
  EXPECT_EQ(r->variants[1].cpufreq.name, "powersave");
  EXPECT_EQ(r->point_params[1].GetInt("tasks"), 4);
  for (int p = 0; p < 2; ++p) {
    for (int v = 0; v < 2; ++v) {
      for (int i = 0; i < 3; ++i) {
        const RunResult& run = r->runs[p][v][i];
        // Paired: the same seed for every variant and point.
        EXPECT_EQ(run.seed, sim::DeriveSeed(7, i));
        ASSERT_EQ(run.metrics.size(), 2u);
        EXPECT_GT(run.metrics[0], 0);
        EXPECT_NEAR(run.report.duration_s, 0.020, 1e-9);
        EXPECT_GT(run.report.energy_j, 0);
      }
    }
  }
  // More tasks, more ops; the lowest frequency costs ops.
  EXPECT_GT(r->Samples(1, 0, 0)[0], 2 * r->Samples(0, 0, 0)[0]);
  EXPECT_LT(r->Samples(0, 1, 0)[0], r->Samples(0, 0, 0)[0]);
  // The seeds differ between iterations, and so do the samples.
  std::vector<double> ops = r->Samples(0, 0, 0);
  EXPECT_FALSE(ops[0] == ops[1] && ops[1] == ops[2]);

  VariantReport report = r->Report(0, 0);
  EXPECT_EQ(report.runs, 3);
  EXPECT_EQ(report.energy_per_op_metric, "ops_per_s");
  EXPECT_GT(report.energy_per_op_j, 0);
  int histogram = 0;
  for (int n : report.c0_histogram) histogram += n;
  EXPECT_EQ(histogram, 8 * 3);  // 8 CPUs x 3 runs
}

TEST(RunnerTest, ResultsDoNotDependOnTheNumberOfThreads) {
  Experiment e = Load();
  RunnerOptions one;
  one.jobs = 1;
  RunnerOptions three;
  three.jobs = 3;
  absl::StatusOr<ExperimentResult> a = RunExperiment(e, one);
  absl::StatusOr<ExperimentResult> b = RunExperiment(e, three);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  for (int p = 0; p < 2; ++p) {
    for (int v = 0; v < 2; ++v) {
      for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(a->runs[p][v][i].metrics, b->runs[p][v][i].metrics);
        EXPECT_EQ(a->runs[p][v][i].events, b->runs[p][v][i].events);
        EXPECT_EQ(a->runs[p][v][i].report.energy_j,
                  b->runs[p][v][i].report.energy_j);
      }
    }
  }
}

TEST(RunnerTest, LargestFirstOrderSortsByCostTiesInRunOrder) {
  EXPECT_EQ(LargestFirstOrder({1, 5, 3, 5, 0}),
            (std::vector<int>{1, 3, 2, 0, 4}));
  EXPECT_TRUE(LargestFirstOrder({}).empty());
}

TEST(RunnerTest, PoolStartsTheLargestRunsFirst) {
  // The 4-task point's runs cost 4x the 1-task point's: they start first,
  // in run order, on one job and on two.
  Experiment e = Load();
  for (int jobs : {1, 2}) {
    std::vector<int> started;
    RunnerOptions options;
    options.jobs = jobs;
    options.started = [&](int experiment, int run) {
      EXPECT_EQ(experiment, 0);
      started.push_back(run);
    };
    ASSERT_TRUE(RunExperiment(e, options).ok());
    ASSERT_EQ(started.size(), 12u);
    EXPECT_EQ(std::vector<int>(started.begin(), started.begin() + 6),
              (std::vector<int>{6, 7, 8, 9, 10, 11}))
        << "jobs " << jobs;
  }
}

TEST(RunnerTest, RunExperimentsSharesOnePoolLargestFirst) {
  Experiment small = Load();
  Experiment big = Load();
  big.filename = "big.json";
  big.duration_ms = 60;  // 3x the simulated time: its runs start first
  std::vector<std::pair<int, int>> started;
  RunnerOptions options;
  options.jobs = 2;
  options.started = [&](int experiment, int run) {
    started.emplace_back(experiment, run);
  };
  std::vector<absl::StatusOr<ExperimentResult>> r =
      RunExperiments({&small, &big}, options);
  ASSERT_EQ(r.size(), 2u);
  ASSERT_TRUE(r[0].ok()) << r[0].status();
  ASSERT_TRUE(r[1].ok()) << r[1].status();
  ASSERT_EQ(started.size(), 24u);
  // big's 4-task runs (cost 62 x 4), then its 1-task runs (62) and
  // small's 4-task ones (22 x 4 = 88) by cost: 248 > 88 > 62 > 22.
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(started[i], std::make_pair(1, 6 + i));
  }
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(started[6 + i], std::make_pair(0, 6 + i));
  }
  // The same results as each experiment alone.
  absl::StatusOr<ExperimentResult> alone = RunExperiment(big, RunnerOptions());
  ASSERT_TRUE(alone.ok());
  EXPECT_EQ(alone->runs[1][1][2].metrics, (*r[1]).runs[1][1][2].metrics);
  EXPECT_EQ(alone->runs[0][0][0].events, (*r[1]).runs[0][0][0].events);
}

TEST(RunnerTest, CapJobsAtTheHardwareThreads) {
  std::string note;
  EXPECT_EQ(CapJobs(2, 4, &note), 2);
  EXPECT_EQ(note, "");
  EXPECT_EQ(CapJobs(0, 4, &note), 0);  // 0: one per hardware thread
  EXPECT_EQ(CapJobs(64, 4, &note), 4);
  EXPECT_EQ(note, "--jobs=64 is more than the 4 hardware threads; using 4");
}

TEST(RunnerTest, ErrorsNameTheFileAndTheRun) {
  // tasks = 100 is more than the test model builds.
  Experiment e = Load(R"({
    "machine": "skylake-e3-1240v5",
    "workload": {"model": "test_compute_sleep"},
    "sweep": {"param": "tasks", "values": [1, 100]},
    "duration_ms": 1, "variants": [{"name": "a"}]})");
  absl::StatusOr<ExperimentResult> r = RunExperiment(e, RunnerOptions());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()),
              HasSubstr("exp.json: workload 'test_compute_sleep' at "
                        "tasks=100: tasks must be in 1..64, got 100"));
}

TEST(RunnerTest, HwpOffVariantDefaultsToThePstateAlgorithm) {
  // A variant that boots the part without HWP (intel_pstate=no_hwp) and
  // names no cpufreq policy runs intel_pstate's P-state algorithm; the
  // default of the part with HWP would be refused on it.
  Experiment e = Load(R"({
    "machine": "skylake-e3-1240v5",
    "workload": {"model": "test_compute_sleep"},
    "sweep": {"param": "tasks", "values": [1]},
    "duration_ms": 5,
    "variants": [{"name": "hwp"},
                 {"name": "no_hwp", "config": {"hwp": false}}]})");
  absl::StatusOr<ExperimentResult> r = RunExperiment(e, RunnerOptions());
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->variants.size(), 2u);
  EXPECT_EQ(r->variants[0].cpufreq.name, "intel_pstate_hwp");
  EXPECT_EQ(r->variants[1].cpufreq.name, "intel_pstate");
}

TEST(RunnerTest, TraceOfOneIterationLoadsAsJson) {
  Experiment e = Load();
  e.sweep->values.resize(1);
  e.iterations = 2;
  e.duration_ms = 5;
  RunnerOptions options;
  options.keep_task_names_iteration = 1;
  absl::StatusOr<ExperimentResult> r = RunExperiment(e, options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->runs[0][0][1].task_names, std::vector<std::string>{"worker"});
  EXPECT_TRUE(r->runs[0][0][0].task_names.empty());
  std::ostringstream trace;
  absl::Status s = WriteTrace(e, *r, 0, 1, 1, trace);
  ASSERT_TRUE(s.ok()) << s;
  nlohmann::json j = nlohmann::json::parse(trace.str());
  ASSERT_TRUE(j.contains("traceEvents"));
  bool slice = false, counter = false;
  for (const auto& event : j["traceEvents"]) {
    if (event["ph"] == "X" && event["name"] == "worker") slice = true;
    if (event["ph"] == "C" && event["name"] == "cpufreq") counter = true;
  }
  EXPECT_TRUE(slice);
  EXPECT_TRUE(counter);
  EXPECT_FALSE(WriteTrace(e, *r, 0, 2, 0, trace).ok());  // no variant 2
}

// An hwloc XML (2x Xeon Gold 6140, 72 CPUs, SMT-2) has no frequency or
// idle tables; a built-in machine's power model gives it both.
constexpr char kImported[] = R"({
  "hwloc": "tests/data/hwloc_Intel-Skylake-2xXeon6140.xml",
  %s
  "workload": {"model": "test_compute_sleep",
               "params": {"cycles": 400000, "sleep_us": 300, "tasks": 4}},
  "iterations": 1,
  "duration_ms": 10,
  "policies": {"cpuidle": "menu", "placement": "sis_util"},
  "variants": [
    {"name": "fast", "cpufreq": "performance"},
    {"name": "slow", "cpufreq": "powersave"}
  ]
})";

std::string Imported(const std::string& power_model) {
  return absl::StrFormat(kImported, power_model);
}

TEST(RunnerTest, PowerModelSeparatesGovernorsOnAnImportedMachine) {
  Experiment e = Load(Imported(R"("power_model": "skylake-e3-1240v5",)"));
  EXPECT_EQ(e.machine.power_model, "skylake-e3-1240v5");
  absl::StatusOr<ExperimentResult> r = RunExperiment(e, {});
  ASSERT_TRUE(r.ok()) << r.status();
  const RunResult& fast = r->runs[0][0][0];
  const RunResult& slow = r->runs[0][1][0];
  EXPECT_GT(fast.report.energy_j, 0);
  EXPECT_GT(slow.report.energy_j, 0);
  EXPECT_LT(slow.metrics[0], fast.metrics[0]);
  EXPECT_NE(slow.report.energy_j, fast.report.energy_j);
}

TEST(RunnerTest, GovernorVariantsWithoutAPowerModelAreRefused) {
  absl::StatusOr<ExperimentResult> r = RunExperiment(Load(Imported("")), {});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(r.status().message(),
              HasSubstr("exp.json: the variants differ in cpufreq policy, "
                        "but machine 'hwloc_Intel-Skylake-2xXeon6140' has no "
                        "frequency (cpufreq) table"));
  EXPECT_THAT(r.status().message(),
              HasSubstr("add \"power_model\": NAME beside \"hwloc\" or "
                        "\"sysfs\" in the file"));
}

TEST(RunnerTest, PlacementVariantsNeedNoPowerModel) {
  std::string text = Imported("");
  const std::string from = R"({"name": "fast", "cpufreq": "performance"},
    {"name": "slow", "cpufreq": "powersave"})";
  const std::string to = R"({"name": "a", "placement": "sis_util"},
    {"name": "b", "placement": "sis_prop"})";
  ASSERT_NE(text.find(from), std::string::npos);
  text.replace(text.find(from), from.size(), to);
  Experiment e = Load(text);
  e.duration_ms = 2;
  absl::StatusOr<ExperimentResult> r = RunExperiment(e, {});
  EXPECT_TRUE(r.ok()) << r.status();
}

// A run that stops when settled is estimated at its expected settled
// length (40 batches of 10 ms here), and `at_most` at its maximum: the
// bound validate prints when the two differ (a run that never settles).
TEST(RunnerTest, EstimatesSettlingRunsAtExpectedAndAtMostLength) {
  const Experiment e = Load(R"({
    "machine": "skylake-e3-1240v5",
    "workload": {"model": "hackbench", "params": {"pipe": true, "groups": 2}},
    "iterations": 2, "warmup_ms": 20, "duration_ms": 2000,
    "variants": [{"name": "a"}]})");
  absl::StatusOr<std::vector<double>> expected = EstimateRunCosts(e);
  absl::StatusOr<std::vector<double>> most = EstimateRunCosts(e, true);
  ASSERT_TRUE(expected.ok() && most.ok());
  ASSERT_EQ(expected->size(), 2u);
  ASSERT_EQ(most->size(), 2u);
  // (20 + 2000) ms against (20 + 400) ms of simulated time.
  EXPECT_NEAR(
      ((*most)[0] - kRunSetupSeconds) / ((*expected)[0] - kRunSetupSeconds),
      2020.0 / 420.0, 1e-9);
  Experiment fixed = e;
  fixed.fixed_length = true;
  EXPECT_EQ(*EstimateRunCosts(fixed), *EstimateRunCosts(fixed, true));
}

}  // namespace
}  // namespace schedsim::experiments
