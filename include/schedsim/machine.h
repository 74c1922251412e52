// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The machine a simulation runs on: a built-in preset, the sysfs tree of a
// Linux machine (its /sys or a captured copy) or an hwloc topology XML.
//
//   absl::StatusOr<schedsim::Topology> m =
//       schedsim::PresetMachine("skylake-e3-1240v5");
//   absl::StatusOr<schedsim::Topology> here =
//       schedsim::MachineFromSysfs("/sys");
//   absl::StatusOr<schedsim::Topology> x =
//       schedsim::MachineFromHwlocXml("tioga.xml");
//
// The machine type is topology::Topology (topology/topology.h), re-exported
// here on purpose: policies see it through the platform interfaces, so it is
// part of the public API. docs/topology.md describes the model and what each
// import reads.

#ifndef SCHEDSIM_INCLUDE_SCHEDSIM_MACHINE_H_
#define SCHEDSIM_INCLUDE_SCHEDSIM_MACHINE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "topology/cpuset.h"
#include "topology/topology.h"

namespace schedsim {

using Topology = topology::Topology;
using CpuSet = topology::CpuSet;
using CpuPlace = topology::CpuPlace;
using CState = topology::CState;
using FrequencySpec = topology::FrequencySpec;
using HwpCaps = topology::HwpCaps;
using PowerSpec = topology::PowerSpec;
using CacheSpec = topology::CacheSpec;
using Vendor = topology::Vendor;

// The built-in machines ("skylake-e3-1240v5", "zen3-2s-nps1", ...), in a
// stable order.
std::vector<std::string> PresetMachineNames();

// The preset called `name`; NotFound listing the known names otherwise.
absl::StatusOr<Topology> PresetMachine(absl::string_view name);

// The machine described by the sysfs tree at `sysfs_root` (a directory
// holding devices/system/cpu, such as "/sys"), named `name` (default: the
// root). Missing optional parts become defaults with a note in
// Topology::warnings(); malformed files are InvalidArgument naming the file.
absl::StatusOr<Topology> MachineFromSysfs(const std::string& sysfs_root,
                                          const std::string& name = "");

// The machine of an hwloc topology XML file (lstopo --of xml), named `name`
// (default: the file name without ".xml"). hwloc knows no C-states or
// frequencies: those are left empty, with a warning;
// `machine->WithPowerModel(*PresetMachine("skylake-e3-1240v5"))` gives it a
// preset's (docs/topology.md, "Power models for imported machines").
absl::StatusOr<Topology> MachineFromHwlocXml(const std::string& path,
                                             const std::string& name = "");

}  // namespace schedsim

#endif  // SCHEDSIM_INCLUDE_SCHEDSIM_MACHINE_H_
