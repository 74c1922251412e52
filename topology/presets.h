// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Built-in machines, by the names the CLI and experiment files use:
//   skylake-e3-1240v5  Intel Xeon E3-1240 v5: 4C/8T, SMT (n, n+4), one 8 MiB
//                      LLC, 3.5 GHz base, HWP with EPP, intel_idle's
//                      Skylake client C-state table.
//   zen3-2s-nps1/2/4   2x AMD EPYC 7713-class (64C/128T each), SMT
//                      (n, n+128), eight 8-core CCX per socket, NUMA nodes per
//                      NPS mode, SLIT 10/12/32, acpi_idle POLL/C1/C2.
//   juno-r0            Arm Juno r0 big.LITTLE: 2 Cortex-A57 (capacity 1024)
//                      + 4 Cortex-A53 (446), one frequency domain and LLC
//                      per cluster, WFI / cpu-sleep-0 / cluster-sleep-0.
// (and the Intel and AMD parts of presets_intel.cc and presets.cc). Where
// each number comes from is written next to it in presets.cc,
// presets_intel.cc and presets_arm.cc.

#ifndef SCHEDSIM_TOPOLOGY_PRESETS_H_
#define SCHEDSIM_TOPOLOGY_PRESETS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "topology/topology.h"

namespace schedsim::topology {

// One built-in machine of the registry: its name (the CLI's --machine, an
// experiment's "machine"), one line on what it is, and its builder (which
// writes each number's source beside it).
struct PresetEntry {
  const char* name;
  const char* summary;
  absl::StatusOr<Topology> (*make)();
};

// The registry: every built-in machine, in a stable order. Adding a
// machine is one entry here (presets.cc) plus its builder and its data
// (docs/topology.md, "Adding a machine"); the tests check that each entry
// builds, is valid and is documented.
const std::vector<PresetEntry>& Presets();

// The preset names, in the registry's order.
const std::vector<std::string>& PresetNames();

// The preset called `name`; NotFound listing the known names otherwise.
absl::StatusOr<Topology> MakePreset(absl::string_view name);

}  // namespace schedsim::topology

#endif  // SCHEDSIM_TOPOLOGY_PRESETS_H_
