// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// One simulation run, wired the same way for every caller (`schedsim
// simulate`, the experiment runner behind `schedsim run`, and the library's
// Simulation): the policies chosen by name through the registry (or objects
// the caller made), the Simulator created, warmup run, the statistics
// reset, then duration measured.
//
//   RunSpec spec;
//   spec.machine = &machine;
//   spec.workload = &workload;
//   spec.cpuidle = {"teo", {}};  // cpufreq: the machine's default
//   spec.seed = 7;
//   spec.warmup = sim::Milliseconds(100);
//   spec.duration = sim::Milliseconds(1000);
//   absl::StatusOr<RunOutput> out = RunOnce(spec);
//   if (!out.ok()) return out.status();
//   UseStats(out->stats);  // measured after the warm-up
//
// The steps, in this order (results depend on it): the cpufreq, cpuidle
// and placement policy objects; Simulator::Create with `seed`; RunFor
// warmup and ResetStats() when warmup > 0; the trace sink attached; RunFor
// duration; the sink detached; Stats(). Errors are returned as the step
// gave them; callers add their context.

#ifndef SCHEDSIM_EXPERIMENTS_RUN_WIRING_H_
#define SCHEDSIM_EXPERIMENTS_RUN_WIRING_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "experiments/builtin_registry.h"
#include "experiments/idle_control.h"
#include "experiments/settle.h"
#include "platform/cpufreq.h"
#include "platform/cpuidle.h"
#include "platform/placement.h"
#include "sim/config.h"
#include "sim/simulator.h"
#include "sim/stats.h"
#include "sim/time.h"
#include "sim/trace_sink.h"
#include "sim/workload.h"
#include "topology/topology.h"

namespace schedsim::experiments {

// A measured run that stops when settled (settle.h): batches of
// options.batch_ms up to the run's duration.
struct SettleRun {
  SettleOptions options;
  // The events the settling rate counts since the statistics were reset.
  std::function<double(const sim::SimStats&)> count;
  // True when the workload has finished (optional): the run stops.
  std::function<bool(const sim::SimStats&)> finished;
};

struct RunSpec {
  const topology::Topology* machine = nullptr;  // not owned
  const sim::Workload* workload = nullptr;      // not owned
  sim::SimConfig config;
  // By name through the registry; an empty name is the family's default
  // (DefaultFreqGovernor(*machine), kDefaultIdleGovernor,
  // kDefaultPlacementPolicy).
  PolicySpec cpufreq;
  PolicySpec cpuidle{kDefaultIdleGovernor, {}};
  PolicySpec placement{kDefaultPlacementPolicy, {}};
  // Objects the caller made, used instead of the name when set.
  std::shared_ptr<platform::FreqGovernor> cpufreq_object;
  std::shared_ptr<platform::IdleGovernor> cpuidle_object;
  std::shared_ptr<platform::PlacementPolicy> placement_object;
  uint64_t seed = 1;
  sim::SimDuration warmup;          // run, then ResetStats(); none when <= 0
  sim::SimDuration duration;        // measured
  sim::TraceSink* trace = nullptr;  // records the measured interval
  // `trace` also records the warm-up, after each CPU's frequency and idle
  // state at the start (as cpu_frequency and cpu_idle events).
  bool trace_warmup = false;
  // Idle states disabled or left unregistered and per-CPU resume latency
  // limits (idle_control.h), applied to a copy of `machine`; the stats
  // keep `machine`'s state table (unregistered states count 0).
  IdleControl idle;
  // Not owned; when set, `duration` is the longest the measured run goes
  // and it stops when settled.
  const SettleRun* settle = nullptr;
};

// The policies and the simulator that uses them, before any run.
struct WiredRun {
  std::shared_ptr<platform::FreqGovernor> freq;
  std::shared_ptr<platform::IdleGovernor> idle;
  std::shared_ptr<platform::PlacementPolicy> placement;
  std::string cpufreq;  // the governor's registry name (the default resolved)
  // The machine with spec.idle applied, when spec.idle is not empty (the
  // simulator runs on it).
  std::unique_ptr<topology::Topology> controlled_machine;
  // Declared last, so destroyed before the policies it uses.
  std::unique_ptr<sim::Simulator> simulator;
};

// The policies (cpufreq, cpuidle, placement, in that order) and
// Simulator::Create.
absl::StatusOr<WiredRun> WireRun(const RunSpec& spec);

struct RunOutput {
  sim::SimStats stats;  // measured, after the warm-up
  std::string cpufreq;  // the governor used (the default resolved)
  int64_t end_ns = 0;   // simulated time at the end of the run
  // With RunSpec::settle: how the run settled and why it stopped.
  std::optional<SettleOutcome> settle;
};

// WireRun; warmup and ResetStats() when warmup > 0; duration with
// spec.trace attached (detached after); Stats().
absl::StatusOr<RunOutput> RunOnce(const RunSpec& spec);

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_RUN_WIRING_H_
