// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The report of one simulation run, as text for people and as JSON for
// scripts: simulated time and events; per-metric counts, rates and
// latencies; wake-up latency; a per-task summary; context switches and
// migrations; placement statistics; per-CPU busy time; idle-state
// residency; frequency residency; package energy and power.
// docs/cli-simulate.md lists the keys (`schedsim simulate`).
//
//   SimReportContext context{"pingpong.json", 1, 0, "performance", "fit",
//                            "prev"};
//   std::cout << SimReportText(sim->Stats(), topology, context);

#ifndef SCHEDSIM_CLI_SIM_REPORT_H_
#define SCHEDSIM_CLI_SIM_REPORT_H_

#include <cstdint>
#include <string>

#include "nlohmann/json.hpp"
#include "sim/stats.h"
#include "topology/topology.h"

namespace schedsim::cli {

// What the run was, for the report's header.
struct SimReportContext {
  std::string scenario;  // file name
  uint64_t seed = 0;
  int64_t warmup_ns = 0;
  std::string cpufreq;
  std::string cpuidle;
  std::string placement;
  std::string kernel;  // "" when the scenario names none
};

// Tasks listed individually (the first ones by id); the rest are counted.
inline constexpr int kReportMaxTasks = 20;
// CPUs listed individually in the text report (beyond: min/avg/max only).
inline constexpr int kReportMaxTextCpus = 16;
// Frequencies listed in the busy-time-at-frequency summary.
inline constexpr int kReportTopFrequencies = 10;

// A human-readable report, lines ending in '\n'.
std::string SimReportText(const sim::SimStats& stats,
                          const topology::Topology& machine,
                          const SimReportContext& context);

// The same as one JSON object with unit-suffixed keys, in a fixed order.
nlohmann::ordered_json SimReportJson(const sim::SimStats& stats,
                                     const topology::Topology& machine,
                                     const SimReportContext& context);

}  // namespace schedsim::cli

#endif  // SCHEDSIM_CLI_SIM_REPORT_H_
