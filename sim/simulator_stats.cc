// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The statistics: ResetStats (start a new measurement interval) and Stats
// (the counters, with the open busy, idle and energy intervals closed).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "sim/simulator_impl.h"

namespace schedsim::sim {

void SimulatorImpl::ResetStats() {
  SimStats unused;
  (void)unused;
  stats_start_ns_ = now_ns_;
  events_ = 0;
  lb_migrations_ = 0;
  background_events_ = 0;
  mm_switches_avoided_ = 0;
  placement_stats_ = PlacementStats();
  idle_.ResetStats();
  wakeup_latency_ = LatencyHistogram();
  for (TaskCounters& ts : task_stats_) {
    // A wait under way goes on, counted from now.
    const int64_t waiting = ts.wait_start_ns >= 0 ? now_ns_ : -1;
    ts = TaskCounters();
    ts.wait_start_ns = waiting;
  }
  tasks_reaped_ = 0;
  for (Task& t : tasks_) t.run_ns = 0;
  progs_.ResetStats();
  cache_.ResetStats();
  for (Cpu& c : cpus_) {
    if (c.mode == CpuMode::kBusy) {
      freq_.AccountBusyEnd(static_cast<int>(&c - cpus_.data()));
      freq_.AccountBusyStart(static_cast<int>(&c - cpus_.data()));
    }
    freq_.AccountEnergy(static_cast<int>(&c - cpus_.data()));
    size_t nstates = c.stats.states.size();
    c.stats = CpuStats();
    c.stats.states.resize(nstates);
    c.energy_uj = 0;
    if (c.mode == CpuMode::kIdle)
      c.idle_enter_ns = std::max(c.idle_enter_ns, now_ns_);
  }
  for (PackageState& p : packages_) {
    p.stats = PackageStats();
    p.last_energy_uj = 0;
  }
}

SimStats SimulatorImpl::Stats() const {
  // Work on a copy so that open intervals can be closed.
  SimulatorImpl& self = const_cast<SimulatorImpl&>(*this);
  SimStats out;
  out.start_ns = stats_start_ns_;
  out.end_ns = now_ns_;
  out.events = events_;
  out.placement = placement_stats_;
  out.wakeup_latency_ns = wakeup_latency_;
  out.metrics = progs_.metrics();
  out.lines = cache_.stats();
  out.tasks_reaped = tasks_reaped_;
  out.tasks.resize(tasks_.size());
  for (size_t i = 0; i < tasks_.size(); ++i) {
    const Task& t = tasks_[i];
    const TaskCounters& k = task_stats_[i];
    TaskStats& ts = out.tasks[i];
    const SpecInfo& spec = specs_[t.spec];
    ts.name =
        spec_names_.substr(spec.name_begin, spec.name_end - spec.name_begin);
    ts.wakeup_latency_ns = k.wakeup_latency_ns.ToSmall();
    ts.run_ns = t.run_ns;
    ts.iowait_ns = k.iowait_ns;
    ts.migrations = k.migrations;
    ts.wakeups = k.wakeups;
    ts.voluntary_switches = k.voluntary_switches;
    ts.involuntary_switches = k.involuntary_switches;
    ts.wait_sum_ns = k.wait_sum_ns;
    ts.wait_max_ns = k.wait_max_ns;
    ts.wait_count = k.wait_count;
    ts.exited = t.state == TaskState::kDead;
  }
  out.load_balance_migrations = lb_migrations_;
  out.mm_switches_avoided = mm_switches_avoided_;
  out.background_events = background_events_;
  out.guest = idle_.guest_totals();
  for (size_t i = 0; i < cpus_.size(); ++i) {
    int cpu = static_cast<int>(i);
    if (cpus_[i].mode == CpuMode::kBusy) {
      self.freq_.AccountBusyEnd(cpu);
      self.freq_.AccountBusyStart(cpu);
    }
    self.freq_.AccountEnergy(cpu);
    CpuStats cs = cpus_[i].stats;
    idle_.CloseOpenIdle(cpu, cs);
    std::sort(cs.busy_ns_at_khz.begin(), cs.busy_ns_at_khz.end());
    out.context_switches += cs.context_switches;
    out.migrations += cs.migrations_in;
    out.cpus.push_back(std::move(cs));
  }
  // Package energy: the CPUs' own energy plus uncore and core static power
  // over the whole interval.
  const topology::PowerSpec& pw = topo_.power();
  double seconds = (now_ns_ - stats_start_ns_) * 1e-9;
  for (size_t p = 0; p < packages_.size(); ++p) {
    PackageStats ps = packages_[p].stats;
    double e = 0;
    for (int cpu = packages_[p].cpus.First(); cpu >= 0;
         cpu = packages_[p].cpus.Next(cpu)) {
      e += cpus_[cpu].energy_uj;
    }
    int cores = 0;
    for (int core = 0; core < topo_.num_cores(); ++core) {
      if (topo_.cores()[core].IsSubsetOf(packages_[p].cpus)) ++cores;
    }
    e += (static_cast<double>(pw.uncore_mw) +
          static_cast<double>(pw.static_mw_per_core) * cores) *
         seconds * 1000.0;
    ps.energy_uj = e;
    out.packages.push_back(ps);
  }
  return out;
}

}  // namespace schedsim::sim
