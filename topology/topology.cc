// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "topology/topology.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "topology/graph.h"

namespace schedsim::topology {

const char* VendorName(Vendor v) {
  switch (v) {
    case Vendor::kIntel:
      return "GenuineIntel";
    case Vendor::kAmd:
      return "AuthenticAMD";
    case Vendor::kUnknown:
      break;
  }
  return "unknown";
}

const char* LevelName(Level level) {
  switch (level) {
    case Level::kMachine:
      return "machine";
    case Level::kPackage:
      return "package";
    case Level::kNode:
      return "node";
    case Level::kLlc:
      return "llc";
    case Level::kCore:
      return "core";
    case Level::kThread:
      return "thread";
  }
  return "?";
}

int64_t FrequencySpec::TurboCeilingKhz(int active_cores) const {
  if (turbo_ceiling_khz.empty()) return max_turbo_khz;
  int i = std::max(active_cores, 1) - 1;
  if (i >= static_cast<int>(turbo_ceiling_khz.size())) {
    return turbo_ceiling_khz.back();
  }
  return turbo_ceiling_khz[i];
}

Topology::Topology() : graph_(std::make_unique<HierarchyGraph>()) {}
Topology::~Topology() = default;
Topology::Topology(Topology&&) noexcept = default;
Topology& Topology::operator=(Topology&&) noexcept = default;
Topology::Topology(const Topology& other)
    : name_(other.name_),
      model_name_(other.model_name_),
      vendor_(other.vendor_),
      places_(other.places_),
      cores_(other.cores_),
      llcs_(other.llcs_),
      nodes_(other.nodes_),
      packages_(other.packages_),
      clusters_(other.clusters_),
      threads_per_core_(other.threads_per_core_),
      distances_(other.distances_),
      memory_only_nodes_(other.memory_only_nodes_),
      cpuless_packages_(other.cpuless_packages_),
      assumed_packages_(other.assumed_packages_),
      assumed_nodes_(other.assumed_nodes_),
      assumed_cores_(other.assumed_cores_),
      capacities_(other.capacities_),
      asym_capacity_(other.asym_capacity_),
      cstates_(other.cstates_),
      resume_latency_ns_(other.resume_latency_ns_),
      halt_state_(other.halt_state_),
      guest_(other.guest_),
      frequency_(other.frequency_),
      frequency_domains_(other.frequency_domains_),
      cpu_domain_(other.cpu_domain_),
      power_(other.power_),
      caches_(other.caches_),
      coherence_(other.coherence_),
      warnings_(other.warnings_),
      graph_(std::make_unique<HierarchyGraph>(*other.graph_)) {}
Topology& Topology::operator=(const Topology& other) {
  if (this != &other) *this = Topology(other);
  return *this;
}

Topology Topology::WithoutHwp() const {
  Topology t(*this);
  auto no_hwp = [](FrequencySpec& f) {
    f.has_hwp = false;
    f.has_epp = false;
    f.hwp = HwpCaps{};
  };
  no_hwp(t.frequency_);
  for (FrequencyDomainSpec& d : t.frequency_domains_) no_hwp(d.frequency);
  return t;
}

Topology Topology::WithIdleSettings(std::vector<CState> states,
                                    std::vector<int64_t> resume_latency_ns,
                                    int halt_state) const {
  Topology t(*this);
  t.cstates_ = std::move(states);
  t.resume_latency_ns_ = std::move(resume_latency_ns);
  t.halt_state_ = halt_state;
  return t;
}

absl::StatusOr<Topology> Topology::WithPowerModel(const Topology& model) const {
  if (threads_per_core_ != model.threads_per_core_) {
    return absl::InvalidArgumentError(absl::StrCat(
        "power model '", model.name_, "' has ", model.threads_per_core_,
        " CPU(s) per core but machine '", name_, "' has ", threads_per_core_,
        "; choose a built-in machine with ", threads_per_core_,
        " CPU(s) per core"));
  }
  Topology t(*this);
  t.power_ = model.power_;
  std::string note;
  if (!has_idle_table() && !has_frequency_table()) {
    t.cstates_ = model.cstates_;
    t.frequency_ = model.frequency_;
    note = absl::StrCat("power model: C-state, frequency and power tables of '",
                        model.name_, "' (", model.model_name_, ")");
  } else {
    note = absl::StrCat("power model '", model.name_, "' (", model.model_name_,
                        "): power parameters");
  }
  if (has_idle_table() || has_frequency_table()) {
    // A machine with tables of its own (a sysfs capture) keeps them and
    // takes from the model only what the files cannot say.
    if (!has_idle_table()) {
      t.cstates_ = model.cstates_;
      absl::StrAppend(&note, "; its C-state table");
    } else if (!model.cstates_.empty()) {
      int by_name = 0, by_latency = 0;
      for (CState& s : t.cstates_) {
        const CState* match = nullptr;
        for (const CState& m : model.cstates_) {
          if (m.name == s.name) match = &m;
        }
        if (match != nullptr) {
          ++by_name;
        } else {
          // The model state whose advertised exit latency is nearest.
          for (const CState& m : model.cstates_) {
            if (match == nullptr ||
                std::abs(m.exit_latency_ns - s.exit_latency_ns) <
                    std::abs(match->exit_latency_ns - s.exit_latency_ns)) {
              match = &m;
            }
          }
          ++by_latency;
        }
        s.physical_exit_ns =
            std::min(match->physical_exit_ns, s.exit_latency_ns);
        s.physical_entry_ns = match->physical_entry_ns;
        s.power_mw = match->power_mw;
        s.flags = match->flags | (s.flags & CState::kPolling);
      }
      absl::StrAppend(&note,
                      "; the machine's own idle states kept, with the "
                      "physical exit and entry costs, power and flags of the "
                      "model's state of the same name (",
                      by_name, ") or nearest exit latency (", by_latency, ")");
    }
    if (!has_frequency_table()) {
      t.frequency_ = model.frequency_;
      absl::StrAppend(&note, "; its frequency table");
    } else {
      t.frequency_.vf_curve = model.frequency_.vf_curve;
      absl::StrAppend(&note,
                      "; the machine's own frequencies kept, with the "
                      "model's V/f curve");
    }
  }
  // Cores per package, as whole numbers of cores over packages.
  const int64_t mine = num_cores() / std::max(num_packages(), 1);
  const int64_t theirs = model.num_cores() / std::max(model.num_packages(), 1);
  if (mine != theirs && theirs > 0 && model.power_.tdp_mw > 0) {
    t.power_.tdp_mw = model.power_.tdp_mw * mine / theirs;
    absl::StrAppend(&note,
                    "; package power limit scaled by cores per "
                    "package, ",
                    mine, "/", theirs, ": ", model.power_.tdp_mw, " -> ",
                    t.power_.tdp_mw, " mW");
  }
  t.warnings_.push_back(std::move(note));
  return t;
}

int64_t Topology::LineTransferNs(int from, int to) const {
  if (from == to) return 0;
  const CpuPlace& a = places_[from];
  const CpuPlace& b = places_[to];
  if (a.core == b.core) return coherence_.smt_ns;
  if (a.llc == b.llc) return coherence_.llc_ns;
  if (a.package == b.package) return coherence_.package_ns;
  return coherence_.remote_ns;
}

ObjectCounts Topology::source_counts() const {
  ObjectCounts c;
  c.cpus = num_cpus();
  c.cores = num_cores() - assumed_cores_;
  c.packages = num_packages() - assumed_packages_ +
               static_cast<int>(cpuless_packages_.size());
  c.nodes = num_nodes() - assumed_nodes_ +
            static_cast<int>(memory_only_nodes_.size());
  return c;
}

CpuSet Topology::all_cpus() const {
  CpuSet all(num_cpus());
  all.SetAll();
  return all;
}

TopologyBuilder::TopologyBuilder(std::string name) : name_(std::move(name)) {}

TopologyBuilder& TopologyBuilder::AddCpu(int cpu, int package, int node,
                                         int llc, int core) {
  cpus_.push_back({cpu, package, node, llc, core});
  return *this;
}

namespace {

using Vertex = HwGraph::vertex_descriptor;

// Maps caller-given ids of one level to dense ids ordered by lowest CPU.
std::map<int, int> Densify(const std::map<int, int>& lowest_cpu_by_raw) {
  std::vector<std::pair<int, int>> order;  // (lowest cpu, raw id)
  for (const auto& [raw, lowest] : lowest_cpu_by_raw) {
    order.emplace_back(lowest, raw);
  }
  std::sort(order.begin(), order.end());
  std::map<int, int> dense;
  for (size_t i = 0; i < order.size(); ++i) {
    dense[order[i].second] = static_cast<int>(i);
  }
  return dense;
}

// The unique ancestor of `v` at `level`, or -1 if there is none or several.
int AncestorId(const HwGraph& g, Vertex v, Level level) {
  std::vector<Vertex> stack = {v};
  std::vector<bool> seen(boost::num_vertices(g), false);
  int found = -1;
  int count = 0;
  while (!stack.empty()) {
    Vertex u = stack.back();
    stack.pop_back();
    for (auto [e, end] = boost::in_edges(u, g); e != end; ++e) {
      Vertex p = boost::source(*e, g);
      if (seen[p]) continue;
      seen[p] = true;
      if (g[p].level == level) {
        found = g[p].id;
        ++count;
      } else {
        stack.push_back(p);
      }
    }
  }
  return count == 1 ? found : -1;
}

}  // namespace

absl::StatusOr<Topology> TopologyBuilder::Build() const {
  const int n = static_cast<int>(cpus_.size());
  if (n == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("machine '", name_, "' has no CPUs"));
  }
  std::vector<const RawCpu*> by_cpu(n, nullptr);
  for (const RawCpu& c : cpus_) {
    if (c.cpu < 0 || c.cpu >= n) {
      return absl::InvalidArgumentError(absl::StrCat("machine '", name_,
                                                     "': CPU ids must be 0..",
                                                     n - 1, ", got ", c.cpu));
    }
    if (by_cpu[c.cpu] != nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("machine '", name_, "': CPU ", c.cpu, " added twice"));
    }
    by_cpu[c.cpu] = &c;
  }

  // Dense ids for each level, ordered by each group's lowest CPU.
  std::map<int, int> low_pkg, low_node, low_llc, low_core;
  for (int cpu = n - 1; cpu >= 0; --cpu) {
    const RawCpu& c = *by_cpu[cpu];
    low_pkg[c.package] = cpu;
    low_node[c.node] = cpu;
    low_llc[c.llc] = cpu;
    low_core[c.core] = cpu;
  }
  std::map<int, int> pkg_id = Densify(low_pkg), node_id = Densify(low_node),
                     llc_id = Densify(low_llc), core_id = Densify(low_core);

  // Nesting checks, on dense ids: each core in one LLC, each LLC in one
  // package, and either each node in one package or (a node spanning
  // packages, as on a multi-socket machine with one memory) each package
  // in one node.
  std::vector<int> core_llc(core_id.size(), -1), llc_pkg(llc_id.size(), -1),
      node_pkg(node_id.size(), -1), pkg_node(pkg_id.size(), -1);
  std::vector<int> llc_node(llc_id.size(), -1);  // -2: spans several nodes
  int node_spans_packages_cpu = -1;  // a CPU whose node spans packages
  int package_spans_nodes_cpu = -1;  // a CPU whose package spans nodes
  for (int cpu = 0; cpu < n; ++cpu) {
    const RawCpu& c = *by_cpu[cpu];
    int core = core_id[c.core], llc = llc_id[c.llc], node = node_id[c.node],
        pkg = pkg_id[c.package];
    auto check = [&](std::vector<int>& owner, int child, int parent,
                     const char* child_name,
                     const char* parent_name) -> absl::Status {
      if (owner[child] == -1) owner[child] = parent;
      if (owner[child] != parent) {
        return absl::InvalidArgumentError(absl::StrCat(
            "machine '", name_, "': CPU ", cpu, " puts ", child_name, " ",
            child, " in a second ", parent_name, "; the hierarchy must nest"));
      }
      return absl::OkStatus();
    };
    absl::Status s = check(core_llc, core, llc, "core", "LLC");
    if (s.ok()) s = check(llc_pkg, llc, pkg, "LLC", "package");
    if (!s.ok()) return s;
    if (node_pkg[node] == -1) node_pkg[node] = pkg;
    if (node_pkg[node] != pkg && node_spans_packages_cpu < 0) {
      node_spans_packages_cpu = cpu;
    }
    if (pkg_node[pkg] == -1) pkg_node[pkg] = node;
    if (pkg_node[pkg] != node && package_spans_nodes_cpu < 0) {
      package_spans_nodes_cpu = cpu;
    }
    if (llc_node[llc] == -1) llc_node[llc] = node;
    if (llc_node[llc] != node) llc_node[llc] = -2;
  }
  const bool packages_in_nodes = node_spans_packages_cpu >= 0;
  if (packages_in_nodes && package_spans_nodes_cpu >= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "machine '", name_, "': CPU ", node_spans_packages_cpu,
        " puts a NUMA node in a second package and CPU ",
        package_spans_nodes_cpu,
        " a package in a second NUMA node; nodes must lie in packages or "
        "packages in nodes"));
  }

  Topology t;
  t.name_ = name_;
  t.model_name_ = model_name_;
  t.vendor_ = vendor_;
  t.cstates_ = cstates_;
  t.frequency_ = frequency_;
  t.power_ = power_;
  t.caches_ = caches_;
  t.coherence_ = coherence_;
  t.guest_ = guest_;
  t.warnings_ = warnings_;

  // The hierarchy graph.
  HierarchyGraph& hg = *t.graph_;
  HwGraph& g = hg.g;
  hg.machine = boost::add_vertex(HwObject{Level::kMachine, 0}, g);
  auto add_level = [&](Level level, size_t count) {
    std::vector<Vertex> v(count);
    for (size_t i = 0; i < count; ++i) {
      v[i] = boost::add_vertex(HwObject{level, static_cast<int>(i)}, g);
    }
    return v;
  };
  std::vector<Vertex> pv = add_level(Level::kPackage, pkg_id.size());
  std::vector<Vertex> nv = add_level(Level::kNode, node_id.size());
  std::vector<Vertex> lv = add_level(Level::kLlc, llc_id.size());
  std::vector<Vertex> cv = add_level(Level::kCore, core_id.size());
  hg.thread_vertex = add_level(Level::kThread, n);
  if (packages_in_nodes) {
    // machine -> node -> package -> LLC.
    for (Vertex v : nv) boost::add_edge(hg.machine, v, g);
    for (size_t pkg = 0; pkg < pv.size(); ++pkg) {
      boost::add_edge(nv[pkg_node[pkg]], pv[pkg], g);
    }
    for (size_t llc = 0; llc < lv.size(); ++llc) {
      boost::add_edge(pv[llc_pkg[llc]], lv[llc], g);
    }
  } else {
    // machine -> package -> node -> LLC (or package -> LLC for an LLC
    // shared by several nodes).
    for (Vertex p : pv) boost::add_edge(hg.machine, p, g);
    for (size_t node = 0; node < nv.size(); ++node) {
      boost::add_edge(pv[node_pkg[node]], nv[node], g);
    }
    for (size_t llc = 0; llc < lv.size(); ++llc) {
      Vertex parent = llc_node[llc] >= 0 ? nv[llc_node[llc]] : pv[llc_pkg[llc]];
      boost::add_edge(parent, lv[llc], g);
    }
  }
  for (size_t core = 0; core < cv.size(); ++core) {
    boost::add_edge(lv[core_llc[core]], cv[core], g);
  }
  for (int cpu = 0; cpu < n; ++cpu) {
    const RawCpu& c = *by_cpu[cpu];
    boost::add_edge(cv[core_id[c.core]], hg.thread_vertex[cpu], g);
    int llc = llc_id[c.llc];
    if (!packages_in_nodes && llc_node[llc] < 0) {
      boost::add_edge(nv[node_id[c.node]], hg.thread_vertex[cpu], g);
    }
  }

  // Flatten: each thread's ancestors become its place.
  t.places_.resize(n);
  t.cores_.assign(cv.size(), CpuSet(n));
  t.llcs_.assign(lv.size(), CpuSet(n));
  t.nodes_.assign(nv.size(), CpuSet(n));
  t.packages_.assign(pv.size(), CpuSet(n));
  for (int cpu = 0; cpu < n; ++cpu) {
    Vertex v = hg.thread_vertex[cpu];
    CpuPlace& p = t.places_[cpu];
    p.cpu = cpu;
    p.core = AncestorId(g, v, Level::kCore);
    p.llc = AncestorId(g, v, Level::kLlc);
    p.node = AncestorId(g, v, Level::kNode);
    p.package = AncestorId(g, v, Level::kPackage);
    if (p.core < 0 || p.llc < 0 || p.node < 0 || p.package < 0) {
      return absl::InternalError(absl::StrCat(
          "machine '", name_, "': CPU ", cpu,
          " lacks a unique ancestor at some level of the hierarchy"));
    }
    p.thread = t.cores_[p.core].Count();
    t.cores_[p.core].Set(cpu);
    t.llcs_[p.llc].Set(cpu);
    t.nodes_[p.node].Set(cpu);
    t.packages_[p.package].Set(cpu);
  }
  t.threads_per_core_ = 0;
  for (const CpuSet& core : t.cores_) {
    t.threads_per_core_ = std::max(t.threads_per_core_, core.Count());
  }

  // Clusters: the CPUs given the same id, each widened to whole cores; a
  // CPU given none is its core.
  if (!clusters_.empty()) {
    std::map<int, CpuSet> by_id;
    std::vector<int> id_of(n, 0);
    std::vector<bool> given(n, false);
    for (const auto& [cpu, id] : clusters_) {
      if (cpu < 0 || cpu >= n) {
        return absl::InvalidArgumentError(
            absl::StrCat("machine '", name_, "': cluster given for CPU ", cpu,
                         " of 0..", n - 1));
      }
      id_of[cpu] = id;
      given[cpu] = true;
      by_id.emplace(id, CpuSet(n)).first->second.Set(cpu);
    }
    for (auto& [id, span] : by_id) {
      (void)id;
      CpuSet whole = span;
      for (int cpu = span.First(); cpu >= 0; cpu = span.Next(cpu)) {
        whole |= t.smt_siblings(cpu);
      }
      span = whole;
    }
    t.clusters_.assign(n, CpuSet(n));
    for (int cpu = 0; cpu < n; ++cpu) {
      t.clusters_[cpu] =
          given[cpu] ? by_id.at(id_of[cpu]) : t.smt_siblings(cpu);
    }
  }

  // What lies beside the groups: assumed packages and cores, CPU-less
  // packages and memory-only nodes.
  for (const auto& [level, raw] : assumed_) {
    const std::map<int, int>* ids = level == Level::kPackage ? &pkg_id
                                    : level == Level::kNode  ? &node_id
                                    : level == Level::kCore  ? &core_id
                                                             : nullptr;
    if (ids == nullptr || ids->count(raw) == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("machine '", name_, "': assumed ", LevelName(level), " ",
                       raw, " is not a package, node or core of any CPU"));
    }
  }
  {
    std::set<std::pair<Level, int>> assumed(assumed_.begin(), assumed_.end());
    for (const auto& [level, raw] : assumed) {
      ++(level == Level::kPackage ? t.assumed_packages_
         : level == Level::kNode  ? t.assumed_nodes_
                                  : t.assumed_cores_);
    }
  }
  for (const auto& [node, raw_package] : memory_only_nodes_) {
    MemoryOnlyNode m = node;
    m.package = -1;
    if (raw_package >= 0) {
      auto it = pkg_id.find(raw_package);
      if (it == pkg_id.end()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "machine '", name_, "': memory-only NUMA node ", m.os_index,
            " is in package ", raw_package, ", which holds no CPU"));
      }
      m.package = it->second;
    }
    t.memory_only_nodes_.push_back(std::move(m));
  }
  t.cpuless_packages_ = cpuless_packages_;
  if (absl::Status s = BuildCapacityAndDomains(t); !s.ok()) return s;

  // Distances.
  const size_t nn = nv.size();
  if (distances_.empty()) {
    t.distances_.assign(nn, std::vector<int>(nn, 20));
    for (size_t i = 0; i < nn; ++i) t.distances_[i][i] = 10;
    if (nn > 1) {
      t.warnings_.push_back(
          "no NUMA distances given; assumed 10 local, 20 remote");
    }
  } else {
    if (distances_.size() != nn) {
      return absl::InvalidArgumentError(
          absl::StrCat("machine '", name_, "': distance matrix has ",
                       distances_.size(), " rows for ", nn, " NUMA nodes"));
    }
    // Caller rows are in ascending raw node id order; map to dense order.
    std::vector<int> raw_of_dense(nn);
    {
      size_t i = 0;
      for (const auto& [raw, unused] : node_id) {
        (void)unused;
        raw_of_dense[node_id.at(raw)] = static_cast<int>(i++);
      }
    }
    t.distances_.assign(nn, std::vector<int>(nn, 0));
    for (size_t i = 0; i < nn; ++i) {
      if (distances_[raw_of_dense[i]].size() != nn) {
        return absl::InvalidArgumentError(absl::StrCat(
            "machine '", name_, "': distance row ", raw_of_dense[i], " has ",
            distances_[raw_of_dense[i]].size(), " entries for ", nn,
            " NUMA nodes"));
      }
      for (size_t j = 0; j < nn; ++j) {
        int d = distances_[raw_of_dense[i]][raw_of_dense[j]];
        if (d <= 0) {
          return absl::InvalidArgumentError(
              absl::StrCat("machine '", name_, "': distance ", i, "->", j,
                           " must be positive, got ", d));
        }
        t.distances_[i][j] = d;
      }
    }
  }
  return t;
}

