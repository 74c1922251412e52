// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/linux_sysfs.h"

#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "platform/linux/fake_tree.h"
#include "topology/testing/pepc_tree.h"

namespace schedsim::platform::host {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string TempDir() {
  absl::StatusOr<std::string> dir =
      topology::testing::MakeTestTempDir("linux_sysfs");
  EXPECT_TRUE(dir.ok()) << dir.status();
  return dir.value_or("/nonexistent");
}

TEST(LinuxSysfsTest, ReadsTrimmedTextIntegersAndCpuLists) {
  const std::string root = TempDir();
  ASSERT_TRUE(testing::WriteTestFile(root + "/a/value", "  2100000\n").ok());
  ASSERT_TRUE(testing::WriteTestFile(root + "/a/list", "0-2,5\n").ok());
  ASSERT_TRUE(testing::WriteTestFile(root + "/a/word", "schedutil\n").ok());
  LinuxSysfs sysfs(root + "//");
  EXPECT_EQ(sysfs.root(), root);
  EXPECT_EQ(sysfs.Path("a/value"), root + "/a/value");
  EXPECT_EQ(sysfs.ReadInt("a/value").value_or(-1), 2100000);
  EXPECT_EQ(sysfs.Read("a/word").value_or(""), "schedutil");
  EXPECT_EQ(sysfs.ReadRaw("a/word").value_or(""), "schedutil\n");
  EXPECT_THAT(sysfs.ReadCpuList("a/list").value_or(std::vector<int>{}),
              ElementsAre(0, 1, 2, 5));
  EXPECT_TRUE(sysfs.IsDir("a"));
  EXPECT_FALSE(sysfs.IsDir("a/value"));
  EXPECT_TRUE(sysfs.Exists("a/value"));
}

// Issue 14 #5: a file that never ends aborted govd with std::bad_alloc.
TEST(LinuxSysfsTest, ReadsAreBoundedAndRegularFilesOnly) {
  const std::string root = TempDir();
  ASSERT_TRUE(
      testing::WriteTestFile(root + "/huge", std::string(100 * 1024, '1'))
          .ok());
  LinuxSysfs sysfs(root);
  absl::StatusOr<std::string> huge = sysfs.ReadRaw("huge");
  EXPECT_EQ(huge.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(huge.status().message(),
              HasSubstr(root + "/huge: is 102400 bytes, larger than the limit "
                               "of 64 KiB"));
  LinuxSysfs dev("/dev");
  absl::StatusOr<std::string> zero = dev.ReadRaw("zero");
  EXPECT_THAT(zero.status().message(),
              HasSubstr("/dev/zero: is a character device"));
  LinuxSysfs proc(root, 200 * 1024);
  EXPECT_TRUE(proc.ReadRaw("huge").ok());
}

TEST(LinuxSysfsTest, ErrorsNameThePath) {
  const std::string root = TempDir();
  ASSERT_TRUE(testing::WriteTestFile(root + "/bad", "abc\n").ok());
  LinuxSysfs sysfs(root);
  absl::StatusOr<int64_t> missing = sysfs.ReadInt("missing");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(missing.status().message(), HasSubstr(root + "/missing"));
  absl::StatusOr<int64_t> bad = sysfs.ReadInt("bad");
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.status().message(),
              HasSubstr("expected an integer in " + root + "/bad, got 'abc'"));
  absl::Status write = sysfs.Write("missing", "1");
  EXPECT_EQ(write.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(write.message(),
              HasSubstr("cannot open " + root + "/missing for writing"));
}

TEST(LinuxSysfsTest, WriteReplacesTheContentWithOneLine) {
  const std::string root = TempDir();
  ASSERT_TRUE(testing::WriteTestFile(root + "/f", "2800000\n").ok());
  LinuxSysfs sysfs(root);
  ASSERT_TRUE(sysfs.Write("f", "1500").ok());
  EXPECT_EQ(testing::ReadTestFile(root + "/f"), "1500\n");
  ASSERT_TRUE(sysfs.WriteRaw("f", "<unsupported>\n").ok());
  EXPECT_EQ(testing::ReadTestFile(root + "/f"), "<unsupported>\n");
}

TEST(LinuxSysfsTest, WritingADirectoryFailsNamingIt) {
  const std::string root = TempDir();
  ASSERT_TRUE(testing::WriteTestFile(root + "/dir/x", "1\n").ok());
  absl::Status s = LinuxSysfs(root).Write("dir", "1");
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr(root + "/dir"));
}

TEST(LinuxSysfsTest, ReadOnlyFileIsReportedNotWritable) {
  if (geteuid() == 0) {
    GTEST_SKIP() << "running as root: mode 0444 does not stop writes";
  }
  const std::string root = TempDir();
  ASSERT_TRUE(testing::WriteTestFile(root + "/ro", "1\n").ok());
  ASSERT_EQ(chmod((root + "/ro").c_str(), 0444), 0);
  LinuxSysfs sysfs(root);
  EXPECT_FALSE(sysfs.Writable("ro"));
  absl::Status s = sysfs.Write("ro", "0");
  EXPECT_EQ(s.code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(s.message(), HasSubstr(root + "/ro"));
}

TEST(LinuxSysfsTest, NumberedEntriesAreSortedNumerically) {
  const std::string root = TempDir();
  for (const char* name :
       {"policy10", "policy2", "policy0", "policyx", "other3"}) {
    ASSERT_TRUE(testing::WriteTestFile(root + "/d/" + name + "/f", "").ok());
  }
  EXPECT_THAT(LinuxSysfs(root).NumberedEntries("d", "policy"),
              ElementsAre(0, 2, 10));
  EXPECT_TRUE(LinuxSysfs(root).NumberedEntries("none", "policy").empty());
}

TEST(LinuxSysfsTest, CpuListParsing) {
  EXPECT_THAT(ParseCpuListText("0 64 \n", "p").value_or(std::vector<int>{}),
              ElementsAre(0, 64));
  EXPECT_THAT(ParseCpuListText("8,0-1", "p").value_or(std::vector<int>{}),
              ElementsAre(0, 1, 8));
  EXPECT_THAT(ParseCpuListText("\n", "p").value_or(std::vector<int>{1}),
              ElementsAre());
  absl::StatusOr<std::vector<int>> bad = ParseCpuListText("3-1", "/x/list");
  EXPECT_THAT(bad.status().message(), HasSubstr("/x/list"));
}

}  // namespace
}  // namespace schedsim::platform::host
