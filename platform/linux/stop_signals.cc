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

ScopedStopSignals::ScopedStopSignals() {
  g_stop_signal = 0;
  struct sigaction sa = {};
  sa.sa_handler = OnStopSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: interrupt sleeps
  sigaction(SIGINT, &sa, &old_int_);
  sigaction(SIGTERM, &sa, &old_term_);
}

ScopedStopSignals::~ScopedStopSignals() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
}

bool ScopedStopSignals::StopRequested() { return g_stop_signal != 0; }

int ScopedStopSignals::StopSignal() { return g_stop_signal; }

void ScopedStopSignals::RequestStop(int signal_number) {
  g_stop_signal = signal_number;
}

}  // namespace schedsim::platform::host
