// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/robustness.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "experiments/experiment.h"
#include "experiments/json_util.h"
#include "experiments/runner.h"
#include "experiments/test_workload_model.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedsim::experiments {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Every *_ns field of SimConfig is either a model cost (scaled: the
// parameter table's "costs" group, sim/params.cc) or known not to be one.
// A new field must be put on one side: the table's group (and
// docs/experiments.md) or this list.
TEST(RobustnessTest, ConfigCostsAreCostsNotTunables) {
  const std::vector<std::string> costs = ConfigCostFields();
  EXPECT_THAT(
      costs, ElementsAre("context_switch_ns", "mm_switch_ns", "wakeup_cost_ns",
                         "probe_cost_ns", "ipi_latency_ns", "pipe_op_ns",
                         "socket_op_ns", "llc_migration_penalty_ns",
                         "smt_migration_penalty_ns", "uclamp_enqueue_cost_ns"));
  const std::vector<std::string> keys = SimConfigKeys();
  const std::vector<std::string> not_costs = {
      "sched_latency_ns", "sched_min_granularity_ns",
      "sched_wakeup_granularity_ns", "sched_migration_cost_ns",
      "sched_base_slice_ns", "pm_qos_latency_ns", "pmu_period_ns",
      // The run-to-run variability
      // sources (docs/model.md):
      // noise, scaled by noise_scale,
      // not model costs.
      "vmstat_interval_ns", "vmstat_cost_ns", "watchdog_interval_ns",
      "watchdog_cost_ns", "writeback_interval_ns", "writeback_cost_ns",
      "kernel_timer_interval_ns", "kernel_timer_cost_ns", "kworker_run_ns",
      "rcu_run_ns", "device_irq_ns", "start_skew_max_ns",
      // A KVM guest's (docs/model-idle-frequency.md, "Guests"): the host's
      // halt-polling tunables, and the HLT exit cost, an assumed cost read only
      // on a guest, left out so that experiments without one do not run twice
      // as many scaled runs for nothing.
      "kvm_hlt_exit_ns", "kvm_halt_poll_ns", "kvm_halt_poll_ns_grow_start"};
  for (const std::string& cost : costs) {
    EXPECT_NE(std::find(keys.begin(), keys.end(), cost), keys.end()) << cost;
    EXPECT_EQ(std::find(not_costs.begin(), not_costs.end(), cost),
              not_costs.end())
        << cost;
  }
  for (const std::string& key : keys) {
    if (key.size() < 3 || key.substr(key.size() - 3) != "_ns") continue;
    const bool classified =
        std::find(costs.begin(), costs.end(), key) != costs.end() ||
        std::find(not_costs.begin(), not_costs.end(), key) != not_costs.end();
    EXPECT_TRUE(classified)
        << key << " is a new SimConfig *_ns field: put it in the \"costs\" "
        << "group of sim/params.cc if it is a model cost, or in not_costs "
        << "here";
  }
}

TEST(RobustnessTest, ModelParamRule) {
  auto spec = [](const char* name, platform::ParamValue value,
                 const char* doc) {
    return platform::ParamSpec{name, value, doc};
  };
  // Costs: "model only", numeric, a cost unit in the name.
  EXPECT_TRUE(IsScaledModelParam(
      spec("backend_cycles", int64_t{60000}, "model only: cycles (assumed)")));
  EXPECT_TRUE(IsScaledModelParam(
      spec("fsync_median_us", 80.0, "model only: latency, us (assumed)")));
  EXPECT_TRUE(IsScaledModelParam(
      spec("work_ms", 80.0, "model only: work per iteration, ms")));
  EXPECT_TRUE(IsScaledModelParam(
      spec("cycles_per_byte", 0.5, "model only: copy cycles per byte")));
  EXPECT_TRUE(IsScaledModelParam(
      spec("stall_ns", int64_t{5}, "model only: stall per op, ns")));
  // Not costs: counts, shapes, shares; the spin budget; not "model only";
  // not numeric.
  EXPECT_FALSE(IsScaledModelParam(
      spec("time_loops", int64_t{100}, "model only: the loop count")));
  EXPECT_FALSE(IsScaledModelParam(
      spec("commands", int64_t{100000}, "model only: commands per run")));
  EXPECT_FALSE(IsScaledModelParam(
      spec("command_sigma", 1.0, "model only: lognormal sigma")));
  EXPECT_FALSE(IsScaledModelParam(
      spec("stall_pct", 30.0, "model only: memory-stall share, %")));
  EXPECT_FALSE(IsScaledModelParam(
      spec("bytes_per_op", int64_t{4096}, "model only: payload bytes")));
  EXPECT_FALSE(IsScaledModelParam(
      spec("spin_us", int64_t{1000}, "model only: OpenMP barrier spin, us")));
  EXPECT_FALSE(IsScaledModelParam(
      spec("sleep_usec", int64_t{100}, "sleep per request, us (-s)")));
  EXPECT_FALSE(IsScaledModelParam(
      spec("sleep_us", int64_t{100}, "mean sleep per op, us")));
  EXPECT_FALSE(IsScaledModelParam(
      spec("mode_cycles", std::string("x"), "model only: a name")));
}

