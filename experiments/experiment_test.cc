// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/experiment.h"

#include <string>
#include <variant>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "experiments/builtin_registry.h"
#include "experiments/test_workload_model.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sim/rng.h"

namespace schedsim::experiments {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kGood[] = R"({
  "description": "hwp_boost on and off",
  "machine": "skylake-e3-1240v5",
  "workload": {"model": "test_compute_sleep",
               "params": {"cycles": 300000, "sleep_us": 1e3}},
  "sweep": {"param": "tasks", "values": [1, 2, 4]},
  "iterations": 3,
  "seed": 42,
  "warmup_ms": 5,
  "duration_ms": 20,
  "config": {"hz": 1000},
  "policies": {"cpufreq": "intel_pstate_hwp", "cpuidle": "menu"},
  "variants": [
    {"name": "baseline"},
    {"name": "hwp_boost", "description": "dynamic boost",
     "cpufreq": {"params": {"hwp_boost": true}},
     "placement": "prev",
     "config": {"turbo": false}}
  ]
})";

absl::StatusOr<Experiment> Parse(const std::string& text) {
  return ParseExperiment(text, "exp.json");
}

// `body` spliced into a minimal valid experiment; the workload and the
// variants are added unless `body` gives them.
std::string With(const std::string& body) {
  std::string text = R"({"machine": "skylake-e3-1240v5", "duration_ms": 10)";
  if (!body.empty()) absl::StrAppend(&text, ", ", body);
  if (body.find("\"workload\"") == std::string::npos) {
    absl::StrAppend(&text, R"(, "workload": {"model": "test_compute_sleep"})");
  }
  if (body.find("\"variants\"") == std::string::npos) {
    absl::StrAppend(&text, R"(, "variants": [{"name": "base"}])");
  }
  absl::StrAppend(&text, "}");
  return text;
}

std::string ErrorOf(const std::string& text) {
  absl::StatusOr<Experiment> e = Parse(text);
  if (e.ok()) return "(parsed)";
  EXPECT_EQ(e.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(e.status().message());
}

TEST(ExperimentTest, ParsesAGoodFile) {
  absl::StatusOr<Experiment> e = Parse(kGood);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->filename, "exp.json");
  EXPECT_EQ(e->description, "hwp_boost on and off");
  EXPECT_EQ(e->machine.machine, "skylake-e3-1240v5");
  ASSERT_NE(e->model, nullptr);
  EXPECT_EQ(e->model->name, kTestModelName);
  EXPECT_EQ(std::get<int64_t>(e->params.at("cycles")), 300000);
  EXPECT_EQ(std::get<int64_t>(e->params.at("sleep_us")), 1000);  // 1e3
  ASSERT_TRUE(e->sweep.has_value());
  EXPECT_EQ(e->sweep->param, "tasks");
  EXPECT_EQ(e->num_points(), 3);
  EXPECT_EQ(e->PointValue(2), "4");
  EXPECT_EQ(e->PointName(1), "tasks=2");
  EXPECT_EQ(e->iterations, 3);
  EXPECT_EQ(e->seed, 42u);
  EXPECT_EQ(e->warmup_ms, 5);
  EXPECT_EQ(e->duration_ms, 20);

  ASSERT_EQ(e->variants.size(), 2u);
  const Variant& base = e->variants[0];
  EXPECT_EQ(base.name, "baseline");
  EXPECT_EQ(base.cpufreq.name, "intel_pstate_hwp");
  EXPECT_TRUE(base.cpufreq.params.empty());
  EXPECT_EQ(base.cpuidle.name, "menu");
  EXPECT_EQ(base.placement.name, "sis_util");  // the default
  EXPECT_EQ(base.config.hz, 1000);
  EXPECT_TRUE(base.config.turbo);
  EXPECT_EQ(base.config_overrides.dump(), R"({"hz":1000})");

  const Variant& boost = e->variants[1];
  EXPECT_EQ(boost.description, "dynamic boost");
  EXPECT_EQ(boost.cpufreq.name, "intel_pstate_hwp");  // inherited
  EXPECT_TRUE(std::get<bool>(boost.cpufreq.params.at("hwp_boost")));
  EXPECT_EQ(boost.placement.name, "prev");
  EXPECT_EQ(boost.config.hz, 1000);
  EXPECT_FALSE(boost.config.turbo);
  EXPECT_EQ(boost.config_overrides.dump(), R"({"hz":1000,"turbo":false})");

  absl::StatusOr<platform::Params> p = e->PointParams(2);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->GetInt("tasks"), 4);
  EXPECT_EQ(p->GetInt("cycles"), 300000);
  // Paired comparisons: one seed per iteration, whatever the variant.
  EXPECT_EQ(e->IterationSeed(1), sim::DeriveSeed(42, 1));
  EXPECT_NE(e->IterationSeed(0), e->IterationSeed(1));
}

