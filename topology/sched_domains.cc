// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "topology/sched_domains.h"

#include <algorithm>
#include <map>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace schedsim::topology {
namespace {

// Flags that only mean something with more than one group (6.1's
// SDF_NEEDS_GROUPS meta-flag): every flag except SD_WAKE_AFFINE.
constexpr uint32_t kNeedsGroups =
    kSdBalanceNewidle | kSdBalanceExec | kSdBalanceFork | kSdBalanceWake |
    kSdAsymCpuCapacity | kSdAsymCpuCapacityFull | kSdShareCpuCapacity |
    kSdSharePkgResources | kSdSerialize | kSdAsymPacking | kSdPreferSibling |
    kSdOverlap | kSdNuma;

// sd_init's starting flags (kernel/sched/topology.c sd_init(), v6.1).
constexpr uint32_t kDefaultFlags = kSdBalanceNewidle | kSdBalanceExec |
                                   kSdBalanceFork | kSdWakeAffine |
                                   kSdPreferSibling;

// RECLAIM_DISTANCE (include/linux/topology.h) and the AMD Zen override
// (arch/x86/kernel/cpu/amd.c, Zen init), as sd_init() compares them.
constexpr int kReclaimDistance = 30;
constexpr int kZenReclaimDistance = 32;

constexpr const char* kFlagNames[] = {
    "SD_BALANCE_NEWIDLE",
    "SD_BALANCE_EXEC",
    "SD_BALANCE_FORK",
    "SD_BALANCE_WAKE",
    "SD_WAKE_AFFINE",
    "SD_ASYM_CPUCAPACITY",
    "SD_ASYM_CPUCAPACITY_FULL",
    "SD_SHARE_CPUCAPACITY",
    "SD_SHARE_PKG_RESOURCES",
    "SD_SERIALIZE",
    "SD_ASYM_PACKING",
    "SD_PREFER_SIBLING",
    "SD_OVERLAP",
    "SD_NUMA",
};
constexpr int kNumFlagNames =
    static_cast<int>(sizeof(kFlagNames) / sizeof(kFlagNames[0]));

// One row of the topology table (the kernel's sched_domain_topology_level).
struct TopologyLevel {
  std::string name;
  uint32_t flags = 0;        // the level's own sd_flags
  bool overlap = false;      // SDTL_OVERLAP: groups may overlap (NUMA levels)
  int distance = 0;          // NODE/NUMA: the SLIT distance of the masks
  std::vector<CpuSet> mask;  // per CPU, tl->mask(cpu)
};

// sd_init: the domain of one level with span `span`, before groups.
SchedDomain InitDomain(const TopologyLevel& level, int level_index,
                       const CpuSet& span, int node_reclaim_distance) {
  SchedDomain sd;
  sd.name = level.name;
  sd.level = level_index;
  sd.span = span;
  const int weight = span.Count();
  sd.min_interval_ms = weight;
  sd.max_interval_ms = 2 * weight;
  sd.busy_factor = 16;
  sd.imbalance_pct = 117;
  sd.cache_nice_tries = 0;
  sd.flags = kDefaultFlags | level.flags;
  sd.numa_distance = level.distance;
  if (sd.flags & kSdShareCpuCapacity) {
    sd.imbalance_pct = 110;
  } else if (sd.flags & kSdSharePkgResources) {
    sd.imbalance_pct = 117;
    sd.cache_nice_tries = 1;
  } else if (sd.flags & kSdNuma) {
    sd.cache_nice_tries = 2;
    sd.flags &= ~kSdPreferSibling;
    sd.flags |= kSdSerialize;
    if (level.distance > node_reclaim_distance) {
      sd.flags &= ~(kSdBalanceExec | kSdBalanceFork | kSdWakeAffine);
    }
  } else {
    sd.cache_nice_tries = 1;
  }
  if (level.overlap) sd.flags |= kSdOverlap;
  return sd;
}

// asym_cpu_capacity_classify (kernel/sched/topology.c, v6.1): 0 when
// `span` holds CPUs of fewer than two capacities; SD_ASYM_CPUCAPACITY when
// it holds several but not every capacity of the machine; with
// SD_ASYM_CPUCAPACITY_FULL too when it holds them all.
uint32_t AsymCapacityFlags(const Topology& t, const CpuSet& span) {
  if (!t.asym_capacity()) return 0;
  std::vector<int> all, seen;
  for (int cpu = 0; cpu < t.num_cpus(); ++cpu) {
    all.push_back(t.capacity(cpu));
    if (span.Test(cpu)) seen.push_back(t.capacity(cpu));
  }
  for (std::vector<int>* v : {&all, &seen}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  if (seen.size() < 2) return 0;
  if (seen.size() < all.size()) return kSdAsymCpuCapacity;
  return kSdAsymCpuCapacity | kSdAsymCpuCapacityFull;
}

// sd_degenerate: the domain contributes nothing by itself.
bool Degenerate(const SchedDomain& sd) {
  if (sd.span.Count() == 1) return true;
  if ((sd.flags & kNeedsGroups) && sd.groups.size() > 1) return false;
  if (sd.flags & kSdWakeAffine) return false;
  return true;
}

// sd_parent_degenerate: `parent` adds nothing to `child`.
bool ParentDegenerate(const SchedDomain& child, const SchedDomain& parent) {
  if (Degenerate(parent)) return true;
  if (child.span != parent.span) return false;
  uint32_t parent_flags = parent.flags;
  if (parent.groups.size() == 1) parent_flags &= ~kNeedsGroups;
  return (parent_flags & ~child.flags) == 0;
}

// The topology table for `t`: x86's SMT, CLS, MC, DIE, then NODE and NUMA.
std::vector<TopologyLevel> MakeLevels(const Topology& t,
                                      const SchedDomainOptions& o,
                                      std::vector<std::string>* warnings) {
  const int n = t.num_cpus();
  std::vector<TopologyLevel> levels;

  // x86 matches SMT and LLC siblings only within a NUMA node.
  TopologyLevel smt{
      "SMT", kSdShareCpuCapacity | kSdSharePkgResources, false, 0, {}};
  TopologyLevel cls{"CLS", kSdSharePkgResources, false, 0, {}};
  TopologyLevel mc{"MC", kSdSharePkgResources, false, 0, {}};
  int llcs_cut = 0;
  int first_cut_cpu = -1;
  std::vector<bool> llc_seen(t.num_llcs(), false);
  for (int cpu = 0; cpu < n; ++cpu) {
    const CpuSet& node = t.node_span(cpu);
    smt.mask.push_back(t.smt_siblings(cpu) & node);
    // cpu_clustergroup_mask(): the cluster (sysfs cluster_cpus) where the
    // machine states one, else the core (L2 per core).
    cls.mask.push_back(t.cluster_span(cpu) & node);
    mc.mask.push_back(t.llc_span(cpu) & node);
    const int llc = t.place(cpu).llc;
    if (!llc_seen[llc] && !t.llc_span(cpu).IsSubsetOf(node)) {
      ++llcs_cut;
      if (first_cut_cpu < 0) first_cut_cpu = cpu;
    }
    llc_seen[llc] = true;
  }
  if (llcs_cut > 0) {
    warnings->push_back(absl::StrCat(
        llcs_cut, " LLC(s) span more than one NUMA node (first: ",
        t.llc_span(first_cut_cpu).ToList(),
        "); as on x86, each MC domain is the part of its LLC in the CPU's "
        "node"));
  }
  levels.push_back(std::move(smt));
  levels.push_back(std::move(cls));
  levels.push_back(std::move(mc));

  // x86_has_numa_in_package: two CPUs share a package but not a node.
  std::vector<int> node_of_package(t.num_packages(), -1);
  bool numa_in_package = false;
  for (int cpu = 0; cpu < n; ++cpu) {
    int& node = node_of_package[t.place(cpu).package];
    if (node >= 0 && node != t.place(cpu).node) numa_in_package = true;
    node = t.place(cpu).node;
  }
  if (!numa_in_package) {
    // cpu_cpu_mask is the node's CPUs: the package's, or several packages'
    // when a node spans packages (one memory for several sockets).
    TopologyLevel die{o.use_6_12_names ? "PKG" : "DIE", 0, false, 0, {}};
    for (int cpu = 0; cpu < n; ++cpu) die.mask.push_back(t.node_span(cpu));
    levels.push_back(std::move(die));
  }

  // sched_init_numa: one level per distinct distance.
  std::vector<int> distances;
  for (const std::vector<int>& row : t.distances()) {
    distances.insert(distances.end(), row.begin(), row.end());
  }
  std::sort(distances.begin(), distances.end());
  distances.erase(std::unique(distances.begin(), distances.end()),
                  distances.end());
  for (size_t i = 0; i < distances.size(); ++i) {
    TopologyLevel numa{i == 0 ? "NODE" : "NUMA",
                       i == 0 ? 0u : kSdNuma,
                       i > 0,
                       distances[i],
                       {}};
    std::vector<CpuSet> node_masks;
    for (int a = 0; a < t.num_nodes(); ++a) {
      CpuSet mask(n);
      for (int b = 0; b < t.num_nodes(); ++b) {
        if (t.distance(a, b) <= distances[i]) mask |= t.nodes()[b];
      }
      node_masks.push_back(std::move(mask));
    }
    for (int cpu = 0; cpu < n; ++cpu) {
      numa.mask.push_back(node_masks[t.place(cpu).node]);
    }
    levels.push_back(std::move(numa));
  }
  return levels;
}

// topology_span_sane: an ordinary level's masks are equal or disjoint.
absl::Status CheckSpansSane(const TopologyLevel& level) {
  std::vector<CpuSet> distinct = level.mask;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  for (size_t a = 0; a < distinct.size(); ++a) {
    for (size_t b = a + 1; b < distinct.size(); ++b) {
      if (distinct[a].Intersects(distinct[b])) {
        return absl::FailedPreconditionError(absl::StrCat(
            "the ", level.name, " spans ", distinct[a].ToList(), " and ",
            distinct[b].ToList(),
            " partly overlap; non-NUMA domain spans must be equal or "
            "disjoint"));
      }
    }
  }
  return absl::OkStatus();
}

// The groups of the domain at `index` in the built stack of `cpu`
// (build_sched_groups / build_overlap_sched_groups), sorted.
std::vector<CpuSet> BuildGroups(const std::vector<std::vector<CpuSet>>& built,
                                int cpu, size_t index, bool overlap) {
  const CpuSet& span = built[cpu][index];
  CpuSet covered(span.width());
  std::vector<CpuSet> groups;
  for (int i = span.NextWrap(-1, cpu); i >= 0; i = span.NextWrap(i, cpu)) {
    if (covered.Test(i)) continue;
    const std::vector<CpuSet>& sibling = built[i];
    CpuSet group(span.width());
    if (!overlap) {
      if (index > 0 && index - 1 < sibling.size()) {
        group = sibling[index - 1];
      } else {
        group.Set(i);
      }
    } else {
      // CPU i's own domain at this level must exist and contain i.
      if (index >= sibling.size() || !sibling[index].Test(i)) continue;
      size_t s = index;
      if (s > 0 && !sibling[s - 1].IsSubsetOf(span)) {
        // Descend to a domain whose child stays inside `span`, then past
        // children that would be removed as equal-span degenerates.
        while (s > 0 && !sibling[s - 1].IsSubsetOf(span)) --s;
        while (s > 0 && sibling[s - 1] == sibling[s]) --s;
      }
      group = s > 0 ? sibling[s - 1] : sibling[s];
    }
    covered |= group;
    groups.push_back(std::move(group));
  }
  std::sort(groups.begin(), groups.end());
  return groups;
}

bool SameDomain(const SchedDomain& a, const SchedDomain& b) {
  return a.level == b.level && a.flags == b.flags && a.span == b.span &&
         a.groups == b.groups;
}

}  // namespace

std::vector<std::string> SdFlagNames(uint32_t flags) {
  std::vector<std::string> names;
  for (int bit = 0; bit < 32; ++bit) {
    if (!((flags >> bit) & 1)) continue;
    if (bit < kNumFlagNames) {
      names.push_back(kFlagNames[bit]);
    } else {
      names.push_back(absl::StrCat("0x", absl::Hex(uint32_t{1} << bit)));
    }
  }
  return names;
}

std::string SdFlagsString(uint32_t flags) {
  return absl::StrJoin(SdFlagNames(flags), "|");
}

int SchedDomain::LocalGroup(int cpu) const {
  for (size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].Test(cpu)) return static_cast<int>(g);
  }
  return -1;
}

