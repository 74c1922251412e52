// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Topology: what a machine is. The hardware hierarchy (machine, package,
// NUMA node, LLC, core, hardware thread) is kept as a Boost.Graph; per-CPU
// facts (frequency range, HWP capabilities, C-state table, caches) and the
// NUMA distance matrix sit beside it. Build() flattens the graph into dense
// per-CPU arrays and CpuSets so that nothing after set-up walks the graph.
//
// Every machine, whether a preset, a sysfs import or an hwloc import, is
// made through TopologyBuilder, which checks the hierarchy is consistent.

#ifndef SCHEDSIM_TOPOLOGY_TOPOLOGY_H_
#define SCHEDSIM_TOPOLOGY_TOPOLOGY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "topology/cpuset.h"

namespace schedsim::topology {

enum class Vendor { kUnknown, kIntel, kAmd };
const char* VendorName(Vendor v);

// Levels of the hardware hierarchy, outermost first.
enum class Level { kMachine, kPackage, kNode, kLlc, kCore, kThread };
const char* LevelName(Level level);

// One idle state as the cpuidle framework exposes it. The advertised values
// are what a governor sees (sysfs `latency`, `residency`); the physical ones
// are what the simulator charges (real hardware usually beats the table).
struct CState {
  enum Flags : uint32_t {
    kPolling = 1u << 0,       // POLL: woken without an IPI.
    kTlbFlushed = 1u << 1,    // CPUIDLE_FLAG_TLB_FLUSHED.
    kAlwaysEnable = 1u << 2,  // CPUIDLE_FLAG_ALWAYS_ENABLE.
    kCoreState = 1u << 3,     // A core C-state: reached only when every SMT
                              // sibling of the core is in it or deeper.
    kClusterState = 1u << 4,  // A cluster state: reached only when every
                              // CPU of the cluster (the CPUs sharing the
                              // LLC) is in it or deeper; until then the
                              // CPU sits in the deepest state below it.
  };
  std::string name;                 // "C1E"
  std::string desc;                 // "MWAIT 0x01"
  int64_t exit_latency_ns = 0;      // advertised
  int64_t target_residency_ns = 0;  // advertised
  int64_t physical_exit_ns = 0;     // charged on wake-up
  int64_t physical_entry_ns = 0;    // charged on entry
  int64_t power_mw = 0;             // per hardware thread while in the state
  uint32_t flags = 0;
  bool disabled = false;  // sysfs `disable`
  bool polling() const { return flags & kPolling; }
};

// HWP capability levels (IA32_HWP_CAPABILITIES), in performance units.
struct HwpCaps {
  int lowest = 0;
  int most_efficient = 0;
  int guaranteed = 0;
  int highest = 0;
};

// One point of the voltage/frequency curve.
struct OperatingPoint {
  int64_t khz = 0;
  int64_t mv = 0;
};

// Frequency facts of a CPU: of every CPU of the machine, or, on a machine
// with frequency domains of its own (FrequencyDomainSpec), of one domain.
struct FrequencySpec {
  int64_t min_khz = 0;
  int64_t base_khz = 0;       // guaranteed / nominal
  int64_t max_turbo_khz = 0;  // single-core turbo
  // turbo_ceiling_khz[i]: highest frequency while i+1 cores are active.
  // Empty means max_turbo_khz regardless of load.
  std::vector<int64_t> turbo_ceiling_khz;
  // Discrete P-states for legacy (non-HWP, acpi-cpufreq) control, highest
  // first. Empty means any frequency in [min_khz, max_turbo_khz] in 100 MHz
  // steps.
  std::vector<int64_t> pstates_khz;
  int64_t transition_latency_ns = 0;
  bool has_hwp = false;
  bool has_epp = false;
  HwpCaps hwp;
  int64_t khz_per_perf_unit = 100000;  // Intel: one ratio unit = 100 MHz.
  std::string driver;                  // "intel_pstate", "acpi-cpufreq", ...
  std::string governor;  // as found (imports) or the preset's default
  // Voltage/frequency curve for active power, lowest frequency first.
  std::vector<OperatingPoint> vf_curve;

