// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "schedsim/policy.h"

#include <algorithm>

#include "experiments/builtin_registry.h"

namespace schedsim {

std::vector<std::string> PolicyNames(PolicyFamily family) {
  std::vector<std::string> names;
  for (const PolicyInfo* p : PolicyRegistry::Global().List(family)) {
    names.push_back(p->name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

const PolicyInfo* FindPolicy(PolicyFamily family, absl::string_view name) {
  return PolicyRegistry::Global().Find(family, name);
}

std::string DefaultFreqGovernor(const Topology& machine) {
  return experiments::DefaultFreqGovernor(machine);
}

absl::StatusOr<std::unique_ptr<FreqGovernor>> MakeFreqGovernor(
    absl::string_view name, const ParamMap& params) {
  return PolicyRegistry::Global().MakeFreq(name, params);
}

absl::StatusOr<std::unique_ptr<IdleGovernor>> MakeIdleGovernor(
    absl::string_view name, const ParamMap& params) {
  return PolicyRegistry::Global().MakeIdle(name, params);
}

absl::StatusOr<std::unique_ptr<PlacementPolicy>> MakePlacementPolicy(
    absl::string_view name, const ParamMap& params) {
  return PolicyRegistry::Global().MakePlacement(name, params);
}

absl::Status RegisterPolicy(PolicyInfo info) {
  return PolicyRegistry::Global().Register(std::move(info));
}

}  // namespace schedsim
