// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Importing a machine Topology from a Linux sysfs tree: the running
// machine's /sys, or a copy of one (for example a pepc capture laid out by
// //topology/testing:pepc_tree).
//
// Example:
//
//   absl::StatusOr<Topology> t = LoadTopologyFromSysfs("/sys");
//   if (!t.ok()) return t.status();
//   for (const std::string& w : t->warnings()) LOG(INFO) << w;
//
// What is read, relative to `sysfs_root`, and what happens when it is
// missing. Every piece except the CPU directories is optional: when absent
// (or unreadable) the import carries on with the stated default and adds a
// warning to Topology::warnings(). A file that is present but malformed
// (non-numeric, empty where a value is required, a bad CPU list) fails the
// import with InvalidArgument naming the file, e.g.
// "expected an integer in /x/cpu3/topology/core_id, got 'abc'".
//
// Read by libhwloc: when `sysfs_root` is a directory named `sys` (such as
//   /sys, or DUMP/sys of an hwloc test-suite dump) whose first cpuN has
//   topology/core_cpus or topology/thread_siblings (the bitmask files
//   libhwloc reads), the CPUs, cores, packages, LLCs, NUMA nodes,
//   distances and caches come from libhwloc's Linux backend run on the
//   directory holding `sys` (HWLOC_FSROOT, set only in a limited child
//   process), converted as hwloc.h converts an XML file; the CPUs the
//   dump's cgroup (proc/self/cgroup) disallows are left out, as lstopo
//   does, and a CPU in no allowed NUMA node joins the nearest node, with a
//   warning. A crash, hang or empty result of libhwloc is InvalidArgument
//   naming the tree. The C-states, frequency and vendor below are then
//   read by hand for those CPUs. Other trees (pepc captures, trees with
//   only the *_list files) are read by hand by the rules that follow.
// CPUs (devices/system/cpu/):
//   `online`, else `present`, else the cpuN directories. Every listed CPU
//   must have a cpuN directory (NotFound otherwise). CPU ids are kept when
//   they are 0..N-1; otherwise (offline holes) CPUs are renumbered densely
//   in increasing order, with a warning.
// Cores: cpuN/topology/thread_siblings_list, else core_cpus_list, else
//   core_id (grouped with the CPU's package and die_id); else the sharing
//   list of the CPU's L1 data cache, else of its lowest-level cache ("cores
//   inferred from ... cache sharing"); else each CPU is its own core.
// Packages: cpuN/topology/physical_package_id, else package_cpus_list
//   (core_siblings_list); else die_cpus_list or die_id (warning: packages
//   inferred from dies); else one package.
// Caches: cpuN/cache/indexK/{level,type,size,ways_of_associativity,
//   coherency_line_size,shared_cpu_list}. Without `level`/`type`, the x86
//   order is assumed (index0 L1 Data, index1 L1 Instruction, indexK>=2 LK
//   Unified) with a warning. Missing size/ways give 0, a missing line size
//   64. Topology::caches() lists the first CPU's caches, L1 first.
// LLC: the group in the shared_cpu_list of the CPU's highest-level cache;
//   without caches, one LLC per package.
// NUMA nodes (devices/system/node/): nodeN/cpulist. Without the node
//   directory: one node with every CPU. A CPU in no node's list joins the
//   lowest-numbered node. Nodes without CPUs are left out of the Topology.
//   Distances: nodeN/distance (one SLIT row over the nodes in node/online,
//   else over the nodeN directories); when any is missing the builder's
//   default (10 local, 20 remote) applies, with its warning.
// C-states: the first CPU's cpuidle/stateK/{name,desc,latency,residency,
//   power,disable}, in K order. latency/residency are microseconds and
//   become exit_latency_ns/target_residency_ns; physical_exit_ns is the
//   advertised exit latency and physical_entry_ns 0 (sysfs knows no
//   better). `power` (mW) is kept when 0 < power < 100000, else 0 (the
//   kernel shows 4294967295, i.e. -1, or 0 when unknown). A state named
//   "POLL" gets CState::kPolling; the other flags are not in sysfs and stay
//   clear. A state without latency or residency gets 0 and one without a
//   name is called "stateK", with a warning. No cpuidle: empty table,
//   warning.
// Frequency: the first CPU's cpuN/cpufreq/, else
//   devices/system/cpu/cpufreq/policyN (pepc captures keep only bios_limit
//   in cpuN/cpufreq), else the policy whose related_cpus holds the CPU.
//   min_khz/max_turbo_khz = cpuinfo_min_freq/cpuinfo_max_freq;
//   pstates_khz = scaling_available_frequencies (highest first);
//   base_khz = base_frequency, else the highest of
//   scaling_available_frequencies (ACPI P0, i.e. nominal), else
//   acpi_cppc/nominal_freq (MHz), else cpuinfo_max_freq (warning);
//   transition_latency_ns = cpuinfo_transition_latency (ns; the kernel's
//   "unknown" 4294967295 becomes 0); driver = scaling_driver, governor =
//   scaling_governor. has_epp: energy_performance_preference or
//   energy_performance_available_preferences present. has_hwp: driver
//   intel_pstate/intel_cpufreq with devices/system/cpu/intel_pstate/
//   hwp_dynamic_boost or EPP present, or an amd-pstate driver (CPPC).
//   HwpCaps from cpuN/acpi_cppc/{lowest_perf, lowest_nonlinear_perf
//   (most_efficient), nominal_perf (guaranteed), highest_perf} whenever
//   present, whatever the driver. khz_per_perf_unit = nominal_freq (else
//   base_khz) / nominal_perf, else the Intel default 100000.
//   No cpufreq: frequencies 0, warning.
// Vendor (sysfs does not name it; a note records the evidence):
//   kIntel when the cpuidle driver is intel_idle, the cpufreq driver is
//   intel_pstate/intel_cpufreq, or devices/system/cpu/intel_pstate or
//   intel_uncore_frequency exists; kAmd when the cpufreq driver is an
//   amd-pstate one, devices/system/cpu/amd_pstate exists, or acpi-cpufreq
//   shows its `cpb` (AMD Core Performance Boost) attribute, which it
//   creates only on AMD parts; else kUnknown.
// Not in sysfs, left at their defaults: model_name (empty), PowerSpec
//   (zeros), turbo_ceiling_khz (empty), vf_curve (empty).

#ifndef SCHEDSIM_TOPOLOGY_SYSFS_H_
#define SCHEDSIM_TOPOLOGY_SYSFS_H_

#include <string>

#include "absl/status/statusor.h"
#include "topology/topology.h"

namespace schedsim::topology {

// Builds the Topology of the machine described by the sysfs tree at
// `sysfs_root`, a directory holding devices/system/cpu (and optionally
// devices/system/node), such as "/sys". The Topology is named `name`, or
// `sysfs_root` when `name` is empty.
//
// Errors: NotFound when `sysfs_root`, its devices/system/cpu directory or a
// listed CPU's directory is missing; InvalidArgument naming the file when a
// present file is malformed, or when the groups read do not nest (as
// reported by TopologyBuilder::Build()). Never aborts on bad input.
absl::StatusOr<Topology> LoadTopologyFromSysfs(const std::string& sysfs_root,
                                               const std::string& name = "");

}  // namespace schedsim::topology

#endif  // SCHEDSIM_TOPOLOGY_SYSFS_H_
