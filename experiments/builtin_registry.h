// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The policy registry: policy objects by the names scenario files and the
// command line use. For now it knows the simple built-ins of
// sim/builtin_policies.h; the kernel's governors and placement policies are
// added here as they arrive.
//
//   absl::StatusOr<std::unique_ptr<platform::FreqGovernor>> freq =
//       MakeFreqGovernor("performance");
//
// An unknown name is an InvalidArgument listing the known ones.

#ifndef SCHEDSIM_EXPERIMENTS_BUILTIN_REGISTRY_H_
#define SCHEDSIM_EXPERIMENTS_BUILTIN_REGISTRY_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "platform/cpufreq.h"
#include "platform/cpuidle.h"
#include "platform/placement.h"

namespace schedsim::experiments {

// The known names of each kind, in the order help texts list them.
const std::vector<std::string>& FreqGovernorNames();
const std::vector<std::string>& IdleGovernorNames();
const std::vector<std::string>& PlacementPolicyNames();

// A new policy object; InvalidArgument naming the kind and the known names
// when `name` is not one of them.
absl::StatusOr<std::unique_ptr<platform::FreqGovernor>> MakeFreqGovernor(
    const std::string& name);
absl::StatusOr<std::unique_ptr<platform::IdleGovernor>> MakeIdleGovernor(
    const std::string& name);
absl::StatusOr<std::unique_ptr<platform::PlacementPolicy>> MakePlacementPolicy(
    const std::string& name);

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_BUILTIN_REGISTRY_H_