  // Highest frequency with `active_cores` cores active (>= 1).
  int64_t TurboCeilingKhz(int active_cores) const;
};

// One frequency domain (a cpufreq policy: policy->related_cpus): CPUs that
// share a clock, with the frequency facts of their own. A machine that
// states none has one domain per core, each with the machine's
// FrequencySpec (the x86 presets: per-core P-states). On an Arm big.LITTLE
// part each cluster is one domain with its own OPP table.
struct FrequencyDomainSpec {
  CpuSet cpus;
  FrequencySpec frequency;
  // Dynamic capacitance of one busy CPU of the domain, in the units of
  // PowerSpec::ceff_pf; 0 = the machine's PowerSpec::ceff_pf.
  double ceff_pf = 0.0;
};

// Power model parameters of the part.
struct PowerSpec {
  // Dynamic power of one busy hardware thread: ceff_pf * V^2 * f, with
  // capacitance in pF, V in volts, f in Hz, giving watts * 1e-12.
  double ceff_pf = 0.0;
  int64_t static_mw_per_core = 0;  // leakage of a core not in a core C-state
  int64_t uncore_mw = 0;           // per package, always on
  int64_t tdp_mw = 0;              // package TDP (PL1 when enabled)
};

struct CacheSpec {
  int level = 0;     // 1, 2, 3
  std::string type;  // "Data", "Instruction", "Unified"
  int64_t size_bytes = 0;
  int ways = 0;
  int line_bytes = 64;
};

// What moving one cache line from one CPU's cache to another's costs, by
// the nearest level of the hierarchy the two CPUs share: the latency of a
// read-for-ownership that hits in the other CPU's cache (a core-to-core
// "bounce"). 0 = not known (imported machines): shared-line costs are off.
struct CoherenceSpec {
  int64_t smt_ns = 0;      // sibling threads of one core (L1/L2 hit)
  int64_t llc_ns = 0;      // another core behind the same last-level cache
  int64_t package_ns = 0;  // another LLC of the same package
  int64_t remote_ns = 0;   // another package
  // Line fills one core keeps in flight (its L1D miss buffers): a task
  // refilling its working set after a migration overlaps this many.
  int refill_parallelism = 1;
  // Under contention, how many atomic writes a line serves inside one LLC
  // before a request from another LLC takes it: a request answered from
  // the LLC's own caches (llc_ns) wins the race against one crossing the
  // fabric, so a contended line moves between LLCs once per this many
  // writes at most. 1: every write pays the transfer from the previous
  // writer (a fair FIFO). Software queues (MCS spinlocks, a mutex's or
  // rwsem's OSQ) hand over in arrival order and do not batch.
  int llc_handoffs = 1;
};

// Where one logical CPU sits. All ids are dense, 0-based, numbered in order
// of each group's lowest CPU.
struct CpuPlace {
  int cpu = 0;
  int core = 0;
  int llc = 0;
  int node = 0;
  int package = 0;
  int thread = 0;  // index among its core's siblings (0 = first)
};

// A NUMA node that holds memory but no CPU the machine keeps: NVDIMM, HBM,
// CXL or GPU memory, or a node whose CPUs a cgroup hides. The scheduler
// never sees it (the kernel builds NUMA domains over nodes with CPUs only).
struct MemoryOnlyNode {
  int os_index = 0;          // the node's number in the source
  std::string subtype;       // hwloc's subtype ("NVM", "GPUMemory"), or ""
  int64_t memory_bytes = 0;  // its local memory, 0 when not known
  int package = -1;          // dense id of the package holding it, else -1
};

// Objects counted as hwloc (lstopo) counts them: the groups the source
// states, including packages and NUMA nodes without CPUs and leaving out
// the packages and cores an importer made up for CPUs the source put in
// none (Topology::source_counts()).
struct ObjectCounts {
  int cpus = 0, cores = 0, packages = 0, nodes = 0;
  bool operator==(const ObjectCounts& o) const {
    return cpus == o.cpus && cores == o.cores && packages == o.packages &&
           nodes == o.nodes;
  }
  bool operator!=(const ObjectCounts& o) const { return !(*this == o); }
};

// A KVM guest's view of its host (experiments' "guest" key): each vCPU is a
// host thread pinned to one host CPU, and a halt in the guest (HLT) exits to
// the host's KVM, which polls for a wake-up and then schedules the vCPU
// thread out (virt/kvm/kvm_main.c kvm_vcpu_halt(), v6.1). The simulator
// charges a halt's wake-up from these facts (docs/model-idle-frequency.md,
// "Guests").
struct GuestSpec {
  std::string host;            // the host machine's name
  std::vector<int> host_cpus;  // by vCPU: the host CPU it is pinned to
  // The host's idle states, entered by a host CPU whose vCPU thread was
  // scheduled out.
  std::vector<CState> host_cstates;
};

// The Boost.Graph is hidden behind this pointer to keep Boost out of the
// headers that most code includes; topology/graph.h exposes it.
struct HierarchyGraph;

class Topology {
 public:
  Topology(Topology&&) noexcept;
  Topology& operator=(Topology&&) noexcept;
  Topology(const Topology&);
  Topology& operator=(const Topology&);
  ~Topology();