std::vector<const SchedDomain*> SchedDomains::Stack(int cpu) const {
  std::vector<const SchedDomain*> out;
  out.reserve(stacks_[cpu].size());
  for (int id : stacks_[cpu]) out.push_back(&domains_[id]);
  return out;
}

const SchedDomain* SchedDomains::HighestFlagDomain(int cpu,
                                                   uint32_t flag) const {
  const SchedDomain* highest = nullptr;
  for (int id : stacks_[cpu]) {
    if ((domains_[id].flags & flag) != flag) break;
    highest = &domains_[id];
  }
  return highest;
}

const SchedDomain* SchedDomains::LowestFlagDomain(int cpu,
                                                  uint32_t flag) const {
  for (int id : stacks_[cpu]) {
    if ((domains_[id].flags & flag) == flag) return &domains_[id];
  }
  return nullptr;
}

std::string SchedDomains::Describe(int cpu) const {
  std::string out;
  for (int d = 0; d < depth(cpu); ++d) {
    const SchedDomain& sd = domain(cpu, d);
    std::vector<std::string> groups;
    for (const CpuSet& g : sd.groups) groups.push_back("{" + g.ToList() + "}");
    absl::StrAppend(&out, "domain", d, " ", sd.name, " level=", sd.level,
                    " span=", sd.span.ToList(), " weight=", sd.weight(),
                    " imb=", sd.imbalance_pct, " cnt=", sd.cache_nice_tries,
                    " interval=", sd.min_interval_ms, "-", sd.max_interval_ms,
                    "ms");
    if (sd.numa_distance > 0) absl::StrAppend(&out, " dist=", sd.numa_distance);
    absl::StrAppend(&out, " groups=", absl::StrJoin(groups, ","),
                    " flags=", SdFlagsString(sd.flags), "\n");
  }
  return out;
}

