// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "schedsim/metrics.h"

#include "api/convert.h"
#include "sim/histogram.h"

namespace schedsim {
namespace {

template <typename Histogram>
LatencySummary Summarize(const Histogram& h) {
  LatencySummary s;
  s.count = h.count();
  s.mean_ns = h.mean();
  s.min_ns = h.min();
  s.p50_ns = h.Percentile(50);
  s.p90_ns = h.Percentile(90);
  s.p99_ns = h.Percentile(99);
  s.p999_ns = h.Percentile(99.9);
  s.max_ns = h.max();
  return s;
}

}  // namespace

double Metrics::energy_j() const {
  double uj = 0;
  for (const PackageMetrics& p : packages) uj += p.energy_uj;
  return uj * 1e-6;
}

double Metrics::busy_pct() const {
  const double total =
      static_cast<double>(end_ns - start_ns) * static_cast<double>(cpus.size());
  if (total <= 0) return 0;
  double busy = 0;
  for (const CpuMetrics& c : cpus) busy += static_cast<double>(c.busy_ns);
  return 100.0 * busy / total;
}

const MarkMetrics* Metrics::FindMark(const std::string& name) const {
  for (const MarkMetrics& m : marks) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

namespace api {

Metrics ToMetrics(const sim::SimStats& stats,
                  const topology::Topology& machine) {
  Metrics m;
  m.start_ns = stats.start_ns;
  m.end_ns = stats.end_ns;
  m.events = stats.events;
  const std::vector<topology::CState>& cstates = machine.cstates();
  for (const sim::CpuStats& c : stats.cpus) {
    CpuMetrics cpu;
    cpu.busy_ns = c.busy_ns;
    cpu.idle_ns = c.idle_ns;
    for (size_t i = 0; i < c.states.size(); ++i) {
      const platform::IdleStateStats& s = c.states[i];
      IdleStateMetrics state;
      state.name = i < cstates.size() ? cstates[i].name : "";
      state.usage = s.usage;
      state.time_ns = s.time_ns;
      state.above = s.above;
      state.below = s.below;
      state.rejected = s.rejected;
      cpu.idle_states.push_back(std::move(state));
    }
    cpu.context_switches = c.context_switches;
    cpu.migrations_in = c.migrations_in;
    cpu.ipis_received = c.ipis_received;
    cpu.poll_wakeups = c.poll_wakeups;
    cpu.ticks = c.ticks;
    cpu.busy_ns_at_khz = c.busy_ns_at_khz;
    cpu.avg_busy_khz =
        c.busy_ns > 0 ? c.khz_ns_busy / static_cast<double>(c.busy_ns) : 0;
    m.cpus.push_back(std::move(cpu));
  }
  for (const sim::TaskStats& t : stats.tasks) {
    TaskMetrics task;
    task.name = t.name;
    task.wakeup_latency = Summarize(t.wakeup_latency_ns);
    task.run_ns = t.run_ns;
    task.iowait_ns = t.iowait_ns;
    task.migrations = t.migrations;
    task.wakeups = t.wakeups;
    task.voluntary_switches = t.voluntary_switches;
    task.involuntary_switches = t.involuntary_switches;
    task.exited = t.exited;
    m.tasks.push_back(std::move(task));
  }
  const double seconds = stats.duration_s();
  for (const sim::MetricStats& s : stats.metrics) {
    MarkMetrics mark;
    mark.name = s.name;
    mark.count = s.count;
    mark.per_second = seconds > 0 ? static_cast<double>(s.count) / seconds : 0;
    mark.latency = Summarize(s.latency_ns);
    m.marks.push_back(std::move(mark));
  }
  for (const sim::PackageStats& p : stats.packages) {
    m.packages.push_back(PackageMetrics{p.energy_uj, p.pl1_capped_ns});
  }
  const sim::PlacementStats& p = stats.placement;
  m.placement.wakeups = p.wakeups;
  m.placement.affine_this = p.affine_this;
  m.placement.affine_prev = p.affine_prev;
  m.placement.wake_wide = p.wake_wide;
  m.placement.searches = p.searches;
  m.placement.probes = p.probes;
  m.placement.chosen_idle = p.chosen_idle;
  m.placement.chose_target = p.chose_target;
  m.placement.chose_prev = p.chose_prev;
  m.placement.chose_other = p.chose_other;
  m.placement.remote_wakeups = p.remote_wakeups;
  m.placement.wake_list = p.wake_list;
  m.placement.ipis = p.ipis;
  m.placement.forks = p.forks;
  m.placement.probes_histogram = p.probes_histogram;
  m.wakeup_latency = Summarize(stats.wakeup_latency_ns);
  m.migrations = stats.migrations;
  m.context_switches = stats.context_switches;
  m.load_balance_migrations = stats.load_balance_migrations;
  return m;
}

}  // namespace api
}  // namespace schedsim
