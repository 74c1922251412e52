// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// ScopedStopSignals: turns every catchable terminating signal (SIGHUP,
// SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGTERM: kStopSignals) into a
// request to stop that a loop polls, so that the loop can restore the machine's
// settings from the main thread before exiting. The handler only stores the
// signal number in a `volatile sig_atomic_t` (async-signal-safe); the loop
// checks StopRequested() and sleeps with calls that a signal interrupts (the
// handlers are installed without SA_RESTART).
//
//   ScopedStopSignals signals;  // installs the handlers
//   while (!ScopedStopSignals::StopRequested()) { ... sleep, sample ... }
//   snapshot.Restore();          // main thread, handlers still installed
//
// While the object lives SIGPIPE is ignored (a reader that went away, as in
// `govd --apply | head -1`, makes writes fail with EPIPE instead of killing
// the process before its restore; the loop stops when its log fails), and a
// second Ctrl-C does not kill the process halfway through a restore; the
// previous dispositions come back on destruction. SIGKILL cannot be caught:
// `schedsim govd --restore=FILE` puts the settings back from the snapshot
// file (docs/hardware.md).
// One object at a time (the flag is process-wide).

#ifndef SCHEDSIM_PLATFORM_LINUX_STOP_SIGNALS_H_
#define SCHEDSIM_PLATFORM_LINUX_STOP_SIGNALS_H_

#include <signal.h>

namespace schedsim::platform::host {

class ScopedStopSignals {
 public:
  // Installs the handlers and clears any earlier request.
  ScopedStopSignals();
  ScopedStopSignals(const ScopedStopSignals&) = delete;
  ScopedStopSignals& operator=(const ScopedStopSignals&) = delete;
  // Puts back the dispositions found at construction.
  ~ScopedStopSignals();

  // The signals that ask to stop.
  static constexpr int kNumStopSignals = 7;
  static const int kStopSignals[kNumStopSignals];

  // True once one of kStopSignals arrived.
  static bool StopRequested();
  // The signal that asked to stop, or 0.
  static int StopSignal();
  // Asks to stop as a signal would (for loops stopped by other means).
  static void RequestStop(int signal_number);

 private:
  struct sigaction old_[kNumStopSignals];
  struct sigaction old_pipe_;
};

}  // namespace schedsim::platform::host

#endif  // SCHEDSIM_PLATFORM_LINUX_STOP_SIGNALS_H_
