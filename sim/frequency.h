// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Frequency and package power as a part of the engine, over the shared
// state of sim/engine_state.h (the frequency domains, struct
// cpufreq_policy with the driver's request and the hardware's answer, and
// the packages): the frequency a request gets (the policy limits,
// acpi-cpufreq's table and boost above P0, drivers/cpufreq/acpi-cpufreq.c;
// the turbo and PL1 ceiling), HWP requests merged over a domain's CPUs and
// evaluated by the HWP hardware model (drivers/cpufreq/intel_pstate.c,
// Linux 6.1; sim/hwp_model.h), each CPU's energy and APERF/MPERF counters
// (RAPL's MSR_PKG_ENERGY_STATUS, arch/x86/kernel/cpu/aperfmperf.c),
// busy time by frequency, the busy cores that set the turbo ceiling and
// the package power-management unit's evaluation. The engine (freq.cc,
// package_power.cc) applies a new frequency (settling the phases it
// changes), schedules the transitions and PMU evaluations, and is the
// governors' FreqDomain view. Private to sim/.

#ifndef SCHEDSIM_SIM_FREQUENCY_H_
#define SCHEDSIM_SIM_FREQUENCY_H_

#include <cstdint>

#include "platform/cpufreq.h"
#include "sim/config.h"
#include "sim/engine_state.h"
#include "sim/freq_state.h"
#include "topology/topology.h"

namespace schedsim::sim {

class Frequency {
 public:
  // Reads and writes `state`; reads the others, which must outlive it
  // (`now_ns` is the engine's clock, `stats_start_ns` when the statistics
  // began: energy before it is not counted).
  Frequency(EngineState& state, const topology::Topology& topo,
            const SimConfig& config, const int64_t& now_ns,
            const int64_t& stats_start_ns)
      : s_(state),
        topo_(topo),
        config_(config),
        now_ns_(now_ns),
        stats_start_ns_(stats_start_ns) {}
  Frequency(const Frequency&) = delete;
  Frequency& operator=(const Frequency&) = delete;

  // Builds each package's state (its CPUs, cores, the PL1 limiter between
  // `min_khz` and `max_khz`, the machine's top frequency in use).
  void InitPackages(int64_t min_khz, int64_t max_khz);

  // --- Requests ---------------------------------------------------------
  // What domain `d` runs at when `requested` is asked: within the policy
  // limits; with acpi-cpufreq and turbo, P0 lets the hardware boost up to
  // the policy maximum; never above the turbo / PL1 ceiling (nor below the
  // policy minimum because of it).
  int64_t EffectiveKhz(const FreqDomainState& d, int64_t requested) const;
  // The governor's target for `domain` (cpufreq_driver_target()): clamped
  // to the policy, resolved in acpi-cpufreq's table (CPUFREQ_RELATION_L,
  // boost above P0) and recorded as requested; the effective frequency it
  // gets is recorded as pending and returned.
  int64_t RequestKhz(int domain, int64_t khz);
  // The request the HWP hardware honours for a domain: the highest minimum,
  // maximum and desired performance and the lowest EPP of its CPUs'.
  static platform::HwpRequest MergedHwpRequest(const FreqDomainState& d);
  // `cpu`'s HWP request written (MSR_HWP_REQUEST): recorded, and the
  // domain's new frequency, the hardware honouring new limits at once (a
  // raised minimum lifts the level now; the activity-driven part waits for
  // the next evaluation). REQUIRES: the domain has HWP and holds `cpu`.
  int64_t HwpRequestKhz(int domain, int cpu, const platform::HwpRequest& req);

  // --- Accounting -------------------------------------------------------
  // Integrates `cpu`'s power and C0 counters since the last call. Call
  // before anything that changes its mode, idle state or frequency.
  void AccountEnergy(int cpu);
  // A busy segment of `cpu` starts or ends at now (its busy time at the
  // frequency it ran).
  void AccountBusyStart(int cpu);
  void AccountBusyEnd(int cpu);
  // `cpu` becomes busy (not in an idle state) or idle: its package's busy
  // CPUs and active cores. Returns whether the package was idle before (its
  // PMU evaluations may need to restart).
  bool PackageBusyChanged(int cpu, bool busy);

  // --- The package power-management unit --------------------------------
  // An evaluation of `package` starts: the CPUs' energy brought up to now,
  // the PL1 limiter fed the package power since the last one. Returns the
  // time since the last one.
  int64_t PmuBegin(int package);
  // Its decision for domain `d` of the package (after PmuBegin, `dt`
  // later): the turbo ceiling for its active cores under the PL1 cap, then
  // the HWP level (from the busiest CPU's C0 time), or, without HWP and
  // unless a transition is `pending`, the frequency its request gets under
  // the new ceiling. -1: unchanged.
  int64_t PmuDomainKhz(int d, int64_t dt, bool pending);

 private:
  EngineState& s_;
  const topology::Topology& topo_;
  const SimConfig& config_;
  const int64_t& now_ns_;
  const int64_t& stats_start_ns_;
  int64_t max_khz_ = 0;  // the machine's top frequency in use
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_FREQUENCY_H_
