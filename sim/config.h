// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The model's parameters: every cost and tunable of the simulated machine
// and scheduler, with its unit in its name and its source beside it
// ([KP §n] = the kernel-policy reference the project models from, as cited
// in docs/model.md; "kernel default" = the Linux 6.1 value; "assumed" = no
// published figure, sweep it). Experiments override fields by name.

#ifndef SCHEDSIM_SIM_CONFIG_H_
#define SCHEDSIM_SIM_CONFIG_H_

#include <cstdint>

namespace schedsim::sim {

struct SimConfig {
  // --- Scheduler -------------------------------------------------------
  int hz = 250;  // CONFIG_HZ default [KP §0]
  // CFS tunables before the log2(ncpus) scaling (kernel defaults:
  // sysctl_sched_latency 6 ms, min_granularity 0.75 ms, wakeup_granularity
  // 1 ms, scaled by 1 + ilog2(min(ncpus, 8))).
  int64_t sched_latency_ns = 6000000;
  int64_t sched_min_granularity_ns = 750000;
  int64_t sched_wakeup_granularity_ns = 1000000;
  int64_t sched_migration_cost_ns = 500000;  // kernel default [KP §0]
  // Direct cost of a context switch, charged to the CPU switching (≈1-2 us
  // thread/process switch [KP §6]).
  int64_t context_switch_ns = 1500;

  // --- Wake-up path ----------------------------------------------------
  // Waker-side cost of try_to_wake_up (0.54-0.76 us measured [KP §6]).
  int64_t wakeup_cost_ns = 600;
  // Cost of probing one remote runqueue during the idle-CPU search
  // ("tens to low hundreds of ns" [KP §6]; assumed).
  int64_t probe_cost_ns = 60;
  // IPI delivery latency to a CPU not polling (assumed; Norbert's C1 vs
  // POLL wake-ups differ by ~0.1 us plus the C1 exit [KP §6]).
  int64_t ipi_latency_ns = 400;
  // Syscall-side cost of a channel send or receive (pipe_write/read).
  int64_t pipe_op_ns = 900;     // assumed
  int64_t socket_op_ns = 1500;  // assumed (unix stream socket)

  // --- Cache-hot migration penalty --------------------------------------
  // Extra stall when a task resumes on another LLC, scaled by NUMA distance
  // / 10 across nodes (assumed; working-set refill).
  int64_t llc_migration_penalty_ns = 20000;
  int64_t smt_migration_penalty_ns = 0;  // same core: L1/L2 shared

  // --- Execution model ---------------------------------------------------
  // Throughput of each SMT sibling when both run, in percent of a lone thread
  // (old smt_gain 1178 -> ~0.575 each [KP §6]; assumed 0.6).
  int smt_factor_pct = 60;

  // --- Idle ---------------------------------------------------------------
  // PM QoS cpu_dma_latency in ns; -1 = no constraint (the kernel's 2000 s
  // default) [KP §3.1].
  int64_t pm_qos_latency_ns = -1;

  // --- Frequency -----------------------------------------------------------
  bool turbo = true;
  // Package power limit (PL1) in mW; 0 = off.
  int64_t pl1_mw = 0;
  // Period of the package power-management evaluation (turbo ceiling by
  // active cores, PL1, HWP autonomous selection) (assumed 1 ms).
  int64_t pmu_period_ns = 1000000;

  // --- uclamp ---------------------------------------------------------------
  // CONFIG_UCLAMP_TASK: per-task clamps feed the frequency governor.
  bool uclamp = true;
  // sched_util_clamp_min_rt_default: the uclamp_min of RT tasks that set
  // none (kernel default 1024 = run RT at the highest frequency).
  int64_t uclamp_rt_default_min = 1024;
  // Cost of the uclamp bucket updates per enqueue (and per dequeue), paid
  // on each wake-up/sleep pair when uclamp is on (assumed).
  int64_t uclamp_enqueue_cost_ns = 40;

  // --- Load balancing --------------------------------------------------------
  bool load_balance = true;
  bool newidle_balance = true;
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_CONFIG_H_
