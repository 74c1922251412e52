// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// A simulation run from a program of your own: hackbench on a built-in
// machine, once with the kernel's idle-CPU search (sis_util) and once with
// this example's own placement policy, picked by the name it registered
// ("nearest_idle", nearest_idle.cc); the frequency governor is this
// example's own object (HeadroomGovernor). Prints one line per placement.
//
//   cd examples/external && bazel run //:main

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "headroom_governor.h"
#include "schedsim/schedsim.h"

int main() {
  absl::StatusOr<schedsim::Topology> machine =
      schedsim::PresetMachine("skylake-e3-1240v5");
  if (!machine.ok()) {
    std::fprintf(stderr, "main: %s\n", machine.status().ToString().c_str());
    return 1;
  }
  const schedsim::WorkloadSpec hackbench = schedsim::WorkloadSpec::Model(
      "hackbench", {{"groups", 1}, {"fds", 5}, {"pipe", true}});

  std::printf(
      "hackbench -p -g 1 -f 5 on %s (%d CPUs), 10 ms warm-up, "
      "100 ms measured, seed 1\n",
      machine->name().c_str(), machine->num_cpus());
  std::printf("%-13s %-9s %-6s %12s %9s %9s %8s %8s\n", "placement", "cpufreq",
              "idle", "messages/s", "wake p99", "probes/w", "busy %", "energy");
  for (const char* placement : {"sis_util", "nearest_idle"}) {
    schedsim::SimulationOptions options;
    options.seed = 1;
    options.cpufreq.object = std::make_shared<example::HeadroomGovernor>();
    options.cpuidle.name = "menu";
    options.placement.name = placement;
    absl::StatusOr<schedsim::RunResult> r =
        schedsim::Simulate(*machine, hackbench, std::chrono::milliseconds(100),
                           options, std::chrono::milliseconds(10));
    if (!r.ok()) {
      std::fprintf(stderr, "main: %s: %s\n", placement,
                   r.status().ToString().c_str());
      return 1;
    }
    double messages_per_s = 0;
    for (const schedsim::ModelMetric& m : r->model_metrics) {
      if (m.name == "messages_per_s") messages_per_s = m.value;
    }
    const schedsim::PlacementMetrics& p = r->metrics.placement;
    std::printf("%-13s %-9s %-6s %12.0f %6.1f us %9.2f %8.1f %6.3f J\n",
                r->placement_policy.c_str(), r->freq_governor.c_str(),
                r->idle_governor.c_str(), messages_per_s,
                r->metrics.wakeup_latency.p99_ns / 1000.0,
                p.wakeups ? static_cast<double>(p.probes) / p.wakeups : 0.0,
                r->metrics.busy_pct(), r->metrics.energy_j());
  }
  return 0;
}
