// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Importing a Topology from sysfs (sysfs.h): the CPUs, their caches, the
// NUMA nodes and where each CPU sits. The cpuidle and cpufreq parts are in
// sysfs_power.cc, the file reading in sysfs_read.cc.

#include "topology/sysfs.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "base/status_macros.h"
#include "topology/cpuset.h"
#include "topology/sysfs_importer.h"
#include "topology/sysfs_read.h"

namespace schedsim::topology {
namespace sysfs_internal {
namespace {

namespace fs = std::filesystem;

// Dense ids for group keys.
class GroupIds {
 public:
  int Id(std::vector<int64_t> key) {
    auto [it, inserted] =
        ids_.emplace(std::move(key), static_cast<int>(ids_.size()));
    return it->second;
  }

 private:
  std::map<std::vector<int64_t>, int> ids_;
};

}  // namespace

absl::Status Importer::ReadCpuList() {
  std::error_code ec;
  if (tree_.root().empty() || !fs::is_directory(tree_.root(), ec)) {
    // Issue 49 #16: "/dev/zero not found" for a file that exists; say
    // what it is instead.
    const fs::file_status st = fs::status(tree_.root(), ec);
    const char* what = ec || !fs::exists(st)       ? nullptr
                       : fs::is_regular_file(st)   ? "a regular file"
                       : fs::is_character_file(st) ? "a character device"
                       : fs::is_block_file(st)     ? "a block device"
                       : fs::is_fifo(st)           ? "a FIFO"
                       : fs::is_socket(st)         ? "a socket"
                                                   : "not a directory";
    return absl::NotFoundError(absl::StrCat(
        tree_.root(),
        what == nullptr ? " not found" : absl::StrCat(" is ", what),
        ": expected a sysfs root, a directory holding devices/system/cpu "
        "(such as /sys)"));
  }
  if (!tree_.IsDir(kCpuDir)) {
    return absl::NotFoundError(absl::StrCat(
        tree_.Path(kCpuDir),
        " not found: expected the CPU directory of the sysfs tree at ",
        tree_.root()));
  }
  std::string source;
  for (absl::string_view file : {"online", "present"}) {
    const std::string rel = absl::StrCat(kCpuDir, "/", file);
    std::optional<std::string> text = tree_.Read(rel);
    if (!text.has_value()) continue;
    source = tree_.Path(rel);
    SCHEDSIM_ASSIGN_OR_RETURN(cpus_, ParseIdList(source, *text));
    if (cpus_.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "expected at least one CPU in ", source, ", got ", Quote(*text)));
    }
    break;
  }
  if (source.empty()) {
    cpus_ = tree_.NumberedEntries(kCpuDir, "cpu");
    source = absl::StrCat("the cpuN directories of ", tree_.Path(kCpuDir));
    if (cpus_.empty()) {
      return absl::NotFoundError(absl::StrCat(
          "no CPUs in ", tree_.Path(kCpuDir),
          ": expected an online or present file or cpuN directories"));
    }
    Warn(absl::StrCat("no ", kCpuDir, "/online or present; CPUs taken from ",
                      source));
  }
  for (int cpu : cpus_) {
    if (!tree_.IsDir(CpuPath(cpu))) {
      return absl::NotFoundError(absl::StrCat(
          tree_.Path(CpuPath(cpu)),
          " not found: expected a directory for each CPU in ", source));
    }
    // Issue 49 #13: a CPU directory that cannot be read (permissions)
    // gave a CPU without topology or caches, so another machine, with no
    // note. Refuse it as a file that cannot be read.
    const std::string unreadable = tree_.ListError(CpuPath(cpu));
    if (!unreadable.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          tree_.Path(CpuPath(cpu)), ": cannot read this CPU's directory (",
          unreadable,
          "); expected every CPU directory of the tree to be readable (a "
          "capture made as root keeps them so)"));
    }
  }
  for (size_t i = 0; i < cpus_.size(); ++i) {
    sim_of_[cpus_[i]] = static_cast<int>(i);
  }
  if (cpus_.back() != static_cast<int>(cpus_.size()) - 1) {
    CpuSet sim(static_cast<int>(cpus_.size()));
    sim.SetAll();
    Warn(absl::StrCat("sysfs CPUs ", absl::StrJoin(cpus_, ","),
                      " renumbered densely as CPUs ", sim.ToList()));
  }
  return absl::OkStatus();
}

