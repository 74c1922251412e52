// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/root_lock.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "topology/testing/pepc_tree.h"

namespace schedsim::platform::host {
namespace {

using ::testing::HasSubstr;

class RootLockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> dir =
        topology::testing::MakeTestTempDir("rootlock");
    ASSERT_TRUE(dir.ok());
    dir_ = *dir;
    root_ = dir_ + "/sys";
    locks_ = dir_ + "/locks";
    ASSERT_EQ(mkdir(root_.c_str(), 0755), 0);
    ASSERT_EQ(mkdir(locks_.c_str(), 0755), 0);
  }
  std::string dir_, root_, locks_;
};

TEST_F(RootLockTest, ASecondLockOnTheSameRootIsRefusedAndNamesTheHolder) {
  absl::StatusOr<std::unique_ptr<RootLock>> first =
      RootLock::Acquire(root_, locks_);
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_TRUE((*first)->Record("/run/x.snapshot").ok());
  // The same root spelled differently: trailing slash, a "." component, a
  // symlink to it.
  ASSERT_EQ(symlink(root_.c_str(), (dir_ + "/link").c_str()), 0);
  for (const std::string& spelling :
       {root_, root_ + "/", dir_ + "/./sys", dir_ + "/link"}) {
    absl::StatusOr<std::unique_ptr<RootLock>> second =
        RootLock::Acquire(spelling, locks_);
    ASSERT_FALSE(second.ok()) << spelling;
    EXPECT_EQ(second.status().code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_THAT(second.status().message(),
                HasSubstr(absl::StrCat("another schedsim govd (PID ", getpid(),
                                       ") is writing the settings under ")));
    EXPECT_THAT(second.status().message(),
                HasSubstr("with the snapshot /run/x.snapshot"));
  }
  // Another root is independent.
  ASSERT_EQ(mkdir((dir_ + "/sys2").c_str(), 0755), 0);
  EXPECT_TRUE(RootLock::Acquire(dir_ + "/sys2", locks_).ok());
  // Released with the object; the record stays for the next holder.
  first->reset();
  absl::StatusOr<std::unique_ptr<RootLock>> again =
      RootLock::Acquire(root_ + "/", locks_);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ((*again)->previous_snapshot(), "/run/x.snapshot");
  EXPECT_EQ((*again)->previous_pid(), getpid());
}

TEST_F(RootLockTest, AKilledHolderLeavesNoLockBehind) {
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    close(ready[0]);
    absl::StatusOr<std::unique_ptr<RootLock>> lock =
        RootLock::Acquire(root_, locks_);
    if (!lock.ok() || !(*lock)->Record("/tmp/s").ok()) _exit(1);
    if (write(ready[1], "x", 1) != 1) _exit(1);
    pause();  // until killed
    _exit(0);
  }
  ASSERT_GT(pid, 0);
  close(ready[1]);
  char c = 0;
  ASSERT_EQ(read(ready[0], &c, 1), 1);  // the child holds the lock
  close(ready[0]);
  absl::StatusOr<std::unique_ptr<RootLock>> held =
      RootLock::Acquire(root_, locks_);
  ASSERT_FALSE(held.ok());
  EXPECT_THAT(held.status().message(), HasSubstr(absl::StrCat("PID ", pid)));
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  absl::StatusOr<std::unique_ptr<RootLock>> after =
      RootLock::Acquire(root_, locks_);
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ((*after)->previous_snapshot(), "/tmp/s");
}

TEST_F(RootLockTest, LockFileNamesAreDistinctAndBounded) {
  EXPECT_EQ(LockFileName("/sys"), "govd-root-sys.lock");
  EXPECT_NE(LockFileName("/a-b"), LockFileName("/a/b"));
  EXPECT_NE(LockFileName("/a_b"), LockFileName("/a/b"));
  EXPECT_EQ(LockFileName("/a b\n"), "govd-root-a_20b_0a.lock");
  const std::string long_a = "/" + std::string(300, 'a');
  const std::string long_b = long_a + "b";
  EXPECT_LE(LockFileName(long_a).size(), 200u);
  EXPECT_NE(LockFileName(long_a), LockFileName(long_b));
}

TEST_F(RootLockTest, AMissingRootIsAClearError) {
  absl::StatusOr<std::unique_ptr<RootLock>> lock =
      RootLock::Acquire(dir_ + "/nowhere", locks_);
  ASSERT_FALSE(lock.ok());
  EXPECT_THAT(lock.status().message(),
              HasSubstr("cannot resolve the root " + dir_ + "/nowhere"));
}

}  // namespace
}  // namespace schedsim::platform::host
