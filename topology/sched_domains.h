// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Scheduling domains: the per-CPU hierarchy of CPU sets that Linux's fair
// class walks for wake-up placement and load balancing (`sd_llc`,
// SD_WAKE_AFFINE, find_idlest_cpu). BuildSchedDomains() derives them from a
// Topology the way Linux 6.1 builds them on x86 (kernel/sched/topology.c
// sd_init, build_sched_domains, cpu_attach_domain, sched_init_numa;
// arch/x86/kernel/smpboot.c x86_topology and x86_numa_in_package_topology),
// described here in our own words, not copied from kernel source (the
// resulting domains of the presets: docs/kernel-behaviour.md, "Scheduling
// domains of the presets"):
//
//   1. Levels, lowest first: SMT (SMT siblings), CLS (the cluster: CPUs
//      sharing an L2 or an LLC tag, Topology::cluster_span, v5.16's
//      SD_CLUSTER level; the core where the machine states no cluster), MC
//      (LLC), DIE (package; left out when a package holds more than one NUMA
//      node), then NODE (distance d0) and one NUMA level per further distinct
//      SLIT distance. Masks of the x86 levels are cut to the CPU's NUMA node,
//      as x86's sibling matching does, so an LLC shared by two nodes (sub-NUMA
//      clustering) gives per-node MC domains.
//   2. Per CPU, levels are built upwards until one spans every CPU. A level
//      that does not contain the level below is widened to the union, with a
//      warning (the kernel's "arch topology borken" repair).
//   3. sd_init gives each domain its flags and tunables: balance on newidle,
//      exec and fork, wake-affine and prefer-sibling; imbalance_pct 117
//      (110 on SMT); SD_NUMA levels drop prefer-sibling and, beyond
//      node_reclaim_distance, wake-affine and exec/fork balancing. On a
//      machine whose CPUs differ in capacity (an Arm big.LITTLE part; the
//      arm64 table has the same SMT, CLS, MC and DIE levels), a domain
//      spanning CPUs of several capacities gets SD_ASYM_CPUCAPACITY, and
//      SD_ASYM_CPUCAPACITY_FULL when it sees them all
//      (asym_cpu_capacity_classify), and its child loses prefer-sibling.
//   4. Groups are formed (see SchedDomain::groups), then degenerate domains
//      are removed: a parent whose span equals its child's and that adds no
//      flags (flags that need groups do not count when it has one group), and
//      a lowest domain of one CPU.
//
// Simplifications: no SD_ASYM_PACKING (ITMT), no imb_numa_nr, no root-domain or
// isolcpus partitioning; sched group capacity is not modelled.

#ifndef SCHEDSIM_TOPOLOGY_SCHED_DOMAINS_H_
#define SCHEDSIM_TOPOLOGY_SCHED_DOMAINS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "topology/cpuset.h"
#include "topology/topology.h"

namespace schedsim::topology {

// sched_domain flags, with Linux 6.1's bit values (include/linux/sched/
// sd_flags.h order), so masks match what /proc and debugfs print.
enum SdFlag : uint32_t {
  kSdBalanceNewidle = 1u << 0,
  kSdBalanceExec = 1u << 1,
  kSdBalanceFork = 1u << 2,
  kSdBalanceWake = 1u << 3,
  kSdWakeAffine = 1u << 4,
  kSdAsymCpuCapacity = 1u << 5,
  kSdAsymCpuCapacityFull = 1u << 6,
  kSdShareCpuCapacity = 1u << 7,
  kSdSharePkgResources = 1u << 8,  // renamed SD_SHARE_LLC in later kernels
  kSdSerialize = 1u << 9,
  kSdAsymPacking = 1u << 10,
  kSdPreferSibling = 1u << 11,
  kSdOverlap = 1u << 12,
  kSdNuma = 1u << 13,
};

// Kernel names of the flags set in `flags`, lowest bit first, e.g.
// {"SD_BALANCE_NEWIDLE", "SD_WAKE_AFFINE"}. Unknown bits are named "0x...".
std::vector<std::string> SdFlagNames(uint32_t flags);
// The same names joined with '|'; "" for no flags.
std::string SdFlagsString(uint32_t flags);

// One scheduling domain. CPUs whose domains at a level have the same span,
// flags and groups share one SchedDomain object.
struct SchedDomain {
  std::string name;  // "SMT", "CLS", "MC", "DIE" (or "PKG"), "NODE", "NUMA"
  // The kernel's sd->level: position of this level among the levels built
  // for the CPU before degenerate domains were removed (SMT = 0). Not
  // renumbered after removal, so the stack may skip numbers.
  int level = 0;
  CpuSet span;
  uint32_t flags = 0;  // SdFlag bits
  int imbalance_pct = 117;
  int cache_nice_tries = 0;
  int busy_factor = 16;
  // Load-balance interval bounds; the initial balance_interval equals
  // min_interval_ms.
  int min_interval_ms = 0;
  int max_interval_ms = 0;
  // SLIT distance that defines a NODE or NUMA level's span; 0 otherwise.
  int numa_distance = 0;
  // The sched groups, sorted by lowest CPU (the kernel keeps a circular
  // list starting at the local group; see LocalGroup()). For an ordinary
  // level, the spans of the child-level domains that cover this span, or one
  // group per CPU at the lowest built level. For a NUMA (SD_OVERLAP) level,
  // as build_overlap_sched_groups does: walking the span from the CPU that
  // owns the domain, each CPU not yet covered contributes the span of its
  // own child domain, after descending past child domains that reach outside
  // this span or that would be removed as degenerate; groups may overlap.
  std::vector<CpuSet> groups;

