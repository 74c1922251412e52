// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// FakeFreqDomain: a scripted FreqDomain for unit-testing frequency
// governors without the simulator. Script utilization, busy fractions and
// time; call the governor's UpdateUtil; assert on the requests it made.
//
//   FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1");
//   SchedutilGovernor su(...);
//   su.Start(d);
//   d.set_util(d.first_cpu(), 512);
//   d.Advance(10'000'000);
//   su.UpdateUtil(d, d.first_cpu(), 0);
//   EXPECT_EQ(d.requested_khz(), ...);
//
// Counters: Advance(ns) moves TSC at the base frequency and APERF/MPERF by
// each CPU's busy fraction (APERF at current_khz()). current_khz() follows
// the last request at once (a P-state request's target; an HWP request's
// desired level, or its minimum when desired is 0), unless held with
// set_current_khz().

#ifndef SCHEDSIM_PLATFORM_TESTING_FAKE_FREQ_H_
#define SCHEDSIM_PLATFORM_TESTING_FAKE_FREQ_H_

#include <cstdint>
#include <string>
#include <vector>

#include "platform/cpufreq.h"
#include "topology/cpuset.h"
#include "topology/topology.h"

namespace schedsim::platform::testing {

class FakeFreqDomain final : public FreqDomain {
 public:
  FakeFreqDomain(topology::FrequencySpec spec, topology::CpuSet cpus,
                 int id = 0, int64_t tick_period_ns = 4000000);
  // The frequency spec of a built-in machine and the CPUs of its core
  // `core` (its frequency domain); on a machine with frequency domains of
  // its own, the domain holding the core (id: the domain's index), with
  // its spec and each CPU's capacity in util(). Aborts on an unknown name
  // (test code).
  static FakeFreqDomain ForPreset(const std::string& machine, int core = 0);

  int first_cpu() const { return cpus_.First(); }

  // --- Inputs --------------------------------------------------------------
  void set_now_ns(int64_t now) { now_ns_ = now; }
  // Moves time and the counters forward.
  void Advance(int64_t ns);
  void set_util(int cpu, int64_t util_cfs) { util_[cpu].util_cfs = util_cfs; }
  // arch_scale_cpu_capacity of `cpu` (1024 unless set or a preset's).
  void set_capacity(int cpu, int64_t capacity) {
    util_[cpu].capacity = capacity;
  }
  void set_cpu_util(int cpu, const CpuUtil& util) { util_[cpu] = util; }
  void set_busy_fraction(int cpu, double busy) { busy_[cpu] = busy; }
  void set_policy_limits(int64_t min_khz, int64_t max_khz) {
    policy_min_khz_ = min_khz;
    policy_max_khz_ = max_khz;
  }
  void set_current_khz(int64_t khz) {
    current_khz_ = khz;
    hold_current_ = true;
  }
  // A kernel without frequency invariance (arch_scale_freq_invariant()).
  void set_frequency_invariant(bool on) { frequency_invariant_ = on; }

  // --- What the governor did
  // ---------------------------------------------------
  struct Action {
    int64_t time_ns = 0;
    bool hwp = false;
    int cpu = -1;        // HWP requests are per CPU
    int64_t khz = 0;     // P-state target (clamped as the core would)
    HwpRequest request;  // HWP
  };
  const std::vector<Action>& actions() const { return actions_; }
  const HwpRequest& hwp_request(int cpu) const { return hwp_[cpu]; }
  void ClearActions() { actions_.clear(); }

  // --- FreqDomain
  // -----------------------------------------------------------------
  int id() const override { return id_; }
  const topology::CpuSet& cpus() const override { return cpus_; }
  const topology::FrequencySpec& spec() const override { return spec_; }
  int64_t policy_min_khz() const override { return policy_min_khz_; }
  int64_t policy_max_khz() const override { return policy_max_khz_; }
  int64_t current_khz() const override { return current_khz_; }
  int64_t requested_khz() const override { return requested_khz_; }
  int64_t now_ns() const override { return now_ns_; }
  int64_t tick_period_ns() const override { return tick_period_ns_; }
  CpuUtil util(int cpu) const override { return util_[cpu]; }
  CpuCounters counters(int cpu) const override { return counters_[cpu]; }
  bool frequency_invariant() const override { return frequency_invariant_; }
  void SetTargetKhz(int64_t khz) override;
  void SetHwpRequest(int cpu, const HwpRequest& request) override;

 private:
  topology::FrequencySpec spec_;
  topology::CpuSet cpus_;
  int id_;
  int64_t tick_period_ns_;
  int64_t now_ns_ = 0;
  int64_t policy_min_khz_;
  int64_t policy_max_khz_;
  int64_t current_khz_;
  int64_t requested_khz_;
  bool hold_current_ = false;
  bool frequency_invariant_ = true;
  // Indexed by CPU id (sized to the highest CPU of the domain + 1).
  std::vector<CpuUtil> util_;
  std::vector<double> busy_;
  std::vector<CpuCounters> counters_;
  std::vector<HwpRequest> hwp_;
  std::vector<Action> actions_;
};

}  // namespace schedsim::platform::testing

#endif  // SCHEDSIM_PLATFORM_TESTING_FAKE_FREQ_H_