  const std::string& name() const { return name_; }
  const std::string& model_name() const { return model_name_; }
  Vendor vendor() const { return vendor_; }

  int num_cpus() const { return static_cast<int>(places_.size()); }
  int num_cores() const { return static_cast<int>(cores_.size()); }
  int num_llcs() const { return static_cast<int>(llcs_.size()); }
  int num_nodes() const { return static_cast<int>(nodes_.size()); }
  int num_packages() const { return static_cast<int>(packages_.size()); }

  const CpuPlace& place(int cpu) const { return places_[cpu]; }
  // Spans of each group, indexed by the dense group id.
  const std::vector<CpuSet>& cores() const { return cores_; }
  const std::vector<CpuSet>& llcs() const { return llcs_; }
  const std::vector<CpuSet>& nodes() const { return nodes_; }
  const std::vector<CpuSet>& packages() const { return packages_; }
  // Per-CPU shorthands.
  const CpuSet& smt_siblings(int cpu) const {
    return cores_[places_[cpu].core];
  }
  const CpuSet& llc_span(int cpu) const { return llcs_[places_[cpu].llc]; }
  const CpuSet& node_span(int cpu) const { return nodes_[places_[cpu].node]; }
  const CpuSet& package_span(int cpu) const {
    return packages_[places_[cpu].package];
  }
  // The CPUs of `cpu`'s cluster (sysfs topology/cluster_cpus_list, since
  // v5.16: CPUs sharing an L2 or an LLC tag, e.g. Kunpeng 920's 4-core
  // CCLs, Jacobsville's and hybrid E-cores' 4-core modules): the
  // scheduler's CLS level (kernel/sched/topology.c, cpu_clustergroup_mask).
  // The core's SMT siblings on machines that state no clusters.
  const CpuSet& cluster_span(int cpu) const {
    return clusters_.empty() ? smt_siblings(cpu) : clusters_[cpu];
  }
  bool has_clusters() const { return !clusters_.empty(); }
  CpuSet all_cpus() const;
  int threads_per_core() const { return threads_per_core_; }

  // What an import found beside the groups above (none on the presets):
  // NUMA nodes with memory and no CPU, and packages without CPUs (their
  // source numbers). Neither is part of nodes(), packages(), distances()
  // or the scheduling domains.
  const std::vector<MemoryOnlyNode>& memory_only_nodes() const {
    return memory_only_nodes_;
  }
  const std::vector<int>& cpuless_packages() const { return cpuless_packages_; }
  // How many packages, NUMA nodes and cores of the groups above the
  // importer made up: a CPU the source put in no core gets a core of its
  // own, CPUs in no package share an assumed package, and a node split per
  // package (hwloc_objects.h) counts once.
  int num_assumed_packages() const { return assumed_packages_; }
  int num_assumed_nodes() const { return assumed_nodes_; }
  int num_assumed_cores() const { return assumed_cores_; }
  // The counts as the source states them (lstopo's): CPUs; cores,
  // packages and nodes less the assumed ones; packages and NUMA nodes plus
  // the CPU-less ones.
  ObjectCounts source_counts() const;

  // SLIT distance between NUMA nodes (10 = local).
  int distance(int node_a, int node_b) const {
    return distances_[node_a][node_b];
  }
  const std::vector<std::vector<int>>& distances() const { return distances_; }

  // arch_scale_cpu_capacity(cpu): what `cpu` computes at its highest
  // frequency, relative to the biggest CPU of the machine at its highest
  // (SCHED_CAPACITY_SCALE = 1024). The kernel derives it from the DT's
  // capacity-dmips-mhz scaled by each CPU's maximum frequency
  // (drivers/base/arch_topology.c topology_normalize_cpu_scale); sysfs
  // shows it as cpuN/cpu_capacity. 1024 on every CPU of a symmetric
  // machine (all the x86 presets).
  int capacity(int cpu) const { return capacities_[cpu]; }
  // Whether the CPUs differ in capacity (the kernel's
  // sched_asym_cpucapacity).
  bool asym_capacity() const { return asym_capacity_; }