// Reads level, type and sharing of every CPU's caches.
absl::Status Importer::ReadCaches() {
  caches_.assign(cpus_.size(), {});
  bool inferred_level = false;
  std::set<std::string> unshared;
  for (size_t sim = 0; sim < cpus_.size(); ++sim) {
    const std::string dir = CpuPath(cpus_[sim], "cache");
    for (int index : tree_.NumberedEntries(dir, "index")) {
      const std::string idir = absl::StrCat(dir, "/index", index);
      CacheIndex c;
      c.index = index;
      SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> level,
                                OptInt(absl::StrCat(idir, "/level")));
      std::optional<std::string> type = OptString(absl::StrCat(idir, "/type"));
      if (level.has_value()) {
        c.level = static_cast<int>(std::clamp<int64_t>(*level, 0, 99));
      } else {
        c.level = index <= 1 ? 1 : index;
        inferred_level = true;
      }
      if (type.has_value() && !type->empty()) {
        c.type = *type;
      } else {
        c.type = index == 0 ? "Data" : index == 1 ? "Instruction" : "Unified";
        inferred_level = true;
      }
      SCHEDSIM_ASSIGN_OR_RETURN(
          std::optional<std::vector<int>> shared,
          OptCpuList(absl::StrCat(idir, "/shared_cpu_list")));
      if (!shared.has_value()) {
        unshared.insert(absl::StrCat("index", index));
        continue;
      }
      c.shared = std::move(*shared);
      caches_[sim].push_back(std::move(c));
    }
  }
  if (inferred_level) {
    Warn(
        "cache level/type missing from cpuN/cache/indexK; assumed the x86 "
        "order index0 = L1 Data, index1 = L1 Instruction, indexK = LK "
        "Unified");
  }
  if (!unshared.empty()) {
    Warn(absl::StrCat("cache ", absl::StrJoin(unshared, ", "),
                      " without shared_cpu_list ignored for grouping"));
  }
  return absl::OkStatus();
}

absl::Status Importer::ReadNodes() {
  node_of_.assign(cpus_.size(), -1);
  std::vector<int> node_ids = tree_.NumberedEntries(kNodeDir, "node");
  if (node_ids.empty()) {
    Warn(absl::StrCat("no NUMA nodes in ", tree_.Path(kNodeDir),
                      "; assumed one node holding every CPU"));
    node_of_.assign(cpus_.size(), 0);
    return absl::OkStatus();
  }
  std::vector<int> with_cpus;  // node ids holding imported CPUs
  int nodes_from_links = 0, nodes_from_maps = 0;
  for (int node : node_ids) {
    const std::string rel = absl::StrCat(kNodeDir, "/node", node, "/cpulist");
    SCHEDSIM_ASSIGN_OR_RETURN(std::optional<std::vector<int>> cpus,
                              OptCpuList(rel));
    const std::string dir = absl::StrCat(kNodeDir, "/node", node);
    const std::string map_rel = absl::StrCat(dir, "/cpumap");
    std::optional<std::string> map;
    if (!cpus.has_value()) map = tree_.Read(map_rel);
    if (!cpus.has_value() && map.has_value()) {
      // Older kernels have no cpulist, only the cpumap mask.
      SCHEDSIM_ASSIGN_OR_RETURN(std::vector<int> ids,
                                ParseIdMask(tree_.Path(map_rel), *map));
      cpus.emplace();
      for (int id : ids) {
        auto it = sim_of_.find(id);
        if (it != sim_of_.end()) cpus->push_back(it->second);
      }
      ++nodes_from_maps;
    }
    if (!cpus.has_value()) {
      // Or only a cpuN link per CPU of the node.
      const std::vector<int> linked = tree_.NumberedEntries(dir, "cpu");
      if (linked.empty()) {
        Warn(absl::StrCat(tree_.Path(rel), " missing; node ", node,
                          " taken to have no CPUs"));
        continue;
      }
      cpus.emplace();
      for (int id : linked) {
        auto it = sim_of_.find(id);
        if (it != sim_of_.end()) cpus->push_back(it->second);
      }
      ++nodes_from_links;
    }
    for (int sim : *cpus) {
      if (node_of_[sim] != -1) {
        return absl::InvalidArgumentError(
            absl::StrCat("CPU ", cpus_[sim], " is listed in node ",
                         node_of_[sim], " and again in ", tree_.Path(rel)));
      }
      node_of_[sim] = node;
    }
    if (!cpus->empty()) with_cpus.push_back(node);
  }
  if (nodes_from_maps > 0) {
    Warn(absl::StrCat(nodes_from_maps,
                      " node(s) without cpulist; their CPUs "
                      "taken from nodeN/cpumap"));
  }
  if (nodes_from_links > 0) {
    Warn(absl::StrCat(nodes_from_links,
                      " node(s) without cpulist; their CPUs "
                      "taken from the nodeN/cpuM links"));
  }
  std::vector<int> orphans;
  for (size_t sim = 0; sim < cpus_.size(); ++sim) {
    if (node_of_[sim] == -1) orphans.push_back(cpus_[sim]);
  }
  if (!orphans.empty()) {
    const int home = with_cpus.empty() ? node_ids.front() : with_cpus.front();
    for (int& node : node_of_) {
      if (node == -1) node = home;
    }
    if (with_cpus.empty()) with_cpus.push_back(home);
    std::sort(with_cpus.begin(), with_cpus.end());
    Warn(absl::StrCat("CPUs ", absl::StrJoin(orphans, ","),
                      " are in no node's cpulist; put in node ", home));
  }
  return ReadDistances(node_ids, with_cpus);
}

