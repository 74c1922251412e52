// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Imports a machine Topology from an hwloc topology XML file (as written by
// `lstopo machine.xml` or hwloc_topology_export_xml() on any machine), using
// the system's libhwloc (Debian: hwloc 2.9).
//
// What is taken from the XML:
//   * logical CPUs: the PU objects; a PU's os_index is the CPU id;
//   * cores, LLCs and packages: each PU's Core, outermost data/unified cache
//     (normally L3) and Package ancestors;
//   * NUMA nodes: the NUMANode whose cpuset holds the PU (in hwloc 2.x NUMA
//     nodes are memory children, not ancestors, of the CPU objects);
//   * the SLIT matrix: the "NUMALatency" distances, when the file has them;
//   * the caches CPU 0 sees (L1d, L1i, L2, L3: size, ways, line size);
//   * the model name and vendor: the Package's "CPUModel" and "CPUVendor"
//     infos.
// hwloc knows nothing of C-states or frequencies: those are left empty and
// the Topology carries a warning saying so. I/O objects (GPUs, NICs, disks)
// are ignored.
//
// Files in hwloc 3.x's XML format (version="3.0", as in hwloc's own test
// suite) are read by relabelling them as format 2.0, which libhwloc 2.x
// imports unchanged for everything used here (the 3.x additions concern
// object ids, root infos and I/O devices); the Topology notes this in a
// warning.
//
// NUMA nodes are kept as the file states them, with the NUMALatency
// matrix, also when a node spans several packages (as in XMLs computed
// from a CPUID dump alone, which know of one node for the whole machine,
// or a multi-socket machine with one memory): the packages then nest in
// the node, with a warning. Only when that cannot nest (a node over
// several packages while some package holds several nodes) are the
// spanning nodes split per package, with a warning.

#ifndef SCHEDSIM_TOPOLOGY_HWLOC_H_
#define SCHEDSIM_TOPOLOGY_HWLOC_H_

#include <string>

#include "absl/status/statusor.h"
#include "topology/topology.h"

namespace schedsim::topology {

// Loads the hwloc topology XML file at `path` and builds a Topology named
// `name` (by default, the file's name without directory and ".xml").
//
// Errors, each naming `path`:
//   * NotFound: no file at `path` (other errors opening or reading it map
//     from errno, e.g. PermissionDenied);
//   * InvalidArgument: a directory, not an hwloc topology XML file, an XML
//     format newer than 3.x, a file hwloc cannot import (malformed or
//     truncated XML; hwloc's parser may print details to stderr, and
//     HWLOC_XML_VERBOSE=1 prints more), or a machine the TopologyBuilder
//     rejects (e.g. CPU ids with gaps).
absl::StatusOr<Topology> LoadTopologyFromHwlocXml(const std::string& path,
                                                  const std::string& name = "");

}  // namespace schedsim::topology

#endif  // SCHEDSIM_TOPOLOGY_HWLOC_H_
