// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// arch_scale_freq_capacity()'s reference frequency on x86 and elsewhere
// (arch/x86/kernel/cpu/aperfmperf.c, Linux 6.1), without the engine.

#include "sim/freq_invariance.h"

#include <algorithm>
#include <cstdint>

namespace schedsim::sim {

// arch_scale_freq_capacity()'s reference on x86: APERF/MPERF is scaled by
// arch_max_freq_ratio, so PELT's frequency scale is 1024 at that frequency
// and capped at 1024 above it (arch/x86/kernel/cpu/aperfmperf.c,
// v6.1; smpboot.c before 5.19). Intel (1567c3e3467c, v5.7;
// intel_set_max_freq_ratio(), core_set_max_freq_ratio()): the turbo ratio
// with 4 active cores, so a part running all-core turbo counts as fully
// busy. AMD (976df7e5730e "x86, sched: Use midpoint of max_boost and max_P
// for frequency invariance on AMD EPYC", v5.11): half way between the
// nominal (base) frequency and the highest boost. Elsewhere (Arm, a part
// without an active-core table) the highest frequency, as cpufreq's
// arch_set_freq_scale() uses cpuinfo.max_freq.
int64_t InvarianceRefKhz(const topology::FrequencySpec& f,
                         topology::Vendor vendor, int64_t top_khz) {
  const int64_t base = f.base_khz > 0 ? f.base_khz : top_khz;
  switch (vendor) {
    case topology::Vendor::kIntel:
      if (f.turbo_ceiling_khz.size() >= 4) {
        return std::clamp<int64_t>(f.turbo_ceiling_khz[3], base, top_khz);
      }
      return top_khz;
    case topology::Vendor::kAmd:
      return std::clamp<int64_t>((base + top_khz) / 2, base, top_khz);
    case topology::Vendor::kUnknown:
      break;
  }
  return top_khz;
}

}  // namespace schedsim::sim
