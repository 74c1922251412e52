// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The checks every backend of the seam runs on a policy's answer, written
// once: the simulator (sim/), the recorded-trace backends (shadow/), the
// scripted test kit (platform/testing/) and real Linux (platform/linux/)
// call these and only format the error their own way (a failed run, a
// trace line error, an abort in a unit test, a failed action).
//
//   * placement (select_idle_sibling's answer): a CPU id of the machine and
//     a CPU of the task's allowed mask (p->cpus_ptr). The kernel's
//     select_task_rq() falls back to select_fallback_rq() when the answer
//     is not allowed or not online (kernel/sched/core.c, v6.6); the model
//     stops instead, since a policy that needs the fallback is wrong. The
//     allowed masks the backends hand over hold online CPUs only.
//   * cpuidle (cpuidle_governor::select's answer): an index of the state
//     table and a state that is not disabled (cpuidle_select's caller in
//     kernel/sched/idle.c trusts the governor; the model checks).
//   * cpufreq (a write to the frequency hardware): an HWP request needs a
//     part with HWP and a CPU of the domain (the kernel writes
//     MSR_HWP_REQUEST per CPU of the policy, drivers/cpufreq/intel_pstate.c).
//     Frequency targets are clamped to the policy limits by the driver
//     layer (platform/drivers/cpufreq_driver.h, ClampToPolicy) rather than
//     rejected, as cpufreq_driver_fast_switch and __cpufreq_driver_target
//     do.

#ifndef SCHEDSIM_PLATFORM_CORE_ANSWER_CHECKS_H_
#define SCHEDSIM_PLATFORM_CORE_ANSWER_CHECKS_H_

#include "platform/cpuidle.h"
#include "topology/cpuset.h"
#include "topology/topology.h"

namespace schedsim::platform::core {

// True when `cpu` is in 0..num_cpus-1 and in `allowed`.
bool ValidPlacementAnswer(int cpu, int num_cpus,
                          const topology::CpuSet& allowed);

enum class IdleAnswer {
  kOk,
  kOutOfRange,  // not an index of the state table
  kDisabled,    // a state disabled by the user or the driver
};
// Checks an idle governor's choice of state on `dev`.
IdleAnswer CheckIdleAnswer(const IdleDevice& dev, int index);

enum class HwpWrite {
  kOk,
  kNoHwp,           // the part has no HWP
  kCpuNotInDomain,  // `cpu` is not a CPU of the frequency domain
};
// Checks a write of `cpu`'s HWP request to a domain spanning `cpus` on a
// part described by `spec`.
HwpWrite CheckHwpWrite(const topology::FrequencySpec& spec,
                       const topology::CpuSet& cpus, int cpu);

}  // namespace schedsim::platform::core

#endif  // SCHEDSIM_PLATFORM_CORE_ANSWER_CHECKS_H_
