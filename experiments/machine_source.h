// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Where a machine description comes from: a built-in preset, a sysfs tree
// or an hwloc XML file. Exactly one must be named.

#ifndef SCHEDSIM_EXPERIMENTS_MACHINE_SOURCE_H_
#define SCHEDSIM_EXPERIMENTS_MACHINE_SOURCE_H_

#include <string>

#include "absl/status/statusor.h"
#include "topology/topology.h"

namespace schedsim::experiments {

struct MachineSource {
  std::string machine;  // preset name
  std::string sysfs;    // sysfs root, e.g. "/sys"
  std::string hwloc;    // hwloc XML path
};

// Loads the machine; InvalidArgument unless exactly one source is set.
absl::StatusOr<topology::Topology> LoadMachine(const MachineSource& source);

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_MACHINE_SOURCE_H_