  const std::vector<CState>& cstates() const { return cstates_; }
  // The per-CPU PM QoS resume latency limit (the device PM QoS request a
  // user sets in /sys/devices/system/cpu/cpuN/power/pm_qos_resume_latency_us,
  // drivers/base/power/sysfs.c), in ns; -1 = no constraint (the default).
  // cpuidle governors see the smaller of it and the global cpu_dma_latency
  // (cpuidle_governor_latency_req(), drivers/cpuidle/governor.c).
  int64_t pm_qos_resume_latency_ns(int cpu) const {
    return resume_latency_ns_.empty() ? -1 : resume_latency_ns_[cpu];
  }
  // This machine booted and set up with other idle settings: `states`
  // replaces the idle-state table (the same states from the shallowest, the
  // deepest possibly left out as intel_idle.max_cstate leaves them
  // unregistered, some `disabled` as sysfs stateK/disable does), and
  // `resume_latency_ns` (by CPU, -1 = none; empty = none anywhere) sets the
  // per-CPU PM QoS limits. `halt_state` >= 0 boots the machine with
  // idle=halt: no cpuidle driver or governor, the idle loop halts in that
  // state (HLT) and stops the tick. The caller checks the values
  // (experiments/idle_control.h).
  Topology WithIdleSettings(std::vector<CState> states,
                            std::vector<int64_t> resume_latency_ns,
                            int halt_state = -1) const;
  // The state every idle period uses when booted with idle=halt
  // (arch/x86/kernel/process.c idle_setup(): default_idle(), HLT; cpuidle
  // drivers do not register, drivers/acpi/processor_idle.c
  // disabled_by_idle_boot_param()); -1 = cpuidle as usual.
  int idle_halt_state() const { return halt_state_; }
  // Set on a KVM guest (MakeGuest); nullptr on a machine of its own.
  const GuestSpec* guest() const { return guest_.get(); }
  // The machine's frequency facts; on a machine with frequency domains of
  // its own, those of the domain of its biggest CPUs (the first CPU of
  // highest capacity). What differs per domain: frequency_of().
  const FrequencySpec& frequency() const { return frequency_; }
  // The frequency domains the machine states, in order of their lowest
  // CPU; empty = one domain per core, each with frequency().
  const std::vector<FrequencyDomainSpec>& frequency_domains() const {
    return frequency_domains_;
  }
  // The index in frequency_domains() of `cpu`'s domain, -1 when the
  // machine states none.
  int frequency_domain_of(int cpu) const {
    return frequency_domains_.empty() ? -1 : cpu_domain_[cpu];
  }
  // The frequency facts of `cpu`'s domain.
  const FrequencySpec& frequency_of(int cpu) const {
    return frequency_domains_.empty()
               ? frequency_
               : frequency_domains_[cpu_domain_[cpu]].frequency;
  }
  // This machine booted without HWP (the kernel's intel_pstate=no_hwp):
  // no HWP or EPP, driven by P-state requests. A copy of this machine
  // when it has no HWP.
  Topology WithoutHwp() const;
  const PowerSpec& power() const { return power_; }
  // Whether the machine has a frequency table (a maximum frequency) and an
  // idle-state table. Imports from hwloc XML have neither; a sysfs import
  // has them when the capture holds cpufreq and cpuidle files.
  bool has_frequency_table() const { return frequency_.max_turbo_khz > 0; }
  bool has_idle_table() const { return !cstates_.empty(); }
  // This machine (its CPUs, caches and NUMA distances) with `model`'s
  // power parameters and, where it has none of its own, `model`'s C-state
  // and frequency (P-states, HWP, turbo) tables: the "power model" of an
  // imported machine (docs/topology.md, "Power models for imported
  // machines"). Own idle states (a sysfs capture's) are kept, taking the
  // physical exit/entry costs, power and flags of the model's state of the
  // same name, else of nearest advertised exit latency; own frequencies are
  // kept, taking the model's V/f curve. When the two have different
  // numbers of cores per package, the package power limit (tdp_mw) is
  // scaled by their ratio; a warning records what was taken.
  // InvalidArgument, naming both machines, when they differ in CPUs per
  // core (a core C-state and the per-thread power need the same SMT width).
  // The model's CPU capacities and frequency domains belong to its CPUs
  // and are not taken: the result has the machine's own (an import's:
  // 1024 everywhere, one domain per core) and the model's machine-wide
  // FrequencySpec (on juno-r0, the big cluster's).
  absl::StatusOr<Topology> WithPowerModel(const Topology& model) const;
  // Caches seen by one CPU, L1 first.
  const std::vector<CacheSpec>& caches() const { return caches_; }
  const CoherenceSpec& coherence() const { return coherence_; }
  // The cost of moving one line from `from`'s cache to `to`'s: 0 for the
  // same CPU, else CoherenceSpec's figure for the nearest shared level.
  int64_t LineTransferNs(int from, int to) const;

