// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Stop when settled (experiments/settle.h), end to end through the command
// line at a small size: a hackbench run of a fixed loop count that stops
// once its message rate has settled extrapolates time_s to the full
// length; the same run simulated to the end (--fixed-length) must agree.
// And the seed stops at the batch it stopped at when this was written
// (docs/notebook/2026-12-07-settle.md): determinism across builds.

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "experiments/cli.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace schedsim {
namespace {

// 8 groups of 10 senders and 10 receivers on the 8-CPU Skylake, 10000
// loops: about 4.6 simulated seconds to the end.
constexpr int kLoops = 10000;
constexpr char kExperiment[] = R"({
  "machine": "skylake-e3-1240v5",
  "workload": {"model": "hackbench",
               "params": {"groups": 8, "fds": 10, "loops": 10000,
                          "pipe": true}},
  "iterations": 1, "seed": 4, "warmup_ms": 20, "duration_ms": 6000,
  "settle": {"batch_ms": 10, "min_batches": 20, "precision_pct": 1},
  "variants": [{"name": "a"}]
})";

nlohmann::json RunCliJson(const std::vector<std::string>& extra) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string file =
      std::string(tmp != nullptr ? tmp : "/tmp") + "/settle.json";
  {
    std::ofstream f(file);
    f << kExperiment;
  }
  std::vector<std::string> args = {"run", file, "--format=json", "--jobs=1"};
  args.insert(args.end(), extra.begin(), extra.end());
  std::ostringstream out, err;
  const int code = experiments::RunCli(args, out, err);
  EXPECT_EQ(code, 0) << err.str();
  return code == 0 ? nlohmann::json::parse(out.str()) : nlohmann::json();
}

const nlohmann::json& OnlyRun(const nlohmann::json& r) {
  return r["points"][0]["variants"]["a"]["runs"][0];
}

TEST(SettleAgreementTest, FullLengthRunAgreesWithTheExtrapolation) {
  const nlohmann::json settled = RunCliJson({});
  const nlohmann::json full = RunCliJson({"--fixed-length"});
  ASSERT_FALSE(settled.is_null());
  ASSERT_FALSE(full.is_null());
  const nlohmann::json& s = OnlyRun(settled)["settle"];
  ASSERT_EQ(s["mode"], "settled") << s.dump();
  EXPECT_EQ(s["stop_reason"], "settled") << s.dump();
  const nlohmann::json& x = s["extrapolated"];
  ASSERT_EQ(x["metric"], "time_s") << s.dump();
  EXPECT_EQ(x["length"], std::to_string(kLoops) + " loops");
  const double value = x["value"].get<double>();
  const double low = x["ci95"][0].get<double>();
  const double high = x["ci95"][1].get<double>();
  EXPECT_LE(low, value);
  EXPECT_GE(high, value);
  EXPECT_DOUBLE_EQ(OnlyRun(settled)["metrics"]["time_s"].get<double>(), value);
  // Deterministic: the same seed stops at the same batch (and the full
  // run's simulated stretch is the settled one's, then more).
  EXPECT_EQ(s["batches"], 310) << s.dump();

  const nlohmann::json& f = OnlyRun(full)["settle"];
  EXPECT_EQ(f["mode"], "fixed_length");
  EXPECT_EQ(f["stop_reason"], "fixed_length");
  const double full_s = OnlyRun(full)["metrics"]["time_s"].get<double>();
  // The settled run simulated under 3/4 of the full length.
  EXPECT_LT(s["elapsed_s"].get<double>(), 0.75 * full_s) << s.dump();
  // The full run ends within the interval, or within the precision (1%)
  // of the extrapolation: the batch-means interval covers the steady
  // state's noise, not the finish (the groups drain one by one), which
  // at this size is 0.3% of the run (docs/notebook/2026-12-07-settle.md).
  EXPECT_TRUE((full_s >= low && full_s <= high) ||
              std::abs(full_s - value) <= 0.01 * full_s)
      << "full " << full_s << " extrapolated " << value << " [" << low << ", "
      << high << "]";
}

}  // namespace
}  // namespace schedsim
