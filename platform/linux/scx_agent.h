// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The user-space half of `schedsim scx`: a registered PlacementPolicy (the
// object `run` and the test kit use, not a copy) deciding where each woken
// task runs on a live machine under sched_ext.
//
// The BPF program (scx/scx_place.bpf.c) sends every wake-up to the agent
// through a ring buffer (struct schedsim_scx_event) and dispatches the task
// to the CPU the agent answers through a queue map (struct
// schedsim_scx_decision). The policy reads the machine through
// LiveSchedView: the idle state, queue lengths and busy time the BPF side
// keeps per CPU in its global data (struct schedsim_scx_bss, mapped into
// the agent), and the topology and scheduling domains imported from sysfs.
//
// Nothing here needs libbpf: the loader that owns the BPF object
// (scx_libbpf.cc, built only where libbpf-dev is installed) registers
// itself with SetScxBackend. The agent and the view are tested over a
// plain schedsim_scx_bss in memory.

#ifndef SCHEDSIM_PLATFORM_LINUX_SCX_AGENT_H_
#define SCHEDSIM_PLATFORM_LINUX_SCX_AGENT_H_

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "platform/linux/scx/scx_shared.h"
#include "platform/placement.h"
#include "topology/cpuset.h"
#include "topology/sched_domains.h"
#include "topology/topology.h"

namespace schedsim::platform::host {

// CLOCK_MONOTONIC in ns: the clock of bpf_ktime_get_ns().
int64_t MonotonicNs();

// The live machine as a SchedView. Reads the BPF side's per-CPU state
// (probes count, as the simulator's do); keeps what the kernel would keep
// in sd_llc_shared and the sched_domains (has_idle_cores, avg_scan_cost,
// wake_avg_idle) itself, because the BPF scheduler replaces the fair
// class's wake-up path and nothing else updates them.
class LiveSchedView final : public SchedView {
 public:
  // `shared` outlives the view; `clock` returns CLOCK_MONOTONIC ns.
  LiveSchedView(const topology::Topology& topology,
                const topology::SchedDomains& domains,
                const schedsim_scx_bss* shared, std::function<int64_t()> clock);

  const topology::Topology& topology() const override { return topology_; }
  const topology::SchedDomains& domains() const override { return domains_; }
  bool smt_active() const override { return smt_active_; }
  int64_t now_ns() const override { return clock_(); }

  bool available_idle(int cpu) override;
  // SCHED_IDLE tasks are not told apart by the BPF side: never.
  bool sched_idle(int cpu) override;
  bool idle_for_wakeup(int cpu) override;
  int nr_running(int cpu) override;
  int64_t cpu_util(int cpu) override;
  // The wake list is the fair class's; under sched_ext: never pending.
  bool ttwu_pending(int cpu) override;

  bool has_idle_cores(int cpu) const override;
  void set_idle_cores(int cpu, bool value) override;
  int nr_idle_scan(int cpu) const override;

  int64_t avg_idle_ns(int cpu) const override;
  int64_t wake_avg_idle_ns(int cpu) override;
  void set_wake_avg_idle_ns(int cpu, int64_t value) override;
  int64_t avg_scan_cost_ns(int cpu) const override;
  void set_avg_scan_cost_ns(int cpu, int64_t value) override;
  // Real time since BeginSearch().
  int64_t scan_time_ns() const override;

  // Updates the utilization estimates (an EWMA of each CPU's busy share
  // with PELT's 32 ms half-life, scaled to 1024) from the BPF side's busy
  // time, and SIS_UTIL's nr_idle_scan from them (update_idle_cpu_scan,
  // kernel/sched/fair.c, v6.1).
  void Refresh();
  void BeginSearch();
  int64_t probes() const { return probes_; }
  // Idle with nothing queued, read without counting a probe.
  bool IsIdle(int cpu) const;