TEST(RobustnessTest, ScaleIntegerRoundsAndKeepsAtLeastOne) {
  EXPECT_EQ(ScaleInteger(600, 0.75), 450);
  EXPECT_EQ(ScaleInteger(600, 1.25), 750);
  EXPECT_EQ(ScaleInteger(3, 0.5), 2);  // 1.5 rounds away from zero
  EXPECT_EQ(ScaleInteger(1, 0.4), 1);  // 0.4 would round to 0
  EXPECT_EQ(ScaleInteger(0, 1.25), 0);
}

TEST(RobustnessTest, ChangeSign) {
  EXPECT_EQ(ChangeSign(100, 110, /*higher_is_better=*/true), 1);
  EXPECT_EQ(ChangeSign(100, 110, /*higher_is_better=*/false), -1);
  EXPECT_EQ(ChangeSign(100, 90, true), -1);
  EXPECT_EQ(ChangeSign(100, 100, true), 0);
  EXPECT_EQ(ChangeSign(100, 100 * (1 + 1e-13), true), 0);  // below epsilon
  EXPECT_EQ(ChangeSign(0, 5, true), 1);  // a baseline of 0: the raw sign
  EXPECT_EQ(ChangeSign(0, 5, false), -1);
  EXPECT_EQ(ChangeSign(kNaN, 5, true), 0);
}

Experiment Parse(const std::string& text) {
  absl::StatusOr<Experiment> e = ParseExperiment(text, "exp.json");
  EXPECT_TRUE(e.ok()) << e.status();
  return e.ok() ? *std::move(e) : Experiment();
}

TEST(RobustnessTest, ParamsAndScaledExperiments) {
  const Experiment e = Parse(R"({
      "machine": "skylake-e3-1240v5",
      "workload": {"model": "test_compute_sleep",
                   "params": {"stall_ns": 1000}},
      "sweep": {"param": "tasks", "values": [1, 2]},
      "iterations": 2, "duration_ms": 10,
      "config": {"probe_cost_ns": 0},
      "variants": [{"name": "a"},
                   {"name": "b", "config": {"wakeup_cost_ns": 1000,
                                            "smt_migration_penalty_ns": 5}}]})");
  std::vector<std::string> names;
  for (const ScaledParam& p : RobustnessParams(e)) names.push_back(p.name());
  // probe_cost_ns is 0 everywhere: skipped; smt_migration_penalty_ns is 0
  // in a but 5 in b: scaled. `cycles` and `sleep_us` are not "model only".
  EXPECT_THAT(
      names, ElementsAre("config.context_switch_ns", "config.mm_switch_ns",
                         "config.wakeup_cost_ns", "config.ipi_latency_ns",
                         "config.pipe_op_ns", "config.socket_op_ns",
                         "config.llc_migration_penalty_ns",
                         "config.smt_migration_penalty_ns",
                         "config.uclamp_enqueue_cost_ns", "workload.stall_ns"));
  // 2 x 10 params x 2 points x 2 variants x 2 iterations.
  EXPECT_EQ(RobustnessRunCount(e), 2 * 10 * 2 * 2 * 2);

  // Every variant gets the scaled value, its own override scaled too.
  const Experiment wake =
      ScaledExperiment(e, {ScaledParam::Kind::kConfig, "wakeup_cost_ns"}, 0.75);
  EXPECT_EQ(wake.variants[0].config.wakeup_cost_ns, 450);
  EXPECT_EQ(wake.variants[1].config.wakeup_cost_ns, 750);
  EXPECT_EQ(wake.variants[0].config.context_switch_ns,
            e.variants[0].config.context_switch_ns);
  const Experiment stall =
      ScaledExperiment(e, {ScaledParam::Kind::kWorkload, "stall_ns"}, 1.25);
  EXPECT_EQ(std::get<int64_t>(stall.params.at("stall_ns")), 1250);
  EXPECT_EQ(stall.variants[1].config.wakeup_cost_ns, 1000);

  // A swept model parameter is not scaled; nor is one at 0 (the default).
  const Experiment swept = Parse(R"({
      "machine": "skylake-e3-1240v5",
      "workload": {"model": "test_compute_sleep"},
      "sweep": {"param": "stall_ns", "values": [100, 200]},
      "iterations": 2, "duration_ms": 10, "variants": [{"name": "a"}]})");
  for (const ScaledParam& p : RobustnessParams(swept)) {
    EXPECT_EQ(p.kind, ScaledParam::Kind::kConfig) << p.name();
  }
}