TEST(ExperimentTest, Defaults) {
  absl::StatusOr<Experiment> e = Parse(With(""));
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_FALSE(e->sweep.has_value());
  EXPECT_EQ(e->num_points(), 1);
  EXPECT_EQ(e->PointName(0), "");
  EXPECT_EQ(e->iterations, kDefaultIterations);
  EXPECT_EQ(e->seed, 1u);
  EXPECT_EQ(e->warmup_ms, 0);
  const Variant& v = e->variants[0];
  EXPECT_EQ(v.cpufreq.name, "");  // the machine's default, resolved later
  EXPECT_EQ(v.cpuidle.name, kDefaultIdleGovernor);
  EXPECT_EQ(v.placement.name, kDefaultPlacementPolicy);
  EXPECT_EQ(v.config.hz, sim::SimConfig().hz);
}

TEST(ExperimentTest, SweepRanges) {
  absl::StatusOr<Experiment> step = Parse(
      With(R"("sweep": {"param": "tasks", "from": 1, "to": 7, "step": 3})"));
  ASSERT_TRUE(step.ok()) << step.status();
  EXPECT_EQ(step->num_points(), 3);  // 1 4 7
  EXPECT_EQ(step->PointValue(2), "7");

  absl::StatusOr<Experiment> factor = Parse(
      With(R"("sweep": {"param": "tasks", "from": 1, "to": 12, "factor": 2})"));
  ASSERT_TRUE(factor.ok()) << factor.status();
  std::vector<std::string> values;
  for (int i = 0; i < factor->num_points(); ++i) {
    values.push_back(factor->PointValue(i));
  }
  EXPECT_EQ(absl::StrJoin(values, " "), "1 2 4 8");
}

