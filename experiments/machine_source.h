// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Where a machine description comes from: a built-in preset, a sysfs tree
// or an hwloc XML file. Exactly one must be named. An imported machine may
// take a built-in machine's power model (its C-state, frequency and power
// tables): --power-model=NAME, "power_model": NAME.

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
  // A preset whose C-state, frequency and power tables the imported
  // machine takes (Topology::WithPowerModel); "" keeps the import's own.
  std::string power_model;
  // "guest": {"vcpus": N}: the machine is the host of a KVM guest of N
  // vCPUs, and the guest is what runs (topology::MakeGuest); 0 = none.
  int guest_vcpus = 0;
};

// Loads the machine; InvalidArgument unless exactly one source is set, when
// a power model is given with a built-in machine, and when the power model
// does not fit (Topology::WithPowerModel), and when the guest does not fit
// the host (topology::MakeGuest); NotFound for an unknown power model.
absl::StatusOr<topology::Topology> LoadMachine(const MachineSource& source);

// "" when `machine` has the tables the compared policies need (a frequency
// table when `frequency`, an idle-state table when `idle`); otherwise a
// message naming what is missing and how to add it (a power model).
std::string NoPowerTablesHint(const topology::Topology& machine, bool frequency,
                              bool idle);

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_MACHINE_SOURCE_H_
