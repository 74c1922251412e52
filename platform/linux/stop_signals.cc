// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/stop_signals.h"

#include <csignal>

namespace schedsim::platform::host {
namespace {

volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void OnStopSignal(int signal_number) {
  g_stop_signal = signal_number;
}

}  // namespace

const int ScopedStopSignals::kStopSignals[kNumStopSignals] = {
    SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGTERM};

ScopedStopSignals::ScopedStopSignals() {
  g_stop_signal = 0;
  struct sigaction sa = {};
  sa.sa_handler = OnStopSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: interrupt sleeps
  // Every stop signal is blocked while the handler runs.
  for (int s : kStopSignals) sigaddset(&sa.sa_mask, s);
  for (int i = 0; i < kNumStopSignals; ++i) {
    sigaction(kStopSignals[i], &sa, &old_[i]);
  }
  struct sigaction ignore = {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, &old_pipe_);
}

ScopedStopSignals::~ScopedStopSignals() {
  for (int i = 0; i < kNumStopSignals; ++i) {
    sigaction(kStopSignals[i], &old_[i], nullptr);
  }
  sigaction(SIGPIPE, &old_pipe_, nullptr);
}

bool ScopedStopSignals::StopRequested() { return g_stop_signal != 0; }

int ScopedStopSignals::StopSignal() { return g_stop_signal; }

void ScopedStopSignals::RequestStop(int signal_number) {
  g_stop_signal = signal_number;
}

}  // namespace schedsim::platform::host
