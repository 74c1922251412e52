// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/reports.h"

#include <cmath>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sim/stats.h"
#include "topology/presets.h"

namespace schedsim::experiments {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;

RunReport WithC0(std::vector<double> c0) {
  RunReport r;
  r.duration_s = 1;
  r.cstate_pct.assign(c0.size(), std::vector<double>(2, 0.0));
  r.c0_pct = std::move(c0);
  return r;
}

TEST(ReportsTest, C0HistogramCountsCpusPerTenPercentBin) {
  // Two runs of 4 CPUs: every (CPU, run) pair is one sample.
  RunReport a = WithC0({5, 35, 37, 100});
  RunReport b = WithC0({95, 35, 10, 0});
  VariantReport v = CombineRunReports({&a, &b}, {"POLL", "C1"}, {}, "");
  // [0,10): 5, 0; [10,20): 10; [30,40): 35, 37, 35; [90,100]: 100, 95.
  EXPECT_EQ(v.c0_histogram, (std::vector<int>{2, 1, 0, 3, 0, 0, 0, 0, 0, 2}));
  EXPECT_EQ(v.runs, 2);
  EXPECT_DOUBLE_EQ(v.c0_pct[0], 50);  // (5 + 95) / 2
  EXPECT_DOUBLE_EQ(v.c0_avg_pct, (50 + 35 + 23.5 + 50) / 4);

  // The layout of the turbostat histograms in seed 003.
  EXPECT_EQ(C0HistogramText(v.c0_histogram),
            " 0.0000 -  10.0000 [  2]: **\n"
            "10.0000 -  20.0000 [  1]: *\n"
            "20.0000 -  30.0000 [  0]: \n"
            "30.0000 -  40.0000 [  3]: ***\n"
            "40.0000 -  50.0000 [  0]: \n"
            "50.0000 -  60.0000 [  0]: \n"
            "60.0000 -  70.0000 [  0]: \n"
            "70.0000 -  80.0000 [  0]: \n"
            "80.0000 -  90.0000 [  0]: \n"
            "90.0000 - 100.0000 [  2]: **\n");
}

TEST(ReportsTest, LongHistogramBarsAreScaled) {
  std::string text = C0HistogramText({600, 1, 0, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_THAT(text, HasSubstr("[600]: " + std::string(60, '*') + "\n"));
  EXPECT_THAT(text, HasSubstr("[  1]: *\n"));  // never scaled to nothing
}

TEST(ReportsTest, RunReportFromStats) {
  absl::StatusOr<topology::Topology> machine =
      topology::MakePreset("skylake-e3-1240v5");
  ASSERT_TRUE(machine.ok()) << machine.status();
  const auto& cstates = machine->cstates();
  ASSERT_GE(cstates.size(), 2u);
  ASSERT_TRUE(cstates[0].polling());
  ASSERT_FALSE(cstates[1].polling());

  sim::SimStats stats;
  stats.start_ns = 1000000000;
  stats.end_ns = 2000000000;  // 1 s measured
  stats.cpus.resize(machine->num_cpus());
  for (sim::CpuStats& c : stats.cpus) c.states.resize(cstates.size());
  // CPU 0: 300 ms busy, 100 ms in POLL, 600 ms in the first halted state:
  // %C0 = 100 - 60 = 40 (POLL is C0).
  stats.cpus[0].busy_ns = 300000000;
  stats.cpus[0].states[0].time_ns = 100000000;
  stats.cpus[0].states[1].time_ns = 600000000;
  stats.cpus[0].busy_ns_at_khz = {{800000, 100000000}, {3500000, 200000000}};
  stats.cpus[0].khz_ns_busy = 800000.0 * 1e8 + 3500000.0 * 2e8;
  stats.packages.resize(1);
  stats.packages[0].energy_uj = 2.5e6;
  stats.placement.searches = 10;
  stats.placement.probes = 25;
  stats.placement.chosen_idle = 8;
  stats.placement.chose_target = 5;
  stats.placement.chose_prev = 3;
  stats.placement.chose_other = 2;

  RunReport r = MakeRunReport(stats, *machine);
  EXPECT_DOUBLE_EQ(r.duration_s, 1.0);
  EXPECT_DOUBLE_EQ(r.energy_j, 2.5);
  ASSERT_EQ(r.c0_pct.size(), static_cast<size_t>(machine->num_cpus()));
  EXPECT_NEAR(r.c0_pct[0], 40.0, 1e-9);
  EXPECT_NEAR(r.cstate_pct[0][0], 10.0, 1e-9);
  EXPECT_NEAR(r.cstate_pct[0][1], 60.0, 1e-9);
  EXPECT_NEAR(r.c0_pct[1], 100.0, 1e-9);  // no idle time recorded

  std::vector<std::string> names;
  for (const auto& s : cstates) names.push_back(s.name);
  VariantReport v = CombineRunReports({&r}, names, {}, "");
  // (800 MHz x 100 ms + 3500 MHz x 200 ms) / 300 ms = 2600 MHz.
  EXPECT_NEAR(v.avg_busy_mhz, 2600.0, 1e-9);
  ASSERT_EQ(v.busy_pct_at_khz.size(), 2u);
  EXPECT_NEAR(v.busy_pct_at_khz[0].second, 100.0 / 3, 1e-9);
  EXPECT_DOUBLE_EQ(v.probes_per_search, 2.5);
  EXPECT_DOUBLE_EQ(v.idle_hit_pct, 80);
  EXPECT_DOUBLE_EQ(v.target_pct, 50);
  EXPECT_DOUBLE_EQ(v.prev_pct, 30);
  EXPECT_DOUBLE_EQ(v.other_pct, 20);
  EXPECT_TRUE(std::isnan(v.energy_per_op_j));  // no throughput metric

  std::string text = ReportsText({"base"}, {v});
  EXPECT_THAT(text, HasSubstr("%C0 (mean of CPUs)"));
  EXPECT_THAT(text, HasSubstr("Per-CPU residency %, base"));
  EXPECT_THAT(text, HasSubstr("%C0 histogram, base (8 CPUs x 1 runs)"));
  EXPECT_THAT(text, ContainsRegex("Busy MHz \\(time-weighted\\) +2600\n"));
  EXPECT_THAT(text,
              ContainsRegex("Chose target/prev/other % +50.0/30.0/20.0\n"));
}

TEST(ReportsTest, EnergyPerOperation) {
  // Run 1: 2 J over 1 s at 100 ops/s; run 2: 4 J over 1 s at 300 ops/s.
  // 6 J / (100 + 300) ops = 0.015 J per op; 6 J / 2 s = 3 W.
  RunReport a = WithC0({50});
  a.energy_j = 2;
  RunReport b = WithC0({50});
  b.energy_j = 4;
  VariantReport v =
      CombineRunReports({&a, &b}, {"POLL", "C1"}, {100, 300}, "ops_per_s");
  EXPECT_DOUBLE_EQ(v.energy_j, 3);
  EXPECT_DOUBLE_EQ(v.power_w, 3);
  EXPECT_EQ(v.energy_per_op_metric, "ops_per_s");
  EXPECT_DOUBLE_EQ(v.energy_per_op_j, 0.015);
  OrderedJson j = VariantReportJson(v);
  EXPECT_DOUBLE_EQ(j["energy_per_op_j"].get<double>(), 0.015);
  EXPECT_THAT(ReportsText({"x"}, {v}),
              ContainsRegex("Energy per op J \\(ops_per_s\\) +0.015\n"));
}

TEST(ReportsTest, ThroughputMetricIsTheFirstHigherIsBetterRate) {
  using workloads::MeanKind;
  std::vector<workloads::MetricInfo> metrics = {
      {"latency_us", "us", false, MeanKind::kArithmetic, ""},
      {"ratio", "x", true, MeanKind::kGeometric, ""},
      {"tps", "tps", true, MeanKind::kHarmonic, ""},
      {"ops", "ops/s", true, MeanKind::kHarmonic, ""},
  };
  EXPECT_EQ(ThroughputMetricIndex(metrics), 2);
  metrics.resize(2);
  EXPECT_EQ(ThroughputMetricIndex(metrics), -1);
}

TEST(ReportsTest, AlignColumnsCountsUtf8Characters) {
  EXPECT_EQ(AlignColumns({{"a", "±1", "x"}, {"bbb", "22", "yy"}}, 1, 1),
            "a   ±1  x\n"
            "bbb 22 yy\n");
  EXPECT_EQ(DisplayWidth("d=+1% ±2%"), 9u);
}

}  // namespace
}  // namespace schedsim::experiments