absl::Status TopologyBuilder::BuildCapacityAndDomains(Topology& t) const {
  const int n = t.num_cpus();
  t.capacities_.assign(n, 1024);
  int largest = 0;
  for (const auto& [cpu, capacity] : capacities_) {
    if (cpu < 0 || cpu >= n) {
      return absl::InvalidArgumentError(
          absl::StrCat("machine '", name_, "': capacity given for CPU ", cpu,
                       ", which is not one of its CPUs 0..", n - 1));
    }
    if (capacity < 1 || capacity > 1024) {
      return absl::InvalidArgumentError(
          absl::StrCat("machine '", name_, "': CPU ", cpu, " has capacity ",
                       capacity, "; capacities are 1..1024"));
    }
    t.capacities_[cpu] = capacity;
    largest = std::max(largest, capacity);
  }
  if (!capacities_.empty() && largest != 1024) {
    return absl::InvalidArgumentError(absl::StrCat(
        "machine '", name_, "': the largest CPU capacity is ", largest,
        "; the biggest CPU must have 1024 (SCHED_CAPACITY_SCALE)"));
  }
  t.asym_capacity_ =
      std::any_of(t.capacities_.begin(), t.capacities_.end(),
                  [&](int c) { return c != t.capacities_.front(); });

  if (domains_.empty()) return absl::OkStatus();
  t.cpu_domain_.assign(n, -1);
  for (size_t d = 0; d < domains_.size(); ++d) {
    const RawDomain& raw = domains_[d];
    if (raw.cpus.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "machine '", name_, "': frequency domain ", d, " has no CPUs"));
    }
    if (raw.frequency.max_turbo_khz <= 0 || raw.frequency.min_khz <= 0 ||
        raw.frequency.min_khz > raw.frequency.max_turbo_khz) {
      return absl::InvalidArgumentError(absl::StrCat(
          "machine '", name_, "': frequency domain ", d, " (CPUs ",
          absl::StrJoin(raw.cpus, ","), ") needs 0 < min_khz <= max_turbo_khz",
          ", got ", raw.frequency.min_khz, " and ",
          raw.frequency.max_turbo_khz));
    }
    for (int cpu : raw.cpus) {
      if (cpu < 0 || cpu >= n) {
        return absl::InvalidArgumentError(absl::StrCat(
            "machine '", name_, "': frequency domain ", d, " names CPU ", cpu,
            ", which is not one of its CPUs 0..", n - 1));
      }
      if (t.cpu_domain_[cpu] >= 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "machine '", name_, "': CPU ", cpu, " is in frequency domains ",
            t.cpu_domain_[cpu], " and ", d, "; a CPU is in one domain"));
      }
      if (t.capacities_[cpu] != t.capacities_[raw.cpus.front()]) {
        return absl::InvalidArgumentError(absl::StrCat(
            "machine '", name_, "': frequency domain ", d, " holds CPU ",
            raw.cpus.front(), " of capacity ", t.capacities_[raw.cpus.front()],
            " and CPU ", cpu, " of capacity ", t.capacities_[cpu],
            "; the CPUs of a domain share one capacity"));
      }
      if (t.place(cpu).package != t.place(raw.cpus.front()).package) {
        return absl::InvalidArgumentError(absl::StrCat(
            "machine '", name_, "': frequency domain ", d, " spans CPUs ",
            raw.cpus.front(), " and ", cpu,
            " of different packages; a domain lies in one package"));
      }
      t.cpu_domain_[cpu] = static_cast<int>(d);
    }
  }
  for (int cpu = 0; cpu < n; ++cpu) {
    if (t.cpu_domain_[cpu] < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("machine '", name_, "': CPU ", cpu,
                       " is in no frequency domain; when domains are given, "
                       "every CPU is in one"));
    }
  }
  // Dense order: by lowest CPU.
  std::vector<int> order(domains_.size());
  for (size_t d = 0; d < order.size(); ++d) order[d] = static_cast<int>(d);
  auto lowest = [&](int d) {
    return *std::min_element(domains_[d].cpus.begin(), domains_[d].cpus.end());
  };
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return lowest(a) < lowest(b); });
  std::vector<int> dense(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    const RawDomain& raw = domains_[order[i]];
    dense[order[i]] = static_cast<int>(i);
    FrequencyDomainSpec spec;
    spec.cpus = CpuSet(n);
    for (int cpu : raw.cpus) spec.cpus.Set(cpu);
    spec.frequency = raw.frequency;
    spec.ceff_pf = raw.ceff_pf;
    t.frequency_domains_.push_back(std::move(spec));
  }
  for (int& d : t.cpu_domain_) d = dense[d];
  if (frequency_.max_turbo_khz <= 0) {
    const int biggest = static_cast<int>(
        std::max_element(t.capacities_.begin(), t.capacities_.end()) -
        t.capacities_.begin());
    t.frequency_ = t.frequency_domains_[t.cpu_domain_[biggest]].frequency;
  }
  return absl::OkStatus();
}

