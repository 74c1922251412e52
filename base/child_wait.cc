// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "base/child_wait.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "absl/strings/str_cat.h"

#if defined(__SANITIZE_ADDRESS__)
#define SCHEDSIM_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SCHEDSIM_UNDER_ASAN 1
#endif
#endif

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

namespace {
constexpr int kTrialFailed = 3;  // the child's parse failed cleanly
}  // namespace

TrialResult RunTrialChild(const TrialLimits& limits,
                          absl::FunctionRef<bool()> body) {
  TrialResult r;
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    r.kind = TrialResult::kError;
    r.error = errno;
    return r;
  }
  if (pid == 0) {
    const rlim_t cpu_s =
        std::min(static_cast<rlim_t>(limits.cpu_s),
                 static_cast<rlim_t>(ChildTimeoutSeconds(limits.cpu_s)) + 1);
    struct rlimit cpu = {cpu_s, cpu_s};
    setrlimit(RLIMIT_CPU, &cpu);
#if !defined(SCHEDSIM_UNDER_ASAN)
    const rlim_t as_bytes = static_cast<rlim_t>(limits.address_space_bytes);
    struct rlimit as = {as_bytes, as_bytes};
    setrlimit(RLIMIT_AS, &as);
#endif
    // No core dump of a crash that is only a malformed file.
    struct rlimit core = {0, 0};
    setrlimit(RLIMIT_CORE, &core);
    if (limits.quiet) {
      const int devnull = open("/dev/null", O_WRONLY);
      if (devnull >= 0) dup2(devnull, 2);
    }
    // 0 and kTrialFailed are the two ends of a parse; anything else (a
    // signal, or a sanitizer's exit code 1) is a crash.
    _exit(body() ? 0 : kTrialFailed);
  }
  int status = 0;
  r.wall_s = ChildTimeoutSeconds(limits.wall_s);
  switch (WaitForChild(pid, r.wall_s, &status)) {
    case ChildWait::kExited:
      break;
    case ChildWait::kTimedOut:
      r.kind = TrialResult::kTimedOut;
      return r;
    case ChildWait::kError:
      r.kind = TrialResult::kError;
      r.error = errno;
      return r;
  }
  if (WIFEXITED(status) &&
      (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == kTrialFailed)) {
    return r;
  }
  r.kind = TrialResult::kCrashed;
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    r.how = absl::StrCat(
        "signal ", sig, ", ",
        sig == SIGXCPU ? "over the CPU time limit" : strsignal(sig));
  } else {
    r.how = absl::StrCat("exit code ", WEXITSTATUS(status));
  }
  return r;
}

}  // namespace schedsim::base