// The sign logic on chosen numbers (no simulation): variants a (baseline),
// b and c; "score" (higher is better, arithmetic) and "latency" (lower is
// better) with the same samples: a = 10, b = 12, c = 10 (sign 0).
class VerdictsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    experiment_ = Parse(R"({"machine": "skylake-e3-1240v5",
        "workload": {"model": "test_compute_sleep"},
        "iterations": 2, "duration_ms": 10,
        "variants": [{"name": "a"}, {"name": "b"}, {"name": "c"}]})");
    nominal_.metrics = {
        {"score", "points", true, workloads::MeanKind::kArithmetic, ""},
        {"latency", "us", false, workloads::MeanKind::kArithmetic, ""},
    };
    nominal_.variants = experiment_.variants;
    nominal_.runs.assign(1, std::vector<std::vector<RunResult>>(3));
    const double values[] = {10, 12, 10};
    for (int v = 0; v < 3; ++v) {
      for (int i = 0; i < 2; ++i) {
        RunResult run;
        run.metrics = {values[v], values[v]};
        nominal_.runs[0][v].push_back(run);
      }
    }
  }

  // Means [point 0][variant][metric] with score = latency.
  static DeclaredMeans Means(double a, double b, double c) {
    return {{{a, a}, {b, b}, {c, c}}};
  }

  Experiment experiment_;
  ExperimentResult nominal_;
};