// Sets the SLIT matrix of the nodes in `with_cpus` (ascending) when every
// one has a distance file.
absl::Status Importer::ReadDistances(const std::vector<int>& node_ids,
                                     const std::vector<int>& with_cpus) {
  std::vector<int> columns = node_ids;
  std::string columns_source =
      absl::StrCat("the nodeN directories of ", tree_.Path(kNodeDir));
  const std::string online_rel = absl::StrCat(kNodeDir, "/online");
  if (std::optional<std::string> online = tree_.Read(online_rel)) {
    columns_source = tree_.Path(online_rel);
    SCHEDSIM_ASSIGN_OR_RETURN(columns, ParseIdList(columns_source, *online));
  }
  // A row lists one distance per online node (drivers/base/node.c,
  // node_read_distance(), v6.1: for_each_online_node). A capture taken
  // with a node offline may list the possible nodes instead (issue 49 #7:
  // hwloc's offline-cpu0-node0 dump, node/online "1", node1/distance
  // "21 10"); when the first row has as many entries as node/possible or
  // the nodeN directories, those are its columns.
  std::vector<std::pair<std::vector<int>, std::string>> alternatives;
  const std::string possible_rel = absl::StrCat(kNodeDir, "/possible");
  if (std::optional<std::string> possible = tree_.Read(possible_rel)) {
    absl::StatusOr<std::vector<int>> ids =
        ParseIdList(tree_.Path(possible_rel), *possible);
    if (ids.ok()) alternatives.emplace_back(*ids, tree_.Path(possible_rel));
  }
  alternatives.emplace_back(node_ids, absl::StrCat("the nodeN directories of ",
                                                   tree_.Path(kNodeDir)));
  std::vector<std::vector<int64_t>> rows;
  for (int node : with_cpus) {
    const std::string rel = absl::StrCat(kNodeDir, "/node", node, "/distance");
    std::optional<std::string> text = tree_.Read(rel);
    if (!text.has_value()) return absl::OkStatus();  // builder default
    const std::string path = tree_.Path(rel);
    SCHEDSIM_ASSIGN_OR_RETURN(
        std::vector<int64_t> row,
        ParseIntRow(path, *text,
                    "space-separated integers (a SLIT row) like '10 21'"));
    if (rows.empty() && row.size() != columns.size()) {
      for (const auto& [ids, source] : alternatives) {
        if (ids.size() == row.size() &&
            std::find(ids.begin(), ids.end(), node) != ids.end()) {
          Warn(absl::StrCat(path, " has ", row.size(),
                            " distances, one per node of ", source, ", not ",
                            columns.size(), " (", columns_source,
                            "); read by those"));
          columns = ids;
          columns_source = source;
          break;
        }
      }
    }
    if (row.size() != columns.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "expected ", columns.size(), " distances (one per node in ",
          columns_source, ") in ", path, ", got ", Quote(*text)));
    }
    rows.push_back(std::move(row));
  }
  std::vector<std::vector<int>> matrix;
  for (size_t i = 0; i < with_cpus.size(); ++i) {
    std::vector<int> out;
    for (int node : with_cpus) {
      auto col = std::find(columns.begin(), columns.end(), node);
      if (col == columns.end()) {
        Warn(absl::StrCat("node ", node, " is not in ", columns_source,
                          "; node distances ignored"));
        return absl::OkStatus();
      }
      int64_t d = rows[i][col - columns.begin()];
      if (d <= 0 || d > 255) {
        return absl::InvalidArgumentError(
            absl::StrCat("expected distances in 1..255 in ",
                         tree_.Path(absl::StrCat(kNodeDir, "/node",
                                                 with_cpus[i], "/distance")),
                         ", got ", d));
      }
      out.push_back(static_cast<int>(d));
    }
    matrix.push_back(std::move(out));
  }
  builder_.set_distances(std::move(matrix));
  return absl::OkStatus();
}

