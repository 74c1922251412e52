// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Waiting for a child process with a wall-clock limit: the children that
// try a third-party parser first (topology/hwloc.cc, traces/tracecmd_dat.cc)
// have a CPU-time rlimit, which a child blocked on a lock never reaches.

#ifndef SCHEDSIM_BASE_CHILD_WAIT_H_
#define SCHEDSIM_BASE_CHILD_WAIT_H_

#include <sys/types.h>

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

}  // namespace schedsim::base

#endif  // SCHEDSIM_BASE_CHILD_WAIT_H_
