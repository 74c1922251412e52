// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/settings_snapshot.h"

#include <unistd.h>

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

// Issue 49 #10: the snapshot file is created exclusively; an existing one
// (another instance's, or a killed run's only copy of the originals) is
// left as it is.
TEST_F(SettingsSnapshotTest, AnExistingSnapshotFileIsNeverOverwritten) {
  const std::string file = dir_ + "/taken.snapshot";
  ASSERT_TRUE(testing::WriteTestFile(file, "the first govd's\n").ok());
  SettingsSnapshot snapshot(paths_);
  absl::Status s = snapshot.SetSnapshotFile(file);
  EXPECT_EQ(s.code(), absl::StatusCode::kAlreadyExists);
  EXPECT_THAT(s.message(),
              HasSubstr("the snapshot file " + file + " exists already"));
  EXPECT_THAT(s.message(), HasSubstr("schedsim govd --restore=" + file));
  EXPECT_EQ(snapshot.snapshot_file(), "");
  EXPECT_TRUE(snapshot.RemoveSnapshotFile().ok());
  EXPECT_EQ(testing::ReadTestFile(file), "the first govd's\n");
}

// The temporary file is a new one: a file or hard link planted at the old
// fixed name FILE.tmp is not written through.
TEST_F(SettingsSnapshotTest, APlantedTemporaryFileIsNotWrittenThrough) {
  const std::string file = dir_ + "/s.snapshot";
  const std::string victim = dir_ + "/victim";
  ASSERT_TRUE(testing::WriteTestFile(victim, "precious\n").ok());
  ASSERT_EQ(link(victim.c_str(), (file + ".tmp").c_str()), 0);
  {
    SettingsSnapshot snapshot(paths_);
    ASSERT_TRUE(snapshot.SetSnapshotFile(file).ok());
    ASSERT_TRUE(snapshot.SavePolicy(0).ok());
    EXPECT_THAT(testing::ReadTestFile(file),
                HasSubstr("schedsim settings snapshot 1\n"));
    ASSERT_TRUE(snapshot.RemoveSnapshotFile().ok());
  }
  EXPECT_EQ(testing::ReadTestFile(victim), "precious\n");
  // No temporary file is left behind either.
  for (const auto& [path, state] : testing::TreeState(dir_)) {
    EXPECT_THAT(path, ::testing::Not(HasSubstr(".tmp."))) << path;
  }
}

TEST_F(SettingsSnapshotTest, RootsAreRecordedAsAbsolutePaths) {
  char cwd[4096];
  ASSERT_NE(getcwd(cwd, sizeof(cwd)), nullptr);
  ASSERT_EQ(chdir(dir_.c_str()), 0);
  LinuxPaths relative;
  relative.sysfs_root = "sys";
  relative.dev_root = "dev";
  const std::string file = dir_ + "/rel.snapshot";
  {
    SettingsSnapshot snapshot(relative);
    ASSERT_TRUE(snapshot.SetSnapshotFile("rel.snapshot").ok());
    ASSERT_TRUE(snapshot.SavePolicy(0).ok());
    ASSERT_EQ(chdir(cwd), 0);
    absl::StatusOr<SettingsSnapshot::Loaded> loaded =
        SettingsSnapshot::LoadSnapshotFile(file);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    EXPECT_EQ(loaded->paths.sysfs_root, AbsolutePath(paths_.sysfs_root));
    EXPECT_EQ(loaded->paths.dev_root, AbsolutePath(paths_.dev_root));
    EXPECT_EQ(loaded->paths.sysfs_root[0], '/');
    ASSERT_EQ(chdir(dir_.c_str()), 0);
  }
  ASSERT_EQ(chdir(cwd), 0);
}

TEST_F(SettingsSnapshotTest, LoadRefusesWhatGovdNeverWrites) {
  const std::string head =
      "schedsim settings snapshot 1\nsysfs /sys\ndev /dev\n";
  struct Case {
    std::string line;
    std::string message;
  };
  const Case cases[] = {
      {"file devices/system/cpu/cpu1/online 0", "govd never writes"},
      {"file ../../etc/passwd x", "govd never writes"},
      {"file devices/system/cpu/cpufreq/policy0/../../../../etc/shadow x",
       "govd never writes"},
      {"file devices/system/cpu/cpufreq/policy0/scaling_governorX x",
       "govd never writes"},
      {"file devices/system/cpu/cpufreq/policy/scaling_governor x",
       "govd never writes"},
      {"file devices/system/cpu/cpu0/cpuidle/state1/latency 0",
       "govd never writes"},
      {"msr 0 1a0 0", "govd never writes MSR 0x1a0"},
      {"file devices/system/cpu/cpufreq/policy0/scaling_governor " +
           std::string(5000, 'x'),
       "a sysfs attribute holds at most 4096"},
  };
  for (const Case& c : cases) {
    const std::string file = dir_ + "/bad.snapshot";
    ASSERT_TRUE(testing::WriteTestFile(file, head + c.line + "\n").ok());
    absl::StatusOr<SettingsSnapshot::Loaded> loaded =
        SettingsSnapshot::LoadSnapshotFile(file);
    ASSERT_FALSE(loaded.ok()) << c.line;
    EXPECT_THAT(loaded.status().message(), HasSubstr(file + ":4: "));
    EXPECT_THAT(loaded.status().message(), HasSubstr(c.message)) << c.line;
  }
  const std::string relative = dir_ + "/relative.snapshot";
  ASSERT_TRUE(
      testing::WriteTestFile(
          relative, "schedsim settings snapshot 1\nsysfs sys\ndev /dev\n")
          .ok());
  absl::StatusOr<SettingsSnapshot::Loaded> loaded =
      SettingsSnapshot::LoadSnapshotFile(relative);
  ASSERT_FALSE(loaded.ok());
  EXPECT_THAT(loaded.status().message(),
              HasSubstr(":2: expected an absolute sysfs root, got 'sys'"));
  // What govd writes loads.
  const std::string good = dir_ + "/good.snapshot";
  ASSERT_TRUE(
      testing::WriteTestFile(
          good, head +
                    "file devices/system/cpu/cpufreq/policy12/scaling_governor "
                    "schedutil\\n\n"
                    "file devices/system/cpu/cpufreq/policy0/"
                    "energy_performance_preference balance_performance\\n\n"
                    "file devices/system/cpu/cpu3/cpuidle/state2/disable 0\\n\n"
                    "msr 3 774 80002507\n")
          .ok());
  loaded = SettingsSnapshot::LoadSnapshotFile(good);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->entries.size(), 4u);
}

}  // namespace
}  // namespace schedsim::platform::host
