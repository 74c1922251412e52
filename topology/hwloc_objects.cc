// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "topology/hwloc_objects.h"

#include <hwloc.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "base/child_wait.h"
#include "base/status_macros.h"
#include "topology/cpuset.h"

namespace schedsim::topology::hwloc_internal {
namespace {

// Owns a distances structure obtained from `topology`.
struct HwlocDistancesDeleter {
  hwloc_topology_t topology;
  void operator()(struct hwloc_distances_s* d) const {
    hwloc_distances_release(topology, d);
  }
};
using HwlocDistancesPtr =
    std::unique_ptr<struct hwloc_distances_s, HwlocDistancesDeleter>;

// Limits of the child process that tries an import first.
constexpr double kChildCpuSeconds = 60;
constexpr int64_t kChildAddressSpaceBytes = int64_t{8} << 30;
// Wall-clock limit of the child (one blocked on a lock uses no CPU time).
constexpr double kChildWallSeconds = 120;

absl::Status Invalid(absl::string_view source, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(source, ": ", what));
}

// Dense ids in order of first use, keyed by hwloc object.
class IdMap {
 public:
  int Get(hwloc_obj_t obj) {
    auto [it, inserted] = ids_.try_emplace(obj, static_cast<int>(ids_.size()));
    return it->second;
  }

