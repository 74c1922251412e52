// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "governors/cpufreq/cpufreq_common.h"

#include <algorithm>

namespace schedsim::governors {

int64_t TransitionDelayUs(const topology::FrequencySpec& spec) {
  if (spec.driver == "intel_pstate" || spec.driver == "intel_cpufreq") {
    return spec.has_hwp ? kIntelCpufreqHwpDelayUs : kIntelCpufreqDelayUs;
  }
  if (spec.driver == "amd-pstate") return kAmdPstateDelayUs;
  const int64_t latency_us = spec.transition_latency_ns / 1000;
  if (latency_us > 0) {
    return std::min(latency_us * kCpufreqLatencyMultiplier,
                    kCpufreqMaxTransitionDelayUs);
  }
  return kCpufreqFallbackTransitionDelayUs;
}

}  // namespace schedsim::governors
