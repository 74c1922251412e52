// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The SchedView the placement policy's select_idle_sibling() scan reads
// (platform/placement.h): each runqueue read is a probe charged to the
// waker, as the kernel's available_idle_cpu(), sched_idle_cpu() and
// cpu_util_cfs() reads are (kernel/sched/fair.c, Linux 6.1); the per-LLC
// state (sd_llc_shared's has_idle_cores and nr_idle_scan, SIS_PROP's
// avg_idle and avg_scan_cost) goes through the cache-line model.

#include <algorithm>
#include <cstdint>
#include <memory>

#include "sim/simulator_impl.h"

namespace schedsim::sim {

namespace {

// SchedView over the simulator's runqueues; every runqueue read is a
// probe charged to the waker.
class SimSchedView final : public platform::SchedView {
 public:
  explicit SimSchedView(SimulatorImpl* sim) : sim_(sim) {}

  const topology::Topology& topology() const override { return sim_->topo(); }
  const topology::SchedDomains& domains() const override {
    return sim_->domains();
  }
  bool smt_active() const override {
    return sim_->topo().threads_per_core() > 1;
  }
  int64_t now_ns() const override { return sim_->now_ns(); }
  bool available_idle(int cpu) override {
    sim_->CountProbe();
    return sim_->available_idle(cpu);
  }
  bool sched_idle(int cpu) override {
    return sim_->sched_idle(cpu);  // read together with available_idle
  }
  bool idle_for_wakeup(int cpu) override {
    sim_->CountProbe();
    return sim_->idle_for_wakeup(cpu);
  }
  int nr_running(int cpu) override {
    sim_->CountProbe();
    return sim_->cpu_state(cpu).nr_running;
  }
  int64_t cpu_util(int cpu) override {
    sim_->CountProbe();
    return sim_->cpu_util(cpu);
  }
  bool ttwu_pending(int cpu) override {
    return sim_->cpu_state(cpu).ttwu_pending > 0;
  }
  bool has_idle_cores(int cpu) const override {
    const int llc = sim_->cpu_state(cpu).llc;
    sim_->ReadLlcLine(llc, SimulatorImpl::LlcLine::kSdLlcShared);
    return sim_->has_idle_cores(llc);
  }
  void set_idle_cores(int cpu, bool value) override {
    const int llc = sim_->cpu_state(cpu).llc;
    sim_->WriteLlcLine(llc, SimulatorImpl::LlcLine::kSdLlcShared);
    sim_->set_has_idle_cores(llc, value);
  }
  void read_policy_llc_line(int cpu) override {
    sim_->ReadLlcLine(sim_->cpu_state(cpu).llc,
                      SimulatorImpl::LlcLine::kPolicy);
  }
  void write_policy_llc_line(int cpu) override {
    sim_->WriteLlcLine(sim_->cpu_state(cpu).llc,
                       SimulatorImpl::LlcLine::kPolicy);
  }
  bool cluster_scan_active() const override {
    return sim_->cluster_scan_active();
  }
  int nr_idle_scan(int cpu) const override {
    return sim_->nr_idle_scan(sim_->cpu_state(cpu).llc);
  }
  int64_t avg_idle_ns(int cpu) const override {
    return sim_->cpu_state(cpu).avg_idle_ns;
  }
  int64_t wake_avg_idle_ns(int cpu) override {
    return sim_->AgeWakeAvgIdleNs(cpu, sim_->now_ns() / sim_->tick_ns());
  }
  void set_wake_avg_idle_ns(int cpu, int64_t value) override {
    sim_->set_wake_avg_idle_ns(cpu, value);
  }
  int64_t avg_scan_cost_ns(int cpu) const override {
    return sim_->avg_scan_cost_ns(cpu);
  }
  void set_avg_scan_cost_ns(int cpu, int64_t value) override {
    sim_->set_avg_scan_cost_ns(cpu, value);
  }
  int64_t scan_time_ns() const override {
    return sim_->scan_probes() * sim_->config().probe_cost_ns;
  }

 private:
  SimulatorImpl* sim_;
};

}  // namespace

std::unique_ptr<platform::SchedView> MakeSimSchedView(SimulatorImpl* sim) {
  return std::make_unique<SimSchedView>(sim);
}

// cpu_util_cfs(): the runqueue's utilization (with UTIL_EST, the larger of
// util_avg and the enqueued tasks' estimates), capped at the CPU's original
// capacity (capacity_orig_of; 1024 on a symmetric machine).
int64_t SimulatorImpl::cpu_util(int cpu) const {
  return CpuUtil(cpu, topo_.capacity(cpu));
}

}  // namespace schedsim::sim
