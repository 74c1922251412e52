// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Shared by the two importers that go through libhwloc (hwloc.cc for
// topology XML files, sysfs_hwloc.cc for sysfs trees read by libhwloc's
// Linux backend): loading an hwloc topology from XML text in a limited
// trial child first, and converting its objects (PUs, cores, packages,
// NUMA nodes, caches, NUMALatency distances, CPUModel/CPUVendor infos) into
// a TopologyBuilder. Internal to //topology.

#ifndef SCHEDSIM_TOPOLOGY_HWLOC_OBJECTS_H_
#define SCHEDSIM_TOPOLOGY_HWLOC_OBJECTS_H_

#include <hwloc.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "base/child_wait.h"
#include "topology/topology.h"

namespace schedsim::topology::hwloc_internal {

// Owns an hwloc topology.
struct HwlocTopologyDeleter {
  void operator()(hwloc_topology_t t) const { hwloc_topology_destroy(t); }
};
using HwlocTopologyPtr =
    std::unique_ptr<struct hwloc_topology, HwlocTopologyDeleter>;

// The limits of a child process that runs libhwloc on untrusted input.
base::TrialLimits HwlocTrialLimits();

// A new topology that keeps every cache (instruction caches too), hides PUs
// and NUMA nodes marked disallowed (as lstopo does) and drops I/O objects.
// `source` names the input in errors ("hwloc XML file 'x'").
absl::StatusOr<HwlocTopologyPtr> NewHwlocTopology(absl::string_view source);

// Loads the XML text `content` into `topology` (configured by
// NewHwlocTopology): first in a limited trial child, where a crash of
// libhwloc 2.9 cannot take the tool down, then here. Errors are
// InvalidArgument "<source>: <what>", where `expected` says what the input
// should have been.
absl::Status LoadHwlocXmlText(hwloc_topology_t topology,
                              const std::string& content,
                              absl::string_view source,
                              absl::string_view expected);

// How a trial child ended, as an error naming `source` (OK when it
// finished; `what` is "importing it" or the like).
absl::Status TrialStatus(const base::TrialResult& r, absl::string_view source,
                         absl::string_view what, absl::string_view hint);

struct ConvertOptions {
  // Take the model name and vendor from the packages' CPUModel/CPUVendor
  // infos (warning when there are none).
  bool model_and_vendor = true;
  // A PU in no NUMA node's cpuset joins the nearest NUMA node in the tree
  // (else the first), with a warning (as when a cgroup or an XML's allowed
  // nodeset leaves only other nodes); else it is an error.
  bool orphan_pus_join_first_node = false;
};

// Adds the CPUs, cores, LLCs, packages and NUMA nodes of the loaded
// `topology` to `b`, with the NUMALatency matrix, the caches of CPU 0 and
// (per `options`) the model and vendor. NUMA nodes and packages without a
// CPU go in as memory-only nodes and CPU-less packages; cores, packages
// and split nodes made up for PUs the file puts in none are marked
// assumed (Topology::source_counts). PU os_index values with gaps are
// renumbered densely, with a warning; `pu_os_indexes`, when not null,
// receives the PU os_index of each CPU id (ascending). Errors are
// InvalidArgument "<source>: <what>".
absl::Status AddHwlocObjects(hwloc_topology_t topology,
                             absl::string_view source,
                             const ConvertOptions& options, TopologyBuilder& b,
                             std::vector<int>* pu_os_indexes);

// The CPU capacities of a hybrid or big.LITTLE machine from hwloc's CPU
// kinds (hwloc_cpukinds_get_info), when there are two kinds or more: each
// kind's "LinuxCapacity" info (the kernel's cpu_capacity) when every kind
// has one, else its "FrequencyMaxMHz" (capacity proportional to the
// maximum frequency: an approximation for kinds of different
// microarchitectures, said in a warning), normalized so that the largest
// is 1024. Kinds with only efficiency ranks give no capacities, with a
// warning. `pu_os_indexes` is AddHwlocObjects' (CPU id -> PU os_index).
void AddHwlocCpuKindCapacities(hwloc_topology_t topology,
                               const std::vector<int>& pu_os_indexes,
                               TopologyBuilder& b);

}  // namespace schedsim::topology::hwloc_internal

#endif  // SCHEDSIM_TOPOLOGY_HWLOC_OBJECTS_H_
