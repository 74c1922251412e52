// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/probe.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "platform/linux/fake_tree.h"
#include "platform/linux/msr.h"
#include "topology/testing/pepc_tree.h"

namespace schedsim::platform::host {
namespace {

using ::testing::HasSubstr;

// A pepc capture laid out as <dir>/sys, with empty <dir>/proc and <dir>/dev.
LinuxPaths CapturePaths(const std::string& machine) {
  absl::StatusOr<std::string> dir = topology::testing::MakeTestTempDir(machine);
  EXPECT_TRUE(dir.ok());
  LinuxPaths paths;
  paths.sysfs_root = *dir + "/sys";
  paths.proc_root = *dir + "/proc";
  paths.dev_root = *dir + "/dev";
  absl::Status s = topology::testing::LayOutPepcCapture(
      topology::testing::CaptureRunfile("pepc_" + machine +
                                        "_sys_inlinefiles.txt"),
      paths.sysfs_root);
  EXPECT_TRUE(s.ok()) << s;
  return paths;
}

TEST(ProbeTest, SkylakeWithIntelPstateHasEppButNoUserspaceGovernor) {
  const ProbeReport r = Probe(CapturePaths("sklep0"));
  ASSERT_TRUE(r.Has("cpufreq")) << r.Text();
  EXPECT_EQ(r.policies.size(), 104u);
  EXPECT_THAT(r.Find("cpufreq")->detail,
              HasSubstr("policies 0-103, driver intel_pstate, governor "
                        "powersave"));
  EXPECT_TRUE(r.Has("EPP"));
  ASSERT_FALSE(r.Has("userspace governor"));
  EXPECT_THAT(r.Find("userspace governor")->detail,
              HasSubstr("intel_pstate in passive mode"));
  EXPECT_THAT(r.Find("userspace governor")->detail,
              HasSubstr("performance powersave"));
  ASSERT_TRUE(r.Has("cpuidle"));
  EXPECT_THAT(r.Find("cpuidle")->detail,
              HasSubstr("driver intel_idle, governor menu, states POLL C1 C1E "
                        "C6"));
  EXPECT_FALSE(r.Has("MSR"));
  EXPECT_THAT(r.Find("MSR")->detail, HasSubstr("modprobe msr"));
  EXPECT_FALSE(r.Has("cpu_dma_latency"));
  EXPECT_FALSE(r.Has("/proc/stat"));
  EXPECT_EQ(r.Missing().size(), 4u) << r.Text();
}

TEST(ProbeTest, MilanWithAcpiCpufreqHasUserspaceButNoEpp) {
  const ProbeReport r = Probe(CapturePaths("milan0"));
  ASSERT_TRUE(r.Has("cpufreq")) << r.Text();
  EXPECT_THAT(r.Find("cpufreq")->detail,
              HasSubstr("driver acpi-cpufreq, governor schedutil"));
  EXPECT_TRUE(r.Has("userspace governor"));
  EXPECT_FALSE(r.Has("EPP"));
  EXPECT_THAT(r.Find("EPP")->detail, HasSubstr("acpi-cpufreq"));
  EXPECT_TRUE(r.Has("cpuidle"));
}

TEST(ProbeTest, NoCpufreqIsReportedWithAReason) {
  absl::StatusOr<std::string> dir =
      topology::testing::MakeTestTempDir("nocpufreq");
  ASSERT_TRUE(dir.ok());
  testing::FakeMachine m;  // no policies
  m.cpuidle = false;
  absl::StatusOr<LinuxPaths> paths = testing::MakeFakeLinuxTree(*dir, m);
  ASSERT_TRUE(paths.ok());
  const ProbeReport r = Probe(*paths);
  EXPECT_FALSE(r.Has("cpufreq"));
  EXPECT_THAT(r.Find("cpufreq")->detail,
              HasSubstr("no cpufreq driver is loaded"));
  EXPECT_EQ(r.Find("userspace governor"), nullptr);
  EXPECT_FALSE(r.Has("cpuidle"));
  EXPECT_TRUE(r.Has("/proc/stat"));
  EXPECT_THAT(r.Text(), HasSubstr("  MISSING  cpufreq: "));
  EXPECT_THAT(r.Text(), HasSubstr("  present  /proc/stat: 2 CPUs"));
}

TEST(ProbeTest, MsrAndDmaLatencyDevicesAreFound) {
  absl::StatusOr<std::string> dir = topology::testing::MakeTestTempDir("full");
  ASSERT_TRUE(dir.ok());
  testing::FakeMachine m;
  m.policies.push_back(testing::FakePolicy());
  absl::StatusOr<LinuxPaths> paths = testing::MakeFakeLinuxTree(*dir, m);
  ASSERT_TRUE(paths.ok());
  ASSERT_TRUE(testing::WriteFakeMsr(*paths, 0, kMsrTsc, 1).ok());
  ASSERT_TRUE(
      testing::WriteTestFile(paths->dev_root + "/cpu_dma_latency", "").ok());
  const ProbeReport r = Probe(*paths);
  EXPECT_TRUE(r.Has("MSR")) << r.Text();
  EXPECT_TRUE(r.Has("cpu_dma_latency")) << r.Text();
  EXPECT_TRUE(r.Has("userspace governor")) << r.Text();
  EXPECT_TRUE(r.Missing().size() == 1 && r.Missing()[0].name == "EPP")
      << r.Text();
}

}  // namespace
}  // namespace schedsim::platform::host
