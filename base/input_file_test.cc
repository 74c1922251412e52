// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "base/input_file.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedsim::base {
namespace {

using ::testing::HasSubstr;

std::string TmpDir() {
  const char* dir = std::getenv("TEST_TMPDIR");
  return dir != nullptr ? dir : "/tmp";
}

std::string WriteTmp(const std::string& name, const std::string& content) {
  const std::string path = TmpDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

TEST(InputFileTest, ReadsARegularFile) {
  const std::string path = WriteTmp("ok.json", "{\"a\": 1}\n");
  absl::StatusOr<std::string> r = ReadInputFile(path, "scenario file", 100);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(*r, "{\"a\": 1}\n");
}

TEST(InputFileTest, MissingIsNotFoundNamingThePath) {
  absl::StatusOr<std::string> r =
      ReadInputFile(TmpDir() + "/missing.json", "scenario file", 100);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(r.status().message(), HasSubstr("missing.json: cannot open: "));
}

TEST(InputFileTest, DirectoryIsRefusedSayingSo) {
  absl::StatusOr<std::string> r = ReadInputFile(TmpDir(), "scenario file", 100);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status().message(),
              HasSubstr("is a directory, not a regular file; a scenario file "
                        "must be a regular file"));
}

TEST(InputFileTest, FifoIsRefusedWithoutBlocking) {
  const std::string path = TmpDir() + "/fifo";
  unlink(path.c_str());
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  absl::StatusOr<std::string> r = ReadInputFile(path, "hwloc XML file", 100);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status().message(), HasSubstr("is a FIFO (named pipe)"));
  unlink(path.c_str());
}

TEST(InputFileTest, DeviceIsRefused) {
  absl::StatusOr<std::string> r =
      ReadInputFile("/dev/zero", "hwloc XML file", 100);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status().message(),
              HasSubstr("/dev/zero: is a character device"));
}

// Issue 49 #16: a socket was reported as "No such device or address".
TEST(InputFileTest, SocketIsRefusedSayingSo) {
  // A short path: sun_path holds 108 bytes, less than a sandbox's TMPDIR.
  const std::string path = absl::StrCat("/tmp/schedsim-sock-", getpid());
  unlink(path.c_str());
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  struct sockaddr_un addr = {};
  addr.sun_family = AF_UNIX;
  ASSERT_LT(path.size(), sizeof(addr.sun_path));
  path.copy(addr.sun_path, path.size());
  ASSERT_EQ(bind(fd, reinterpret_cast<struct sockaddr*>(&addr), sizeof(addr)),
            0);
  absl::StatusOr<std::string> r = ReadInputFile(path, "trace file", 100);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status().message(),
              HasSubstr(path + ": is a socket, not a regular file; a trace "
                               "file must be a regular file"));
  close(fd);
  unlink(path.c_str());
}

TEST(InputFileTest, TooLargeNamesTheLimit) {
  const std::string path = WriteTmp("big.json", std::string(3000, ' '));
  absl::StatusOr<std::string> r = ReadInputFile(path, "scenario file", 2048);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status().message(),
              HasSubstr("larger than the limit of 2 KiB for a scenario file"));
  EXPECT_EQ(ByteSize(64 * kMiB), "64 MiB");
  EXPECT_EQ(ByteSize(100), "100 bytes");
}

}  // namespace
}  // namespace schedsim::base
