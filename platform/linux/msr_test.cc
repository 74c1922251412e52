// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/msr.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "platform/linux/fake_tree.h"
#include "topology/testing/pepc_tree.h"

namespace schedsim::platform::host {
namespace {

using ::testing::HasSubstr;

TEST(MsrTest, ReadsAndWritesThroughTheDeviceFile) {
  absl::StatusOr<std::string> dir = topology::testing::MakeTestTempDir("msr");
  ASSERT_TRUE(dir.ok());
  LinuxPaths paths;
  paths.dev_root = *dir + "/dev";
  ASSERT_TRUE(testing::WriteFakeMsr(paths, 3, kMsrAperf, 12345).ok());
  EXPECT_EQ(ReadMsr(paths.dev_root, 3, kMsrAperf).value_or(0), 12345u);
  ASSERT_TRUE(WriteMsr(paths.dev_root, 3, kMsrHwpRequest, 0x80002515).ok());
  EXPECT_EQ(testing::ReadFakeMsr(paths, 3, kMsrHwpRequest), 0x80002515u);
  DevMsrAccess reader(paths.dev_root);
  EXPECT_EQ(reader.Where(3), paths.dev_root + "/cpu/3/msr");
  EXPECT_EQ(reader.Read(3, kMsrAperf).value_or(0), 12345u);
  ASSERT_TRUE(testing::WriteFakeMsr(paths, 3, kMsrAperf, 20000).ok());
  EXPECT_EQ(reader.Read(3, kMsrAperf).value_or(0), 20000u);
  ASSERT_TRUE(reader.Write(3, kMsrTsc, 77).ok());
  EXPECT_EQ(reader.Read(3, kMsrTsc).value_or(0), 77u);
}

TEST(MsrTest, MissingDeviceSaysWhatIsNeeded) {
  absl::StatusOr<uint64_t> v = ReadMsr("/nonexistent/dev", 0, kMsrTsc);
  EXPECT_EQ(v.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(v.status().message(), HasSubstr("/nonexistent/dev/cpu/0/msr"));
  EXPECT_THAT(v.status().message(), HasSubstr("modprobe msr"));
}

TEST(MsrTest, HwpRequestLayoutKeepsTheHighBits) {
  HwpRequest r;
  r.min_perf = 8;
  r.max_perf = 37;
  r.desired_perf = 21;
  r.epp = 0x80;
  const uint64_t previous = 0x0000'0400'FFFF'FFFFull;  // package control set
  const uint64_t v = EncodeHwpRequest(r, previous);
  EXPECT_EQ(v, 0x0000'0400'8015'2508ull);
  HwpRequest back = DecodeHwpRequest(v);
  EXPECT_EQ(back.min_perf, 8);
  EXPECT_EQ(back.max_perf, 37);
  EXPECT_EQ(back.desired_perf, 21);
  EXPECT_EQ(back.epp, 0x80);
  r.max_perf = 300;  // clamped to a byte
  EXPECT_EQ((EncodeHwpRequest(r, 0) >> 8) & 0xFF, 255u);
}

TEST(MsrTest, HwpCapabilitiesLayout) {
  // Skylake-SP style: highest 37, guaranteed 21, efficient 10, lowest 7.
  topology::HwpCaps caps = DecodeHwpCapabilities(0x070A1525);
  EXPECT_EQ(caps.highest, 0x25);
  EXPECT_EQ(caps.guaranteed, 0x15);
  EXPECT_EQ(caps.most_efficient, 0x0A);
  EXPECT_EQ(caps.lowest, 0x07);
}

}  // namespace
}  // namespace schedsim::platform::host
