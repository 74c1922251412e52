// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The state of a frequency domain (a cpufreq policy, struct
// cpufreq_policy in include/linux/cpufreq.h, Linux 6.1, with the driver's
// P-state or HWP request and the hardware's answer) and of a package (its
// busy cores, the power-management unit's evaluation, the PL1 limiter).
// Kept by sim/freq.cc and sim/package_power.cc. Private to sim/.

#ifndef SCHEDSIM_SIM_FREQ_STATE_H_
#define SCHEDSIM_SIM_FREQ_STATE_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "platform/cpufreq.h"
#include "sim/event_queue.h"
#include "sim/hwp_model.h"
#include "sim/power.h"
#include "sim/stats.h"
#include "topology/cpuset.h"
#include "topology/topology.h"

namespace schedsim::sim {

struct FreqDomainState {
  topology::CpuSet cpus;
  std::vector<int32_t> cpu_list;  // `cpus`, in increasing order
  int32_t first_cpu = 0;
  int32_t package = 0;
  // The domain's frequency facts (Topology::frequency_of its CPUs) and
  // power parameters (the machine's, with the domain's own ceff_pf).
  const topology::FrequencySpec* spec = nullptr;
  topology::PowerSpec power;
  int64_t max_khz = 0;  // its highest frequency
  // The frequency at which PELT's frequency scale reaches 1024 (capped
  // there above it): arch_max_freq_ratio's reference (InvarianceRefKhz).
  int64_t invariance_khz = 0;
  // Work per cycle relative to the biggest CPU: a cycle of a CPU of
  // capacity C whose domain peaks at max_khz does C / 1024 x
  // (machine max / max_khz) of a biggest CPU's cycle (1 on a symmetric
  // machine). Workload cycles are the biggest CPU's.
  double work_per_cycle = 1.0;
  int64_t cur_khz = 0;  // what the CPUs run at
  // Cpu::ns_per_cycle at cur_khz: [0] alone on its core, [1] beside a busy
  // SMT sibling (ExecModel::SetCurKhz).
  double ns_per_cycle[2] = {0, 0};
  int64_t requested_khz = 0;  // the governor's last request (clamped)
  int64_t pending_khz = 0;
  EventHandle transition;
  int64_t policy_min_khz = 0;
  int64_t policy_max_khz = 0;
  int64_t ceiling_khz = 0;      // turbo / PL1 / boost ceiling
  int64_t active_power_mw = 0;  // per busy thread at cur_khz
  // HWP.
  std::vector<platform::HwpRequest> hwp_req;  // per CPU of the domain
  HwpModel hwp;
  int64_t window_busy_ns = 0;  // C0 time of the busiest CPU this window
  std::unique_ptr<platform::FreqDomain> view;
};

struct PackageState {
  topology::CpuSet cpus;
  int32_t busy_cpus = 0;                       // CPUs not in an idle state
  std::vector<int32_t> busy_threads_per_core;  // by dense core id
  int32_t active_cores = 0;
  EventHandle pmu;
  int64_t last_pmu_ns = 0;
  double last_energy_uj = 0;
  PowerLimiter limiter{PowerLimiterParams{}};
  int64_t cap_khz = PowerLimiter::kNoCap;
  PackageStats stats;
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_FREQ_STATE_H_
