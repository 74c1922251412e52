// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "base/child_wait.h"

#include <sys/wait.h>
#include <time.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>

namespace schedsim::base {

double ChildTimeoutSeconds(double default_s) {
  const char* env = std::getenv("SCHEDSIM_CHILD_TIMEOUT_S");
  if (env == nullptr) return default_s;
  char* end = nullptr;
  const double v = std::strtod(env, &end);
  if (end == env || !(v > 0) || v >= default_s) return default_s;
  return v;
}

ChildWait WaitForChild(pid_t pid, double timeout_s, int* status) {
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  long sleep_ns = 100000;  // 0.1 ms, growing to 10 ms
  while (true) {
    const pid_t got = waitpid(pid, status, WNOHANG);
    if (got == pid) return ChildWait::kExited;
    if (got < 0 && errno != EINTR) return ChildWait::kError;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    const double elapsed =
        static_cast<double>(now.tv_sec - start.tv_sec) +
        static_cast<double>(now.tv_nsec - start.tv_nsec) / 1e9;
    if (elapsed > timeout_s) {
      kill(pid, SIGKILL);
      while (waitpid(pid, status, 0) < 0 && errno == EINTR) {
      }
      return ChildWait::kTimedOut;
    }
    struct timespec pause = {0, sleep_ns};
    nanosleep(&pause, nullptr);
    if (sleep_ns < 10000000) sleep_ns *= 2;
  }
}

}  // namespace schedsim::base
