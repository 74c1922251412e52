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

namespace schedsim {

// A latency distribution, in nanoseconds. Percentiles come from a
// log-linear histogram: machine-wide and per-mark ones within 6.25%,
// per-task ones within 50% (count, mean, min and max are exact).
struct LatencySummary {
  uint64_t count = 0;
  double mean_ns = 0;
  int64_t min_ns = 0;
  int64_t p50_ns = 0;
  int64_t p90_ns = 0;
  int64_t p99_ns = 0;
  int64_t p999_ns = 0;
  int64_t max_ns = 0;
};

// One idle state of one CPU, as /sys/devices/system/cpu/cpuN/cpuidle/stateK
// counts it.
struct IdleStateMetrics {
  std::string name;     // "C1E"
  uint64_t usage = 0;   // times entered
  int64_t time_ns = 0;  // residency
  uint64_t above = 0;   // left before its target residency ("too deep")
  uint64_t below = 0;   // a deeper enabled state would have fitted
  uint64_t rejected = 0;
};

struct CpuMetrics {
  int64_t busy_ns = 0;  // running a task (kernel costs charged included)
  int64_t idle_ns = 0;  // in an idle state (POLL included) or entering it
  std::vector<IdleStateMetrics> idle_states;  // the machine's C-state table
  uint64_t context_switches = 0;
  uint64_t migrations_in = 0;
  uint64_t ipis_received = 0;
  uint64_t poll_wakeups = 0;  // woken in POLL without an IPI
  uint64_t ticks = 0;
  // Time at each frequency while busy: (kHz, ns), by increasing kHz.
  std::vector<std::pair<int64_t, int64_t>> busy_ns_at_khz;
  // The APERF/MPERF-style average frequency while busy (0 if never busy).
  double avg_busy_khz = 0;
};

struct TaskMetrics {
  std::string name;
  LatencySummary wakeup_latency;  // runnable -> running
  int64_t run_ns = 0;
  int64_t iowait_ns = 0;
  uint64_t migrations = 0;
  uint64_t wakeups = 0;
  uint64_t voluntary_switches = 0;
  uint64_t involuntary_switches = 0;
  bool exited = false;
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
struct PlacementMetrics {
  uint64_t wakeups = 0;         // try_to_wake_up that enqueued a task
  uint64_t affine_this = 0;     // wake_affine chose the waking CPU
  uint64_t affine_prev = 0;     // wake_affine chose prev
  uint64_t wake_wide = 0;       // wake_wide() disabled affine wake-up
  uint64_t searches = 0;        // select_idle_sibling calls
  uint64_t probes = 0;          // runqueues probed, all searches
  uint64_t chosen_idle = 0;     // the chosen CPU was idle
  uint64_t chose_target = 0;    // result == target
  uint64_t chose_prev = 0;      // result == prev (!= target)
  uint64_t chose_other = 0;     // recent_used_cpu or a scanned CPU
  uint64_t remote_wakeups = 0;  // the wakee ran on a CPU other than the waker
  uint64_t wake_list = 0;       // delivered through the target's wake list
  uint64_t ipis = 0;            // IPIs sent for wake-ups
  uint64_t forks = 0;
  // Searches by runqueues probed: index = probes (the last bucket counts
  // that many or more).
  std::vector<uint64_t> probes_histogram;
};

struct PackageMetrics {
  double energy_uj = 0;  // RAPL-like package energy
  int64_t pl1_capped_ns = 0;
};

struct Metrics {
  int64_t start_ns = 0;  // the start of the run, or the last ResetStats()
  int64_t end_ns = 0;
  uint64_t events = 0;  // simulator events handled
  std::vector<CpuMetrics> cpus;
  std::vector<TaskMetrics> tasks;  // every task, forked ones included
  std::vector<MarkMetrics> marks;  // in Workload::marks order
  std::vector<PackageMetrics> packages;
  PlacementMetrics placement;
  LatencySummary wakeup_latency;  // all tasks
  uint64_t migrations = 0;
  uint64_t context_switches = 0;
  uint64_t load_balance_migrations = 0;

  double duration_s() const { return (end_ns - start_ns) * 1e-9; }
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
