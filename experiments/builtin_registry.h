// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Policy objects by the names scenario and experiment files and the command
// line use: a thin layer over platform::PolicyRegistry, linked with every
// policy in governors/ (//governors:policies), plus the machine-dependent
// defaults.
//
//   absl::StatusOr<std::unique_ptr<platform::FreqGovernor>> freq =
//       MakeFreqGovernor("schedutil", {{"rate_limit_us", int64_t{1000}}});

#ifndef SCHEDSIM_EXPERIMENTS_BUILTIN_REGISTRY_H_
#define SCHEDSIM_EXPERIMENTS_BUILTIN_REGISTRY_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "platform/registry.h"
#include "topology/topology.h"

namespace schedsim::experiments {

using PolicyParams = std::map<std::string, platform::ParamValue>;

// One policy choice: a registered name and the parameters given for it
// (checked against its declared parameters; the others keep their
// defaults). An empty name means the family's default: for cpufreq the
// machine's (DefaultFreqGovernor), resolved when the machine is loaded.
struct PolicySpec {
  std::string name;
  PolicyParams params;
};

// What Linux runs on `machine` by default: intel_pstate (active, HWP) where
// the part has HWP and boots with it, intel_pstate's P-state algorithm
// where it boots without (`hwp` false: intel_pstate=no_hwp), schedutil
// otherwise; menu; sis_util.
std::string DefaultFreqGovernor(const topology::Topology& machine,
                                bool hwp = true);
inline constexpr char kDefaultIdleGovernor[] = "menu";
// In a KVM guest ("guest"), the governor its cpuidle-haltpoll driver asks
// for (drivers/cpuidle/cpuidle-haltpoll.c, haltpoll_driver.governor, v6.1).
inline constexpr char kGuestIdleGovernor[] = "haltpoll";
inline constexpr char kDefaultPlacementPolicy[] = "sis_util";

// A new policy object. NotFound listing the family's names for an unknown
// name; InvalidArgument for unknown or mistyped parameters.
absl::StatusOr<std::unique_ptr<platform::FreqGovernor>> MakeFreqGovernor(
    const std::string& name, const PolicyParams& params = {});
absl::StatusOr<std::unique_ptr<platform::IdleGovernor>> MakeIdleGovernor(
    const std::string& name, const PolicyParams& params = {});
absl::StatusOr<std::unique_ptr<platform::PlacementPolicy>> MakePlacementPolicy(
    const std::string& name, const PolicyParams& params = {});

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_BUILTIN_REGISTRY_H_
