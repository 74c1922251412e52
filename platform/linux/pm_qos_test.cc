// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/pm_qos.h"

#include <cstring>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "platform/linux/fake_tree.h"
#include "platform/linux/settings_snapshot.h"
#include "topology/testing/pepc_tree.h"

namespace schedsim::platform::host {
namespace {

using ::testing::HasSubstr;

int32_t ReadS32(const std::string& path) {
  const std::string bytes = testing::ReadTestFile(path);
  int32_t v = -1;
  if (bytes.size() == sizeof(v)) std::memcpy(&v, bytes.data(), sizeof(v));
  return v;
}

class PmQosTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> dir =
        topology::testing::MakeTestTempDir("pm_qos");
    ASSERT_TRUE(dir.ok());
    testing::FakeMachine m;
    absl::StatusOr<LinuxPaths> paths = testing::MakeFakeLinuxTree(*dir, m);
    ASSERT_TRUE(paths.ok()) << paths.status();
    paths_ = *paths;
  }
  LinuxPaths paths_;
};

TEST_F(PmQosTest, CpuDmaLatencyWritesAFourByteS32AndUpdatesInPlace) {
  const std::string dev = paths_.dev_root + "/cpu_dma_latency";
  ASSERT_TRUE(testing::WriteTestFile(dev, "").ok());
  absl::StatusOr<std::unique_ptr<CpuDmaLatencyRequest>> req =
      CpuDmaLatencyRequest::Open(0, paths_.dev_root);
  ASSERT_TRUE(req.ok()) << req.status();
  EXPECT_EQ(ReadS32(dev), 0);
  ASSERT_TRUE((*req)->Update(20).ok());
  EXPECT_EQ(ReadS32(dev), 20);
  EXPECT_EQ((*req)->latency_us(), 20);
  EXPECT_EQ((*req)->Update(-1).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ReadS32(dev), 20);
}

TEST_F(PmQosTest, CpuDmaLatencyErrorsNameTheDevice) {
  absl::StatusOr<std::unique_ptr<CpuDmaLatencyRequest>> missing =
      CpuDmaLatencyRequest::Open(0, paths_.dev_root);
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(missing.status().message(),
              HasSubstr(paths_.dev_root + "/cpu_dma_latency"));
  EXPECT_EQ(CpuDmaLatencyRequest::Open(-5, paths_.dev_root).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(PmQosTest, IdleStateDisableIsSavedAndRestored) {
  const std::string file =
      paths_.sysfs_root + "/" + IdleStateDir(1, 2) + "/disable";
  {
    SettingsSnapshot snapshot(paths_);
    ASSERT_TRUE(SetIdleStateDisabled(snapshot, 1, 2, true).ok());
    EXPECT_EQ(testing::ReadTestFile(file), "1\n");
    absl::Status none = SetIdleStateDisabled(snapshot, 1, 7, true);
    EXPECT_EQ(none.code(), absl::StatusCode::kNotFound);
    EXPECT_THAT(none.message(), HasSubstr("no idle state 7 on CPU 1"));
    ASSERT_TRUE(snapshot.Restore().ok());
    EXPECT_EQ(testing::ReadTestFile(file), "0\n");
    ASSERT_TRUE(SetIdleStateDisabled(snapshot, 1, 2, true).ok());
  }
  EXPECT_EQ(testing::ReadTestFile(file), "0\n");
}

}  // namespace
}  // namespace schedsim::platform::host
