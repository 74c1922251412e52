// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Policies: frequency governors, idle governors and idle-CPU searches
// (placement policies). Every policy is written against the interfaces of
// platform/ (cpufreq.h, cpuidle.h, placement.h), so the same object runs in
// the simulator, on a real Linux machine and in a unit test (testing.h).
// Those interface headers are part of the public API: this header includes
// them and aliases their types into namespace schedsim (schedsim::IdleGovernor
// is schedsim::platform::IdleGovernor; use either name).
//
// The built-in policies are selectable by name with parameters
// (`schedsim policies` lists them; docs/policies/). Your own policy can be
// used two ways:
//   * handed to a Simulation as an object (SimulationOptions::placement.object
//     and so on: simulation.h);
//   * registered under a name, so that it is selectable by name like the
//     built-in ones: from SimulationOptions, from scenario and experiment
//     files, and from the command line of a binary that links it in
//     (cli.h). Register at static-initialisation time in your own .cc file:
//
//       class NearestIdle final : public schedsim::PlacementPolicy { ... };
//       SCHEDSIM_REGISTER_POLICY(schedsim::DescribePolicy<NearestIdle>(
//           "nearest_idle", "The idle CPU nearest to the target.",
//           {{"max_probes", int64_t{8}, "CPUs probed at most"}}));
//
//     DescribePolicy builds the policy with a `T(const schedsim::Params&)`
//     constructor when T has one, else with `T()`. For anything else, fill a
//     PolicyInfo yourself. Registration needs the object file to be linked:
//     in Bazel mark the cc_library `alwayslink = True` (or put the
//     registration in the binary's own sources); with CMake, link the object
//     file or an OBJECT library, or use -Wl,--whole-archive (docs/library.md).

#ifndef SCHEDSIM_INCLUDE_SCHEDSIM_POLICY_H_
#define SCHEDSIM_INCLUDE_SCHEDSIM_POLICY_H_

#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "platform/cpufreq.h"
#include "platform/cpuidle.h"
#include "platform/placement.h"
#include "platform/registry.h"
#include "schedsim/machine.h"
#include "schedsim/params.h"
#include "topology/sched_domains.h"

namespace schedsim {

// --- The interfaces a policy implements and sees ---------------------------

// Frequency (platform/cpufreq.h).
using FreqGovernor = platform::FreqGovernor;
using FreqDomain = platform::FreqDomain;
using CpuUtil = platform::CpuUtil;
using CpuCounters = platform::CpuCounters;
using HwpRequest = platform::HwpRequest;
using platform::kCapacityScale;
using platform::kUtilIowait;

// Idle (platform/cpuidle.h).
using IdleGovernor = platform::IdleGovernor;
using IdleDevice = platform::IdleDevice;
using IdleStateStats = platform::IdleStateStats;

// Placement (platform/placement.h).
using PlacementPolicy = platform::PlacementPolicy;
using SchedView = platform::SchedView;
using WakeupRequest = platform::WakeupRequest;
using SchedDomains = topology::SchedDomains;
using platform::kWfExec;
using platform::kWfFork;
using platform::kWfMigrated;
using platform::kWfSync;
using platform::kWfTtwu;

// --- Policies by name (platform/registry.h) --------------------------------

using PolicyFamily = platform::PolicyFamily;  // kCpufreq, kCpuidle, kPlacement
using PolicyInfo = platform::PolicyInfo;
using PolicyRegistry = platform::PolicyRegistry;
using PolicyRegistration = platform::PolicyRegistration;
template <typename T>
using PolicyFactory = platform::PolicyFactory<T>;
using platform::FamilyName;  // "cpufreq", "cpuidle", "placement"

// The registered names of a family, sorted (the built-in policies and every
// registered one linked into the program).
std::vector<std::string> PolicyNames(PolicyFamily family);

// The policy of `family` called `name`; nullptr if none.
const PolicyInfo* FindPolicy(PolicyFamily family, absl::string_view name);

// What Linux runs by default: intel_pstate (active, HWP) on a part with
// HWP, schedutil otherwise; menu; sis_util. (A simulation whose options
// set "hwp" false boots the part without HWP and defaults to intel_pstate.)
std::string DefaultFreqGovernor(const Topology& machine);
inline constexpr char kDefaultIdleGovernor[] = "menu";
inline constexpr char kDefaultPlacementPolicy[] = "sis_util";

// A new policy object by name. NotFound (listing the family's names) for an
// unknown name; InvalidArgument for unknown or mistyped parameters.
absl::StatusOr<std::unique_ptr<FreqGovernor>> MakeFreqGovernor(
    absl::string_view name, const ParamMap& params = {});
absl::StatusOr<std::unique_ptr<IdleGovernor>> MakeIdleGovernor(
    absl::string_view name, const ParamMap& params = {});
absl::StatusOr<std::unique_ptr<PlacementPolicy>> MakePlacementPolicy(
    absl::string_view name, const ParamMap& params = {});

// Registers a policy now (SCHEDSIM_REGISTER_POLICY does it at static
// initialisation). AlreadyExists if the family has a policy of that name;
// InvalidArgument without a factory for the family.
absl::Status RegisterPolicy(PolicyInfo info);

namespace policy_internal {

template <typename Base, typename T>
absl::StatusOr<std::unique_ptr<Base>> Make(const Params& params) {
  if constexpr (std::is_constructible_v<T, const Params&>) {
    return std::unique_ptr<Base>(std::make_unique<T>(params));
  } else {
    static_assert(std::is_default_constructible_v<T>,
                  "DescribePolicy<T>: T needs a T(const schedsim::Params&) or "
                  "a T() constructor");
    return std::unique_ptr<Base>(std::make_unique<T>());
  }
}

}  // namespace policy_internal

// A PolicyInfo for the policy class T (a FreqGovernor, IdleGovernor or
// PlacementPolicy), whose factory builds T from the validated parameters
// (T(const Params&)) or default-constructs it (T()).
template <typename T>
PolicyInfo DescribePolicy(std::string name, std::string description,
                          std::vector<ParamSpec> params = {}) {
  constexpr int kBases = std::is_base_of_v<FreqGovernor, T> +
                         std::is_base_of_v<IdleGovernor, T> +
                         std::is_base_of_v<PlacementPolicy, T>;
  static_assert(kBases == 1,
                "DescribePolicy<T>: T must implement exactly one of "
                "FreqGovernor, IdleGovernor and PlacementPolicy");
  PolicyInfo info;
  info.name = std::move(name);
  info.description = std::move(description);
  info.params = std::move(params);
  if constexpr (std::is_base_of_v<FreqGovernor, T>) {
    info.family = PolicyFamily::kCpufreq;
    info.make_freq = &policy_internal::Make<FreqGovernor, T>;
  } else if constexpr (std::is_base_of_v<IdleGovernor, T>) {
    info.family = PolicyFamily::kCpuidle;
    info.make_idle = &policy_internal::Make<IdleGovernor, T>;
  } else {
    info.family = PolicyFamily::kPlacement;
    info.make_placement = &policy_internal::Make<PlacementPolicy, T>;
  }
  return info;
}

}  // namespace schedsim

// SCHEDSIM_REGISTER_POLICY(info_expr) is defined by platform/registry.h.

#endif  // SCHEDSIM_INCLUDE_SCHEDSIM_POLICY_H_
