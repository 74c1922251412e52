// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The machine-side reports of an experiment, turbostat-style: per-CPU %C0
// and C-state residency, a %C0 histogram in 10% bins (as in the 2013 menu
// regression report, seed 003), frequency residency, energy and energy per
// operation, and the wake-up placement statistics.
//
// Each run keeps a compact RunReport (a few numbers per CPU); the runs of
// one variant at one sweep point are combined into a VariantReport (means
// over the iterations), which `schedsim run` prints after the comparison
// table and writes to the JSON result.
//
//   RunReport r = MakeRunReport(simulator->Stats(), machine);
//   ...
//   VariantReport v =
//       CombineRunReports(runs, cstate_names, ops_per_s, "ops_per_s");
//   std::cout << C0HistogramText(v.c0_histogram);
//
// %C0 is the share of time a CPU is not in a halted idle state: running,
// polling (POLL, a C0 loop) or awake between idle and running. A C-state's
// residency is its share of the measured interval.

#ifndef SCHEDSIM_EXPERIMENTS_REPORTS_H_
#define SCHEDSIM_EXPERIMENTS_REPORTS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "experiments/json_util.h"
#include "sim/stats.h"
#include "topology/topology.h"
#include "workloads/model_registry.h"

namespace schedsim::experiments {

// What one run leaves for the reports.
struct RunReport {
  double duration_s = 0;
  double energy_j = 0;
  std::vector<double> c0_pct;                   // per CPU
  std::vector<std::vector<double>> cstate_pct;  // per CPU, per idle state
  // Busy time at each frequency, summed over CPUs: (kHz, ns) by kHz.
  std::vector<std::pair<int64_t, int64_t>> busy_ns_at_khz;
  int64_t busy_ns = 0;     // all CPUs
  double khz_ns_busy = 0;  // sum of kHz * ns while busy, all CPUs
  uint64_t wakeups = 0;    // placement counters (sim/stats.h)
  uint64_t searches = 0;
  uint64_t probes = 0;
  uint64_t chosen_idle = 0;
  uint64_t chose_target = 0;
  uint64_t chose_prev = 0;
  uint64_t chose_other = 0;
  uint64_t migrations = 0;
  uint64_t context_switches = 0;
  // schedstats, summed over the tasks (sim::TaskTotals) and the wake-ups
  // (sim::PlacementStats), under the names /proc/<pid>/sched and
  // /proc/schedstat use.
  int64_t wait_sum_ns = 0;  // se.statistics.wait_sum (also run_delay)
  uint64_t wait_count = 0;
  int64_t wait_max_ns = 0;
  uint64_t nr_voluntary_switches = 0;
  uint64_t nr_involuntary_switches = 0;
  uint64_t nr_wakeups_local = 0;  // on the waking CPU
  uint64_t nr_wakeups_remote = 0;
  uint64_t nr_wakeups_migrate = 0;  // not on the CPU it last ran on
  uint64_t nr_wakeups_affine = 0;   // wake_affine() chose the waking CPU
  uint64_t searches_failed = 0;     // idle-CPU searches that found none
  // On a KVM guest (topology::GuestSpec): its halts (sim::GuestTotals).
  bool guest = false;
  sim::GuestTotals halts;
};

RunReport MakeRunReport(const sim::SimStats& stats,
                        const topology::Topology& machine);

// Bins of the %C0 histogram: [0, 10), [10, 20), ..., [90, 100].
inline constexpr int kC0HistogramBins = 10;

// The runs of one variant at one sweep point, combined.
struct VariantReport {
  int runs = 0;
  std::vector<std::string> cstate_names;        // the machine's idle states
  std::vector<double> c0_pct;                   // per CPU, mean over runs
  std::vector<std::vector<double>> cstate_pct;  // per CPU and state, mean
  double c0_avg_pct = 0;                        // mean over CPUs
  std::vector<double> cstate_avg_pct;           // per state, mean over CPUs
  // How many (CPU, run) pairs had their %C0 in each bin.
  std::vector<int> c0_histogram = std::vector<int>(kC0HistogramBins, 0);
  double avg_busy_mhz = 0;  // busy-time-weighted, all CPUs and runs
  // Share of busy time at each frequency, in percent: (kHz, %) by kHz.
  std::vector<std::pair<int64_t, double>> busy_pct_at_khz;
  double energy_j = 0;  // mean per run
  double power_w = 0;   // mean energy / mean duration
  // Joules per operation of the throughput metric (total energy / total
  // operations); NaN without one.
  std::string energy_per_op_metric;  // "" without one
  double energy_per_op_j = 0;
  double searches_per_run = 0;
  double wakeups_per_run = 0;
  double probes_per_search = 0;
  double idle_hit_pct = 0;  // searches that found an idle CPU
  double target_pct = 0;    // searches that chose target / prev / another
  double prev_pct = 0;
  double other_pct = 0;
  double migrations_per_run = 0;
  double context_switches_per_run = 0;
  // RunReport's schedstats, as means per run (wait_max: the largest).
  double wait_sum_ms_per_run = 0;
  double wait_count_per_run = 0;
  double wait_avg_us = 0;  // wait_sum / wait_count
  double wait_max_ms = 0;
  double voluntary_switches_per_run = 0;
  double involuntary_switches_per_run = 0;
  double wakeups_local_per_run = 0;
  double wakeups_remote_per_run = 0;
  double wakeups_migrate_per_run = 0;
  double wakeups_affine_per_run = 0;
  double searches_failed_per_run = 0;
  // On a KVM guest: the halts (docs/experiments.md, "Guests"), per run and
  // as shares: guest polls ended by a wake-up, host polls that caught
  // theirs, and the mean wake-up latency of a halt.
  bool guest = false;
  double guest_polls_per_run = 0;
  double guest_poll_success_pct = 0;
  double halt_exits_per_run = 0;
  double host_polls_per_run = 0;  // halt_attempted_poll
  double host_poll_success_pct = 0;
  double host_wakeups_per_run = 0;  // vCPU scheduled out
  double halt_wake_avg_us = 0;
};

// The metric energy per operation is computed against: the first metric
// that is higher-is-better with a harmonic mean (a rate, such as ops/s);
// -1 if there is none.
int ThroughputMetricIndex(const std::vector<workloads::MetricInfo>& metrics);

// Combines the runs. `throughput` is the throughput metric's value in each
// run (operations per second; empty when the model has none) and
// `throughput_name` its name.
VariantReport CombineRunReports(const std::vector<const RunReport*>& runs,
                                const std::vector<std::string>& cstate_names,
                                const std::vector<double>& throughput,
                                const std::string& throughput_name);

// The histogram in the turbostat-script layout of seed 003:
// "  0.0000 -  10.0000 [  3]: ***", one line per bin.
std::string C0HistogramText(const std::vector<int>& bins);

// The reports of every variant at one sweep point, side by side: a summary
// table (%C0, residency per state, busy MHz, energy, energy per op,
// placement), per-CPU residency when the machine has at most
// kReportsMaxTextCpus CPUs, the %C0 histograms and the frequency residency.
inline constexpr int kReportsMaxTextCpus = 16;
std::string ReportsText(const std::vector<std::string>& variant_names,
                        const std::vector<VariantReport>& reports);

OrderedJson RunReportJson(const RunReport& report,
                          const std::vector<std::string>& cstate_names);
OrderedJson VariantReportJson(const VariantReport& report);

// Text-table helper (also used by compare.cc): pads the cells of each
// column to the column's width (in UTF-8 characters) and joins them with
// `gap` spaces; cells are right-aligned except in the first
// `left_columns` columns. Rows may have fewer cells than others.
std::string AlignColumns(const std::vector<std::vector<std::string>>& rows,
                         int left_columns, int gap);
// Display width of UTF-8 text (code points).
size_t DisplayWidth(const std::string& text);

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_REPORTS_H_
