// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// What presets.cc, presets_intel.cc and presets_arm.cc share: the
// idle-state maker and the Intel and Arm presets that MakePreset
// (presets.h) builds. Internal to
// //topology:presets.

#ifndef SCHEDSIM_TOPOLOGY_PRESETS_INTERNAL_H_
#define SCHEDSIM_TOPOLOGY_PRESETS_INTERNAL_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "topology/topology.h"

namespace schedsim::topology::presets_internal {

inline constexpr int64_t kUs = 1000;  // ns per microsecond

// An idle state: advertised exit latency and target residency in us, the
// physical exit and entry in ns, its power and flags.
CState State(const char* name, const char* desc, int64_t exit_us,
             int64_t residency_us, int64_t physical_exit_ns,
             int64_t physical_entry_ns, int64_t power_mw, uint32_t flags);

absl::StatusOr<Topology> SandyBridgeEpE52690();
absl::StatusOr<Topology> IvyBridgeEpE52690v2();
absl::StatusOr<Topology> SandyBridgeI72600k();
absl::StatusOr<Topology> BraswellN3050();
absl::StatusOr<Topology> ApolloLakeJ3455();
absl::StatusOr<Topology> SkylakeSp8170m();
absl::StatusOr<Topology> JunoR0();               // presets_arm.cc
absl::StatusOr<Topology> Kunpeng920TwoSocket();  // presets_arm.cc

}  // namespace schedsim::topology::presets_internal

#endif  // SCHEDSIM_TOPOLOGY_PRESETS_INTERNAL_H_
