// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/machine_source.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "topology/hwloc.h"
#include "topology/presets.h"
#include "topology/sysfs.h"

namespace schedsim::experiments {

namespace {

absl::StatusOr<topology::Topology> LoadHost(const MachineSource& source) {
  int given =
      !source.machine.empty() + !source.sysfs.empty() + !source.hwloc.empty();
  if (given != 1) {
    return absl::InvalidArgumentError(
        "name exactly one machine: --machine=NAME, --sysfs=DIR or "
        "--hwloc=FILE");
  }
  if (!source.machine.empty()) {
    if (!source.power_model.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "a power model is for an imported machine (--sysfs or --hwloc); "
          "the built-in machine '",
          source.machine, "' has its own tables"));
    }
    return topology::MakePreset(source.machine);
  }
  absl::StatusOr<topology::Topology> imported =
      !source.sysfs.empty() ? topology::LoadTopologyFromSysfs(source.sysfs)
                            : topology::LoadTopologyFromHwlocXml(source.hwloc);
  if (!imported.ok() || source.power_model.empty()) return imported;
  absl::StatusOr<topology::Topology> model =
      topology::MakePreset(source.power_model);
  if (!model.ok()) {
    return absl::Status(
        model.status().code(),
        absl::StrCat("power model: ", model.status().message()));
  }
  return imported->WithPowerModel(*model);
}

}  // namespace

absl::StatusOr<topology::Topology> LoadMachine(const MachineSource& source) {
  absl::StatusOr<topology::Topology> host = LoadHost(source);
  if (!host.ok() || source.guest_vcpus == 0) return host;
  absl::StatusOr<topology::Topology> guest =
      topology::MakeGuest(*host, source.guest_vcpus);
  if (!guest.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("guest.vcpus: ", guest.status().message()));
  }
  return guest;
}

std::string NoPowerTablesHint(const topology::Topology& machine, bool frequency,
                              bool idle) {
  std::vector<std::string> missing;
  if (frequency && !machine.has_frequency_table()) {
    missing.push_back("frequency (cpufreq)");
  }
  if (idle && !machine.has_idle_table()) missing.push_back("idle (cpuidle)");
  if (missing.empty()) return "";
  return absl::StrCat(
      "machine '", machine.name(), "' has no ", absl::StrJoin(missing, " or "),
      " table, so these policies would all run alike; give it a built-in "
      "machine's power model: add \"power_model\": NAME beside \"hwloc\" "
      "or \"sysfs\" in the file (schedsim topology and shadow take "
      "--power-model=NAME; NAME needs as many CPUs per core; built-in "
      "machines: ",
      absl::StrJoin(topology::PresetNames(), ", "), ")");
}

}  // namespace schedsim::experiments
