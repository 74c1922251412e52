// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The ready-made experiments of experiments/examples/ reproduce the seed
// reports in direction: each runs once (one iteration) through the real
// command line and the sign of the difference against the baseline is
// checked. The published sizes and what schedsim gives are compared in
// experiments/examples/README.md. Two more tests guard model bugs found
// against a seed report (issue 13, causes 9 and 10).

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "cli/cli.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace schedsim {
namespace {

nlohmann::json RunExperiment(const std::string& file) {
  std::ostringstream out, err;
  int code = cli::RunCli({"run", "experiments/examples/" + file,
                          "--format=json", "--iterations=1", "--jobs=2"},
                         out, err);
  EXPECT_EQ(code, 0) << err.str();
  return code == 0 ? nlohmann::json::parse(out.str()) : nlohmann::json();
}

// Writes experiment `text` to `name` in the test's temporary directory and
// runs it through the command line (every iteration the file asks for).
nlohmann::json RunExperimentText(const std::string& name,
                                 const std::string& text) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string file =
      std::string(tmp != nullptr ? tmp : "/tmp") + "/" + name;
  {
    std::ofstream f(file);
    f << text;
  }
  std::ostringstream out, err;
  int code = cli::RunCli({"run", file, "--format=json", "--jobs=2"}, out, err);
  EXPECT_EQ(code, 0) << err.str();
  return code == 0 ? nlohmann::json::parse(out.str()) : nlohmann::json();
}

// The % difference (positive = better) of `variant` against the baseline
// for `metric` at sweep point `point`.
double DiffPct(const nlohmann::json& result, int point,
               const std::string& variant, const std::string& metric) {
  return result["points"][point]["variants"][variant]["metrics"][metric]
               ["diff_pct"]
                   .get<double>();
}

TEST(SeedExperimentsTest, Seed000HwpBoostHelpsPgbenchReadWrite) {
  nlohmann::json r = RunExperiment("seed000_hwp_boost_skylake.json");
  ASSERT_FALSE(r.is_null());
  // Sweep points: clients 1, 4, 7, 8. Published (ext4 / xfs): 4 clients
  // +7.5% / +10.9%, 7 clients +14.3% / +14.3%, 8 clients +16.8% / +14.4%
  // tps, all significant; 1 client -1.2% / -0.5% is neutral and not
  // checked. One iteration varies by about a point at 4-8 clients, so each
  // of those must gain more than 2%.
  ASSERT_EQ(r["points"].size(), 4u);
  for (int point = 1; point < 4; ++point) {
    EXPECT_GT(DiffPct(r, point, "hwp_boost", "tps"), 2.0)
        << "clients=" << r["points"][point]["sweep_value"];
  }
}

TEST(SeedExperimentsTest, Seed003PmQosZeroBeatsMenuOnTcpRr) {
  nlohmann::json r = RunExperiment("seed003_menu_vs_pmqos_netperf.json");
  ASSERT_FALSE(r.is_null());
  // Published: cpu_dma_latency=0 gives +12.7% TCP_RR transactions; the
  // 2012 repeat-mode timer cost ~4% (the revert gained it back).
  EXPECT_GT(DiffPct(r, 0, "dma_latency_0", "transactions_per_s"), 5.0);
  EXPECT_LT(DiffPct(r, 0, "menu_repeat_timer", "transactions_per_s"), 0.0);
}

// Issue 13, cause 9: on the zen3 presets hackbench once ran 22-38% slower
// with `performance` than with `schedutil` (and faster at a fixed minimum
// frequency), which no kernel mechanism explains: a CPU held at its top
// frequency must not lose to one that ramps. Measured since (2 iterations,
// 100 ms after 100 ms): `performance` 0.9% faster at 8 groups, 1.6% at 32.
// One iteration at 8 groups must not come out more than 5% slower (single
// iterations differ by up to about 2%).
TEST(SeedExperimentsTest, PerformanceIsNotSlowerThanSchedutilOnZen3Hackbench) {
  const nlohmann::json r = RunExperimentText("zen3_performance.json", R"({
      "machine": "zen3-2s-nps1",
      "workload": {"model": "hackbench",
                   "params": {"pipe": true, "threads": false,
                              "time_loops": 50000}},
      "sweep": {"param": "groups", "values": [8]},
      "iterations": 1, "seed": 1, "warmup_ms": 100, "duration_ms": 100,
      "variants": [{"name": "schedutil", "cpufreq": "schedutil"},
                   {"name": "performance", "cpufreq": "performance"}]})");
  ASSERT_FALSE(r.is_null());
  EXPECT_GT(DiffPct(r, 0, "performance", "time_s"), -5.0);
}

// Issue 13, cause 10: hackbench saturated the modelled Zen3 machine, 30 M
// messages a second at 32 groups against the 103 M of seed 001's tip
// (640 M messages in 6.2 s), flat from 32 to 256 groups. Since its
// message cost is fitted at 128 groups (docs/validation.md,
// "Calibration") 32 groups run at about 79 M (one iteration of 50 ms after
// 50 ms); the model must stay within 2x of the published rate there.
TEST(SeedExperimentsTest, Zen3HackbenchIsNotSaturatedAt32Groups) {
  const nlohmann::json r = RunExperimentText("zen3_hackbench32.json", R"({
      "machine": "zen3-2s-nps1",
      "workload": {"model": "hackbench",
                   "params": {"pipe": true, "threads": false,
                              "time_loops": 50000}},
      "sweep": {"param": "groups", "values": [32]},
      "iterations": 1, "seed": 1, "warmup_ms": 50, "duration_ms": 50,
      "variants": [{"name": "tip", "placement": "sis_util"}]})");
  ASSERT_FALSE(r.is_null());
  const double rate = r["points"][0]["variants"]["tip"]["metrics"]
                       ["messages_per_s"]["summary"]["amean"]
                           .get<double>();
  const double published = 32.0 * 20 * 20 * 50000 / 6.2;
  EXPECT_GT(rate, 0.5 * published);
  EXPECT_LT(rate, 2.0 * published);
}

}  // namespace
}  // namespace schedsim
