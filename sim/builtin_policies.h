// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Three simple policies so that the simulation core runs and is tested on
// its own, before and apart from the kernel's policies in governors/:
//   PerformanceGovernor   cpufreq "performance": the highest frequency
//                         (on HWP parts: min = max = highest, EPP 0).
//   FitIdleGovernor       the deepest enabled state whose target residency
//                         fits the time to the next timer and whose exit
//                         latency fits the PM QoS limit; keeps the tick when
//                         the next timer is closer than the tick.
//   PrevTargetPlacement   select_idle_sibling without any scan: target if
//                         idle, else prev if idle and cache-affine, else
//                         target.

#ifndef SCHEDSIM_SIM_BUILTIN_POLICIES_H_
#define SCHEDSIM_SIM_BUILTIN_POLICIES_H_

#include "platform/cpufreq.h"
#include "platform/cpuidle.h"
#include "platform/placement.h"

namespace schedsim::sim {

class PerformanceGovernor final : public platform::FreqGovernor {
 public:
  absl::string_view name() const override { return "performance"; }
  void Start(platform::FreqDomain& domain) override;
  void UpdateUtil(platform::FreqDomain& domain, int cpu,
                  uint32_t flags) override {}
};

class FitIdleGovernor final : public platform::IdleGovernor {
 public:
  absl::string_view name() const override { return "fit"; }
  int Select(platform::IdleDevice& dev, bool* stop_tick) override;
};

class PrevTargetPlacement final : public platform::PlacementPolicy {
 public:
  absl::string_view name() const override { return "prev"; }
  int SelectIdleSibling(platform::SchedView& view,
                        const platform::WakeupRequest& request) override;
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_BUILTIN_POLICIES_H_