TEST(ExperimentTest, PolicyParamsMergeOnTheSamePolicy) {
  absl::StatusOr<Experiment> e = Parse(With(R"(
      "policies": {"cpufreq": {"name": "intel_pstate_hwp",
                               "params": {"epp": "performance"}}},
      "variants": [
        {"name": "a"},
        {"name": "b", "cpufreq": {"params": {"hwp_boost": true}}},
        {"name": "c", "cpufreq": "schedutil"}])"));
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(std::get<std::string>(e->variants[0].cpufreq.params.at("epp")),
            "performance");
  EXPECT_EQ(e->variants[1].cpufreq.params.size(), 2u);
  EXPECT_EQ(e->variants[2].cpufreq.name, "schedutil");
  EXPECT_TRUE(e->variants[2].cpufreq.params.empty());
}

// Each kind of mistake names the file, the JSON path and what was expected.
TEST(ExperimentTest, ErrorsNameTheFieldAndWhatWasExpected) {
  struct Case {
    std::string text;
    std::string message;  // a substring of the error
  };
  const std::vector<Case> cases = {
      {"{\"machine\": ", "exp.json: line 1, column 13"},
      {"[1]", "exp.json: expected an object of experiment keys"},
      {With(R"("iteratons": 3)"),
       "exp.json: unknown key 'iteratons' (did you mean 'iterations'?); an "
       "experiment has the keys description, machine,"},
      {With(R"("seed": 1, "seed": 2)"),
       "exp.json: key 'seed' appears more than once"},
      {R"({"workload": {"model": "test_compute_sleep"}, "duration_ms": 1,
          "variants": [{"name": "a"}]})",
       "exp.json: no machine: give exactly one of \"machine\""},
      {R"({"machine": "skylake", "workload": {"model": "x"}})",
       "exp.json: machine: unknown machine 'skylake'; built-in machines: "
       "skylake-e3-1240v5"},
      {R"({"machine": "skylake-e3-1240v5", "duration_ms": 1})",
       "exp.json: missing \"workload\""},
      {R"({"machine": "zen3-2s-nps1", "power_model": "skylake-e3-1240v5"})",
       "exp.json: power_model: a power model is for an imported machine "
       "(\"sysfs\" or \"hwloc\"); the built-in machine 'zen3-2s-nps1' has "
       "its own tables"},
      {R"({"hwloc": "m.xml", "power_model": "skylake-e3"})",
       "exp.json: power_model: unknown power model 'skylake-e3'; built-in "
       "machines: skylake-e3-1240v5"},
      {R"({"hwloc": "m.xml", "power_model": 3})", "exp.json: power_model: "},
      {R"({"machine": "skylake-e3-1240v5", "workload": {"model": "test"},
          "duration_ms": 1})",
       "exp.json: workload.model: unknown workload model 'test'; known "
       "models: "},
      {R"({"machine": "skylake-e3-1240v5", "workload": {"modle": "x"}})",
       "exp.json: workload: unknown key 'modle' (did you mean 'model'?)"},
      {With(R"("workload": {"model": "test_compute_sleep",
                            "params": {"task": 2}})"),
       "exp.json: workload.params: unknown parameter 'task' (did you mean "
       "'tasks'?); workload 'test_compute_sleep' has the parameters tasks, "
       "cycles, sleep_us, stall_ns"},
      {With(R"("workload": {"model": "test_compute_sleep",
                            "params": {"tasks": "two"}})"),
       "exp.json: workload.params.tasks: expected an integer (workload "
       "'test_compute_sleep' parameter 'tasks'), got string \"two\""},
      {With(R"("workload": {"model": "test_compute_sleep",
                            "params": {"tasks": 2.5}})"),
       "workload.params.tasks: expected an integer"},
      {R"({"machine": "skylake-e3-1240v5",
          "workload": {"model": "test_compute_sleep"},
          "variants": [{"name": "a"}]})",
       "exp.json: missing \"duration_ms\""},
      {With(R"("iterations": 0)"),
       "exp.json: iterations: expected an integer in 1..10000, got 0"},
      {With(R"("warmup_ms": "5")"),
       "exp.json: warmup_ms: expected an integer in 0..1000000000, got "
       "string \"5\""},
      {With(R"("seed": -1)"), "exp.json: seed: expected an integer in 0.."},
      {With(R"("sweep": {"param": "threads", "values": [1]})"),
       "exp.json: sweep.param: unknown parameter 'threads'; workload "
       "'test_compute_sleep' has the parameters tasks, cycles, sleep_us, "
       "stall_ns"},
      {With(R"("sweep": {"param": "tasks", "values": [1, 2, 1]})"),
       "exp.json: sweep.values[2]: 1 is already swept at sweep.values[0]"},
      {With(R"("sweep": {"param": "tasks", "values": [1, "2"]})"),
       "exp.json: sweep.values[1]: expected an integer"},
      {With(R"("sweep": {"param": "tasks", "values": []})"),
       "exp.json: sweep.values: the list is empty"},
      {With(R"("sweep": {"param": "tasks", "values": [1], "from": 1})"),
       "exp.json: sweep: give either \"values\""},
      {With(R"("sweep": {"param": "tasks", "from": 1, "to": 4})"),
       "exp.json: sweep: a range needs exactly one of \"step\""},
      {With(R"("sweep": {"param": "tasks", "from": 8, "to": 4, "step": 1})"),
       "exp.json: sweep: \"from\" (8) is above \"to\" (4)"},
      {With(R"("sweep": {"param": "tasks", "from": 1, "to": 4, "factor": 1})"),
       "exp.json: sweep.factor: expected an integer in 2.."},
      {With(R"("sweep": {"param": "tasks", "valeus": [1]})"),
       "exp.json: sweep: unknown key 'valeus' (did you mean 'values'?)"},
      {With(R"("workload": {"model": "test_compute_sleep",
                            "params": {"tasks": 2}},
               "sweep": {"param": "tasks", "values": [1]})"),
       "exp.json: workload.params.tasks: 'tasks' is swept"},
      {With(R"("variants": [])"), "exp.json: variants: the list is empty"},
      {With(R"("variants": {"name": "a"})"),
       "exp.json: variants: expected an array"},
      {With(R"("variants": [{"description": "x"}])"),
       "exp.json: variants[0]: missing \"name\""},
      {With(R"("variants": [{"name": "a"}, {"name": "a"}])"),
       "exp.json: variants[1].name: variant 'a' is already defined at "
       "variants[0]"},
      {With(R"("variants": [{"name": "a b"}])"),
       "exp.json: variants[0].name: 'a b' is not a variant name"},
      {With(R"("variants": [{"name": "a", "cpufrq": "schedutil"}])"),
       "exp.json: variants[0]: unknown key 'cpufrq' (did you mean "
       "'cpufreq'?); a variant has the keys name, description, cpufreq,"},
      {With(R"("variants": [{"name": "a"},
                            {"name": "b", "cpufreq": "intel_pstat_hwp"}])"),
       "exp.json: variants[1].cpufreq: unknown cpufreq policy "
       "'intel_pstat_hwp' (did you mean 'intel_pstate_hwp'?); known: "},
      {With(R"("variants": [{"name": "a", "cpuidle": 3}])"),
       "exp.json: variants[0].cpuidle: expected a cpuidle policy name, or "
       "{\"name\": NAME, \"params\": {...}}, got number 3"},
      {With(R"("variants": [{"name": "a", "cpufreq":
                 {"name": "intel_pstate_hwp",
                  "params": {"hwp_bost": true}}}])"),
       "exp.json: variants[0].cpufreq.params: unknown parameter 'hwp_bost' "
       "(did you mean 'hwp_boost'?); cpufreq policy 'intel_pstate_hwp' has "
       "the parameters "},
      // A parameter that moved (issue 46): where it went, not "unknown".
      {With(R"("variants": [{"name": "a", "cpufreq":
                 {"name": "schedutil",
                  "params": {"frequency_invariant": false}}}])"),
       "exp.json: variants[0].cpufreq.params: parameter "
       "'frequency_invariant' of cpufreq policy 'schedutil' moved to the "
       "experiment's \"config\": {\"frequency_invariance\": true|false}"},
      {With(R"("variants": [{"name": "a", "cpufreq":
                 {"name": "intel_pstate_hwp", "params": {"hwp_boost": 1}}}])"),
       "exp.json: variants[0].cpufreq.params.hwp_boost: expected a boolean "
       "(cpufreq policy 'intel_pstate_hwp' parameter 'hwp_boost'), got "
       "number 1"},
      {With(R"("variants": [{"name": "a", "cpufreq":
                 {"name": "intel_pstate_hwp", "params": {"epp": "fast"}}}])"),
       "exp.json: variants[0].cpufreq.params: intel_pstate_hwp: "},
      {With(R"("variants": [{"name": "a", "cpufreq": {"params": {}}}])"),
       "exp.json: variants[0].cpufreq: the default cpufreq policy depends on "
       "the machine"},
      {With(R"("policies": {"placment": "prev"})"),
       "exp.json: policies: unknown key 'placment' (did you mean "
       "'placement'?)"},
      {With(R"("config": {"hzz": 100})"),
       "exp.json: config: unknown key 'hzz' (did you mean 'hz'?); the config "
       "keys are hz, "},
      {With(R"("variants": [{"name": "a", "config": {"turbo": 1}}])"),
       "exp.json: variants[0].config.turbo: expected true or false, got "
       "number 1"},
      {With(R"("config": {"noise_scale": -1})"),
       "exp.json: config.noise_scale: expected a number in 0..100, got "
       "number -1"},
      {With(R"("variants": [{"name": "a", "config": {"noise_scale": true}}])"),
       "exp.json: variants[0].config.noise_scale: expected a number in "
       "0..100, got boolean true"},
      {With(R"("config": {"hz": [100]})"),
       "exp.json: config.hz: expected an integer in 1..10000, got an array "
       "[100]"},
      {With(R"("config": {"hz": 18446744073709551615})"),
       "exp.json: config.hz: expected an integer in 1..10000, got number "
       "18446744073709551615"},
      {With(R"("config": {"turbo": null})"),
       "exp.json: config.turbo: expected true or false, got null"},
  };
  for (const Case& c : cases) {
    EXPECT_THAT(ErrorOf(c.text), HasSubstr(c.message)) << c.text;
  }
}

