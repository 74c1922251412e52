// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// What a simulation measured (Simulation::GetMetrics()): per CPU (busy and
// idle time, idle-state residency and the kernel's per-state counters,
// time at each frequency, context switches, IPIs), per task (wake-up
// latency, run time, migrations, switches), per mark (the operations the
// workload's programs count, with their latency), the wake-up path (the
// kernel's placement schedstats), package energy, and machine totals.
// Everything is cumulative from the start of the run or from the last
// Simulation::ResetStats().

#ifndef SCHEDSIM_INCLUDE_SCHEDSIM_METRICS_H_
#define SCHEDSIM_INCLUDE_SCHEDSIM_METRICS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "platform/cpuidle.h"
#include "sim/histogram.h"
#include "sim/stats.h"

namespace schedsim {

// The parts that are the engine's own (sim/histogram.h, sim/stats.h) are
// re-exported: one definition, no copy.
//
// A latency distribution, in nanoseconds: count, mean_ns, min_ns, p50_ns,
// p90_ns, p99_ns, p999_ns, max_ns. Percentiles come from a log-linear
// histogram: machine-wide and per-mark ones within 6.25%, per-task ones
// within 50% (count, mean, min and max are exact).
using sim::LatencySummary;

// One idle state of one CPU, as /sys/devices/system/cpu/cpuN/cpuidle/stateK
// counts it (usage, time_ns, above, below, rejected), and its name.
struct IdleStateMetrics : platform::IdleStateStats {
  std::string name;  // "C1E"
};

// The engine's counters of one CPU (sim::CpuStats: busy_ns, idle_ns,
// context_switches, migrations_in, ipis_received, poll_wakeups, ticks,
// busy_ns_at_khz, and the raw per-state counters and frequency integral),
// and:
struct CpuMetrics : sim::CpuStats {
  // The machine's C-state table: the per-state counters with their names.
  std::vector<IdleStateMetrics> idle_states;
  // The APERF/MPERF-style average frequency while busy (0 if never busy).
  double avg_busy_khz = 0;
};

// run_ns, iowait_ns, migrations, wakeups, voluntary_switches,
// involuntary_switches, exited (sim::TaskTotals), and:
struct TaskMetrics : sim::TaskTotals {
  std::string name;
  LatencySummary wakeup_latency;  // runnable -> running
};

// A workload mark: the operations ProgramBuilder::Mark counted, and their
// latency from the task's last Stamp.
struct MarkMetrics {
  std::string name;
  uint64_t count = 0;
  double per_second = 0;
  LatencySummary latency;
};

// The wake-up path, counted as the kernel's schedstats count it.
using PlacementMetrics = sim::PlacementStats;
// energy_uj (RAPL-like package energy) and pl1_capped_ns.
using PackageMetrics = sim::PackageStats;

// start_ns and end_ns (the start of the run, or the last ResetStats(),
// and now), events (simulator events handled), packages, placement,
// migrations, context_switches, load_balance_migrations, background_events
// (timers, kworker and RCU runs, device interrupts), guest (a KVM guest's
// polls, HLT exits and the host's halt polling; zero on other machines),
// duration_s() and energy_uj() (sim::RunTotals), and:
struct Metrics : sim::RunTotals {
  std::vector<CpuMetrics> cpus;
  // One per task slot, forked tasks included: the task in it now, or the
  // last one that exited from it (a later fork reuses an exited task's
  // slot, as the kernel's task_struct slab does).
  std::vector<TaskMetrics> tasks;
  // Tasks of the interval no longer in `tasks` (exited, slot reused).
  uint64_t tasks_reaped = 0;
  std::vector<MarkMetrics> marks;  // in Workload::metrics order
  LatencySummary wakeup_latency;   // all tasks

  // Package energy, all packages, in joules.
  double energy_j() const;
  // Busy time over CPU time, all CPUs, in percent.
  double busy_pct() const;
  // The mark called `name`; nullptr if none.
  const MarkMetrics* FindMark(const std::string& name) const;
};

// One number a workload model reports for a run (its own benchmark
// metric: transactions per second, p99 latency, ...).
struct ModelMetric {
  std::string name;
  std::string unit;
  bool higher_is_better = true;
  double value = 0;
};

}  // namespace schedsim

#endif  // SCHEDSIM_INCLUDE_SCHEDSIM_METRICS_H_
