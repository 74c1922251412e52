// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/rtapp_events.h"

#include <utility>

#include "absl/strings/match.h"

namespace schedsim::workloads {

RtAppEvent ClassifyRtAppEvent(const std::string& key) {
  // "runtime" must be tested before "run".
  static const std::pair<const char*, RtAppEvent> kPrefixes[] = {
      {"runtime", RtAppEvent::kRuntime},  {"run", RtAppEvent::kRun},
      {"sleep", RtAppEvent::kSleep},      {"timer", RtAppEvent::kTimer},
      {"yield", RtAppEvent::kYield},      {"barrier", RtAppEvent::kBarrier},
      {"suspend", RtAppEvent::kSuspend},  {"resume", RtAppEvent::kResume},
      {"sem_post", RtAppEvent::kSemPost}, {"sem_wait", RtAppEvent::kSemWait},
      {"fork", RtAppEvent::kFork},        {"lock", RtAppEvent::kLock},
      {"unlock", RtAppEvent::kUnlock},    {"wait", RtAppEvent::kWait},
      {"signal", RtAppEvent::kSignal},    {"broad", RtAppEvent::kBroad},
      {"sync", RtAppEvent::kSync},
  };
  for (const auto& [prefix, kind] : kPrefixes) {
    if (absl::StartsWith(key, prefix)) return kind;
  }
  static const char* const kUnsupportedPrefixes[] = {"mem", "iorun"};
  for (const char* prefix : kUnsupportedPrefixes) {
    if (absl::StartsWith(key, prefix)) return RtAppEvent::kUnsupported;
  }
  return RtAppEvent::kUnknown;
}

bool IsRtAppTaskProperty(const std::string& key) {
  static const std::set<std::string>* const kKeys = new std::set<std::string>{
      "instance",      "loop",       "priority",  "policy",     "cpus",
      "util_min",      "util_max",   "delay",     "taskgroup",  "phases",
      "nodes_membind", "dl-runtime", "dl-period", "dl-deadline"};
  return kKeys->count(key) > 0;
}

const std::set<std::string>& IgnoredRtAppGlobalKeys() {
  static const std::set<std::string>* const kKeys = new std::set<std::string>{
      "calibration", "logdir",          "log_basename",     "log_size",
      "lock_pages",  "ftrace",          "gnuplot",          "pi_enabled",
      "io_device",   "mem_buffer_size", "cumulative_slack", "frag"};
  return *kKeys;
}

}  // namespace schedsim::workloads
