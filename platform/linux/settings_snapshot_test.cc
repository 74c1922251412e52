// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/settings_snapshot.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "platform/linux/fake_tree.h"
#include "platform/linux/msr.h"
#include "topology/testing/pepc_tree.h"

namespace schedsim::platform::host {
namespace {

using ::testing::HasSubstr;

class SettingsSnapshotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> dir =
        topology::testing::MakeTestTempDir("snapshot");
    ASSERT_TRUE(dir.ok());
    dir_ = *dir;
    testing::FakeMachine m;
    m.policies.push_back(testing::FakePolicy());
    absl::StatusOr<LinuxPaths> paths = testing::MakeFakeLinuxTree(dir_, m);
    ASSERT_TRUE(paths.ok()) << paths.status();
    paths_ = *paths;
  }
  std::string Sys(const std::string& rel) const {
    return paths_.sysfs_root + "/" + rel;
  }
  std::string Policy0(const std::string& name) const {
    return Sys(PolicyDir(0) + "/" + name);
  }

  std::string dir_;
  LinuxPaths paths_;
};

TEST_F(SettingsSnapshotTest, RestorePutsEveryWrittenFileBack) {
  const auto before = testing::TreeState(dir_);
  {
    SettingsSnapshot snapshot(paths_);
    ASSERT_TRUE(snapshot.SavePolicy(0).ok());
    ASSERT_TRUE(
        snapshot.WriteFile(PolicyDir(0) + "/scaling_governor", "userspace")
            .ok());
    ASSERT_TRUE(
        snapshot.WriteFile(PolicyDir(0) + "/scaling_setspeed", "2100000").ok());
    ASSERT_TRUE(
        snapshot.WriteFile(PolicyDir(0) + "/scaling_max_freq", "2100000").ok());
    EXPECT_EQ(testing::ReadTestFile(Policy0("scaling_governor")),
              "userspace\n");
    SettingsSnapshot::RestoreReport report;
    ASSERT_TRUE(snapshot.Restore(&report).ok());
    EXPECT_EQ(report.written, 3);
    EXPECT_EQ(testing::ReadTestFile(Policy0("scaling_governor")),
              "schedutil\n");
    EXPECT_EQ(testing::ReadTestFile(Policy0("scaling_setspeed")),
              "<unsupported>\n");
    EXPECT_EQ(testing::ReadTestFile(Policy0("scaling_max_freq")), "2800000\n");

    // Idempotent: nothing differs, nothing is written.
    const auto restored = testing::TreeState(dir_);
    ASSERT_TRUE(snapshot.Restore(&report).ok());
    EXPECT_EQ(report.written, 0);
    EXPECT_EQ(testing::TreeState(dir_), restored);
  }
  for (const auto& [path, state] : testing::TreeState(dir_)) {
    EXPECT_EQ(state.content, before.at(path).content) << path;
  }
}

TEST_F(SettingsSnapshotTest, TheFirstSavedValueIsTheOriginal) {
  SettingsSnapshot snapshot(paths_);
  const std::string rel = PolicyDir(0) + "/scaling_min_freq";
  ASSERT_TRUE(snapshot.WriteFile(rel, "2100000").ok());
  ASSERT_TRUE(snapshot.WriteFile(rel, "2800000").ok());
  ASSERT_EQ(snapshot.entries().size(), 1u);
  EXPECT_EQ(snapshot.entries()[0].content, "1500000\n");
  EXPECT_THAT(snapshot.Describe(snapshot.entries()[0]),
              HasSubstr(Policy0("scaling_min_freq") + " = '1500000'"));
}

TEST_F(SettingsSnapshotTest, DestructionRestores) {
  {
    SettingsSnapshot snapshot(paths_);
    ASSERT_TRUE(snapshot.WriteFile(IdleStateDir(1, 2) + "/disable", "1").ok());
    EXPECT_EQ(testing::ReadTestFile(Sys(IdleStateDir(1, 2) + "/disable")),
              "1\n");
  }
  EXPECT_EQ(testing::ReadTestFile(Sys(IdleStateDir(1, 2) + "/disable")), "0\n");
}

TEST_F(SettingsSnapshotTest, SavingAMissingFileFailsNamingIt) {
  SettingsSnapshot snapshot(paths_);
  absl::Status s = snapshot.WriteFile("devices/system/cpu/nope", "1");
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(s.message(), HasSubstr(Sys("devices/system/cpu/nope")));
  EXPECT_TRUE(snapshot.entries().empty());
  EXPECT_EQ(snapshot.SavePolicy(7).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(snapshot.SaveIdleStates(9).code(), absl::StatusCode::kNotFound);
}

TEST_F(SettingsSnapshotTest, SavesEveryIdleStateOfACpu) {
  SettingsSnapshot snapshot(paths_);
  ASSERT_TRUE(snapshot.SaveIdleStates(0).ok());
  EXPECT_EQ(snapshot.entries().size(), 3u);
}

TEST_F(SettingsSnapshotTest, MsrsAreRestoredToo) {
  testing::FakeMsrAccess msr;
  msr.Set(1, kMsrHwpRequest, 0x80002507);
  {
    SettingsSnapshot snapshot(paths_, &msr);
    ASSERT_TRUE(snapshot.WriteMsr(1, kMsrHwpRequest, 0x00251515).ok());
    EXPECT_EQ(msr.Get(1, kMsrHwpRequest), 0x00251515u);
    EXPECT_THAT(snapshot.Describe(snapshot.entries()[0]),
                HasSubstr("MSR 0x774 of CPU 1 = 0x0000000080002507"));
    EXPECT_FALSE(snapshot.SaveMsr(2, kMsrHwpRequest).ok());
  }
  EXPECT_EQ(msr.Get(1, kMsrHwpRequest), 0x80002507u);
}

TEST_F(SettingsSnapshotTest, RestoreReportsAFileThatVanished) {
  SettingsSnapshot snapshot(paths_);
  const std::string rel = PolicyDir(0) + "/scaling_max_freq";
  ASSERT_TRUE(snapshot.WriteFile(rel, "2100000").ok());
  // The file becomes a directory: the write back fails.
  ASSERT_EQ(std::remove(Sys(rel).c_str()), 0);
  ASSERT_TRUE(testing::WriteTestFile(Sys(rel) + "/x", "").ok());
  absl::Status s = snapshot.Restore();
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr(Sys(rel)));
  // Put it back so that the destructor's restore succeeds quietly.
  ASSERT_EQ(std::remove((Sys(rel) + "/x").c_str()), 0);
  ASSERT_EQ(std::remove(Sys(rel).c_str()), 0);
  ASSERT_TRUE(testing::WriteTestFile(Sys(rel), "0\n").ok());
  EXPECT_TRUE(snapshot.Restore().ok());
  EXPECT_EQ(testing::ReadTestFile(Sys(rel)), "2800000\n");
}

}  // namespace
}  // namespace schedsim::platform::host
