// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Internal to LinuxCpufreq (linux_cpufreq.cc, linux_cpufreq_write.cc): what
// the discovery and the writing share.

#ifndef SCHEDSIM_PLATFORM_LINUX_LINUX_CPUFREQ_INTERNAL_H_
#define SCHEDSIM_PLATFORM_LINUX_LINUX_CPUFREQ_INTERNAL_H_

#include "absl/strings/string_view.h"

namespace schedsim::platform::host::cpufreq_internal {

inline bool IsIntelDriver(absl::string_view driver) {
  return driver == "intel_pstate" || driver == "intel_cpufreq";
}

}  // namespace schedsim::platform::host::cpufreq_internal

#endif  // SCHEDSIM_PLATFORM_LINUX_LINUX_CPUFREQ_INTERNAL_H_
