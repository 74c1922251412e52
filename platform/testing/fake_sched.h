// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// FakeSchedView: a scripted SchedView for unit-testing placement policies
// (select_idle_sibling variants) without the simulator. Every CPU starts
// idle; mark CPUs busy, set utilization and the per-LLC hints, call the
// policy, and check the answer and the CPUs it probed.
//
//   FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
//   v.SetBusy(v.topology().llc_span(0));   // the whole first CCX busy
//   v.SetIdle(9);                           // but CPU 9 is in another CCX
//   SisUtil sis(...);
//   sis.Attach(v.topology(), v.domains());
//   int cpu = sis.SelectIdleSibling(v, v.Request(/*task=*/0, /*this_cpu=*/0,
//                                                /*prev=*/1, /*target=*/0));
//   EXPECT_EQ(v.probes().size(), ...);

#ifndef SCHEDSIM_PLATFORM_TESTING_FAKE_SCHED_H_
#define SCHEDSIM_PLATFORM_TESTING_FAKE_SCHED_H_

#include <cstdint>
#include <string>
#include <vector>

#include "platform/placement.h"
#include "topology/cpuset.h"
#include "topology/sched_domains.h"
#include "topology/topology.h"

namespace schedsim::platform::testing {

class FakeSchedView final : public SchedView {
 public:
  FakeSchedView(topology::Topology topology, topology::SchedDomains domains);
  // Aborts on an unknown name (test code).
  static FakeSchedView ForPreset(const std::string& machine);

  // --- Inputs --------------------------------------------------------------
  void SetBusy(int cpu, int nr_running = 1);
  void SetBusy(const topology::CpuSet& cpus, int nr_running = 1);
  void SetIdle(int cpu);
  void SetIdle(const topology::CpuSet& cpus);
  void SetAllBusy(int nr_running = 1);
  void set_sched_idle(int cpu, bool v) { sched_idle_[cpu] = v; }
  void set_util(int cpu, int64_t util) { util_[cpu] = util; }
  void set_ttwu_pending(int cpu, bool v) { ttwu_pending_[cpu] = v; }
  void set_nr_idle_scan(int cpu, int n);
  void set_avg_idle_ns(int cpu, int64_t ns) { avg_idle_[cpu] = ns; }
  void set_now_ns(int64_t now) { now_ns_ = now; }
  void set_cluster_scan_active(bool v) { cluster_scan_active_ = v; }
  // Simulated time per probe, for scan_time_ns() (default 60 ns).
  void set_probe_cost_ns(int64_t ns) { probe_cost_ns_ = ns; }

  // A request with every CPU allowed and this view's recent_used_cpu slot.
  WakeupRequest Request(int task, int this_cpu, int prev, int target,
                        uint32_t wake_flags = kWfTtwu);
  int recent_used_cpu = -1;

  // --- What the policy did
  // ---------------------------------------------------- CPUs probed
  // (available_idle, nr_running or cpu_util), in order.
  const std::vector<int>& probes() const { return probes_; }
  // Forgets the recorded probes and restarts scan_time_ns() at 0.
  void ClearProbes() {
    probes_.clear();
    probe_count_ = 0;
  }
  // Whether probes() records each probe (default true). Benchmarks turn it
  // off: the record is a growing vector. scan_time_ns() counts either way.
  void set_record_probes(bool record) { record_probes_ = record; }

  // --- SchedView
  // ------------------------------------------------------------------
  const topology::Topology& topology() const override { return topology_; }
  const topology::SchedDomains& domains() const override { return domains_; }
  bool smt_active() const override { return topology_.threads_per_core() > 1; }
  int64_t now_ns() const override { return now_ns_; }
  bool available_idle(int cpu) override;
  bool sched_idle(int cpu) override { return sched_idle_[cpu]; }
  int nr_running(int cpu) override;
  int64_t cpu_util(int cpu) override;
  bool ttwu_pending(int cpu) override { return ttwu_pending_[cpu]; }
  bool has_idle_cores(int cpu) const override;
  void set_idle_cores(int cpu, bool value) override;
  int nr_idle_scan(int cpu) const override;
  bool cluster_scan_active() const override { return cluster_scan_active_; }
  int64_t avg_idle_ns(int cpu) const override { return avg_idle_[cpu]; }
  int64_t wake_avg_idle_ns(int cpu) override { return wake_avg_idle_[cpu]; }
  void set_wake_avg_idle_ns(int cpu, int64_t value) override {
    wake_avg_idle_[cpu] = value;
  }
  int64_t avg_scan_cost_ns(int cpu) const override;
  void set_avg_scan_cost_ns(int cpu, int64_t value) override;
  int64_t scan_time_ns() const override {
    return probe_count_ * probe_cost_ns_;
  }

 private:
  void RecordProbe(int cpu) {
    ++probe_count_;
    if (record_probes_) probes_.push_back(cpu);
  }

  topology::Topology topology_;
  topology::SchedDomains domains_;
  int64_t now_ns_ = 0;
  int64_t probe_cost_ns_ = 60;
  std::vector<int> nr_running_;
  std::vector<bool> sched_idle_;
  bool cluster_scan_active_ = false;
  std::vector<int64_t> util_;
  std::vector<bool> ttwu_pending_;
  std::vector<int64_t> avg_idle_;
  std::vector<int64_t> wake_avg_idle_;
  std::vector<int64_t> avg_scan_cost_;  // each CPU's sd_llc's
  // Per LLC.
  std::vector<bool> has_idle_cores_;
  std::vector<int> nr_idle_scan_;
  topology::CpuSet all_;
  std::vector<int> probes_;
  int64_t probe_count_ = 0;
  bool record_probes_ = true;
};

}  // namespace schedsim::platform::testing

#endif  // SCHEDSIM_PLATFORM_TESTING_FAKE_SCHED_H_