absl::StatusOr<Topology> MakeGuest(const Topology& host, int vcpus) {
  const CpuSet& llc = host.llcs()[0];
  std::vector<int> host_cpus;
  std::vector<bool> core_used(host.num_cores(), false);
  for (int cpu = llc.First(); cpu >= 0; cpu = llc.Next(cpu)) {
    const int core = host.place(cpu).core;
    if (core_used[core]) continue;
    core_used[core] = true;
    host_cpus.push_back(cpu);
  }
  const int cores = static_cast<int>(host_cpus.size());
  if (vcpus < 1 || vcpus > cores) {
    return absl::InvalidArgumentError(
        absl::StrCat("a guest on '", host.name(), "' has 1 to ", cores,
                     " vCPUs (one per core of its first LLC, CPUs ",
                     llc.ToList(), "); got ", vcpus));
  }
  if (!host.has_idle_table()) {
    return absl::InvalidArgumentError(
        absl::StrCat("host '", host.name(),
                     "' has no idle-state table for its CPUs to sleep in "
                     "while a vCPU is scheduled out"));
  }
  host_cpus.resize(vcpus);
  const std::vector<CState>& hs = host.cstates();
  int64_t poll_mw = 0, halt_mw = 0;
  bool have_halt = false;
  for (const CState& s : hs) {
    if (s.polling()) {
      poll_mw = s.power_mw;
    } else if (!have_halt) {
      halt_mw = s.power_mw;
      have_halt = true;
    }
  }
  // cpuidle_poll_state_init() (drivers/cpuidle/poll_state.c) and the
  // haltpoll driver's state 1 (drivers/cpuidle/cpuidle-haltpoll.c, v6.1).
  CState poll;
  poll.name = "POLL";
  poll.desc = "CPUIDLE CORE POLL IDLE";
  poll.flags = CState::kPolling;
  poll.power_mw = poll_mw;
  CState halt;
  halt.name = "haltpoll idle";
  halt.desc = "default architecture idle";
  halt.exit_latency_ns = 1000;
  halt.target_residency_ns = 1000;
  halt.power_mw = have_halt ? halt_mw : poll_mw;
  TopologyBuilder b(absl::StrCat(host.name(), "-guest-", vcpus, "vcpu"));
  b.set_model_name(absl::StrCat("KVM guest on ", host.model_name()))
      .set_vendor(host.vendor());
  for (int v = 0; v < vcpus; ++v) b.AddCpu(v, 0, 0, 0, v);
  b.set_cstates({poll, halt})
      .set_frequency(host.frequency_of(host_cpus[0]))
      .set_power(host.power())
      .set_caches(host.caches())
      .set_coherence(host.coherence());
  GuestSpec g;
  g.host = host.name();
  g.host_cpus = host_cpus;
  g.host_cstates = hs;
  b.set_guest(std::move(g));
  return b.Build();
}

}  // namespace schedsim::topology