TEST(ExperimentTest, NoiseScaleIsAConfigKey) {
  absl::StatusOr<Experiment> e =
      ParseExperiment(With(R"("config": {"noise_scale": 0},
              "variants": [{"name": "a"},
                           {"name": "b", "config": {"noise_scale": 2.5}}])"),
                      "exp.json");
  ASSERT_TRUE(e.ok()) << e.status();
  ASSERT_EQ(e->variants.size(), 2u);
  EXPECT_EQ(e->variants[0].config.noise_scale, 0.0);
  EXPECT_EQ(e->variants[1].config.noise_scale, 2.5);
}

TEST(ExperimentTest, LoadReportsUnreadableFiles) {
  absl::StatusOr<Experiment> e = LoadExperimentFile("/nonexistent/exp.json");
  ASSERT_FALSE(e.ok());
  EXPECT_THAT(std::string(e.status().message()),
              StartsWith("/nonexistent/exp.json: "));
}

TEST(ExperimentTest, RelativeMachinePathsAreTakenFromTheFilesDirectory) {
  absl::StatusOr<Experiment> e = ParseExperiment(
      R"({"hwloc": "machine.xml", "workload": {"model": "test_compute_sleep"},
          "duration_ms": 1, "variants": [{"name": "a"}]})",
      "dir/exp.json");
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->machine.hwloc, "dir/machine.xml");
}

}  // namespace
}  // namespace schedsim::experiments
