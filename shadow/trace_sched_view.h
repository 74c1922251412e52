// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The placement-policy backend of ShadowPlacement (shadow_placement.cc): the
// scheduler state rebuilt from the trace (who runs where, PELT utilization,
// avg_idle, the SIS inputs), shown to the policy as a SchedView.

#ifndef SCHEDSIM_SHADOW_TRACE_SCHED_VIEW_H_
#define SCHEDSIM_SHADOW_TRACE_SCHED_VIEW_H_

#include <algorithm>
#include <cstdint>
#include <vector>

#include "platform/placement.h"
#include "shadow/shadow.h"
#include "shadow/shadow_common.h"
#include "sim/pelt.h"
#include "topology/sched_domains.h"
#include "topology/topology.h"

namespace schedsim::traces::shadow_internal {

// migration_cost (500 us).
constexpr int64_t kAvgIdleMaxNs = 2 * 500000;

// The scheduler state rebuilt from the trace, as a SchedView.
class TraceSchedView final : public platform::SchedView {
 public:
  TraceSchedView(const topology::Topology& machine,
                 const topology::SchedDomains& domains,
                 const PlacementShadowOptions& options)
      : topology_(machine),
        domains_(domains),
        probe_cost_ns_(options.probe_cost_ns),
        tick_ns_(kNsPerS / options.hz),
        cpus_(machine.num_cpus()),
        llcs_(machine.num_llcs()) {}

  struct Cpu {
    int current = 0;  // pid running; 0 = the idle task
    int queued = 0;   // runnable tasks waiting
    sim::PeltSignal util;
    int64_t idle_stamp_ns = 0;  // when it last went idle; 0 = busy
    int64_t avg_idle_ns = kAvgIdleMaxNs;
    int64_t wake_avg_idle_ns = kAvgIdleMaxNs / 2;
    int64_t wake_stamp_jiffies = 0;
    int64_t avg_scan_cost_ns = 0;  // this CPU's sd_llc's
  };
  struct Llc {
    bool has_idle_cores = false;
  };

  void Start(int64_t now_ns, const std::vector<int>& first_pid) {
    now_ns_ = now_ns;
    for (size_t c = 0; c < cpus_.size(); ++c) {
      Cpu& cpu = cpus_[c];
      cpu.current = std::max(first_pid[c], 0);
      cpu.util.last_update_ns = now_ns;
      cpu.wake_stamp_jiffies = now_ns / tick_ns_;
      if (cpu.current == 0) cpu.idle_stamp_ns = now_ns;
    }
  }
  void set_now_ns(int64_t now) { now_ns_ = std::max(now_ns_, now); }
  Cpu& cpu(int c) { return cpus_[c]; }

  // The CPU starts running `pid` (0: the idle task). Returns true when it
  // went from a task to the idle task.
  bool SetCurrent(int c, int pid) {
    Cpu& cpu = cpus_[c];
    sim::PeltUpdate(cpu.util, now_ns_, cpu.current != 0,
                    sim::kSchedCapacityScale);
    const bool was_idle = cpu.current == 0;
    cpu.current = pid;
    if (was_idle && pid != 0 && cpu.idle_stamp_ns > 0) {
      // ttwu_do_wakeup's avg_idle update.
      const int64_t delta = now_ns_ - cpu.idle_stamp_ns;
      cpu.avg_idle_ns += (delta - cpu.avg_idle_ns) / 8;
      cpu.avg_idle_ns = std::min(cpu.avg_idle_ns, kAvgIdleMaxNs);
      cpu.wake_stamp_jiffies = now_ns_ / tick_ns_;
      cpu.wake_avg_idle_ns = cpu.avg_idle_ns / 2;
      cpu.idle_stamp_ns = 0;
    }
    if (!was_idle && pid == 0) {
      cpu.idle_stamp_ns = now_ns_;
      return true;
    }
    return false;
  }

