// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/builtin_policies.h"

namespace schedsim::sim {

void PerformanceGovernor::Start(platform::FreqDomain& domain) {
  const topology::FrequencySpec& spec = domain.spec();
  if (spec.has_hwp) {
    platform::HwpRequest req;
    req.min_perf = spec.hwp.highest;
    req.max_perf = spec.hwp.highest;
    req.epp = 0;
    const topology::CpuSet& cpus = domain.cpus();
    for (int cpu = cpus.First(); cpu >= 0; cpu = cpus.Next(cpu)) {
      domain.SetHwpRequest(cpu, req);
    }
  } else {
    domain.SetTargetKhz(domain.policy_max_khz());
  }
}

int FitIdleGovernor::Select(platform::IdleDevice& dev, bool* stop_tick) {
  int64_t delta_tick = 0;
  int64_t sleep = dev.sleep_length_ns(&delta_tick);
  int64_t limit = dev.latency_limit_ns();
  int pick = -1;
  for (int i = 0; i < dev.state_count(); ++i) {
    if (dev.state_disabled(i)) continue;
    const topology::CState& s = dev.state(i);
    if (pick >= 0 &&
        (s.target_residency_ns > sleep || s.exit_latency_ns > limit)) {
      break;
    }
    pick = i;
  }
  *stop_tick = sleep > dev.tick_period_ns();
  return pick < 0 ? 0 : pick;
}

int PrevTargetPlacement::SelectIdleSibling(
    platform::SchedView& view, const platform::WakeupRequest& request) {
  if (view.available_idle(request.target)) return request.target;
  if (request.prev_cpu != request.target &&
      view.domains().SharesCache(request.prev_cpu, request.target) &&
      request.allowed->Test(request.prev_cpu) &&
      view.available_idle(request.prev_cpu)) {
    return request.prev_cpu;
  }
  return request.allowed->Test(request.target) ? request.target
                                               : request.allowed->First();
}

}  // namespace schedsim::sim