TEST_F(VerdictsTest, SignsHoldOrFlip) {
  const ScaledParam wake{ScaledParam::Kind::kConfig, "wakeup_cost_ns"};
  const ScaledParam cycles{ScaledParam::Kind::kWorkload, "backend_cycles"};
  const std::vector<ScaledMeans> scaled = {
      {wake, 0.75, Means(10, 11, 10)},    // b still better, c still equal
      {wake, 1.25, Means(10, 9, 10)},     // b now worse: flips b
      {cycles, 0.75, Means(20, 24, 21)},  // c now better: flips c (0 -> +)
      {cycles, 1.25, Means(20, 20, 20)},  // b equal: flips b (+ -> 0)
  };
  const std::vector<RobustnessEntry> v =
      Verdicts(experiment_, nominal_, scaled, 25);
  // 2 metrics x 1 point x 2 non-baseline variants, by metric then variant.
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[0].metric, "score");
  EXPECT_EQ(v[0].variant_name, "b");
  EXPECT_EQ(v[0].variant, 1);
  EXPECT_EQ(v[0].sweep_value, "");
  EXPECT_NEAR(v[0].nominal_change_pct, 20, 1e-9);
  EXPECT_FALSE(v[0].sign_holds);
  EXPECT_THAT(v[0].flipped_by, ElementsAre("config.wakeup_cost_ns+25%",
                                           "workload.backend_cycles+25%"));
  ASSERT_EQ(v[0].scaled.size(), 4u);
  EXPECT_EQ(v[0].scaled[0].param, "config.wakeup_cost_ns");
  EXPECT_EQ(v[0].scaled[0].factor, 0.75);
  EXPECT_NEAR(v[0].scaled[0].change_pct, 10, 1e-9);
  EXPECT_TRUE(v[0].scaled[0].sign_holds);
  EXPECT_FALSE(v[0].scaled[1].sign_holds);
  EXPECT_EQ(v[1].variant_name, "c");
  EXPECT_EQ(v[1].nominal_change_pct, 0);
  EXPECT_THAT(v[1].flipped_by, ElementsAre("workload.backend_cycles-25%"));
  // Lower is better: the same flips (a sign change either way round).
  EXPECT_EQ(v[2].metric, "latency");
  EXPECT_NEAR(v[2].nominal_change_pct, -20, 1e-9);
  EXPECT_EQ(v[2].flipped_by, v[0].flipped_by);
  EXPECT_EQ(v[3].flipped_by, v[1].flipped_by);

  // Scaled runs that keep every sign: robust.
  const std::vector<RobustnessEntry> robust = Verdicts(
      experiment_, nominal_,
      {{wake, 0.75, Means(10, 13, 10)}, {wake, 1.25, Means(9, 10, 9)}}, 25);
  for (const RobustnessEntry& entry : robust) {
    EXPECT_TRUE(entry.sign_holds) << entry.metric << " " << entry.variant_name;
    EXPECT_TRUE(entry.flipped_by.empty());
  }

  const OrderedJson j = RobustnessJson(experiment_, v);
  ASSERT_EQ(j.size(), 4u);
  EXPECT_EQ(j[0]["metric"], "score");
  EXPECT_EQ(j[0]["sweep_value"], nullptr);
  EXPECT_EQ(j[0]["variant"], "b");
  EXPECT_EQ(j[0]["sign_holds"], false);
  EXPECT_EQ(j[0]["flipped_by"].size(), 2u);
  EXPECT_EQ(j[0]["flipped_by"][0], "config.wakeup_cost_ns+25%");
  EXPECT_EQ(j[0]["pct"], 25.0);
  EXPECT_EQ(j[0]["scaled"][1]["factor"], 1.25);

  const std::string text = RobustnessText(experiment_, v, 25);
  EXPECT_THAT(text, HasSubstr("scaled by -25% and +25%, one at a time"));
  EXPECT_THAT(text, ::testing::ContainsRegex(
                        "\n  score +b +\\+20.00%  fragile: flipped by "
                        "config.wakeup_cost_ns\\+25%, "
                        "workload.backend_cycles\\+25%\n"));
  EXPECT_THAT(text, ::testing::ContainsRegex(
                        "\n  latency +c +\\+0.00%  fragile: flipped by "
                        "workload.backend_cycles-25%\n"));
  EXPECT_THAT(text, HasSubstr("0 of 4 robust"));
  EXPECT_THAT(RobustnessText(experiment_, robust, 25),
              ::testing::ContainsRegex("\n  score +b +\\+20.00%  robust\n"));
}

// A real check on the test model: the lowest frequency (powersave) against
// the highest (performance) for 400000 cycles per op is a ~5x longer
// compute phase, which no +-25% change of a microsecond-sized cost can
// undo, so every sign holds.
TEST(RobustnessTest, FrequencyGapIsRobustToCosts) {
  const Experiment e = Parse(R"({
      "machine": "skylake-e3-1240v5",
      "workload": {"model": "test_compute_sleep",
                   "params": {"cycles": 400000, "sleep_us": 300,
                              "stall_ns": 2000}},
      "iterations": 2, "seed": 5, "duration_ms": 20,
      "variants": [{"name": "fast", "cpufreq": "performance"},
                   {"name": "slow", "cpufreq": "powersave"}]})");
  RunnerOptions options;
  options.jobs = 2;
  absl::StatusOr<ExperimentResult> nominal = RunExperiment(e, options);
  ASSERT_TRUE(nominal.ok()) << nominal.status();
  int last_done = 0, last_total = 0;
  options.progress = [&](int done, int total) {
    last_done = std::max(last_done, done);
    last_total = total;
  };
  absl::StatusOr<std::vector<RobustnessEntry>> v =
      CheckRobustness(e, *nominal, 25, options);
  ASSERT_TRUE(v.ok()) << v.status();
  const size_t params = RobustnessParams(e).size();
  EXPECT_EQ(params, 10u);  // 9 nonzero config costs + workload.stall_ns
  EXPECT_EQ(last_total, RobustnessRunCount(e));
  EXPECT_EQ(last_done, last_total);
  ASSERT_EQ(v->size(), 2u);  // 2 metrics x 1 point x 1 variant
  for (const RobustnessEntry& entry : *v) {
    SCOPED_TRACE(entry.metric);
    EXPECT_LT(entry.nominal_change_pct, -20);  // slow is much worse
    EXPECT_TRUE(entry.sign_holds);
    EXPECT_TRUE(entry.flipped_by.empty());
    ASSERT_EQ(entry.scaled.size(), 2 * params);
    for (const ScaledChange& s : entry.scaled) {
      EXPECT_LT(s.change_pct, -20) << s.name;
    }
  }
  // Scaling a cost changes the runs: some scaled change differs from the
  // nominal one (in either metric: ops_per_s counts whole ops over a short
  // run, so it can stay the same while the latency moves).
  bool moved = false;
  for (const RobustnessEntry& entry : *v) {
    for (const ScaledChange& s : entry.scaled) {
      moved |= s.change_pct != entry.nominal_change_pct;
    }
  }
  EXPECT_TRUE(moved);

  EXPECT_FALSE(CheckRobustness(e, *nominal, 0, options).ok());
  EXPECT_FALSE(CheckRobustness(e, *nominal, 100, options).ok());
  // A result of another experiment.
  ExperimentResult other = *nominal;
  other.runs[0].pop_back();
  other.variants.pop_back();
  absl::Status mismatch = CheckRobustness(e, other, 25, options).status();
  EXPECT_THAT(mismatch.message(),
              HasSubstr("is not a result of this experiment"));
}

