// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Simulator: the simulated machine and its Linux-like scheduler, event by
// event. It runs a Workload on a Topology with the policy objects it is
// handed (a frequency governor, an idle governor and an idle-CPU search),
// calling them only through the platform/ interfaces, and implements those
// interfaces for them. It knows no policy by name.
//
//   absl::StatusOr<std::unique_ptr<Simulator>> sim =
//       Simulator::Create(topology, config, workload, policies, /*seed=*/1);
//   SCHEDSIM_RETURN_IF_ERROR((*sim)->RunFor(Seconds(1)));
//   SimStats stats = (*sim)->Stats();
//
// The model (docs/model.md has the long form):
//  - Time is int64 ns; events are ordered by (time, band, sequence); the same
//    inputs and seed give bit-identical results.
//  - A running task executes compute phases of `cycles` at its CPU's
//    frequency (times the SMT factor while the sibling also runs) plus a
//    frequency-independent stall; one pending phase-end event per running
//    CPU, rescheduled when the frequency or the sibling changes.
//  - CFS: per-CPU runqueues ordered by vruntime, nice weights, sched_slice
//    and wake-up preemption, a tick at HZ on busy CPUs (NO_HZ idle), PELT.
//  - Wake-up: select_task_rq_fair (record_wakee, wake_wide, wake_affine)
//    then the placement policy's select_idle_sibling; the waker pays the
//    wake-up cost plus a cost per runqueue probed; remote wake-ups go
//    through the target's wake list and an IPI unless the target polls; an
//    idle target pays the physical exit latency of its C-state.
//  - Idle: the idle governor picks a state; advertised latencies are what
//    it sees, physical ones what the model charges; per-state counters.
//  - Frequency: per-domain (per-core on the presets) P-state requests with a
//    transition latency, or HWP hardware selection; turbo ceilings by
//    active cores; optional PL1; energy from a V/f curve and state powers.
//  - Load balancing: newidle and periodic over the scheduling domains, and
//    NO_HZ idle-CPU kicks from overloaded CPUs.

#ifndef SCHEDSIM_SIM_SIMULATOR_H_
#define SCHEDSIM_SIM_SIMULATOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "platform/cpufreq.h"
#include "platform/cpuidle.h"
#include "platform/placement.h"
#include "sim/config.h"
#include "sim/stats.h"
#include "sim/time.h"
#include "sim/trace_sink.h"
#include "sim/workload.h"
#include "topology/sched_domains.h"
#include "topology/topology.h"

namespace schedsim::sim {

// The policy objects a run uses. Not owned; they must outlive the
// Simulator. Each may be shared only with other runs that are not running
// at the same time (policies keep per-CPU state).
struct Policies {
  platform::FreqGovernor* freq = nullptr;
  platform::IdleGovernor* idle = nullptr;
  platform::PlacementPolicy* placement = nullptr;
};

class SimulatorImpl;

class Simulator {
 public:
  // Checks the workload against the machine (program, channel, barrier and
  // metric ids; affinities; start CPUs) and the policies (all three set).
  static absl::StatusOr<std::unique_ptr<Simulator>> Create(
      const topology::Topology& topology, const SimConfig& config,
      const Workload& workload, const Policies& policies, uint64_t seed);
  ~Simulator();

  // Runs events up to and including `until`. Fails (and the simulator must
  // not be run further) when a policy breaks a rule: a state index out of
  // range or disabled, a CPU outside the task's allowed set.
  absl::Status RunUntil(SimTime until);
  absl::Status RunFor(SimDuration duration);

  SimTime now() const;
  // Zeroes every counter (experiments call it after the warm-up).
  void ResetStats();
  // The counters, with every open interval accounted up to now().
  SimStats Stats() const;

  // Not owned; nullptr disables tracing.
  void set_trace_sink(TraceSink* sink);

  const topology::Topology& topology() const;
  const topology::SchedDomains& domains() const;

  // Introspection for tests: where a task is, and what it is doing.
  int task_count() const;
  int task_cpu(int task) const;
  bool task_running(int task) const;
  int cpu_idle_state(int cpu) const;  // -1 when not in an idle state
  int64_t cpu_khz(int cpu) const;
  // Periodic load balances `cpu` ran at domain level `level` (0 = the
  // lowest) as its group's balancer; 0 for a level it does not have.
  uint64_t periodic_balances(int cpu, int level) const;

 private:
  explicit Simulator(std::unique_ptr<SimulatorImpl> impl);
  std::unique_ptr<SimulatorImpl> impl_;
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_SIMULATOR_H_
