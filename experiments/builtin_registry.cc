// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/builtin_registry.h"

namespace schedsim::experiments {

std::string DefaultFreqGovernor(const topology::Topology& machine, bool hwp) {
  if (!machine.frequency().has_hwp) return "schedutil";
  return hwp ? "intel_pstate_hwp" : "intel_pstate";
}

absl::StatusOr<std::unique_ptr<platform::FreqGovernor>> MakeFreqGovernor(
    const std::string& name, const PolicyParams& params) {
  return platform::PolicyRegistry::Global().MakeFreq(name, params);
}

absl::StatusOr<std::unique_ptr<platform::IdleGovernor>> MakeIdleGovernor(
    const std::string& name, const PolicyParams& params) {
  return platform::PolicyRegistry::Global().MakeIdle(name, params);
}

absl::StatusOr<std::unique_ptr<platform::PlacementPolicy>> MakePlacementPolicy(
    const std::string& name, const PolicyParams& params) {
  return platform::PolicyRegistry::Global().MakePlacement(name, params);
}

}  // namespace schedsim::experiments