// A real check where one cost decides the winner. `fast` runs at the
// highest frequency but pays a context-switch cost C per op (one
// switch-in per wake-up, charged as stall inside the op); `slow` runs at
// the lowest and pays none (its own 0 scales to 0). First measure the
// frequency gap G (slow's op latency minus fast's with C = 0), then set
// C = G / 0.9: fast is then slower by about 0.11 G. Scaled by 0.75, C is
// 0.83 G and fast wins again: context_switch_ns-25% flips the sign, while
// +25% (1.39 G) keeps it. The other costs are the same in both variants
// and far smaller than the margins.
TEST(RobustnessTest, ContextSwitchCostDecidesTheWinner) {
  auto experiment = [](int64_t c) {
    return Parse(absl::StrCat(R"({
        "machine": "skylake-e3-1240v5",
        "workload": {"model": "test_compute_sleep",
                     "params": {"cycles": 40000, "sleep_us": 20}},
        "iterations": 2, "seed": 3, "duration_ms": 50,
        "variants": [{"name": "fast", "cpufreq": "performance",
                      "config": {"context_switch_ns": )",
                              c, R"(}},
                     {"name": "slow", "cpufreq": "powersave",
                      "config": {"context_switch_ns": 0}}]})"));
  };
  RunnerOptions options;
  options.jobs = 2;
  const int latency = 1;  // op_latency_us, lower is better
  absl::StatusOr<ExperimentResult> free_switch =
      RunExperiment(experiment(0), options);
  ASSERT_TRUE(free_switch.ok()) << free_switch.status();
  const DeclaredMeans gap_means = MeansOf(*free_switch);
  const double gap_us = gap_means[0][1][latency] - gap_means[0][0][latency];
  ASSERT_GT(gap_us, 10) << "the lowest frequency should be much slower";

  const Experiment e = experiment(std::llround(gap_us * 1000 / 0.9));
  absl::StatusOr<ExperimentResult> nominal = RunExperiment(e, options);
  ASSERT_TRUE(nominal.ok()) << nominal.status();
  absl::StatusOr<std::vector<RobustnessEntry>> v =
      CheckRobustness(e, *nominal, 25, options);
  ASSERT_TRUE(v.ok()) << v.status();
  ASSERT_EQ(v->size(), 2u);
  const RobustnessEntry& entry = (*v)[latency];
  ASSERT_EQ(entry.metric, "op_latency_us");
  EXPECT_GT(entry.nominal_change_pct, 0) << "slow should now win";
  EXPECT_FALSE(entry.sign_holds);
  EXPECT_THAT(entry.flipped_by, ElementsAre("config.context_switch_ns-25%"));
  // Throughput follows the op latency.
  EXPECT_EQ((*v)[0].metric, "ops_per_s");
  EXPECT_THAT((*v)[0].flipped_by, ElementsAre("config.context_switch_ns-25%"));
}

}  // namespace
}  // namespace schedsim::experiments
