// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/cli.h"

#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace schedsim::experiments {
namespace {

using ::testing::HasSubstr;

struct Result {
  int code;
  std::string out;
  std::string err;
};

Result RunSchedsim(std::vector<std::string> args) {
  std::ostringstream out, err;
  int code = RunCli(args, out, err);
  return {code, out.str(), err.str()};
}

TEST(CliTopologyTest, TextShowsSummaryDistancesAndDomains) {
  Result r = RunSchedsim({"topology", "--machine=zen3-2s-nps4"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("CPU(s):              256"));
  EXPECT_THAT(r.out, HasSubstr("NUMA node(s):        8"));
  EXPECT_THAT(r.out, HasSubstr("Node 0: CPUs 0-15,128-143"));
  EXPECT_THAT(r.out, HasSubstr("  0:  10  12  12  12  32  32  32  32"));
  EXPECT_THAT(r.out, HasSubstr("NODE  span 0-15,128-143"));
  EXPECT_THAT(r.out, HasSubstr("C2       ACPI IOPORT 0x814"));
}

TEST(CliTopologyTest, JsonHasTheDocumentedKeys) {
  Result r =
      RunSchedsim({"topology", "--machine=zen3-2s-nps2", "--format=json"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["cpus"].size(), 256u);
  EXPECT_EQ(j["cpus"][130]["core"], 2);
  EXPECT_EQ(j["cpus"][130]["llc"], 0);
  EXPECT_EQ(j["cpus"][130]["node"], 0);
  EXPECT_EQ(j["cpus"][130]["package"], 0);
  EXPECT_EQ(j["cpus"][130]["siblings"], nlohmann::json({2, 130}));
  ASSERT_EQ(j["nodes"].size(), 4u);
  EXPECT_EQ(j["nodes"][1]["cpus"], "32-63,160-191");
  EXPECT_EQ(j["nodes"][1]["distances"], nlohmann::json({12, 10, 32, 32}));
  EXPECT_EQ(j["llcs"].size(), 16u);
  ASSERT_EQ(j["domains"].size(), 5u);
  EXPECT_EQ(j["domains"][2]["name"], "NODE");
  EXPECT_EQ(j["domains"][4]["span"], "0-255");
  EXPECT_THAT(j["domains"][4]["flags"].dump(), HasSubstr("SD_WAKE_AFFINE"));
  EXPECT_EQ(j["cstates"].size(), 3u);
  EXPECT_EQ(j["frequency"]["base_khz"], 2000000);
}

TEST(CliTopologyTest, CpuFlagPicksTheDomainStack) {
  Result r = RunSchedsim(
      {"topology", "--machine=skylake-e3-1240v5", "--format=json", "--cpu=3"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["domains"].size(), 2u);
  EXPECT_EQ(j["domains"][0]["span"], "3,7");
  EXPECT_EQ(j["domains"][1]["span"], "0-7");
}

TEST(CliTopologyTest, HwlocFileIsImported) {
  Result r =
      RunSchedsim({"topology", "--hwloc=tests/data/mpibind_eas-tioga.xml",
                   "--format=json"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["cpus"].size(), 128u);
  EXPECT_EQ(j["nodes"].size(), 4u);
}

TEST(CliTopologyTest, BadInputsGiveClearErrorsAndNonZeroExit) {
  Result none = RunSchedsim({"topology"});
  EXPECT_EQ(none.code, 2);
  EXPECT_THAT(none.err, HasSubstr("name exactly one machine"));

  Result unknown = RunSchedsim({"topology", "--machine=zen9"});
  EXPECT_EQ(unknown.code, 1);
  EXPECT_THAT(unknown.err, HasSubstr("unknown machine 'zen9'"));

  Result bad_flag = RunSchedsim({"topology", "--machin=zen3-2s-nps1"});
  EXPECT_EQ(bad_flag.code, 2);
  EXPECT_THAT(bad_flag.err, HasSubstr("unknown flag --machin"));

  Result bad_format =
      RunSchedsim({"topology", "--machine=zen3-2s-nps1", "--format=yaml"});
  EXPECT_EQ(bad_format.code, 2);
  EXPECT_THAT(bad_format.err, HasSubstr("--format must be text or json"));

  Result bad_cpu =
      RunSchedsim({"topology", "--machine=zen3-2s-nps1", "--cpu=256"});
  EXPECT_EQ(bad_cpu.code, 2);
  EXPECT_THAT(bad_cpu.err, HasSubstr("not a CPU"));

  Result missing = RunSchedsim({"topology", "--sysfs=/nonexistent/sys"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_THAT(missing.err, HasSubstr("/nonexistent/sys"));

  Result bad_command = RunSchedsim({"topolgy"});
  EXPECT_EQ(bad_command.code, 2);
  EXPECT_THAT(bad_command.err, HasSubstr("unknown command 'topolgy'"));
}

}  // namespace
}  // namespace schedsim::experiments
