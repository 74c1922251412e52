// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The vocabulary of rt-app files (doc/tutorial.txt) as workloads/rtapp.cc
// reads it: which key is which event (rt-app matches event keys by
// prefix: "run0", "sleep1"), which keys are task properties, and which
// global keys are ignored.

#ifndef SCHEDSIM_WORKLOADS_RTAPP_EVENTS_H_
#define SCHEDSIM_WORKLOADS_RTAPP_EVENTS_H_

#include <set>
#include <string>

namespace schedsim::workloads {

enum class RtAppEvent {
  kRun,
  kRuntime,
  kSleep,
  kTimer,
  kYield,
  kBarrier,
  kSuspend,
  kResume,
  kSemPost,
  kSemWait,
  kFork,
  kLock,
  kUnlock,
  kWait,         // a condition variable: {"ref", "mutex"}
  kSignal,       // wakes one waiter of the condition
  kBroad,        // wakes every waiter
  kSync,         // signal, then wait
  kUnsupported,  // mem, iorun
  kUnknown,
};

RtAppEvent ClassifyRtAppEvent(const std::string& key);

// "instance", "loop", "priority", ... (a task's, or a phase's).
bool IsRtAppTaskProperty(const std::string& key);

// The "global" keys that are read and ignored without a warning.
const std::set<std::string>& IgnoredRtAppGlobalKeys();

}  // namespace schedsim::workloads

#endif  // SCHEDSIM_WORKLOADS_RTAPP_EVENTS_H_
