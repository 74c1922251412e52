// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// What a run measured. Everything is cumulative from the start of the run
// (or from the last ResetStats(), which experiments call after warm-up).
// Partly public: include/schedsim/metrics.h re-exports PlacementStats,
// PackageStats, CpuStats and the run and task totals.

#ifndef SCHEDSIM_SIM_STATS_H_
#define SCHEDSIM_SIM_STATS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "platform/cpuidle.h"
#include "sim/histogram.h"

namespace schedsim::sim {

struct CpuStats {
  int64_t busy_ns = 0;  // running a task (including kernel costs charged)
  int64_t idle_ns = 0;  // in an idle state (including POLL), or entering it
  std::vector<platform::IdleStateStats> states;  // per idle state
  uint64_t context_switches = 0;
  uint64_t migrations_in = 0;
  uint64_t ipis_received = 0;
  uint64_t poll_wakeups = 0;  // woken in POLL without an IPI
  uint64_t ticks = 0;
  // Time at each frequency while busy: (kHz, ns), sorted by kHz.
  std::vector<std::pair<int64_t, int64_t>> busy_ns_at_khz;
  // APERF/MPERF-style effective busy frequency: sum(khz * ns) while busy.
  double khz_ns_busy = 0;
};

// The wake-up path, counted as the kernel's schedstats and the SIS papers
// count it.
struct PlacementStats {
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
  // The wakee was placed on a CPU other than the one it last ran on
  // (schedstats' nr_wakeups_migrate).
  uint64_t migrated_wakeups = 0;
  uint64_t wake_list = 0;  // delivered through the target's wake list
  uint64_t ipis = 0;       // IPIs sent for wake-ups
  uint64_t forks = 0;
  // probes per search: index = probes (last bucket: that many or more).
  std::vector<uint64_t> probes_histogram = std::vector<uint64_t>(33, 0);
};

// A task's counters, shared by TaskStats and the public TaskMetrics
// (include/schedsim/metrics.h).
struct TaskTotals {
  int64_t run_ns = 0;
  int64_t iowait_ns = 0;
  uint64_t migrations = 0;
  uint64_t wakeups = 0;
  uint64_t voluntary_switches = 0;
  uint64_t involuntary_switches = 0;
  // schedstats (kernel/sched/stats.h, /proc/<pid>/sched): time runnable on
  // a runqueue but not running (se.statistics.wait_sum, in the model also
  // sched_info.run_delay: both run from the enqueue or the preemption to
  // the switch in), the waits counted and the longest.
  int64_t wait_sum_ns = 0;
  int64_t wait_max_ns = 0;
  uint64_t wait_count = 0;
  bool exited = false;
};

struct TaskStats : TaskTotals {
  std::string name;
  SmallLatencyHistogram wakeup_latency_ns;  // runnable -> running
};

struct MetricStats {
  std::string name;
  uint64_t count = 0;
  LatencyHistogram latency_ns;  // from the task's last kStamp, if any
};

// One shared line's traffic (Workload::lines).
struct SharedLineStats {
  std::string name;
  uint64_t writes = 0;     // kShared writes
  uint64_t transfers = 0;  // writes that moved the line from another CPU
  int64_t stall_ns = 0;    // transfer and waiting time the writers paid
};

struct PackageStats {
  double energy_uj = 0;  // RAPL-like package energy
  int64_t pl1_capped_ns = 0;
};

// A KVM guest's halts (topology::GuestSpec), all vCPUs; 0 on a machine of
// its own. The host-side names are KVM's vCPU statistics
// (virt/kvm/kvm_main.c, v6.1).
struct GuestTotals {
  uint64_t polls = 0;           // guest POLL periods (cpuidle-haltpoll)
  uint64_t poll_successes = 0;  // of those, ended by a wake-up or task timer
  uint64_t halt_exits = 0;      // HLTs, each a VM exit (halt_exits)
  uint64_t host_attempted_polls = 0;   // halt_attempted_poll
  uint64_t host_successful_polls = 0;  // halt_successful_poll
  uint64_t host_wakeups = 0;  // halt_wakeup: the vCPU thread was scheduled out
  // The wake-up latency of the halts, from the guest's side: the exit and
  // re-entry, and for a vCPU scheduled out the host CPU's idle exit and
  // switch back (IdlePath::GuestHaltExitNs).
  int64_t halt_wake_ns = 0;
};

// The counters by the names the reports give them (KVM's vCPU statistics
// for the host's side), in report order: `run`'s and `simulate`'s JSON
// both take them from here.
inline std::vector<std::pair<const char*, int64_t>> GuestCounterFields(
    const GuestTotals& g) {
  auto n = [](uint64_t v) { return static_cast<int64_t>(v); };
  return {{"guest_polls", n(g.polls)},
          {"guest_poll_successes", n(g.poll_successes)},
          {"halt_exits", n(g.halt_exits)},
          {"halt_attempted_poll", n(g.host_attempted_polls)},
          {"halt_successful_poll", n(g.host_successful_polls)},
          {"halt_wakeup", n(g.host_wakeups)},
          {"halt_wake_ns", g.halt_wake_ns}};
}

// A run's machine-wide counters, shared by SimStats and the public Metrics
// (include/schedsim/metrics.h).
struct RunTotals {
  int64_t start_ns = 0;  // when the stats were last reset
  int64_t end_ns = 0;
  uint64_t events = 0;  // queue pops that ran a handler
  std::vector<PackageStats> packages;
  PlacementStats placement;
  uint64_t migrations = 0;
  uint64_t context_switches = 0;
  // Of those, switches between tasks of one mm (SimConfig::mm_switch_ns
  // not charged).
  uint64_t mm_switches_avoided = 0;
  uint64_t load_balance_migrations = 0;
  // Background kernel activity handled, all CPUs (timers, kworker and RCU
  // runs, device interrupts: docs/model.md "Run-to-run variability").
  uint64_t background_events = 0;
  GuestTotals guest;

  double duration_s() const { return (end_ns - start_ns) * 1e-9; }
  double energy_uj() const {
    double e = 0;
    for (const PackageStats& p : packages) e += p.energy_uj;
    return e;
  }
};

struct SimStats : RunTotals {
  std::vector<CpuStats> cpus;
  // One entry per task slot: the task in it now, or the last one that
  // exited from it. An exited task's slot is reused by a later fork.
  std::vector<TaskStats> tasks;
  // Tasks of the interval no longer in `tasks`: exited, and their slot
  // taken by a newer task. Their time and events are in the totals.
  uint64_t tasks_reaped = 0;
  std::vector<MetricStats> metrics;
  std::vector<SharedLineStats> lines;
  LatencyHistogram wakeup_latency_ns;  // all tasks
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_STATS_H_