  // Notes about defaults filled in or facts inferred while building (for
  // example "no node distances; assumed 10 local / 20 remote").
  const std::vector<std::string>& warnings() const { return warnings_; }

  const HierarchyGraph& graph() const { return *graph_; }

 private:
  friend class TopologyBuilder;
  Topology();

  std::string name_;
  std::string model_name_;
  Vendor vendor_ = Vendor::kUnknown;
  std::vector<CpuPlace> places_;
  std::vector<CpuSet> cores_, llcs_, nodes_, packages_;
  std::vector<CpuSet> clusters_;  // by CPU; empty = none stated
  int threads_per_core_ = 1;
  std::vector<std::vector<int>> distances_;
  std::vector<MemoryOnlyNode> memory_only_nodes_;
  std::vector<int> cpuless_packages_;
  int assumed_packages_ = 0;
  int assumed_nodes_ = 0;
  int assumed_cores_ = 0;
  std::vector<int> capacities_;  // by CPU
  bool asym_capacity_ = false;
  std::vector<CState> cstates_;
  std::vector<int64_t> resume_latency_ns_;  // by CPU; empty = none
  int halt_state_ = -1;
  std::shared_ptr<const GuestSpec> guest_;
  FrequencySpec frequency_;
  std::vector<FrequencyDomainSpec> frequency_domains_;
  std::vector<int> cpu_domain_;  // by CPU: index in frequency_domains_
  PowerSpec power_;
  std::vector<CacheSpec> caches_;
  CoherenceSpec coherence_;
  std::vector<std::string> warnings_;
  std::unique_ptr<HierarchyGraph> graph_;
};

// Assembles a Topology. Callers name each CPU's package, node, LLC and core
// with any ids they like (for example sysfs ids); Build() renumbers them
// densely, builds the hierarchy graph, checks that it nests (a core lies in
// one LLC, an LLC in one package, and either every node in one package or,
// when a node spans packages, every package in one node) and flattens it.
class TopologyBuilder {
 public:
  explicit TopologyBuilder(std::string name);

  TopologyBuilder& set_model_name(std::string model) {
    model_name_ = std::move(model);
    return *this;
  }
  TopologyBuilder& set_vendor(Vendor v) {
    vendor_ = v;
    return *this;
  }
  // Adds logical CPU `cpu`. CPU ids must end up covering 0..N-1.
  TopologyBuilder& AddCpu(int cpu, int package, int node, int llc, int core);
  // Puts `cpu` (as given to AddCpu) in cluster `cluster` (any id). When
  // any CPU has one, a CPU given none is a cluster of its own core.
  TopologyBuilder& SetCluster(int cpu, int cluster) {
    clusters_.push_back({cpu, cluster});
    return *this;
  }
  // Marks the package, NUMA node or core `id` (as given to AddCpu) as made
  // up by the importer, not stated by the source (Topology::source_counts
  // leaves it out). Other levels are InvalidArgument in Build().
  TopologyBuilder& MarkAssumed(Level level, int id) {
    assumed_.push_back({level, id});
    return *this;
  }
  // A NUMA node without CPUs. `package` is a package id as given to
  // AddCpu, or -1 when no package with CPUs holds it; the node's own
  // `package` field is ignored (Build() fills in the dense id).
  TopologyBuilder& AddMemoryOnlyNode(MemoryOnlyNode node, int package) {
    memory_only_nodes_.push_back({std::move(node), package});
    return *this;
  }
  // A package without CPUs, by its number in the source.
  TopologyBuilder& AddCpulessPackage(int os_index) {
    cpuless_packages_.push_back(os_index);
    return *this;
  }
  // distances[i][j] between nodes in order of their ids as given to AddCpu
  // (sorted ascending). Without it: 10 local, 20 remote, with a warning.
  TopologyBuilder& set_distances(std::vector<std::vector<int>> distances) {
    distances_ = std::move(distances);
    return *this;
  }
  TopologyBuilder& set_cstates(std::vector<CState> cstates) {
    cstates_ = std::move(cstates);
    return *this;
  }
  TopologyBuilder& set_frequency(FrequencySpec f) {
    frequency_ = std::move(f);
    return *this;
  }
  // `cpu`'s original capacity (Topology::capacity), 1..1024; CPUs not
  // given one have 1024. The largest given must be 1024.
  TopologyBuilder& set_capacity(int cpu, int capacity) {
    capacities_.push_back({cpu, capacity});
    return *this;
  }
  // A frequency domain of CPUs `cpus` (ids as given to AddCpu). Either
  // none is added, or the domains cover every CPU once, each within one
  // package and of CPUs of one capacity. Without set_frequency,
  // Topology::frequency() is the spec of the domain of the first CPU of highest
  // capacity.
  TopologyBuilder& AddFrequencyDomain(std::vector<int> cpus, FrequencySpec f,
                                      double ceff_pf = 0.0) {
    domains_.push_back({std::move(cpus), std::move(f), ceff_pf});
    return *this;
  }
  TopologyBuilder& set_power(PowerSpec p) {
    power_ = p;
    return *this;
  }
  TopologyBuilder& set_caches(std::vector<CacheSpec> caches) {
    caches_ = std::move(caches);
    return *this;
  }
  TopologyBuilder& set_coherence(CoherenceSpec c) {
    coherence_ = c;
    return *this;
  }
  TopologyBuilder& set_guest(GuestSpec guest) {
    guest_ = std::make_shared<const GuestSpec>(std::move(guest));
    return *this;
  }
  TopologyBuilder& AddWarning(std::string warning) {
    warnings_.push_back(std::move(warning));
    return *this;
  }