absl::StatusOr<SchedDomains> BuildSchedDomains(
    const Topology& topology, const SchedDomainOptions& options) {
  const int n = topology.num_cpus();
  if (n <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot build scheduling domains for \"", topology.name(),
                     "\": it has no CPUs"));
  }
  if (options.node_reclaim_distance < -1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "node_reclaim_distance must be -1 (automatic) or a SLIT distance, "
        "got ",
        options.node_reclaim_distance));
  }
  SchedDomains out;
  out.node_reclaim_distance_ =
      options.node_reclaim_distance >= 0  ? options.node_reclaim_distance
      : topology.vendor() == Vendor::kAmd ? kZenReclaimDistance
                                          : kReclaimDistance;

  const std::vector<TopologyLevel> levels =
      MakeLevels(topology, options, &out.warnings_);
  for (const TopologyLevel& level : levels) {
    if (level.overlap) continue;
    absl::Status sane = CheckSpansSane(level);
    if (!sane.ok()) return sane;
  }

  // Per CPU, the spans of the levels built for it (build_sched_domain):
  // widened to contain the child, stopping at the first that spans all.
  const CpuSet all = topology.all_cpus();
  std::vector<std::vector<CpuSet>> built(n);
  std::vector<std::pair<size_t, size_t>> widened;  // (child, parent) levels
  for (int cpu = 0; cpu < n; ++cpu) {
    for (size_t l = 0; l < levels.size(); ++l) {
      CpuSet span = levels[l].mask[cpu] & all;
      if (l > 0 && !built[cpu].back().IsSubsetOf(span)) {
        if (std::find(widened.begin(), widened.end(),
                      std::make_pair(l - 1, l)) == widened.end()) {
          widened.emplace_back(l - 1, l);
          out.warnings_.push_back(absl::StrCat(
              "the ", levels[l].name, " domain of CPU ", cpu, " (",
              span.ToList(), ") does not contain its ", levels[l - 1].name,
              " domain (", built[cpu].back().ToList(),
              "); widened to their union, as the kernel does"));
        }
        span |= built[cpu].back();
      }
      built[cpu].push_back(std::move(span));
      if (built[cpu].back() == all) break;
    }
  }

  // Domains with groups, shared between CPUs when identical.
  std::map<std::pair<int, CpuSet>, std::vector<int>> by_level_span;
  std::vector<SchedDomain> table;
  out.stacks_.resize(n);
  for (int cpu = 0; cpu < n; ++cpu) {
    for (size_t l = 0; l < built[cpu].size(); ++l) {
      SchedDomain sd = InitDomain(levels[l], static_cast<int>(l), built[cpu][l],
                                  out.node_reclaim_distance_);
      sd.flags |= AsymCapacityFlags(topology, sd.span);
      // sd_init of the parent: "don't attempt to spread across CPUs of
      // different capacities" (the child of an asymmetric domain loses
      // SD_PREFER_SIBLING).
      if (l + 1 < built[cpu].size() &&
          (AsymCapacityFlags(topology, built[cpu][l + 1]) &
           kSdAsymCpuCapacity)) {
        sd.flags &= ~kSdPreferSibling;
      }
      sd.groups = BuildGroups(built, cpu, l, levels[l].overlap);
      std::vector<int>& candidates =
          by_level_span[{static_cast<int>(l), sd.span}];
      int id = -1;
      for (int c : candidates) {
        if (SameDomain(table[c], sd)) id = c;
      }
      if (id < 0) {
        id = static_cast<int>(table.size());
        candidates.push_back(id);
        table.push_back(std::move(sd));
      }
      out.stacks_[cpu].push_back(id);
    }
  }

  // cpu_attach_domain: drop degenerate parents, then a degenerate lowest
  // domain. (The kernel also hands a dropped parent's SD_PREFER_SIBLING to
  // the child; a child without it is a NUMA level, whose parents lack it
  // too, so that never changes anything here.)
  for (std::vector<int>& stack : out.stacks_) {
    size_t t = 0;
    while (t + 1 < stack.size()) {
      if (ParentDegenerate(table[stack[t]], table[stack[t + 1]])) {
        stack.erase(stack.begin() + static_cast<std::ptrdiff_t>(t) + 1);
      } else {
        ++t;
      }
    }
    if (!stack.empty() && Degenerate(table[stack[0]])) {
      stack.erase(stack.begin());
    }
  }

  // Keep only the domains some CPU still uses.
  std::vector<int> new_id(table.size(), -1);
  for (std::vector<int>& stack : out.stacks_) {
    for (int& id : stack) {
      if (new_id[id] < 0) {
        new_id[id] = static_cast<int>(out.domains_.size());
        out.domains_.push_back(std::move(table[id]));
      }
      id = new_id[id];
    }
  }

  // sd_llc of each CPU.
  std::map<CpuSet, int> llc_index;
  out.llc_of_.resize(n);
  for (int cpu = 0; cpu < n; ++cpu) {
    const SchedDomain* llc = out.HighestFlagDomain(cpu, kSdSharePkgResources);
    if (llc == nullptr) {
      CpuSet self(n);
      self.Set(cpu);
      out.llc_of_[cpu] = static_cast<int>(out.llc_spans_.size());
      out.llc_spans_.push_back(std::move(self));
      out.llc_sizes_.push_back(1);
      continue;
    }
    auto [it, inserted] =
        llc_index.emplace(llc->span, static_cast<int>(out.llc_spans_.size()));
    if (inserted) {
      out.llc_spans_.push_back(llc->span);
      out.llc_sizes_.push_back(llc->weight());
    }
    out.llc_of_[cpu] = it->second;
  }
  return out;
}

}  // namespace schedsim::topology
