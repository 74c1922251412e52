// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/machine_source.h"

#include "absl/status/status.h"
#include "topology/hwloc.h"
#include "topology/presets.h"
#include "topology/sysfs.h"

namespace schedsim::experiments {

absl::StatusOr<topology::Topology> LoadMachine(const MachineSource& source) {
  int given =
      !source.machine.empty() + !source.sysfs.empty() + !source.hwloc.empty();
  if (given != 1) {
    return absl::InvalidArgumentError(
        "name exactly one machine: --machine=NAME, --sysfs=DIR or "
        "--hwloc=FILE");
  }
  if (!source.machine.empty()) return topology::MakePreset(source.machine);
  if (!source.sysfs.empty()) {
    return topology::LoadTopologyFromSysfs(source.sysfs);
  }
  return topology::LoadTopologyFromHwlocXml(source.hwloc);
}

}  // namespace schedsim::experiments
