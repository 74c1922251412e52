// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/params.h"

#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "sim/kernels.h"

namespace schedsim::sim {
namespace {

// The fields sim/config.h declares, in order.
std::vector<std::string> DeclaredFields() {
  std::ifstream in("sim/config.h");
  EXPECT_TRUE(in.good()) << "sim/config.h is a data dependency";
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  const std::regex field(R"(\n\s+(int|int64_t|bool|double) (\w+) = )");
  std::vector<std::string> names;
  for (std::sregex_iterator it(s.begin(), s.end(), field), end; it != end;
       ++it) {
    names.push_back((*it)[2]);
  }
  return names;
}

TEST(ConfigParamsTest, EveryFieldOfTheConfigIsInTheTableInOrder) {
  std::vector<std::string> table;
  for (const ConfigParam& p : ConfigParams()) table.push_back(p.name);
  const std::vector<std::string> declared = DeclaredFields();
  ASSERT_GT(declared.size(), 40u);
  EXPECT_EQ(table, declared);
}

TEST(ConfigParamsTest, EveryEntryIsComplete) {
  const std::set<std::string> statuses = {"kernel", "measured", "assumed",
                                          "switch"};
  for (const ConfigParam& p : ConfigParams()) {
    const bool boolean = std::holds_alternative<bool SimConfig::*>(p.field);
    EXPECT_EQ(statuses.count(p.status), 1u) << p.name << ": " << p.status;
    EXPECT_NE(std::string(p.group), "") << p.name;
    EXPECT_NE(std::string(p.source), "") << p.name;
    EXPECT_NE(std::string(p.doc), "") << p.name;
    if (!boolean) {
      EXPECT_NE(std::string(p.unit), "") << p.name;
      EXPECT_LE(p.min, p.max) << p.name;
    }
    // The default is inside the range.
    const SimConfig c;
    if (auto* f = std::get_if<int64_t SimConfig::*>(&p.field)) {
      EXPECT_GE(c.*(*f), p.min) << p.name;
      EXPECT_LE(c.*(*f), p.max) << p.name;
    }
  }
}

// A switch of the kernel-versions table is a "switch" here, and the
// reverse: every kernel mechanism has its versions.
TEST(ConfigParamsTest, KernelSwitchesAreTheKernelTablesFeatures) {
  std::set<std::string> features;
  for (const KernelFeature& f : KernelFeatures()) features.insert(f.name);
  for (const ConfigParam& p : ConfigParams()) {
    const bool is_switch = std::string(p.status) == "switch";
    EXPECT_EQ(is_switch, features.count(p.name) == 1) << p.name;
  }
  EXPECT_EQ(FindConfigParam("hz")->name, std::string("hz"));
  EXPECT_EQ(FindConfigParam("nope"), nullptr);
  SimConfig c;
  EXPECT_EQ(ConfigValueText(*FindConfigParam("eevdf"), c), "false");
  EXPECT_EQ(ConfigValueText(*FindConfigParam("hz"), c), "250");
}

TEST(SetConfigParamsTest, SetsTypedValuesAndRefusesBadOnes) {
  SimConfig c;
  ASSERT_TRUE(SetConfigParams({{"hz", int64_t{1000}},
                               {"turbo", false},
                               {"noise_scale", 0.5},
                               {"sched_latency_ns", 1e7}},
                              "src", &c)
                  .ok());
  EXPECT_EQ(c.hz, 1000);
  EXPECT_FALSE(c.turbo);
  EXPECT_EQ(c.noise_scale, 0.5);
  EXPECT_EQ(c.sched_latency_ns, 10000000);

  auto message = [](const std::map<std::string, platform::ParamValue>& v) {
    SimConfig scratch;
    return std::string(SetConfigParams(v, "src", &scratch).message());
  };
  EXPECT_EQ(message({{"hz", int64_t{0}}}),
            "src: config.hz: expected an integer in 1..10000, got 0");
  EXPECT_EQ(message({{"hz", 1.5}}),
            "src: config.hz: expected an integer in 1..10000, got number 1.5");
  EXPECT_EQ(message({{"turbo", int64_t{1}}}),
            "src: config.turbo: expected true or false, got number 1");
  EXPECT_EQ(message({{"noise_scale", std::string("x")}}),
            "src: config.noise_scale: expected a number in 0..100, got "
            "string \"x\"");
  EXPECT_NE(message({{"hzz", int64_t{1}}}).find("did you mean 'hz'"),
            std::string::npos);
}

TEST(SetConfigParamTest, NamesTheObjectPathAndShowsTheCallersRendering) {
  SimConfig c;
  ASSERT_TRUE(
      SetConfigParam("hz", int64_t{250}, "f.json", "variants[1].config", &c)
          .ok());
  EXPECT_EQ(c.hz, 250);
  EXPECT_EQ(SetConfigParam("hz", int64_t{0}, "f.json", "variants[1].config", &c)
                .message(),
            "f.json: variants[1].config.hz: expected an integer in 1..10000, "
            "got 0");
  // A value a ParamValue cannot hold (a file's array) arrives as a value
  // of the wrong type with the file's rendering.
  EXPECT_EQ(SetConfigParam("turbo", std::string(), "f.json", "config", &c,
                           "array [1]")
                .message(),
            "f.json: config.turbo: expected true or false, got array [1]");
  EXPECT_EQ(c.hz, 250);  // a refused value changes nothing
  const std::string unknown = std::string(
      SetConfigParam("hzz", int64_t{1}, "f.json", "variants[0].config", &c)
          .message());
  EXPECT_EQ(unknown.rfind("f.json: variants[0].config: unknown key 'hzz' "
                          "(did you mean 'hz'?); the config keys are hz, ",
                          0),
            0u)
      << unknown;
}

TEST(CheckConfigRangesTest, DefaultsAndKernelsPassAndOutOfRangeFails) {
  EXPECT_TRUE(CheckConfigRanges(SimConfig{}, "src").ok());
  for (const KnownKernel& k : KnownKernels()) {
    SimConfig c;
    ApplyKernel(k.version, &c);
    EXPECT_TRUE(CheckConfigRanges(c, "src").ok()) << k.version.ToString();
  }
  SimConfig c;
  c.hz = 0;
  EXPECT_EQ(CheckConfigRanges(c, "src").message(),
            "src: hz: expected an integer in 1..10000, got 0");
  c = SimConfig{};
  c.noise_scale = std::nan("");
  EXPECT_FALSE(CheckConfigRanges(c, "src").ok());
}

}  // namespace
}  // namespace schedsim::sim
