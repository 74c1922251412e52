// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "cli/scx_command.h"

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "platform/linux/scx_agent.h"

namespace schedsim::cli {
namespace {

using ::testing::HasSubstr;

struct Result {
  int code;
  std::string out;
  std::string err;
};

Result RunScx(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  int code = ScxCommand(args, out, err);
  return {code, out.str(), err.str()};
}

void MakeDirs(const std::string& path) {
  for (size_t i = 1; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '/') {
      mkdir(path.substr(0, i).c_str(), 0755);
    }
  }
}

void WriteFile(const std::string& path, const std::string& text) {
  MakeDirs(path.substr(0, path.rfind('/')));
  std::ofstream(path) << text;
}

// --sysfs and --proc flags of a fake machine.
std::vector<std::string> Tree(const std::string& name, const char* state,
                              const char* cap_eff) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string root =
      std::string(tmp != nullptr ? tmp : "/tmp") + "/scx_cmd_" + name;
  MakeDirs(root + "/sys/kernel");
  if (state != nullptr) {
    WriteFile(root + "/sys/kernel/sched_ext/state", std::string(state) + "\n");
  }
  WriteFile(root + "/proc/self/status",
            std::string("CapEff:\t") + cap_eff + "\n");
  return {"--sysfs=" + root + "/sys", "--proc=" + root + "/proc"};
}

// Exactly one line.
void ExpectOneLine(const std::string& text) {
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.find('\n'), text.size() - 1) << text;
}

TEST(ScxCommandTest, KernelWithoutSchedExtExitsWithOneLine) {
  std::vector<std::string> args = Tree("none", nullptr, "000001ffffffffff");
  args.push_back("--placement=sis_util");
  Result r = RunScx(args);
  EXPECT_EQ(r.code, kScxUnavailable);
  ExpectOneLine(r.err);
  EXPECT_THAT(r.err, HasSubstr("schedsim scx: this kernel has no sched_ext"));
  EXPECT_EQ(r.out, "");
}

TEST(ScxCommandTest, OtherSchedulerAndPrivilegeRefusals) {
  std::vector<std::string> other = Tree("other", "enabled", "000001ffffffffff");
  other.push_back("--placement=prev");
  Result r = RunScx(other);
  EXPECT_EQ(r.code, kScxUnavailable);
  ExpectOneLine(r.err);
  EXPECT_THAT(r.err, HasSubstr("another sched_ext scheduler is loaded"));

  std::vector<std::string> user = Tree("user", "disabled", "0000000000000000");
  user.push_back("--placement=prev");
  r = RunScx(user);
  EXPECT_EQ(r.code, kScxUnavailable);
  ExpectOneLine(r.err);
  EXPECT_THAT(r.err, HasSubstr("run it as root"));
}

// This test binary links no libbpf loader: a ready machine still gets a
// one-line refusal naming how to build one.
TEST(ScxCommandTest, BinaryWithoutLoaderSaysHowToBuildOne) {
  std::vector<std::string> args = Tree("ready", "disabled", "000001ffffffffff");
  args.push_back("--placement=sis_util");
  Result r = RunScx(args);
  EXPECT_EQ(r.code, kScxUnavailable);
  ExpectOneLine(r.err);
  EXPECT_THAT(r.err, HasSubstr("without the sched_ext loader"));
  EXPECT_THAT(r.err, HasSubstr("dev/build-scx"));
}

TEST(ScxCommandTest, UsageErrorsComeFirst) {
  Result r = RunScx({});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("--placement is required; known: "));
  EXPECT_THAT(r.err, HasSubstr("sis_util"));
  r = RunScx({"--placement=nope"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown placement policy 'nope'"));
  r = RunScx({"--placement=prev", "--duration-s=-1"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("--duration-s must be >= 0"));
  r = RunScx({"--placement=prev", "--max-outstanding=0"});
  EXPECT_EQ(r.code, 2);
  r = RunScx({"--placement=prev", "--slice-us=5"});
  EXPECT_EQ(r.code, 2);
  r = RunScx({"--placement=prev", "--param=nosuch=1"});
  EXPECT_EQ(r.code, 2);
  r = RunScx({"--placement=prev", "extra"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("unexpected argument 'extra'"));
}

TEST(ScxCommandTest, HelpListsFlagsAndExitCodes) {
  Result r = RunScx({"--help"});
  EXPECT_EQ(r.code, 0);
  EXPECT_THAT(r.out, HasSubstr("--placement"));
  EXPECT_THAT(r.out, HasSubstr("--max-outstanding"));
  EXPECT_THAT(r.out, HasSubstr("3 sched_ext"));
}

// docs/cli-linux.md documents the command, every flag and every JSON key.
TEST(ScxCommandTest, DocsNameEveryFlagAndJsonKey) {
  std::ifstream in("docs/cli-linux.md");
  ASSERT_TRUE(in.good());
  std::stringstream docs;
  docs << in.rdbuf();
  const std::string text = docs.str();
  const size_t start = text.find("## `schedsim scx`");
  ASSERT_NE(start, std::string::npos);
  const std::string section =
      text.substr(start, text.find("\n## ", start + 1) - start);
  for (const char* flag : {"--placement", "--param", "--duration-s",
                           "--bpf-object", "--max-outstanding", "--slice-us",
                           "--no-idle-events", "--json", "--sysfs", "--proc"}) {
    EXPECT_THAT(section, HasSubstr(std::string("`") + flag)) << flag;
  }
  platform::host::ScxReport report;
  nlohmann::json j = nlohmann::json::parse(report.Json());
  for (const auto& item : j.items()) {
    EXPECT_THAT(section, HasSubstr("`" + item.key() + "`")) << item.key();
  }
}

}  // namespace
}  // namespace schedsim::cli
