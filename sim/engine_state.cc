// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/engine_state.h"

namespace schedsim::sim {

namespace {

// Longer than any balance interval (an hour).
constexpr int64_t kLongAgoNs = int64_t{3600} * 1000000000;

}  // namespace

void EngineState::InitLayout(const topology::Topology& topo,
                             const topology::SchedDomains& domains) {
  const int n = topo.num_cpus();
  cpus_.resize(n);
  probe_.resize(n);
  nr_running_.assign(n, 0);
  overloaded_.assign((n + 63) / 64, 0);
  avg_scan_cost_ns_.assign(n, 0);
  all_cpus_ = topo.all_cpus();
  llcs_.resize(topo.num_llcs());
  for (int cpu = 0; cpu < n; ++cpu) {
    Cpu& c = cpus_[cpu];
    const topology::CpuPlace& place = topo.place(cpu);
    c.llc = place.llc;
    c.package = place.package;
    c.core = place.core;
    c.siblings.clear();
    const topology::CpuSet& core = topo.smt_siblings(cpu);
    for (int s = core.First(); s >= 0; s = core.Next(s)) {
      if (s != cpu) c.siblings.push_back(s);
    }
    c.balance.clear();
    for (int d = 0; d < domains.depth(cpu); ++d) {
      c.balance.push_back(
          {-kLongAgoNs, domains.domain(cpu, d).min_interval_ms, 0, 0});
    }
  }
  // sd_llc_shared's nr_idle_scan (SIS_UTIL) starts at the LLC's size.
  for (int l = 0; l < topo.num_llcs(); ++l) {
    llcs_[l].nr_idle_scan = topo.llcs()[l].Count();
  }
  domain_llcs_.assign(domains.domains().size(), {});
  for (size_t d = 0; d < domains.domains().size(); ++d) {
    const topology::CpuSet& span = domains.domains()[d].span;
    for (int l = 0; l < topo.num_llcs(); ++l) {
      if (topo.llcs()[l].Intersects(span)) domain_llcs_[d].push_back(l);
    }
  }
}

}  // namespace schedsim::sim
