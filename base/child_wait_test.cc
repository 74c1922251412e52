// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "base/child_wait.h"

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include "gtest/gtest.h"

namespace schedsim::base {
namespace {

TEST(ChildWaitTest, AChildThatEndsIsReaped) {
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) _exit(3);
  int status = 0;
  ASSERT_EQ(WaitForChild(pid, 10, &status), ChildWait::kExited);
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 3);
}

TEST(ChildWaitTest, AChildPastTheLimitIsKilled) {
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    pause();  // blocked: no CPU time, as a child stuck on a lock
    _exit(0);
  }
  int status = 0;
  EXPECT_EQ(WaitForChild(pid, 0.2, &status), ChildWait::kTimedOut);
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGKILL);
}

}  // namespace
}  // namespace schedsim::base