 private:
  const topology::Topology& topology_;
  const topology::SchedDomains& domains_;
  const schedsim_scx_bss* shared_;
  std::function<int64_t()> clock_;
  bool smt_active_ = false;
  int64_t probes_ = 0;
  int64_t search_start_ns_ = 0;
  int64_t last_refresh_ns_ = 0;
  std::vector<uint64_t> last_busy_ns_;
  std::vector<double> util_;  // 0..1024
  std::vector<int> llc_index_;
  std::vector<char> has_idle_cores_;  // per LLC
  std::vector<int> nr_idle_scan_;     // per CPU
  std::vector<int64_t> wake_avg_idle_ns_;
  std::vector<int64_t> avg_scan_cost_ns_;
};

// What the agent did, beside the BPF side's counters.
struct ScxAgentStats {
  int64_t wakeups = 0;       // events decided
  int64_t probes = 0;        // SchedView reads of other CPUs' state
  int64_t chosen_idle = 0;   // the chosen CPU was idle when chosen
  int64_t chose_target = 0;  // ... and was the wake_affine target
  int64_t chose_prev = 0;
  int64_t chose_other = 0;
  int64_t outside_mask = 0;  // the policy chose a CPU the task may not use
  int64_t idle_events = 0;   // OnCpuIdle calls
  int64_t bad_events = 0;    // events with a CPU out of range
  int64_t decide_ns = 0;     // time in SelectIdleSibling, total
};

class ScxAgent {
 public:
  // Attaches `policy` to the machine. All references outlive the agent.
  ScxAgent(PlacementPolicy& policy, const topology::Topology& topology,
           const topology::SchedDomains& domains,
           const schedsim_scx_bss* shared,
           std::function<int64_t()> clock = MonotonicNs);

  // A wake-up: runs wake_affine_idle() for the target (this_cpu or
  // prev_cpu) and the policy's SelectIdleSibling, and returns the decision
  // (a CPU the task may run on: prev_cpu, or its first allowed CPU, when
  // the policy's choice is outside its mask).
  schedsim_scx_decision OnWakeup(const schedsim_scx_event& event);
  // A CPU going idle: the policy's OnCpuIdle (update_idle_core).
  void OnIdle(int cpu);
  // Call every few ms: refreshes the utilization estimates.
  void Tick() { view_.Refresh(); }

  const ScxAgentStats& stats() const { return stats_; }
  LiveSchedView& view() { return view_; }

 private:
  int WakeAffineTarget(int this_cpu, int prev_cpu, bool sync);

  PlacementPolicy& policy_;
  const topology::SchedDomains& domains_;
  LiveSchedView view_;
  ScxAgentStats stats_;
  std::vector<int> recent_used_cpu_;  // by pid % size
  topology::CpuSet allowed_;
};

// The exit report: the agent's and the BPF side's counters.
struct ScxReport {
  std::string policy;
  double seconds = 0;
  ScxAgentStats agent;
  schedsim_scx_counters bpf = {};
  double latency_mean_ns = 0;
  double latency_p99_ns = 0;
  double latency_max_ns = 0;
  int64_t latency_samples = 0;  // the samples the p99 is taken over
  std::string exit_reason;      // why the run ended

  // Share of the policy's searches whose chosen CPU was idle, 0..100.
  double idle_found_pct() const;
  double probes_per_search() const;
  std::string Text() const;
  std::string Json() const;
};

// Fills `report` from the shared memory's counters and latency samples.
void CollectBpfCounters(const schedsim_scx_bss& shared, ScxReport* report);

// How a run is set up (flags of `schedsim scx`).
struct ScxRunOptions {
  std::string bpf_object;  // the compiled scx_place.bpf.o
  double duration_s = 0;   // 0: until SIGINT/SIGTERM
  int64_t max_outstanding = 256;
  int64_t slice_us = 5000;
  bool idle_events = true;  // send idle entries (OnCpuIdle)
  // Non-empty: one line per decision, "enq_ns pid this_cpu prev_cpu cpu"
  // (enq_ns: CLOCK_MONOTONIC of the BPF enqueue; cpu -1: left to the BPF
  // side).
  std::string decision_log;
  std::ostream* log = nullptr;  // progress lines
};

// Loads, attaches and runs the BPF scheduler with the agent; the report
// on return (also after a signal).
using ScxBackendFn = std::function<absl::StatusOr<ScxReport>(
    PlacementPolicy& policy, const topology::Topology& topology,
    const topology::SchedDomains& domains, const ScxRunOptions& options)>;

// The loader linked into this binary, or null (built without libbpf).
const ScxBackendFn* ScxBackend();
// Called once by the loader's static initializer; returns true.
bool SetScxBackend(ScxBackendFn backend);

}  // namespace schedsim::platform::host

#endif  // SCHEDSIM_PLATFORM_LINUX_SCX_AGENT_H_
