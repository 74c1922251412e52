// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "schedsim/metrics.h"

#include "api/convert.h"
#include "sim/histogram.h"

namespace schedsim {

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

Metrics SummarizeStats(const sim::SimStats& stats,
                       const topology::Topology& machine) {
  Metrics m;
  static_cast<sim::RunTotals&>(m) = stats;
  const std::vector<topology::CState>& cstates = machine.cstates();
  for (const sim::CpuStats& c : stats.cpus) {
    CpuMetrics cpu;
    static_cast<sim::CpuStats&>(cpu) = c;
    for (size_t i = 0; i < c.states.size(); ++i) {
      IdleStateMetrics state;
      static_cast<platform::IdleStateStats&>(state) = c.states[i];
      state.name = i < cstates.size() ? cstates[i].name : "";
      cpu.idle_states.push_back(std::move(state));
    }
    cpu.avg_busy_khz =
        c.busy_ns > 0 ? c.khz_ns_busy / static_cast<double>(c.busy_ns) : 0;
    m.cpus.push_back(std::move(cpu));
  }
  m.tasks_reaped = stats.tasks_reaped;
  for (const sim::TaskStats& t : stats.tasks) {
    TaskMetrics task;
    static_cast<sim::TaskTotals&>(task) = t;
    task.name = t.name;
    task.wakeup_latency = sim::SummarizeLatency(t.wakeup_latency_ns);
    m.tasks.push_back(std::move(task));
  }
  const double seconds = stats.duration_s();
  for (const sim::MetricStats& s : stats.metrics) {
    MarkMetrics mark;
    mark.name = s.name;
    mark.count = s.count;
    mark.per_second = seconds > 0 ? static_cast<double>(s.count) / seconds : 0;
    mark.latency = sim::SummarizeLatency(s.latency_ns);
    m.marks.push_back(std::move(mark));
  }
  m.wakeup_latency = sim::SummarizeLatency(stats.wakeup_latency_ns);
  return m;
}

}  // namespace api
}  // namespace schedsim