// Package, core and LLC of every CPU; adds the CPUs to the builder.
absl::Status Importer::PlaceCpus() {
  GroupIds package_ids, core_ids, llc_ids, cluster_ids;
  bool pkg_from_die = false, pkg_default = false, pkg_unknown_id = false;
  std::string core_source;
  bool core_default = false, llc_default = false;
  for (size_t i = 0; i < cpus_.size(); ++i) {
    const int sim = static_cast<int>(i);
    const std::string topo = CpuPath(cpus_[i], "topology");
    const auto file = [&](absl::string_view name) {
      return absl::StrCat(topo, "/", name);
    };

    // Package.
    int package = 0;
    SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> package_id,
                              OptInt(file("physical_package_id")));
    SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> die_id,
                              OptInt(file("die_id")));
    if (package_id.has_value() && *package_id < 0) {
      // -1: the architecture does not know (s390, some POWER); the sibling
      // lists below still group the package's CPUs.
      package_id.reset();
      pkg_unknown_id = true;
    }
    if (package_id.has_value()) {
      package = package_ids.Id({0, *package_id});
    } else {
      std::optional<std::vector<int>> list;
      for (absl::string_view name :
           {"package_cpus_list", "core_siblings_list"}) {
        SCHEDSIM_ASSIGN_OR_RETURN(list, OptCpuList(file(name)));
        if (list.has_value()) break;
      }
      if (list.has_value()) {
        package = package_ids.Id({1, LowestOf(*list, sim)});
      } else {
        SCHEDSIM_ASSIGN_OR_RETURN(list, OptCpuList(file("die_cpus_list")));
        if (list.has_value()) {
          package = package_ids.Id({2, LowestOf(*list, sim)});
          pkg_from_die = true;
        } else if (die_id.has_value()) {
          package = package_ids.Id({3, *die_id});
          pkg_from_die = true;
        } else {
          package = package_ids.Id({4});
          pkg_default = true;
        }
      }
    }

    // Core.
    int core = 0;
    std::optional<std::vector<int>> siblings;
    for (absl::string_view name : {"thread_siblings_list", "core_cpus_list"}) {
      SCHEDSIM_ASSIGN_OR_RETURN(siblings, OptCpuList(file(name)));
      if (siblings.has_value()) break;
    }
    SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> core_id,
                              OptInt(file("core_id")));
    const CacheIndex* l1 = CoreCache(sim);
    if (siblings.has_value()) {
      core = core_ids.Id({0, LowestOf(*siblings, sim)});
    } else if (core_id.has_value()) {
      core = core_ids.Id({1, package, die_id.value_or(-1), *core_id});
    } else if (l1 != nullptr) {
      core = core_ids.Id({2, LowestOf(l1->shared, sim)});
      if (core_source.empty()) {
        core_source = absl::StrCat("L", l1->level, " ", l1->type,
                                   " cache sharing (cache/index", l1->index,
                                   "/shared_cpu_list)");
      }
    } else {
      core = core_ids.Id({3, sim});
      core_default = true;
    }

    // LLC.
    int llc = 0;
    const CacheIndex* last = LastLevelCache(sim);
    if (last != nullptr) {
      llc = llc_ids.Id({0, last->level, LowestOf(last->shared, sim)});
    } else {
      llc = llc_ids.Id({1, package});
      llc_default = true;
    }

    builder_.AddCpu(sim, package, node_of_[i], llc, core);

    // Cluster (topology/cluster_cpus_list, v5.16+): the scheduler's CLS
    // level. Absent on older kernels: no clusters.
    SCHEDSIM_ASSIGN_OR_RETURN(std::optional<std::vector<int>> cluster,
                              OptCpuList(file("cluster_cpus_list")));
    if (cluster.has_value()) {
      builder_.SetCluster(sim, cluster_ids.Id({LowestOf(*cluster, sim)}));
    }
  }
  if (!core_source.empty()) {
    Warn(absl::StrCat(
        "cores inferred from ", core_source,
        ": no topology/thread_siblings_list, core_cpus_list or core_id"));
  }
  if (core_default) {
    Warn(
        "no core information (topology or caches); each CPU taken as its "
        "own core");
  }
  if (pkg_from_die) {
    Warn(
        "packages inferred from dies (topology/die_cpus_list or die_id): no "
        "physical_package_id or package_cpus_list");
  }
  if (pkg_unknown_id) {
    Warn(
        "physical_package_id -1 (unknown to the architecture); packages "
        "taken from package_cpus_list or core_siblings_list");
  }
  if (pkg_default) {
    Warn("no package information; assumed one package");
  }
  if (llc_default) {
    Warn("no cache information; assumed one LLC per package");
  }
  return absl::OkStatus();
}

