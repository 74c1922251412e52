// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Scenario files: one simulation run described in JSON (a machine, the
// model's parameters, the policies, and a task-program workload), as
// `schedsim simulate FILE` runs it. docs/cli-simulate.md documents the format.
//
//   absl::StatusOr<Scenario> s = LoadScenarioFile("pingpong.json");
//   if (!s.ok()) return s.status();  // "pingpong.json: tasks[1].program: ..."
//
// Every mistake in a file is an InvalidArgument whose message starts with
// the file name and the JSON path of the offending field and says what was
// expected: syntax errors (with line, column and byte offset), unknown or
// duplicate keys, wrong types, out-of-range values, and names (programs,
// channels, barriers, metrics, policies) that are not defined.

#ifndef SCHEDSIM_EXPERIMENTS_SCENARIO_H_
#define SCHEDSIM_EXPERIMENTS_SCENARIO_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "experiments/builtin_registry.h"
#include "experiments/idle_control.h"
#include "experiments/machine_source.h"
#include "sim/config.h"
#include "sim/stats.h"
#include "sim/workload.h"
#include "topology/topology.h"

namespace schedsim::experiments {

// The longest duration_ms (and warmup_ms) a scenario may ask for.
inline constexpr int64_t kMaxScenarioDurationMs = 1000000000;  // 11.6 days

// The policies a scenario asks for, with their parameters, each a policy
// choice (ParsePolicyChoice in policy_json.h) over these defaults. An empty
// cpufreq name means the machine's default (DefaultFreqGovernor).
struct ScenarioPolicies {
  std::string cpufreq;
  std::string cpuidle = kDefaultIdleGovernor;
  std::string placement = kDefaultPlacementPolicy;
  PolicyParams cpufreq_params;
  PolicyParams cpuidle_params;
  PolicyParams placement_params;
};

struct Scenario {
  std::string filename;  // as given; error messages start with it
  std::string description;
  // Exactly one source is set. Relative sysfs/hwloc paths are taken from
  // the directory of `filename`.
  MachineSource machine;
  uint64_t seed = 1;
  int64_t duration_ms = 0;  // measured, after the warm-up
  int64_t warmup_ms = 0;    // run, then ResetStats()
  std::string kernel;       // "6.12" (sim/kernels.h); "" when none named
  sim::SimConfig config;    // the defaults, the kernel's, the file's
  ScenarioPolicies policies;
  // "idle_states_disabled", "max_cstate", "pm_qos_resume_latency_us"
  // (idle_control.h).
  IdleControl idle;
  // Names resolved to ids; tasks[i] is the file's tasks[i].
  sim::Workload workload;
};

// Parses a scenario. `filename` is used in error messages and to resolve
// relative machine paths.
absl::StatusOr<Scenario> ParseScenario(const std::string& json_text,
                                       const std::string& filename);

// Reads and parses `path`.
absl::StatusOr<Scenario> LoadScenarioFile(const std::string& path);

// Checks what needs the machine: task affinities and start CPUs. Errors
// name the file and the task's JSON path.
absl::Status CheckScenarioMachine(const Scenario& scenario,
                                  const topology::Topology& machine);

// The result of running a scenario: the machine it ran on and the
// measured statistics (after the warm-up).
struct ScenarioRun {
  topology::Topology machine;
  sim::SimStats stats;
  std::string cpufreq;  // the governor used (the default resolved)
};

// Loads the machine, checks the scenario against it, and runs it through
// RunOnce (run_wiring.h): the policies through the registry, warmup_ms,
// ResetStats(), then duration_ms. Errors start with the scenario's file
// name.
absl::StatusOr<ScenarioRun> RunScenario(const Scenario& scenario);

// The `config` keys: every SimConfig field, by its C++ name, in
// declaration order.
std::vector<std::string> SimConfigFieldNames();

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_SCENARIO_H_
