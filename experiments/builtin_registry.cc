// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/builtin_registry.h"

namespace schedsim::experiments {
namespace {

std::vector<std::string> NamesOf(platform::PolicyFamily family) {
  std::vector<std::string> names;
  for (const platform::PolicyInfo* p :
       platform::PolicyRegistry::Global().List(family)) {
    names.push_back(p->name);
  }
  return names;
}

}  // namespace

std::vector<std::string> FreqGovernorNames() {
  return NamesOf(platform::PolicyFamily::kCpufreq);
}
std::vector<std::string> IdleGovernorNames() {
  return NamesOf(platform::PolicyFamily::kCpuidle);
}
std::vector<std::string> PlacementPolicyNames() {
  return NamesOf(platform::PolicyFamily::kPlacement);
}

std::string DefaultFreqGovernor(const topology::Topology& machine) {
  return machine.frequency().has_hwp ? "intel_pstate_hwp" : "schedutil";
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