// The cache whose sharing gives a CPU's core: L1 Data, else the lowest
// level non-instruction cache.
const CacheIndex* Importer::CoreCache(int sim) const {
  const CacheIndex* best = nullptr;
  for (const CacheIndex& c : caches_[sim]) {
    if (c.type == "Instruction") continue;
    if (best == nullptr || c.level < best->level ||
        (c.level == best->level && c.type == "Data")) {
      best = &c;
    }
  }
  return best;
}

const CacheIndex* Importer::LastLevelCache(int sim) const {
  const CacheIndex* best = nullptr;
  for (const CacheIndex& c : caches_[sim]) {
    if (best == nullptr || c.level > best->level ||
        (c.level == best->level && c.shared.size() > best->shared.size())) {
      best = &c;
    }
  }
  return best;
}

// Size, ways and line size of the first CPU's caches.
absl::Status Importer::ReadCacheSpecs() {
  std::vector<CacheSpec> specs;
  std::set<std::string> missing;
  for (const CacheIndex& c : caches_[0]) {
    const std::string idir =
        CpuPath(cpus_[0], absl::StrCat("cache/index", c.index));
    CacheSpec spec;
    spec.level = c.level;
    spec.type = c.type;
    const std::string size_rel = absl::StrCat(idir, "/size");
    if (std::optional<std::string> size = tree_.Read(size_rel)) {
      SCHEDSIM_ASSIGN_OR_RETURN(spec.size_bytes,
                                ParseSizeBytes(tree_.Path(size_rel), *size));
    } else {
      missing.insert("size");
    }
    SCHEDSIM_ASSIGN_OR_RETURN(
        std::optional<int64_t> ways,
        OptInt(absl::StrCat(idir, "/ways_of_associativity")));
    if (ways.has_value()) {
      spec.ways = static_cast<int>(std::clamp<int64_t>(*ways, 0, 1 << 16));
    } else {
      missing.insert("ways_of_associativity");
    }
    SCHEDSIM_ASSIGN_OR_RETURN(
        std::optional<int64_t> line,
        OptInt(absl::StrCat(idir, "/coherency_line_size")));
    if (line.has_value()) {
      spec.line_bytes =
          static_cast<int>(std::clamp<int64_t>(*line, 0, 1 << 16));
    } else {
      missing.insert("coherency_line_size");
    }
    specs.push_back(std::move(spec));
  }
  auto type_rank = [](const std::string& type) {
    return type == "Data" ? 0 : type == "Instruction" ? 1 : 2;
  };
  std::stable_sort(specs.begin(), specs.end(),
                   [&](const CacheSpec& a, const CacheSpec& b) {
                     if (a.level != b.level) return a.level < b.level;
                     return type_rank(a.type) < type_rank(b.type);
                   });
  if (!missing.empty()) {
    Warn(absl::StrCat("cache ", absl::StrJoin(missing, ", "),
                      " missing for CPU ", cpus_[0],
                      "; size and ways left 0, line size 64"));
  }
  builder_.set_caches(std::move(specs));
  return absl::OkStatus();
}

}  // namespace sysfs_internal

absl::StatusOr<Topology> LoadTopologyFromSysfs(const std::string& sysfs_root,
                                               const std::string& name) {
  return sysfs_internal::Importer(sysfs_root, name).Run();
}

}  // namespace schedsim::topology
