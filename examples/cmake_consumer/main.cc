// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The smallest program against an installed schedsim: hackbench on a
// built-in machine for 10 ms of simulated time, policies by name. Prints
// one line and exits 0 on success.

#include <chrono>
#include <cstdio>

#include "schedsim/schedsim.h"

int main() {
  absl::StatusOr<schedsim::Topology> machine =
      schedsim::PresetMachine("skylake-e3-1240v5");
  if (!machine.ok()) {
    std::fprintf(stderr, "consumer: %s\n", machine.status().ToString().c_str());
    return 1;
  }
  schedsim::SimulationOptions options;
  options.seed = 1;
  options.cpuidle.name = "teo";
  options.placement.name = "sis_prop";
  absl::StatusOr<schedsim::RunResult> r = schedsim::Simulate(
      *machine, schedsim::WorkloadSpec::Model("hackbench", {{"groups", 1}}),
      std::chrono::milliseconds(10), options);
  if (!r.ok()) {
    std::fprintf(stderr, "consumer: %s\n", r.status().ToString().c_str());
    return 1;
  }
  if (r->metrics.events == 0 || r->metrics.context_switches == 0) {
    std::fprintf(stderr, "consumer: the simulation did nothing\n");
    return 1;
  }
  std::printf(
      "consumer: %s, 10 ms: %llu events, %llu context switches, wake-up p99 "
      "%.1f us, %s/%s/%s\n",
      machine->name().c_str(),
      static_cast<unsigned long long>(r->metrics.events),
      static_cast<unsigned long long>(r->metrics.context_switches),
      r->metrics.wakeup_latency.p99_ns / 1000.0, r->freq_governor.c_str(),
      r->idle_governor.c_str(), r->placement_policy.c_str());
  return 0;
}
