// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The engine's side of the package and its power (the accounting and the
// decisions are freq_'s, sim/frequency.h): the package power-management
// unit's periodic evaluations scheduled while a CPU of the package is
// busy, and their new frequencies applied; a core's busy threads change
// its threads' rates.

#include <algorithm>
#include <cstdint>

#include "sim/simulator_impl.h"

namespace schedsim::sim {

void SimulatorImpl::PackageBusyChanged(int cpu, bool busy) {
  PackageState& p = packages_[cpus_[cpu].package];
  if (freq_.PackageBusyChanged(cpu, busy) && !queue_.Contains(p.pmu)) {
    int64_t period = config_.pmu_period_ns;
    int64_t next = (now_ns_ / period + 1) * period;
    p.pmu = QueuePush(SimTime::FromNanoseconds(next), kBandPmu, kEvPmu,
                      cpus_[cpu].package, -1);
  }
  // The rates of the core's threads depend on how many of them are busy.
  UpdateRate(cpu);
  for (int32_t s : cpus_[cpu].siblings) UpdateRate(s);
}

void SimulatorImpl::OnPmu(int package) {
  PackageState& p = packages_[package];
  p.pmu = EventHandle();
  const int64_t dt = freq_.PmuBegin(package);
  for (int d = 0; d < static_cast<int>(fdoms_.size()); ++d) {
    FreqDomainState& fd = fdoms_[d];
    if (fd.package != package) continue;
    const int64_t khz =
        freq_.PmuDomainKhz(d, dt, queue_.Contains(fd.transition));
    if (khz >= 0) SetDomainKhz(d, khz);
  }
  if (p.busy_cpus > 0) {
    p.pmu = QueuePush(SimTime::FromNanoseconds(now_ns_ + config_.pmu_period_ns),
                      kBandPmu, kEvPmu, package, -1);
  }
}

}  // namespace schedsim::sim
