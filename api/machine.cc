// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "schedsim/machine.h"

#include "topology/hwloc.h"
#include "topology/presets.h"
#include "topology/sysfs.h"

namespace schedsim {

std::vector<std::string> PresetMachineNames() {
  return topology::PresetNames();
}

absl::StatusOr<Topology> PresetMachine(absl::string_view name) {
  return topology::MakePreset(name);
}

absl::StatusOr<Topology> MachineFromSysfs(const std::string& sysfs_root,
                                          const std::string& name) {
  return topology::LoadTopologyFromSysfs(sysfs_root, name);
}

absl::StatusOr<Topology> MachineFromHwlocXml(const std::string& path,
                                             const std::string& name) {
  return topology::LoadTopologyFromHwlocXml(path, name);
}

}  // namespace schedsim
