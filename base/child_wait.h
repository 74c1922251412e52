// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Waiting for a child process with a wall-clock limit: the children that
// try a third-party parser first (topology/hwloc.cc, traces/tracecmd_dat.cc)
// have a CPU-time rlimit, which a child blocked on a lock never reaches.

#ifndef SCHEDSIM_BASE_CHILD_WAIT_H_
#define SCHEDSIM_BASE_CHILD_WAIT_H_

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "absl/functional/function_ref.h"

namespace schedsim::base {

enum class ChildWait { kExited, kTimedOut, kError };

// Waits for child `pid` (EINTR retried) for at most `timeout_s` seconds of
// wall time. kExited: it ended, *status is waitpid's. kTimedOut: it was
// still running, so it was killed (SIGKILL) and reaped. kError: waitpid
// failed (errno is set).
ChildWait WaitForChild(pid_t pid, double timeout_s, int* status);

// `default_s`, or the environment's SCHEDSIM_CHILD_TIMEOUT_S when it is a
// smaller positive number (dev/fuzz sets it below libFuzzer's per-input
// timeout): the wall and CPU limits of such a child.
double ChildTimeoutSeconds(double default_s);

// Runs a third-party parser first in a forked child, where a crash cannot
// take the tool down. The child gets RLIMIT_CPU (cpu_s, lowered by
// ChildTimeoutSeconds), RLIMIT_AS (address_space_bytes; not under
// AddressSanitizer, which reserves far more) and no core dump; with
// `quiet`, its stderr goes to /dev/null. `body` returns whether the parse
// succeeded; either way the trial kFinished (the parent parses again and
// reports its own error). kTimedOut: over ChildTimeoutSeconds(wall_s) of
// wall time (one blocked on a lock uses no CPU time). kCrashed: a signal
// or any other exit (a sanitizer's), `how` says which. kError: fork or
// waitpid failed, `error` is errno.
struct TrialLimits {
  double cpu_s = 60;
  int64_t address_space_bytes = int64_t{8} << 30;
  double wall_s = 120;
  bool quiet = false;
};
struct TrialResult {
  enum Kind { kFinished, kTimedOut, kCrashed, kError } kind = kFinished;
  std::string how;    // kCrashed: "signal 11, Segmentation fault", ...
  double wall_s = 0;  // kTimedOut: the limit that applied
  int error = 0;      // kError: errno
};
TrialResult RunTrialChild(const TrialLimits& limits,
                          absl::FunctionRef<bool()> body);

}  // namespace schedsim::base

#endif  // SCHEDSIM_BASE_CHILD_WAIT_H_