  // Fails (InvalidArgument, naming the CPU) on gaps in CPU numbering,
  // duplicate CPUs, groups that do not nest, a distance matrix of the
  // wrong shape or with non-positive entries, a capacity outside 1..1024
  // (or a largest one other than 1024), or frequency domains that do not
  // cover every CPU exactly once, span packages or capacities, or have no
  // frequencies.
  absl::StatusOr<Topology> Build() const;

 private:
  struct RawCpu {
    int cpu, package, node, llc, core;
  };
  std::string name_;
  std::string model_name_;
  Vendor vendor_ = Vendor::kUnknown;
  std::vector<RawCpu> cpus_;
  std::vector<std::pair<Level, int>> assumed_;
  std::vector<std::pair<int, int>> clusters_;  // (cpu, cluster id)
  std::vector<std::pair<MemoryOnlyNode, int>> memory_only_nodes_;
  std::vector<int> cpuless_packages_;
  std::vector<std::vector<int>> distances_;
  struct RawDomain {
    std::vector<int> cpus;
    FrequencySpec frequency;
    double ceff_pf;
  };
  std::vector<CState> cstates_;
  FrequencySpec frequency_;
  std::vector<std::pair<int, int>> capacities_;  // (cpu, capacity)
  std::vector<RawDomain> domains_;
  PowerSpec power_;
  std::vector<CacheSpec> caches_;
  CoherenceSpec coherence_;
  std::shared_ptr<const GuestSpec> guest_;
  std::vector<std::string> warnings_;
  // Capacities and frequency domains into `t` (Build's last step).
  absl::Status BuildCapacityAndDomains(Topology& t) const;
};

// The cpuidle-haltpoll driver's states (drivers/cpuidle/cpuidle-haltpoll.c,
// v6.1): POLL and "haltpoll idle" (HLT, exit latency and target residency
// 1 us).
inline constexpr int kGuestHaltState = 1;

// A KVM guest of `vcpus` vCPUs on `host`: one package, node and LLC of
// `vcpus` cores without SMT, vCPU i pinned to the i-th core of the host's
// first LLC (its first thread), with the host's frequency, power, cache and
// coherence facts and the cpuidle-haltpoll driver's two states (POLL at
// the host's POLL power; the halt at the host's first halted state's
// power, its physical exit charged by the simulator from GuestSpec).
// InvalidArgument when `vcpus` is not 1..the cores of that LLC, or the host
// has no idle-state table.
absl::StatusOr<Topology> MakeGuest(const Topology& host, int vcpus);

}  // namespace schedsim::topology

#endif  // SCHEDSIM_TOPOLOGY_TOPOLOGY_H_
