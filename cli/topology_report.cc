// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "cli/topology_report.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/version.h"

namespace schedsim::cli {

using topology::CacheSpec;
using topology::CpuSet;
using topology::CState;
using topology::SchedDomain;
using topology::Topology;

namespace {

std::string Size(int64_t bytes) {
  if (bytes >= (1 << 20) && bytes % (1 << 20) == 0) {
    return absl::StrCat(bytes >> 20, " MiB");
  }
  if (bytes >= 1024 && bytes % 1024 == 0) {
    return absl::StrCat(bytes >> 10, " KiB");
  }
  return absl::StrCat(bytes, " B");
}

std::string Mhz(int64_t khz) { return absl::StrCat(khz / 1000, " MHz"); }

std::string CacheName(const CacheSpec& c) {
  std::string suffix = c.type == "Data"          ? "d"
                       : c.type == "Instruction" ? "i"
                                                 : "";
  return absl::StrCat("L", c.level, suffix);
}

std::vector<std::string> CStateFlagNames(uint32_t flags) {
  std::vector<std::string> out;
  if (flags & CState::kPolling) out.push_back("POLLING");
  if (flags & CState::kTlbFlushed) out.push_back("TLB_FLUSHED");
  if (flags & CState::kAlwaysEnable) out.push_back("ALWAYS_ENABLE");
  if (flags & CState::kCoreState) out.push_back("CORE");
  if (flags & CState::kClusterState) out.push_back("CLUSTER");
  return out;
}

nlohmann::json FrequencyJson(const topology::FrequencySpec& f) {
  using nlohmann::json;
  json freq = {{"min_khz", f.min_khz},
               {"base_khz", f.base_khz},
               {"max_turbo_khz", f.max_turbo_khz},
               {"turbo_ceiling_khz", f.turbo_ceiling_khz},
               {"pstates_khz", f.pstates_khz},
               {"transition_latency_ns", f.transition_latency_ns},
               {"driver", f.driver},
               {"governor", f.governor},
               {"hwp", f.has_hwp},
               {"epp", f.has_epp}};
  if (f.has_hwp) {
    freq["hwp_caps"] = {{"lowest", f.hwp.lowest},
                        {"most_efficient", f.hwp.most_efficient},
                        {"guaranteed", f.hwp.guaranteed},
                        {"highest", f.hwp.highest}};
  }
  return freq;
}

}  // namespace

std::string TopologyText(const Topology& t,
                         const topology::SchedDomains& domains, int cpu) {
  std::string out;
  auto line = [&out](absl::string_view key, absl::string_view value) {
    absl::StrAppendFormat(&out, "%-20s %s\n", absl::StrCat(key, ":"), value);
  };
  line("Machine", t.name());
  if (!t.model_name().empty()) line("Model name", t.model_name());
  line("Vendor", topology::VendorName(t.vendor()));
  line("CPU(s)", absl::StrCat(t.num_cpus()));
  line("Thread(s) per core", absl::StrCat(t.threads_per_core()));
  line("Core(s)", absl::StrCat(t.num_cores()));
  line("Socket(s)", absl::StrCat(t.num_packages()));
  line("NUMA node(s)", absl::StrCat(t.num_nodes()));
  // What an import found beside them (none on the built-in machines).
  if (!t.memory_only_nodes().empty()) {
    std::vector<std::string> nodes;
    for (const topology::MemoryOnlyNode& m : t.memory_only_nodes()) {
      nodes.push_back(absl::StrCat(
          m.os_index, m.subtype.empty() ? "" : absl::StrCat(" ", m.subtype),
          m.package >= 0 ? absl::StrCat(" in package ", m.package) : ""));
    }
    line("Memory-only node(s)",
         absl::StrCat(nodes.size(), " (", absl::StrJoin(nodes, ", "),
                      "; not in the scheduling domains)"));
  }
  if (!t.cpuless_packages().empty()) {
    line("CPU-less socket(s)",
         absl::StrCat(t.cpuless_packages().size(), " (",
                      absl::StrJoin(t.cpuless_packages(), ", "), ")"));
  }
  line("LLC(s)", absl::StrCat(t.num_llcs(), " (", t.llc_span(0).Count(),
                              " CPUs in the first)"));
  std::vector<std::string> caches;
  for (const CacheSpec& c : t.caches()) {
    caches.push_back(
        absl::StrCat(CacheName(c), " ", Size(c.size_bytes),
                     c.ways ? absl::StrCat(" ", c.ways, "-way") : ""));
  }
  // The model keeps one cache list per machine. On a machine whose CPUs
  // differ (big.LITTLE) it is not every CPU's (issue 49 #8: juno-r0's
  // LITTLE CPU 0 has a 1 MiB L2, not the listed 2 MiB): labelled so.
  if (!caches.empty()) {
    if (t.asym_capacity()) {
      line("Caches (machine-wide)",
           absl::StrCat(absl::StrJoin(caches, ", "),
                        " (one list for the machine; its CPUs of other "
                        "capacities may have other caches)"));
    } else {
      line("Caches (per CPU)", absl::StrJoin(caches, ", "));
    }
  }
  if (t.asym_capacity()) {
    std::vector<std::string> caps;
    for (int c = 0; c < t.num_cpus(); ++c) {
      caps.push_back(absl::StrCat(c, ":", t.capacity(c)));
    }
    line("CPU capacity", absl::StrJoin(caps, " "));
  }
  const topology::FrequencySpec& f = t.frequency();
  if (f.max_turbo_khz > 0) {
    line("Frequency",
         absl::StrCat("min ", Mhz(f.min_khz), ", base ", Mhz(f.base_khz),
                      ", max ", Mhz(f.max_turbo_khz)));
  }
  if (!f.driver.empty()) {
    line("Frequency driver",
         absl::StrCat(f.driver, (f.governor.empty() ? "" : ", governor "),
                      f.governor));
  }
  line("HWP", f.has_hwp
                  ? absl::StrCat("yes (lowest ", f.hwp.lowest, ", efficient ",
                                 f.hwp.most_efficient, ", guaranteed ",
                                 f.hwp.guaranteed, ", highest ", f.hwp.highest,
                                 f.has_epp ? "; EPP)" : ")")
                  : "no");

  if (!t.frequency_domains().empty()) {
    absl::StrAppend(&out, "\nFrequency domains:\n");
    for (size_t d = 0; d < t.frequency_domains().size(); ++d) {
      const topology::FrequencyDomainSpec& fd = t.frequency_domains()[d];
      std::vector<std::string> opps;
      for (auto it = fd.frequency.pstates_khz.rbegin();
           it != fd.frequency.pstates_khz.rend(); ++it) {
        opps.push_back(absl::StrCat(*it / 1000));
      }
      absl::StrAppend(&out, "  Domain ", d, ": CPUs ", fd.cpus.ToList(),
                      ", min ", Mhz(fd.frequency.min_khz), ", max ",
                      Mhz(fd.frequency.max_turbo_khz));
      if (!opps.empty()) {
        absl::StrAppend(&out, ", OPPs ", absl::StrJoin(opps, "/"), " MHz");
      }
      absl::StrAppend(&out, "\n");
    }
  }

  absl::StrAppend(&out, "\nHierarchy:\n");
  for (int p = 0; p < t.num_packages(); ++p) {
    absl::StrAppend(&out, "  Package ", p, ": CPUs ", t.packages()[p].ToList(),
                    "\n");
    for (int n = 0; n < t.num_nodes(); ++n) {
      if (!t.nodes()[n].IsSubsetOf(t.packages()[p])) continue;
      absl::StrAppend(&out, "    Node ", n, ": CPUs ", t.nodes()[n].ToList(),
                      "\n");
    }
    for (int l = 0; l < t.num_llcs(); ++l) {
      if (!t.llcs()[l].IsSubsetOf(t.packages()[p])) continue;
      absl::StrAppend(&out, "    LLC ", l, ": CPUs ", t.llcs()[l].ToList(),
                      "\n");
    }
  }
  // Nodes that span packages (one memory for several sockets).
  for (int n = 0; n < t.num_nodes(); ++n) {
    if (t.nodes()[n].IsSubsetOf(t.package_span(t.nodes()[n].First()))) {
      continue;
    }
    std::vector<int> packages;
    for (int p = 0; p < t.num_packages(); ++p) {
      if (t.packages()[p].IsSubsetOf(t.nodes()[n])) packages.push_back(p);
    }
    absl::StrAppend(&out, "  Node ", n, ": CPUs ", t.nodes()[n].ToList(),
                    " (packages ", absl::StrJoin(packages, ","), ")\n");
  }

  absl::StrAppend(&out, "\nNUMA node distances:\n  node");
  for (int j = 0; j < t.num_nodes(); ++j) absl::StrAppendFormat(&out, "%4d", j);
  absl::StrAppend(&out, "\n");
  for (int i = 0; i < t.num_nodes(); ++i) {
    absl::StrAppendFormat(&out, "  %3d:", i);
    for (int j = 0; j < t.num_nodes(); ++j) {
      absl::StrAppendFormat(&out, "%4d", t.distance(i, j));
    }
    absl::StrAppend(&out, "\n");
  }

  absl::StrAppend(&out,
                  "\nIdle states (latency and residency as advertised; "
                  "physical exit as modelled):\n");
  // State names are 8 wide, or as wide as the longest (Arm's
  // "cluster-sleep-0").
  int name_width = 8;
  for (const CState& s : t.cstates()) {
    name_width = std::max(name_width, static_cast<int>(s.name.size()));
  }
  absl::StrAppendFormat(&out, "  %-*s %-24s %10s %12s %16s %9s  %s\n",
                        name_width, "state", "desc", "latency_us",
                        "residency_us", "physical_exit_us", "power_mw",
                        "flags");
  for (size_t i = 0; i < t.cstates().size(); ++i) {
    const CState& s = t.cstates()[i];
    absl::StrAppendFormat(
        &out, "  %-*s %-24s %10g %12g %16g %9d  %s\n", name_width, s.name,
        s.desc, s.exit_latency_ns / 1000.0, s.target_residency_ns / 1000.0,
        s.physical_exit_ns / 1000.0, s.power_mw,
        absl::StrJoin(CStateFlagNames(s.flags), "|"));
  }
  if (t.cstates().empty()) absl::StrAppend(&out, "  (none)\n");

  absl::StrAppend(&out, "\nScheduling domains of CPU ", cpu, ":\n");
  for (const SchedDomain* d : domains.Stack(cpu)) {
    absl::StrAppendFormat(&out, "  %-5s span %-22s weight %3d imbalance_pct %d",
                          d->name, d->span.ToList(), d->span.Count(),
                          d->imbalance_pct);
    if (d->numa_distance > 0) {
      absl::StrAppend(&out, " distance ", d->numa_distance);
    }
    absl::StrAppend(&out, "\n        ",
                    absl::StrJoin(topology::SdFlagNames(d->flags), " "), "\n");
  }
  if (domains.depth(cpu) == 0) absl::StrAppend(&out, "  (none)\n");
  for (const std::string& w : domains.warnings()) {
    absl::StrAppend(&out, "  note: ", w, "\n");
  }

  if (!t.warnings().empty()) {
    absl::StrAppend(&out, "\nNotes:\n");
    for (const std::string& w : t.warnings()) {
      absl::StrAppend(&out, "  - ", w, "\n");
    }
  }
  return out;
}

nlohmann::json TopologyJson(const Topology& t,
                            const topology::SchedDomains& domains, int cpu) {
  using nlohmann::json;
  json j;
  j["schema_version"] = base::kResultSchemaVersion;
  j["machine"] = t.name();
  j["model_name"] = t.model_name();
  j["vendor"] = topology::VendorName(t.vendor());
  json cpus = json::array();
  for (int c = 0; c < t.num_cpus(); ++c) {
    const topology::CpuPlace& p = t.place(c);
    cpus.push_back({{"cpu", c},
                    {"core", p.core},
                    {"llc", p.llc},
                    {"node", p.node},
                    {"package", p.package},
                    {"siblings", t.smt_siblings(c).ToVector()}});
    // arch_scale_cpu_capacity, only where the CPUs differ (else 1024).
    if (t.asym_capacity()) cpus.back()["capacity"] = t.capacity(c);
  }
  j["cpus"] = std::move(cpus);
  json nodes = json::array();
  for (int n = 0; n < t.num_nodes(); ++n) {
    nodes.push_back({{"id", n},
                     {"cpus", t.nodes()[n].ToList()},
                     {"distances", t.distances()[n]}});
  }
  j["nodes"] = std::move(nodes);
  if (!t.memory_only_nodes().empty()) {
    json memory_only = json::array();
    for (const topology::MemoryOnlyNode& m : t.memory_only_nodes()) {
      memory_only.push_back({{"os_index", m.os_index},
                             {"subtype", m.subtype},
                             {"memory_bytes", m.memory_bytes},
                             {"package", m.package}});
    }
    j["memory_only_nodes"] = std::move(memory_only);
  }
  if (!t.cpuless_packages().empty()) {
    j["cpuless_packages"] = t.cpuless_packages();
  }
  json llcs = json::array();
  for (int l = 0; l < t.num_llcs(); ++l) {
    llcs.push_back({{"id", l}, {"cpus", t.llcs()[l].ToList()}});
  }
  j["llcs"] = std::move(llcs);
  json doms = json::array();
  for (const SchedDomain* d : domains.Stack(cpu)) {
    json entry = {{"name", d->name},
                  {"span", d->span.ToList()},
                  {"flags", topology::SdFlagNames(d->flags)},
                  {"imbalance_pct", d->imbalance_pct},
                  {"cache_nice_tries", d->cache_nice_tries}};
    if (d->numa_distance > 0) entry["distance"] = d->numa_distance;
    doms.push_back(std::move(entry));
  }
  j["domains"] = std::move(doms);
  json cstates = json::array();
  for (const CState& s : t.cstates()) {
    cstates.push_back({{"name", s.name},
                       {"desc", s.desc},
                       {"latency_us", s.exit_latency_ns / 1000.0},
                       {"residency_us", s.target_residency_ns / 1000.0},
                       {"physical_exit_us", s.physical_exit_ns / 1000.0},
                       {"power_mw", s.power_mw},
                       {"flags", CStateFlagNames(s.flags)},
                       {"disabled", s.disabled}});
  }
  j["cstates"] = std::move(cstates);
  j["frequency"] = FrequencyJson(t.frequency());
  // Only on machines that state frequency domains (the others have one per
  // core, each with "frequency").
  if (!t.frequency_domains().empty()) {
    json fdoms = json::array();
    for (size_t d = 0; d < t.frequency_domains().size(); ++d) {
      const topology::FrequencyDomainSpec& fd = t.frequency_domains()[d];
      json entry = {{"id", d},
                    {"cpus", fd.cpus.ToList()},
                    {"frequency", FrequencyJson(fd.frequency)}};
      if (fd.ceff_pf > 0) entry["ceff_pf"] = fd.ceff_pf;
      fdoms.push_back(std::move(entry));
    }
    j["frequency_domains"] = std::move(fdoms);
  }
  json caches = json::array();
  for (const CacheSpec& c : t.caches()) {
    caches.push_back({{"level", c.level},
                      {"type", c.type},
                      {"size_bytes", c.size_bytes},
                      {"ways", c.ways}});
  }
  j["caches"] = std::move(caches);
  j["warnings"] = t.warnings();
  return j;
}

}  // namespace schedsim::cli
