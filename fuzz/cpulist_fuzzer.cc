// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// CPU lists: topology::CpuSet::ParseList (affinities, "0-3,8") and the
// Linux backend's ParseCpuListText (sysfs and cpufreq lists).

#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_util.h"
#include "platform/linux/linux_sysfs.h"
#include "topology/cpuset.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = schedsim::fuzz::Text(data, size);
  for (int n : {1, 8, 256, 4096}) {
    absl::StatusOr<schedsim::topology::CpuSet> set =
        schedsim::topology::CpuSet::ParseList(text, n);
    if (set.ok()) (void)set->ToList();
  }
  (void)schedsim::platform::host::ParseCpuListText(text, "fuzz");
  return 0;
}