  bool has(uint32_t flag) const { return (flags & flag) != 0; }
  int weight() const { return span.Count(); }
  // Index in `groups` of the first group containing `cpu`, or -1. On the
  // machines we describe exactly one group contains each CPU.
  int LocalGroup(int cpu) const;
};

struct SchedDomainOptions {
  // The kernel's node_reclaim_distance: NUMA levels farther than this lose
  // SD_BALANCE_EXEC, SD_BALANCE_FORK and SD_WAKE_AFFINE. -1 picks the
  // kernel's value for the machine: 32 on AMD (the Zen setting in
  // arch/x86/kernel/cpu/amd.c), else RECLAIM_DISTANCE = 30.
  int node_reclaim_distance = -1;
  // Use 6.12's level names (DIE is called PKG). Nothing else changes.
  bool use_6_12_names = false;
};

// The domains of every CPU of a machine, lowest first, after degenerate
// removal. Immutable; cheap to query from the hot path.
class SchedDomains {
 public:
  // Empty (no CPUs); assign the result of BuildSchedDomains().
  SchedDomains() = default;
  // Empty (no CPUs); assign the result of BuildSchedDomains().
  int num_cpus() const { return static_cast<int>(stacks_.size()); }

  // Number of domains attached to `cpu` (0 on a single-CPU machine).
  // REQUIRES: 0 <= cpu < num_cpus() here and below.
  int depth(int cpu) const { return static_cast<int>(stacks_[cpu].size()); }
  // The `index`-th domain of `cpu`, 0 = lowest (for_each_domain order).
  // REQUIRES: 0 <= index < depth(cpu).
  const SchedDomain& domain(int cpu, int index) const {
    return domains_[stacks_[cpu][index]];
  }
  // All domains of `cpu`, lowest first. Pointers into this object.
  std::vector<const SchedDomain*> Stack(int cpu) const;
  // Every distinct domain; per-CPU stacks index into it.
  const std::vector<SchedDomain>& domains() const { return domains_; }
  const std::vector<int>& stack_ids(int cpu) const { return stacks_[cpu]; }

  // highest_flag_domain: the highest domain of the unbroken run, from the
  // lowest domain up, that has every bit of `flag`; nullptr if the lowest
  // domain lacks it.
  const SchedDomain* HighestFlagDomain(int cpu, uint32_t flag) const;
  // lowest_flag_domain: the lowest domain with `flag`, or nullptr.
  const SchedDomain* LowestFlagDomain(int cpu, uint32_t flag) const;

  // sd_llc = HighestFlagDomain(cpu, kSdSharePkgResources). Its span
  // ({cpu} when there is none), weight (sd_llc_size, 1 when none) and first
  // CPU (sd_llc_id, `cpu` when none).
  const CpuSet& llc_span(int cpu) const { return llc_spans_[llc_of_[cpu]]; }
  int llc_size(int cpu) const { return llc_sizes_[llc_of_[cpu]]; }
  int llc_id(int cpu) const { return llc_spans_[llc_of_[cpu]].First(); }
  // cpus_share_cache(a, b).
  bool SharesCache(int a, int b) const {
    return a == b || llc_of_[a] == llc_of_[b];
  }

  // The node_reclaim_distance that was used.
  int node_reclaim_distance() const { return node_reclaim_distance_; }
  // Notes about repairs made while building (LLC cut to the node, a level
  // widened to contain its child).
  const std::vector<std::string>& warnings() const { return warnings_; }

  // One line per domain of `cpu`, for logs and the CLI, e.g.
  // "domain0 SMT level=0 span=0,128 weight=2 imb=110 cnt=0 interval=2-4ms
  // groups={0},{128} flags=SD_BALANCE_NEWIDLE|..." (" dist=N" follows the
  // interval on NODE and NUMA levels). "" when the CPU has no domains.
  std::string Describe(int cpu) const;

 private:
  friend absl::StatusOr<SchedDomains> BuildSchedDomains(
      const Topology& topology, const SchedDomainOptions& options);

  std::vector<SchedDomain> domains_;
  std::vector<std::vector<int>> stacks_;  // per CPU, ids into domains_
  std::vector<CpuSet> llc_spans_;         // distinct sd_llc spans
  std::vector<int> llc_sizes_;
  std::vector<int> llc_of_;  // per CPU, index into llc_spans_
  int node_reclaim_distance_ = 30;
  std::vector<std::string> warnings_;
};

// Builds the domains of `topology`. Fails with InvalidArgument when the
// machine has no CPUs or options.node_reclaim_distance is below -1, and with
// FailedPrecondition when an ordinary (non-NUMA) level's spans partly
// overlap between CPUs (the kernel's topology_span_sane check).
absl::StatusOr<SchedDomains> BuildSchedDomains(
    const Topology& topology, const SchedDomainOptions& options = {});

}  // namespace schedsim::topology

#endif  // SCHEDSIM_TOPOLOGY_SCHED_DOMAINS_H_
