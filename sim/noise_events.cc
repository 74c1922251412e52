// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The engine's side of the background activity (the sources are noise_,
// sim/noise.h): each source's events pushed and re-armed, its visible
// timers on the CPU's timer list, and the kernel work it runs, stolen
// from a running task or waking an idle CPU.

#include <algorithm>
#include <cassert>
#include <functional>

#include "sim/simulator_impl.h"

namespace schedsim::sim {

void SimulatorImpl::PushNoise(int64_t time_ns, int cpu, int s) {
  QueuePush(SimTime::FromNanoseconds(time_ns), kBandIrq, kEvNoise, cpu, s);
  if (Noise::Visible(s)) {
    std::vector<int64_t>& timers = cpus_[cpu].timers;
    timers.push_back(time_ns);
    std::push_heap(timers.begin(), timers.end(), std::greater<int64_t>());
  }
}

void SimulatorImpl::ArmNoise() {
  const int n = topo_.num_cpus();
  // Periodic sources start at a random phase of their period (the kernel
  // staggers them by boot time and CPU bring-up); Poisson ones after an
  // exponential interval. One draw per source and CPU, in a fixed order.
  for (int s = 0; s < kNoiseSources; ++s) {
    if (!noise_.On(s)) continue;
    for (int cpu = 0; cpu < (Noise::PerCpu(s) ? n : 1); ++cpu) {
      PushNoise(now_ns_ + noise_.FirstDelayNs(s), cpu, s);
    }
  }
}

void SimulatorImpl::OnNoise(int cpu, int s) {
  Cpu& c = cpus_[cpu];
  if (Noise::Visible(s)) {
    // Events fire in time order, so this timer is the CPU's earliest.
    assert(!c.timers.empty() && c.timers.front() == now_ns_);
    std::pop_heap(c.timers.begin(), c.timers.end(), std::greater<int64_t>());
    c.timers.pop_back();
  }
  // The next one; the watchdog re-arms on the next online CPU
  // (add_timer_on).
  const int next = s == kNoiseWatchdog ? (cpu + 1) % topo_.num_cpus() : cpu;
  PushNoise(now_ns_ + noise_.NextDelayNs(s), next, s);
  // A deferrable timer due on an idle CPU does not wake it; the CPU folded
  // its counters on entering idle (quiet_vmstat), so the run is skipped.
  if (s == kNoiseVmstat && c.mode == CpuMode::kIdle) return;
  RunKernelWork(cpu, noise_.cost_ns(s));
}

void SimulatorImpl::RunKernelWork(int cpu, int64_t cost_ns) {
  Cpu& c = cpus_[cpu];
  ++background_events_;
  if (c.mode == CpuMode::kBusy) return ChargeCpu(cpu, cost_ns);
  if (c.mode != CpuMode::kIdle) {
    // Awake without a task (a C-state exit in progress, or a wake-up on
    // its way): the handler overlaps it (simplification: not charged).
    return;
  }
  // The interrupt ends the idle period: the C-state exit, then the handler,
  // then the CPU goes idle again (OnIdleExitDone) unless work arrived.
  const int64_t exit_ns = idle_.PhysicalExitNs(cpu);
  LeaveIdleWithExit(cpu, exit_ns, now_ns_ + exit_ns + cost_ns);
}

}  // namespace schedsim::sim
