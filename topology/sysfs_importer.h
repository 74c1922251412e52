// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The sysfs importer (internal to LoadTopologyFromSysfs, see sysfs.h): one
// class whose methods are spread over sysfs.cc (the CPUs, caches, NUMA
// nodes and their placement) and sysfs_power.cc (the cpuidle states, the
// cpufreq policy and the vendor guess); sysfs_hwloc.cc reads the CPUs,
// caches and NUMA nodes with libhwloc instead when it can.

#ifndef SCHEDSIM_TOPOLOGY_SYSFS_IMPORTER_H_
#define SCHEDSIM_TOPOLOGY_SYSFS_IMPORTER_H_

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "base/status_macros.h"
#include "topology/sysfs_read.h"
#include "topology/topology.h"

namespace schedsim::topology::sysfs_internal {

// One cache of one CPU.
struct CacheIndex {
  int index = 0;
  int level = 0;
  std::string type;
  std::vector<int> shared;  // simulated CPU ids, including the CPU itself
};

class Importer {
 public:
  Importer(const std::string& root, const std::string& name)
      : tree_(root), builder_(name.empty() ? root : name) {}

  absl::StatusOr<Topology> Run() {
    SCHEDSIM_ASSIGN_OR_RETURN(const bool by_hwloc, ReadTopologyWithHwloc());
    if (!by_hwloc) {
      SCHEDSIM_RETURN_IF_ERROR(ReadCpuList());
      SCHEDSIM_RETURN_IF_ERROR(ReadCaches());
      SCHEDSIM_RETURN_IF_ERROR(ReadNodes());
      SCHEDSIM_RETURN_IF_ERROR(PlaceCpus());
      SCHEDSIM_RETURN_IF_ERROR(ReadCacheSpecs());
    }
    SCHEDSIM_RETURN_IF_ERROR(ReadCStates());
    SCHEDSIM_RETURN_IF_ERROR(ReadFrequency());
    SCHEDSIM_RETURN_IF_ERROR(ReadCapacities());
    NoteHybridCpus();
    GuessVendor();
    if (!tree_.refused().empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(tree_.refused(),
                       tree_.refused_count() > 1
                           ? absl::StrCat(" (and ", tree_.refused_count() - 1,
                                          " more files refused)")
                           : std::string(),
                       "; a sysfs tree holds regular files of at most ",
                       base::kMaxSysfsFileBytes / 1024, " KiB"));
    }
    return builder_.Build();
  }

 private:
  static constexpr absl::string_view kCpuDir = "devices/system/cpu";
  static constexpr absl::string_view kNodeDir = "devices/system/node";

  std::string CpuPath(int sysfs_cpu, absl::string_view rel = "") const {
    return rel.empty() ? absl::StrCat(kCpuDir, "/cpu", sysfs_cpu)
                       : absl::StrCat(kCpuDir, "/cpu", sysfs_cpu, "/", rel);
  }

  void Warn(std::string warning) { builder_.AddWarning(std::move(warning)); }

  // Optional values: nullopt when the file is missing or unreadable, an
  // error when it is present but malformed.
  std::optional<std::string> OptString(absl::string_view rel) const {
    std::optional<std::string> text = tree_.Read(rel);
    if (text.has_value()) {
      *text = std::string(absl::StripAsciiWhitespace(*text));
    }
    return text;
  }
  absl::StatusOr<std::optional<int64_t>> OptInt(absl::string_view rel) const {
    std::optional<std::string> text = tree_.Read(rel);
    if (!text.has_value()) return std::optional<int64_t>();
    SCHEDSIM_ASSIGN_OR_RETURN(int64_t v, ParseInt(tree_.Path(rel), *text));
    return std::optional<int64_t>(v);
  }
  // A list of CPUs, mapped to simulated ids (CPUs that are not imported,
  // e.g. offline ones, are dropped).
  absl::StatusOr<std::optional<std::vector<int>>> OptCpuList(
      absl::string_view rel) const {
    std::optional<std::string> text = tree_.Read(rel);
    if (!text.has_value()) return std::optional<std::vector<int>>();
    SCHEDSIM_ASSIGN_OR_RETURN(std::vector<int> sysfs_ids,
                              ParseIdList(tree_.Path(rel), *text));
    std::vector<int> sim;
    for (int id : sysfs_ids) {
      auto it = sim_of_.find(id);
      if (it != sim_of_.end()) sim.push_back(it->second);
    }
    return std::optional<std::vector<int>>(std::move(sim));
  }

  // Key of the group of simulated CPU `cpu` given its sharing list: the
  // lowest CPU of the list (the CPU itself counts even if it is missing).
  static int64_t LowestOf(const std::vector<int>& shared, int cpu) {
    int low = cpu;
    for (int c : shared) low = std::min(low, c);
    return low;
  }

  // sysfs_hwloc.cc: when the tree is a sys/ directory holding the bitmask
  // topology files libhwloc reads, reads the CPUs, cores, packages, caches
  // and NUMA nodes with libhwloc's Linux backend into the builder and sets
  // cpus_/sim_of_; false when the tree is not such a tree.
  absl::StatusOr<bool> ReadTopologyWithHwloc();

  // sysfs.cc
  absl::Status ReadCpuList();
  // Reads level, type and sharing of every CPU's caches.
  absl::Status ReadCaches();
  absl::Status ReadNodes();
  // Sets the SLIT matrix of the nodes in `with_cpus` (ascending) when every
  // one has a distance file.
  absl::Status ReadDistances(const std::vector<int>& node_ids,
                             const std::vector<int>& with_cpus);
  // Package, core and LLC of every CPU; adds the CPUs to the builder.
  absl::Status PlaceCpus();
  // The cache whose sharing gives a CPU's core: L1 Data, else the lowest
  // level non-instruction cache.
  const CacheIndex* CoreCache(int sim) const;
  const CacheIndex* LastLevelCache(int sim) const;
  // Size, ways and line size of the first CPU's caches.
  absl::Status ReadCacheSpecs();

  // sysfs_power.cc
  absl::Status ReadCStates();
  // The cpufreq directory of the first CPU, or "" when there is none.
  absl::StatusOr<std::string> FindCpufreqDir();
  absl::Status ReadFrequency();
  // Each CPU's cpuN/cpu_capacity (arch_scale_cpu_capacity), when every CPU
  // has one and they differ: the builder's capacities, normalized so the
  // largest is 1024.
  absl::Status ReadCapacities();
  // Warns when the CPUs are not all alike (different cpuinfo_max_freq, or
  // Intel hybrid cpu_core / cpu_atom kinds): their frequencies (and, without
  // cpu_capacity, their capacities) are modelled as CPU 0's.
  void NoteHybridCpus();
  void GuessVendor();

  SysfsTree tree_;
  TopologyBuilder builder_;
  std::vector<int> cpus_;      // sysfs CPU ids, ascending; index = sim id
  std::map<int, int> sim_of_;  // sysfs CPU id -> simulated id
  std::vector<std::vector<CacheIndex>> caches_;  // by simulated CPU
  std::vector<int> node_of_;  // by simulated CPU: sysfs node id
  std::string cpufreq_dir_;
  bool capacities_set_ = false;  // ReadCapacities set asymmetric capacities
  std::string driver_;
};

}  // namespace schedsim::topology::sysfs_internal

#endif  // SCHEDSIM_TOPOLOGY_SYSFS_IMPORTER_H_