  // Idle at this instant, without counting a probe.
  bool IsIdle(int c) const {
    return cpus_[c].current == 0 && cpus_[c].queued == 0;
  }
  int64_t Util(int c) {
    Cpu& cpu = cpus_[c];
    sim::PeltUpdate(cpu.util, now_ns_, cpu.current != 0,
                    sim::kSchedCapacityScale);
    return std::min<int64_t>(cpu.util.util_avg, sim::kSchedCapacityScale);
  }
  // SIS_UTIL's update_idle_cpu_scan for the LLC of every CPU.
  void UpdateIdleScan() {
    nr_idle_scan_.assign(cpus_.size(), 0);
    for (size_t c = 0; c < cpus_.size(); ++c) {
      const int cpu = static_cast<int>(c);
      const topology::SchedDomain* sd =
          domains_.HighestFlagDomain(cpu, topology::kSdSharePkgResources);
      if (sd == nullptr) {
        nr_idle_scan_[c] = 1;
        continue;
      }
      const int64_t weight = sd->span.Count();
      int64_t sum = 0;
      for (int o = sd->span.First(); o >= 0; o = sd->span.Next(o)) {
        sum += Util(o);
      }
      const int64_t x = sum / weight;
      const int64_t pct = sd->imbalance_pct;
      const int64_t tmp =
          std::min<int64_t>(x * x * pct * pct / (10000 * 1024), 1024);
      nr_idle_scan_[c] = static_cast<int>((1024 - tmp) * weight / 1024);
    }
  }
  void BeginSearch() {
    probes_ = 0;
    UpdateIdleScan();
  }
  int64_t probes() const { return probes_; }

  // --- SchedView
  const topology::Topology& topology() const override { return topology_; }
  const topology::SchedDomains& domains() const override { return domains_; }
  bool smt_active() const override { return topology_.threads_per_core() > 1; }
  int64_t now_ns() const override { return now_ns_; }
  bool available_idle(int c) override {
    ++probes_;
    return IsIdle(c);
  }
  bool sched_idle(int c) override { return false; }
  int nr_running(int c) override {
    ++probes_;
    return (cpus_[c].current != 0 ? 1 : 0) + cpus_[c].queued;
  }
  int64_t cpu_util(int c) override {
    ++probes_;
    return Util(c);
  }
  bool ttwu_pending(int c) override { return false; }
  bool has_idle_cores(int c) const override {
    return llcs_[topology_.place(c).llc].has_idle_cores;
  }
  void set_idle_cores(int c, bool value) override {
    llcs_[topology_.place(c).llc].has_idle_cores = value;
  }
  int nr_idle_scan(int c) const override {
    return nr_idle_scan_.empty() ? 0 : nr_idle_scan_[c];
  }
  int64_t avg_idle_ns(int c) const override { return cpus_[c].avg_idle_ns; }
  int64_t wake_avg_idle_ns(int c) override {
    Cpu& cpu = cpus_[c];
    const int64_t jiffies = now_ns_ / tick_ns_;
    while (cpu.wake_stamp_jiffies < jiffies && cpu.wake_avg_idle_ns > 0) {
      ++cpu.wake_stamp_jiffies;
      cpu.wake_avg_idle_ns /= 2;
    }
    return cpu.wake_avg_idle_ns;
  }
  void set_wake_avg_idle_ns(int c, int64_t value) override {
    cpus_[c].wake_avg_idle_ns = value;
  }
  int64_t avg_scan_cost_ns(int c) const override {
    return cpus_[c].avg_scan_cost_ns;
  }
  void set_avg_scan_cost_ns(int c, int64_t value) override {
    cpus_[c].avg_scan_cost_ns = value;
  }
  int64_t scan_time_ns() const override { return probes_ * probe_cost_ns_; }

 private:
  const topology::Topology& topology_;
  const topology::SchedDomains& domains_;
  int64_t probe_cost_ns_;
  int64_t tick_ns_;
  int64_t now_ns_ = 0;
  int64_t probes_ = 0;
  std::vector<Cpu> cpus_;
  std::vector<Llc> llcs_;
  std::vector<int> nr_idle_scan_;
};

}  // namespace schedsim::traces::shadow_internal

#endif  // SCHEDSIM_SHADOW_TRACE_SCHED_VIEW_H_
