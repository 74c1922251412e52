// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/scx_probe.h"

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedsim::platform::host {
namespace {

using ::testing::HasSubstr;
using Verdict = ScxProbeResult::Verdict;

void MakeDirs(const std::string& path) {
  std::string so_far;
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

// A sysfs and a procfs root under the test's temporary directory.
LinuxPaths Tree(const std::string& name, const char* state, const char* cap_eff,
                const char* ops = nullptr) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string root =
      std::string(tmp != nullptr ? tmp : "/tmp") + "/scx_probe_" + name;
  LinuxPaths p;
  p.sysfs_root = root + "/sys";
  p.proc_root = root + "/proc";
  MakeDirs(p.sysfs_root + "/kernel");
  if (state != nullptr) {
    WriteFile(p.sysfs_root + "/kernel/sched_ext/state",
              std::string(state) + "\n");
  }
  if (ops != nullptr) {
    WriteFile(p.sysfs_root + "/kernel/sched_ext/root/ops",
              std::string(ops) + "\n");
  }
  if (cap_eff != nullptr) {
    WriteFile(p.proc_root + "/self/status",
              std::string("Name:\tschedsim\nCapInh:\t0000000000000000\n"
                          "CapEff:\t") +
                  cap_eff + "\nCapBnd:\t000001ffffffffff\n");
  }
  return p;
}

TEST(ScxProbeTest, KernelWithoutSchedExtIsRefused) {
  ScxProbeResult r = ProbeSchedExt(Tree("none", nullptr, "000001ffffffffff"));
  EXPECT_EQ(r.verdict, Verdict::kNoSchedExt);
  EXPECT_THAT(r.message, HasSubstr("kernel/sched_ext/state is missing"));
  EXPECT_THAT(r.message, HasSubstr("CONFIG_SCHED_CLASS_EXT=y"));
  EXPECT_EQ(r.message.find('\n'), std::string::npos);
}

TEST(ScxProbeTest, AnotherSchedulerIsNamed) {
  ScxProbeResult r =
      ProbeSchedExt(Tree("other", "enabled", "000001ffffffffff", "rusty"));
  EXPECT_EQ(r.verdict, Verdict::kOtherScheduler);
  EXPECT_THAT(r.message, HasSubstr("reads 'enabled'"));
  EXPECT_THAT(r.message, HasSubstr("root/ops 'rusty'"));
  // A transition counts as busy too.
  EXPECT_EQ(
      ProbeSchedExt(Tree("disabling", "disabling", "000001ffffffffff")).verdict,
      Verdict::kOtherScheduler);
}

TEST(ScxProbeTest, UnprivilegedProcessIsRefused) {
  ScxProbeResult r =
      ProbeSchedExt(Tree("user", "disabled", "0000000000000000"));
  EXPECT_EQ(r.verdict, Verdict::kNoPrivilege);
  EXPECT_THAT(r.message, HasSubstr("CAP_SYS_ADMIN"));
  EXPECT_THAT(r.message, HasSubstr("run it as root"));
}

TEST(ScxProbeTest, RootOnAnIdleSchedExtIsReady) {
  ScxProbeResult r =
      ProbeSchedExt(Tree("root", "disabled", "000001ffffffffff"));
  EXPECT_TRUE(r.ready()) << r.message;
  EXPECT_EQ(r.state, "disabled");
  EXPECT_TRUE(r.message.empty());
}

TEST(ScxProbeTest, MissingStatusIsUnreadableNotReady) {
  ScxProbeResult r = ProbeSchedExt(Tree("noproc", "disabled", nullptr));
  EXPECT_EQ(r.verdict, Verdict::kUnreadable);
  EXPECT_THAT(r.message, HasSubstr("self/status"));
}

TEST(ScxProbeTest, CapabilityRules) {
  EXPECT_TRUE(CapsAllowSchedExt(uint64_t{1} << kCapSysAdmin));
  EXPECT_FALSE(CapsAllowSchedExt(uint64_t{1} << kCapBpf));
  EXPECT_TRUE(CapsAllowSchedExt((uint64_t{1} << kCapBpf) |
                                (uint64_t{1} << kCapPerfmon)));
  EXPECT_FALSE(CapsAllowSchedExt(0));
}

TEST(ScxProbeTest, ParseCapEffRejectsBadLines) {
  EXPECT_EQ(*ParseCapEff("CapEff:\t0000000000200000\n"), uint64_t{1} << 21);
  EXPECT_FALSE(ParseCapEff("CapPrm:\t0\n").ok());
  EXPECT_FALSE(ParseCapEff("CapEff:\tzz\n").ok());
  EXPECT_FALSE(ParseCapEff("CapEff:\t00000000000000000000\n").ok());
}

}  // namespace
}  // namespace schedsim::platform::host
