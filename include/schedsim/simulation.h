// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Running a simulation: a machine (machine.h), a workload (workload.h), a
// policy of each family by name or as your own object (policy.h), model
// parameters by name, and a seed. The same inputs and seed give the same
// results, bit for bit.
//
//   absl::StatusOr<schedsim::Topology> machine =
//       schedsim::PresetMachine("skylake-e3-1240v5");
//   schedsim::SimulationOptions options;
//   options.seed = 7;
//   options.cpufreq.name = "intel_pstate_hwp";
//   options.cpufreq.params = {{"hwp_boost", true}};
//   options.placement.object = std::make_shared<MyPlacement>();
//   absl::StatusOr<std::unique_ptr<schedsim::Simulation>> sim =
//       schedsim::Simulation::Create(
//           *machine, schedsim::WorkloadSpec::Model("hackbench"), options);
//   absl::Status s = (*sim)->RunFor(std::chrono::milliseconds(100));
//   schedsim::Metrics m = (*sim)->GetMetrics();
//
// Or in one call: schedsim::Simulate(machine, workload, duration, options).

#ifndef SCHEDSIM_INCLUDE_SCHEDSIM_SIMULATION_H_
#define SCHEDSIM_INCLUDE_SCHEDSIM_SIMULATION_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "schedsim/machine.h"
#include "schedsim/metrics.h"
#include "schedsim/params.h"
#include "schedsim/policy.h"
#include "schedsim/trace.h"
#include "schedsim/workload.h"
#include "sim/config.h"

namespace schedsim {

// The policy of one family: your own object when `object` is set, else the
// registered policy `name` with `params`, else (empty name) the default
// Linux runs on the machine (DefaultFreqGovernor, kDefaultIdleGovernor,
// kDefaultPlacementPolicy). An object is shared with the simulation, which
// keeps it alive; one object may serve several simulations only if they do
// not run at the same time (policies keep per-CPU state). To lend an object
// you own, give a shared_ptr with a no-op deleter.
template <typename Interface>
struct PolicyChoice {
  std::string name;
  ParamMap params;
  std::shared_ptr<Interface> object;
};

// Every model parameter as a typed struct (sim/config.h; `schedsim config`
// lists each field with its unit, range, status and source).
using ModelConfig = sim::SimConfig;

// The parameters a kernel version sets ("6.12"; its switches and tunables
// on the defaults, as SimulationOptions::kernel applies them): the start
// for a typed SimulationOptions::model. InvalidArgument for an unknown
// version.
absl::StatusOr<ModelConfig> KernelModelConfig(const std::string& kernel);

struct SimulationOptions {
  // The seed of every random draw of the run.
  uint64_t seed = 1;
  PolicyChoice<FreqGovernor> cpufreq;
  PolicyChoice<IdleGovernor> cpuidle;
  PolicyChoice<PlacementPolicy> placement;
  // Model parameters (the simulator's costs and tunables, docs/model.md) by
  // name, as the `config` object of scenario and experiment files takes
  // them: {{"hz", 1000}, {"turbo", false}, {"pm_qos_latency_ns", 0}}.
  // ConfigKeys() lists the names.
  ParamMap config;
  // The model parameters as a typed struct: set, the run starts from it in
  // place of the defaults and of `kernel`'s switches (start from
  // KernelModelConfig() to keep them), each field checked against its range;
  // `config` by name still applies on top. `kernel` still chooses the
  // placement when none is chosen.
  std::optional<ModelConfig> model;
  // The kernel version modelled ("6.12", "6.5", "4.16"; `schedsim kernels`
  // lists them, docs/model.md "Kernel versions"): its fair class and
  // switches are set first, so that `config` may still override one, and
  // its idle-CPU search is the placement when none is chosen. Empty: the
  // model's defaults.
  std::string kernel;
};

// The names SimulationOptions::config takes (ModelConfig's fields), in
// declaration order.
std::vector<std::string> ConfigKeys();

class Simulation {
 public:
  // Builds the workload for the machine, the policies, and the simulated
  // machine. Errors: an unknown policy, model or config name (listing the
  // known ones), bad parameters, an unreadable or malformed rt-app or trace
  // file, a workload that does not fit the machine (ids, affinities, start
  // CPUs).
  static absl::StatusOr<std::unique_ptr<Simulation>> Create(
      Topology machine, WorkloadSpec workload, SimulationOptions options = {});
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // Runs for `duration` of simulated time (or until simulated time
  // `since_start`). Fails, and the simulation must not be run further, when
  // a policy breaks a rule (an idle state out of range or disabled, a CPU
  // outside the task's allowed set).
  absl::Status RunFor(std::chrono::nanoseconds duration);
  absl::Status RunUntil(std::chrono::nanoseconds since_start);
  int64_t now_ns() const;

  // Zeroes every counter (after a warm-up, say).
  void ResetStats();
  // The counters, every open interval accounted up to now.
  Metrics GetMetrics() const;
  // The workload model's own numbers for the counters so far (a model or
  // rt-app workload; empty for task programs and trace replays).
  std::vector<ModelMetric> ModelMetrics() const;

  // Streams trace events to `sink` (not owned; nullptr stops).
  void SetTraceSink(TraceSink* sink);

  const Topology& machine() const;
  // The names of the policies running (an object's name()).
  std::string freq_governor() const;
  std::string idle_governor() const;
  std::string placement_policy() const;
  // The names of the tasks present at the start, by task id (for a
  // TraceWriter). Forked tasks get later ids, or the id of a task that
  // exited before (slots are reused, as the kernel reuses pids).
  std::vector<std::string> task_names() const;
  // Notes about the inputs (ignored rt-app keys, machine defaults).
  const std::vector<std::string>& warnings() const;

  // Where things are now, for tests.
  int task_count() const;
  int task_cpu(int task) const;
  bool task_running(int task) const;
  int cpu_idle_state(int cpu) const;  // -1 when not in an idle state
  int64_t cpu_khz(int cpu) const;

  struct Impl;

 private:
  explicit Simulation(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

struct RunResult {
  Metrics metrics;
  std::vector<ModelMetric> model_metrics;
  std::vector<std::string> warnings;
  std::string freq_governor;
  std::string idle_governor;
  std::string placement_policy;
};

// Creates a simulation, runs `warmup`, resets the counters, runs
// `duration`, and returns what it measured.
absl::StatusOr<RunResult> Simulate(
    const Topology& machine, const WorkloadSpec& workload,
    std::chrono::nanoseconds duration, const SimulationOptions& options = {},
    std::chrono::nanoseconds warmup = std::chrono::nanoseconds(0));

}  // namespace schedsim

#endif  // SCHEDSIM_INCLUDE_SCHEDSIM_SIMULATION_H_