 private:
  std::map<hwloc_obj_t, int> ids_;
};

// The NUMA node a PU belongs to: among the nodes whose cpuset holds it,
// ordinary memory (no subtype such as "MCDRAM" or "GPUMemory") first, then
// the most local (smallest cpuset), then the lowest os_index.
hwloc_obj_t NodeOfPu(const std::vector<hwloc_obj_t>& nodes, hwloc_obj_t pu) {
  auto rank = [](hwloc_obj_t n) {
    return std::make_tuple(n->subtype != nullptr,
                           hwloc_bitmap_weight(n->cpuset), n->os_index);
  };
  hwloc_obj_t best = nullptr;
  for (hwloc_obj_t n : nodes) {
    if (n->cpuset == nullptr || !hwloc_bitmap_isset(n->cpuset, pu->os_index)) {
      continue;
    }
    if (best == nullptr || rank(n) < rank(best)) best = n;
  }
  return best;
}

// The first NUMA node attached (as a memory child, possibly behind memory-
// side caches) to the nearest ancestor of `pu` that has one, or nullptr.
hwloc_obj_t NearestNode(hwloc_obj_t pu) {
  for (hwloc_obj_t o = pu->parent; o != nullptr; o = o->parent) {
    for (hwloc_obj_t m = o->memory_first_child; m != nullptr;
         m = m->memory_first_child) {
      if (m->type == HWLOC_OBJ_NUMANODE) return m;
    }
  }
  return nullptr;
}

// The outermost data or unified cache above `pu`, or nullptr.
hwloc_obj_t LastLevelCache(hwloc_obj_t pu) {
  hwloc_obj_t llc = nullptr;
  for (hwloc_obj_t o = pu->parent; o != nullptr; o = o->parent) {
    if (hwloc_obj_type_is_dcache(o->type) &&
        (llc == nullptr || o->attr->cache.depth > llc->attr->cache.depth)) {
      llc = o;
    }
  }
  return llc;
}

const char* CacheTypeName(hwloc_obj_cache_type_t type) {
  switch (type) {
    case HWLOC_OBJ_CACHE_DATA:
      return "Data";
    case HWLOC_OBJ_CACHE_INSTRUCTION:
      return "Instruction";
    case HWLOC_OBJ_CACHE_UNIFIED:
      break;
  }
  return "Unified";
}

// The caches above `pu`, L1 first; at one level, Data before Instruction
// (the order of the kernel's cache/index* directories).
std::vector<CacheSpec> CachesOfPu(hwloc_obj_t pu) {
  std::vector<std::pair<std::tuple<int, int>, CacheSpec>> found;
  for (hwloc_obj_t o = pu->parent; o != nullptr; o = o->parent) {
    if (!hwloc_obj_type_is_cache(o->type)) continue;
    const auto& a = o->attr->cache;
    CacheSpec c;
    c.level = static_cast<int>(a.depth);
    c.type = CacheTypeName(a.type);
    c.size_bytes = static_cast<int64_t>(a.size);
    c.ways = a.associativity > 0 ? a.associativity : 0;  // 0: unknown/full
    if (a.linesize > 0) c.line_bytes = static_cast<int>(a.linesize);
    const int type_rank = a.type == HWLOC_OBJ_CACHE_DATA          ? 0
                          : a.type == HWLOC_OBJ_CACHE_INSTRUCTION ? 1
                                                                  : 2;
    found.push_back({{c.level, type_rank}, std::move(c)});
  }
  std::stable_sort(
      found.begin(), found.end(),
      [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<CacheSpec> caches;
  for (auto& [unused, c] : found) caches.push_back(std::move(c));
  return caches;
}

Vendor VendorFromCpuid(absl::string_view v) {
  if (v == "GenuineIntel") return Vendor::kIntel;
  if (v == "AuthenticAMD") return Vendor::kAmd;
  return Vendor::kUnknown;
}

// "0-3,8,12-15" for ascending ids.
std::string CpuSetText(const std::vector<int>& ids) {
  CpuSet set(ids.empty() ? 1 : ids.back() + 1);
  for (int id : ids) set.Set(id);
  return set.ToList();
}

// The model name and vendor, from the packages' (or the machine's)
// CPUModel and CPUVendor infos.
void AddModelAndVendor(hwloc_topology_t raw, TopologyBuilder& b) {
  std::set<std::string> models, vendors;
  const int num_packages = hwloc_get_nbobjs_by_type(raw, HWLOC_OBJ_PACKAGE);
  std::vector<hwloc_obj_t> info_objs;
  for (int i = 0; i < num_packages; ++i) {
    info_objs.push_back(hwloc_get_obj_by_type(raw, HWLOC_OBJ_PACKAGE, i));
  }
  if (info_objs.empty()) info_objs.push_back(hwloc_get_root_obj(raw));
  for (hwloc_obj_t o : info_objs) {
    if (const char* m = hwloc_obj_get_info_by_name(o, "CPUModel")) {
      models.insert(std::string(absl::StripAsciiWhitespace(m)));
    }
    if (const char* v = hwloc_obj_get_info_by_name(o, "CPUVendor")) {
      vendors.insert(std::string(absl::StripAsciiWhitespace(v)));
    }
  }
  if (!models.empty()) b.set_model_name(*models.begin());
  if (models.size() > 1) {
    b.AddWarning(absl::StrCat("packages differ in CPUModel (",
                              absl::StrJoin(models, "; "), "); kept \"",
                              *models.begin(), "\""));
  }
  if (vendors.empty()) {
    b.AddWarning("no CPUVendor info in the XML; vendor unknown");
  } else {
    b.set_vendor(VendorFromCpuid(*vendors.begin()));
    if (vendors.size() > 1 ||
        VendorFromCpuid(*vendors.begin()) == Vendor::kUnknown) {
      b.AddWarning(absl::StrCat("CPUVendor ", absl::StrJoin(vendors, ", "),
                                " not recognised as a single Intel or AMD "
                                "vendor"));
    }
  }
}

// Where one PU sits, as hwloc objects (the core and package are the PU
// itself and the root when the source gives it none).
struct PuPlace {
  int cpu;
  hwloc_obj_t core, llc, package, node;
};

// Adds the packages that hold no kept PU and the NUMA nodes that no kept
// PU belongs to (memory-only: NVDIMM, HBM, CXL or GPU memory; nodes whose
// CPUs a cgroup or the XML's allowed sets hide; memory shared by CPUs that
// each belong to a nearer node), as lstopo counts them. `package_ids` gives the
// builder's id of each package with PUs.
void AddCpulessObjects(hwloc_topology_t raw, const std::vector<PuPlace>& pus,
                       const std::vector<hwloc_obj_t>& numa_nodes,
                       IdMap& package_ids, TopologyBuilder& b) {
  std::set<hwloc_obj_t> used_packages, used_nodes;
  for (const PuPlace& p : pus) {
    used_packages.insert(p.package);
    used_nodes.insert(p.node);
  }
  std::vector<int> cpuless;
  const int num_packages = hwloc_get_nbobjs_by_type(raw, HWLOC_OBJ_PACKAGE);
  for (int i = 0; i < num_packages; ++i) {
    hwloc_obj_t pkg = hwloc_get_obj_by_type(raw, HWLOC_OBJ_PACKAGE, i);
    if (used_packages.count(pkg) != 0) continue;
    const int id = pkg->os_index == HWLOC_UNKNOWN_INDEX
                       ? -1
                       : static_cast<int>(pkg->os_index);
    b.AddCpulessPackage(id);
    cpuless.push_back(id);
  }
  std::vector<std::string> memory_only;
  for (hwloc_obj_t n : numa_nodes) {
    if (used_nodes.count(n) != 0) continue;
    MemoryOnlyNode m;
    m.os_index = static_cast<int>(n->os_index);
    if (n->subtype != nullptr) m.subtype = n->subtype;
    m.memory_bytes = static_cast<int64_t>(n->attr->numanode.local_memory);
    hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(raw, HWLOC_OBJ_PACKAGE, n);
    const int package = pkg != nullptr && used_packages.count(pkg) != 0
                            ? package_ids.Get(pkg)
                            : -1;
    memory_only.push_back(m.subtype.empty()
                              ? absl::StrCat(m.os_index)
                              : absl::StrCat(m.os_index, " (", m.subtype, ")"));
    b.AddMemoryOnlyNode(std::move(m), package);
  }
  if (!memory_only.empty()) {
    b.AddWarning(absl::StrCat(
        "NUMA node(s) ", absl::StrJoin(memory_only, ", "),
        " hold memory and no kept CPU: counted as memory-only nodes, left out "
        "of the scheduling domains and the distance matrix"));
  }
  if (!cpuless.empty()) {
    b.AddWarning(absl::StrCat("package(s) ", absl::StrJoin(cpuless, ", "),
                              " hold no kept CPU: counted, not modelled"));
  }
}

}  // namespace

base::TrialLimits HwlocTrialLimits() {
  base::TrialLimits limits;
  limits.cpu_s = kChildCpuSeconds;
  limits.address_space_bytes = kChildAddressSpaceBytes;
  limits.wall_s = kChildWallSeconds;
  return limits;
}

absl::StatusOr<HwlocTopologyPtr> NewHwlocTopology(absl::string_view source) {
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) {
    return absl::ResourceExhaustedError(
        absl::StrCat("hwloc_topology_init failed while loading ", source));
  }
  HwlocTopologyPtr topology(raw);
  // Keep every cache (instruction caches are dropped by default); drop I/O
  // objects.
  if (hwloc_topology_set_cache_types_filter(raw, HWLOC_TYPE_FILTER_KEEP_ALL) !=
          0 ||
      hwloc_topology_set_icache_types_filter(raw, HWLOC_TYPE_FILTER_KEEP_ALL) !=
          0 ||
      hwloc_topology_set_io_types_filter(raw, HWLOC_TYPE_FILTER_KEEP_NONE) !=
          0) {
    return absl::InternalError(
        absl::StrCat("cannot configure hwloc to load ", source));
  }
  return topology;
}

absl::Status TrialStatus(const base::TrialResult& r, absl::string_view source,
                         absl::string_view what, absl::string_view hint) {
  switch (r.kind) {
    case base::TrialResult::kFinished:
      return absl::OkStatus();
    case base::TrialResult::kTimedOut:
      return Invalid(source, absl::StrCat("libhwloc did not finish ", what,
                                          " within ", r.wall_s, " s"));
    case base::TrialResult::kError:
      return absl::ErrnoToStatus(
          r.error, absl::StrCat("cannot run the child process ", what, " (",
                                source, ")"));
    case base::TrialResult::kCrashed:
      break;
  }
  return Invalid(
      source, absl::StrCat("libhwloc crashed ", what, " (", r.how, ")", hint));
}

namespace {

// Largest PU or NUMA node os_index taken (as the sysfs reader's lists).
constexpr uint64_t kMaxHwlocOsIndex = 1 << 20;

// The value of attribute `name` in the XML start tag `tag` (either quote,
// blanks around '='); nullopt when absent.
std::optional<absl::string_view> XmlAttribute(absl::string_view tag,
                                              absl::string_view name) {
  for (size_t at = tag.find(name); at != absl::string_view::npos;
       at = tag.find(name, at + 1)) {
    if (at == 0 || !absl::ascii_isspace(tag[at - 1])) continue;
    size_t i = at + name.size();
    while (i < tag.size() && absl::ascii_isspace(tag[i])) ++i;
    if (i >= tag.size() || tag[i] != '=') continue;
    ++i;
    while (i < tag.size() && absl::ascii_isspace(tag[i])) ++i;
    if (i >= tag.size() || (tag[i] != '"' && tag[i] != '\'')) continue;
    const char quote = tag[i];
    const size_t close = tag.find(quote, i + 1);
    if (close == absl::string_view::npos) return tag.substr(i + 1);
    return tag.substr(i + 1, close - i - 1);
  }
  return std::nullopt;
}

// libhwloc sizes a bitmap by a PU's or NUMA node's os_index: one near
// 2^32 costs 512 MiB per bitmap and seconds before the importer can say
// it is unusable (issue 49 #14: 1 GB and 13 s). The XML text is checked
// first: every PU and NUMANode object's os_index must be a number up to
// kMaxHwlocOsIndex. Errors name the line.
absl::Status CheckOsIndexes(const std::string& content,
                            absl::string_view source) {
  size_t at = 0;
  while ((at = content.find("<object", at)) != std::string::npos) {
    const size_t end = content.find('>', at);
    const absl::string_view tag = absl::string_view(content).substr(
        at, end == std::string::npos ? std::string::npos : end - at);
    const size_t start = at;
    at = end == std::string::npos ? content.size() : end;
    const std::optional<absl::string_view> type = XmlAttribute(tag, "type");
    if (!type || (*type != "PU" && *type != "NUMANode")) continue;
    const std::optional<absl::string_view> value =
        XmlAttribute(tag, "os_index");
    if (!value) continue;
    uint64_t index = 0;
    if (!absl::SimpleAtoi(*value, &index) || index > kMaxHwlocOsIndex) {
      const auto line =
          1 + std::count(content.begin(), content.begin() + start, '\n');
      return Invalid(
          source, absl::StrCat("line ", line, ": the ", *type,
                               " object's os_index is \"", value->substr(0, 24),
                               "\"; expected a number in 0..", kMaxHwlocOsIndex,
                               " (nothing was handed to libhwloc)"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status LoadHwlocXmlText(hwloc_topology_t raw, const std::string& content,
                              absl::string_view source,
                              absl::string_view expected) {
  SCHEDSIM_RETURN_IF_ERROR(CheckOsIndexes(content, source));
  // The text is handed over as a buffer. Failing here, hwloc must not fall
  // back to discovering this machine, so both results are checked.
  const absl::Status parse_error = Invalid(
      source,
      absl::StrCat("libhwloc could not import it: malformed or truncated XML, "
                   "or not an hwloc topology (hwloc's parser may have printed "
                   "details to stderr; HWLOC_XML_VERBOSE=1 prints more); ",
                   expected));
  if (hwloc_topology_set_xmlbuffer(raw, content.c_str(),
                                   static_cast<int>(content.size()) + 1) != 0) {
    return parse_error;
  }
  // libhwloc 2.9 dereferences what some files lack (a PU without
  // complete_cpuset, a NUMA node without complete_nodeset: SEGV). The
  // import is tried first in a child process with resource limits, where a
  // crash cannot take the tool down; its death becomes an error naming the
  // file (issue 14 #4).
  const base::TrialResult r = base::RunTrialChild(
      HwlocTrialLimits(), [&] { return hwloc_topology_load(raw) == 0; });
  SCHEDSIM_RETURN_IF_ERROR(TrialStatus(
      r, source, "importing it",
      absl::StrCat(": the XML lacks something libhwloc takes on trust, such "
                   "as a PU's complete_cpuset or a NUMA node's "
                   "complete_nodeset; ",
                   expected)));
  if (hwloc_topology_load(raw) != 0) return parse_error;
  return absl::OkStatus();
}

absl::Status AddHwlocObjects(hwloc_topology_t raw, absl::string_view source,
                             const ConvertOptions& options, TopologyBuilder& b,
                             std::vector<int>* pu_os_indexes) {
  // NUMA nodes.
  std::vector<hwloc_obj_t> numa_nodes;
  const int num_numa = hwloc_get_nbobjs_by_type(raw, HWLOC_OBJ_NUMANODE);
  for (int i = 0; i < num_numa; ++i) {
    numa_nodes.push_back(hwloc_get_obj_by_type(raw, HWLOC_OBJ_NUMANODE, i));
  }

  // Each PU's place, as hwloc objects.
  std::vector<PuPlace> pus;
  bool missing_core = false, missing_cache = false, missing_package = false;
  std::vector<int> orphans;  // PU os_index in no NUMA node
  const int num_pus = hwloc_get_nbobjs_by_type(raw, HWLOC_OBJ_PU);
  if (num_pus <= 0) return Invalid(source, "has no PU (logical CPU) objects");
  for (int i = 0; i < num_pus; ++i) {
    hwloc_obj_t pu = hwloc_get_obj_by_type(raw, HWLOC_OBJ_PU, i);
    if (pu->os_index == HWLOC_UNKNOWN_INDEX ||
        pu->os_index > static_cast<unsigned>(INT_MAX)) {
      return Invalid(source,
                     absl::StrCat("PU L#", i, " has no usable os_index"));
    }
    PuPlace p;
    p.cpu = static_cast<int>(pu->os_index);
    p.core = hwloc_get_ancestor_obj_by_type(raw, HWLOC_OBJ_CORE, pu);
    if (p.core == nullptr) {
      p.core = pu;
      missing_core = true;
    }
    p.package = hwloc_get_ancestor_obj_by_type(raw, HWLOC_OBJ_PACKAGE, pu);
    if (p.package == nullptr) {
      p.package = hwloc_get_root_obj(raw);
      missing_package = true;
    }
    p.llc = LastLevelCache(pu);
    if (p.llc == nullptr) {
      p.llc = p.package;
      missing_cache = true;
    }
    p.node = NodeOfPu(numa_nodes, pu);
    if (p.node == nullptr) {
      if (!options.orphan_pus_join_first_node || numa_nodes.empty()) {
        return Invalid(source,
                       absl::StrCat("CPU ", p.cpu, " is in no NUMA node"));
      }
      p.node = NearestNode(pu);
      if (p.node == nullptr) p.node = numa_nodes.front();
      orphans.push_back(p.cpu);
    }
    pus.push_back(p);
  }
  if (!orphans.empty()) {
    std::sort(orphans.begin(), orphans.end());
    b.AddWarning(
        absl::StrCat("PU(s) ", CpuSetText(orphans),
                     " in no NUMA node's cpuset (a cgroup allowing only "
                     "CPU-less nodes, or nodes of other CPUs nearer); each "
                     "placed in the node nearest in the hwloc tree, else the "
                     "first node"));
  }
  if (missing_core) {
    b.AddWarning("some PUs have no Core object; each is taken as its own core");
  }
  if (missing_package) {
    b.AddWarning("some PUs have no Package object; assumed one package");
  }
  if (missing_cache) {
    b.AddWarning(
        "some PUs have no data or unified cache; their package is taken as "
        "the LLC");
  }

  // NUMA nodes are kept as the file states them, also when one spans
  // several packages (one memory for several sockets; the kernel's DIE
  // domain then spans the node). Only when that cannot nest (a node over
  // several packages while some package holds several nodes) are the
  // spanning nodes split per package.
  std::map<hwloc_obj_t, std::set<hwloc_obj_t>> packages_of_node;
  std::map<hwloc_obj_t, std::set<hwloc_obj_t>> nodes_of_package;
  for (const PuPlace& p : pus) {
    packages_of_node[p.node].insert(p.package);
    nodes_of_package[p.package].insert(p.node);
  }
  bool packages_nest_in_nodes = true;
  for (const auto& [package, nodes] : nodes_of_package) {
    packages_nest_in_nodes &= nodes.size() == 1;
  }
  std::vector<std::string> spanning;
  for (const auto& [node, packages] : packages_of_node) {
    if (packages.size() > 1) {
      spanning.push_back(
          absl::StrCat(node->os_index, " (", packages.size(), " packages)"));
    }
  }
  std::vector<std::string> split;
  if (!spanning.empty() && packages_nest_in_nodes) {
    b.AddWarning(absl::StrCat("NUMA node(s) ", absl::StrJoin(spanning, ", "),
                              " span several packages; kept as one node (a "
                              "CPUID-only dump, or one memory for several "
                              "sockets)"));
  } else if (!spanning.empty()) {
    split = spanning;
    b.AddWarning(absl::StrCat(
        "NUMA node(s) ", absl::StrJoin(split, ", "),
        " span several packages while another package holds several nodes; "
        "split into one node per package"));
  }

  IdMap core_ids, llc_ids, package_ids;
  // Raw node ids, ascending in (hwloc node os_index, package or -1).
  std::map<std::pair<unsigned, int>, int> node_ids;
  auto node_key = [&](const PuPlace& p) {
    const bool is_split = !split.empty() && packages_of_node[p.node].size() > 1;
    return std::make_pair(p.node->os_index,
                          is_split ? package_ids.Get(p.package) : -1);
  };
  for (const PuPlace& p : pus) node_ids.try_emplace(node_key(p), 0);
  std::vector<hwloc_obj_t> node_obj_of_id;
  {
    std::map<unsigned, hwloc_obj_t> node_by_os;
    for (hwloc_obj_t n : numa_nodes) node_by_os.emplace(n->os_index, n);
    for (auto& [key, id] : node_ids) {
      id = static_cast<int>(node_obj_of_id.size());
      node_obj_of_id.push_back(node_by_os.at(key.first));
    }
  }
  // Sparse or offline CPU ids (os_index with gaps) are renumbered densely
  // in os_index order, as the sysfs importer does, with a warning.
  std::map<int, int> dense_of_os;
  for (const PuPlace& p : pus) dense_of_os.emplace(p.cpu, 0);
  {
    int next = 0;
    for (auto& [os, dense] : dense_of_os) dense = next++;
  }
  if (!dense_of_os.empty() &&
      dense_of_os.rbegin()->first != static_cast<int>(dense_of_os.size()) - 1) {
    std::vector<int> os_ids;
    for (const auto& [os, dense] : dense_of_os) os_ids.push_back(os);
    CpuSet dense(static_cast<int>(os_ids.size()));
    dense.SetAll();
    b.AddWarning(absl::StrCat("PU os_index ", CpuSetText(os_ids),
                              " renumbered densely as CPUs ", dense.ToList()));
  }
  for (const PuPlace& p : pus) {
    b.AddCpu(dense_of_os.at(p.cpu), package_ids.Get(p.package),
             node_ids.at(node_key(p)), llc_ids.Get(p.llc),
             core_ids.Get(p.core));
    // A core or package made up for a PU in none is not counted as the
    // source's (Topology::source_counts).
    if (p.core->type != HWLOC_OBJ_CORE) {
      b.MarkAssumed(Level::kCore, core_ids.Get(p.core));
    }
    if (p.package->type != HWLOC_OBJ_PACKAGE) {
      b.MarkAssumed(Level::kPackage, package_ids.Get(p.package));
    }
  }
  {
    // A node split per package is one node of the source.
    std::set<unsigned> seen;
    for (const auto& [key, id] : node_ids) {
      if (!seen.insert(key.first).second) b.MarkAssumed(Level::kNode, id);
    }
  }
  AddCpulessObjects(raw, pus, numa_nodes, package_ids, b);

  // SLIT distances.
  unsigned nr = 1;
  struct hwloc_distances_s* dist_raw = nullptr;
  if (hwloc_distances_get_by_name(raw, "NUMALatency", &nr, &dist_raw, 0) == 0 &&
      nr >= 1 && dist_raw != nullptr) {
    HwlocDistancesPtr dist(dist_raw, HwlocDistancesDeleter{raw});
    if (!split.empty()) {
      b.AddWarning(
          "NUMALatency matrix ignored since NUMA nodes were split per "
          "package");
    } else {
      const size_t n = node_obj_of_id.size();
      std::vector<std::vector<int>> matrix(n, std::vector<int>(n, 0));
      std::string problem;
      for (size_t i = 0; i < n && problem.empty(); ++i) {
        const int row =
            hwloc_distances_obj_index(dist.get(), node_obj_of_id[i]);
        if (row < 0) {
          problem = absl::StrCat("has no row for NUMA node ",
                                 node_obj_of_id[i]->os_index);
          break;
        }
        for (size_t j = 0; j < n; ++j) {
          const int col =
              hwloc_distances_obj_index(dist.get(), node_obj_of_id[j]);
          if (col < 0) {
            problem = absl::StrCat("has no column for NUMA node ",
                                   node_obj_of_id[j]->os_index);
            break;
          }
          const hwloc_uint64_t v =
              dist->values[static_cast<size_t>(row) * dist->nbobjs +
                           static_cast<size_t>(col)];
          if (v == 0 || v > static_cast<hwloc_uint64_t>(INT_MAX)) {
            problem = absl::StrCat("has an unusable value ", v);
            break;
          }
          matrix[i][j] = static_cast<int>(v);
        }
      }
      if (problem.empty()) {
        b.set_distances(std::move(matrix));
      } else {
        b.AddWarning(absl::StrCat("NUMALatency matrix ignored: it ", problem));
      }
    }
  }

  // Caches of CPU 0.
  hwloc_obj_t first_pu = hwloc_get_pu_obj_by_os_index(raw, 0);
  if (first_pu == nullptr)
    first_pu = hwloc_get_obj_by_type(raw, HWLOC_OBJ_PU, 0);
  if (hwloc_obj_t pu0 = first_pu) {
    b.set_caches(CachesOfPu(pu0));
  }

  if (options.model_and_vendor) AddModelAndVendor(raw, b);
  if (pu_os_indexes != nullptr) {
    pu_os_indexes->clear();
    for (const auto& [os, dense] : dense_of_os) pu_os_indexes->push_back(os);
  }
  return absl::OkStatus();
}

void AddHwlocCpuKindCapacities(hwloc_topology_t topology,
                               const std::vector<int>& pu_os_indexes,
                               TopologyBuilder& b) {
  const int nr = hwloc_cpukinds_get_nr(topology, 0);
  if (nr < 2) return;
  struct Kind {
    std::vector<int> cpus;  // CPU ids
    int efficiency = -1;
    std::string core_type;
    int64_t linux_capacity = -1;
    int64_t max_mhz = -1;
  };
  std::map<int, int> cpu_of_os;  // PU os_index -> CPU id
  for (size_t c = 0; c < pu_os_indexes.size(); ++c) {
    cpu_of_os[pu_os_indexes[c]] = static_cast<int>(c);
  }
  std::vector<Kind> kinds;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  for (int k = 0; k < nr; ++k) {
    Kind kind;
    unsigned nr_infos = 0;
    struct hwloc_info_s* infos = nullptr;
    if (hwloc_cpukinds_get_info(topology, static_cast<unsigned>(k), set,
                                &kind.efficiency, &nr_infos, &infos, 0) != 0) {
      continue;
    }
    for (int os = hwloc_bitmap_first(set); os >= 0;
         os = hwloc_bitmap_next(set, os)) {
      auto it = cpu_of_os.find(os);
      if (it != cpu_of_os.end()) kind.cpus.push_back(it->second);
    }
    for (unsigned i = 0; i < nr_infos; ++i) {
      const absl::string_view name = infos[i].name ? infos[i].name : "";
      const absl::string_view value = infos[i].value ? infos[i].value : "";
      int64_t v = 0;
      if (name == "CoreType") kind.core_type = std::string(value);
      if (name == "LinuxCapacity" && absl::SimpleAtoi(value, &v) && v > 0) {
        kind.linux_capacity = v;
      }
      if (name == "FrequencyMaxMHz" && absl::SimpleAtoi(value, &v) && v > 0) {
        kind.max_mhz = v;
      }
    }
    if (!kind.cpus.empty()) kinds.push_back(std::move(kind));
  }
  hwloc_bitmap_free(set);
  if (kinds.size() < 2) return;
  const bool by_capacity =
      std::all_of(kinds.begin(), kinds.end(),
                  [](const Kind& k) { return k.linux_capacity > 0; });
  const bool by_frequency = std::all_of(
      kinds.begin(), kinds.end(), [](const Kind& k) { return k.max_mhz > 0; });
  std::vector<std::string> described;
  for (const Kind& k : kinds) {
    std::vector<int> ids = k.cpus;
    std::sort(ids.begin(), ids.end());
    CpuSet cpus(ids.back() + 1);
    for (int c : ids) cpus.Set(c);
    described.push_back(absl::StrCat(
        "CPUs ", cpus.ToList(), k.core_type.empty() ? "" : " ", k.core_type,
        " efficiency ", k.efficiency,
        k.linux_capacity > 0 ? absl::StrCat(" LinuxCapacity ", k.linux_capacity)
                             : "",
        k.max_mhz > 0 ? absl::StrCat(" ", k.max_mhz, " MHz") : ""));
  }
  if (!by_capacity && !by_frequency) {
    b.AddWarning(absl::StrCat(
        "hwloc CPU kinds (", absl::StrJoin(described, "; "),
        ") give efficiency ranks but neither LinuxCapacity nor "
        "FrequencyMaxMHz for every kind: capacities unknown, every CPU "
        "modelled at capacity 1024"));
    return;
  }
  int64_t largest = 0;
  for (const Kind& k : kinds) {
    largest = std::max(largest, by_capacity ? k.linux_capacity : k.max_mhz);
  }
  bool differ = false;
  for (const Kind& k : kinds) {
    const int64_t v = by_capacity ? k.linux_capacity : k.max_mhz;
    differ = differ || v != largest;
  }
  if (!differ) return;
  for (const Kind& k : kinds) {
    const int64_t v = by_capacity ? k.linux_capacity : k.max_mhz;
    const int cap = static_cast<int>(
        std::max<int64_t>(1, std::llround(1024.0 * static_cast<double>(v) /
                                          static_cast<double>(largest))));
    for (int c : k.cpus) b.set_capacity(c, cap);
  }
  b.AddWarning(absl::StrCat(
      "CPU capacities from hwloc CPU kinds (", absl::StrJoin(described, "; "),
      "), by ",
      by_capacity ? "LinuxCapacity (the kernel's cpu_capacity)"
                  : "FrequencyMaxMHz: capacity taken as proportional to the "
                    "maximum frequency, which ignores what differs in work "
                    "per cycle between kinds of different microarchitectures",
      "; frequencies and C-states are the machine's"));
}

}  // namespace schedsim::topology::hwloc_internal
