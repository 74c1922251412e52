// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Test helper (testonly): runs a workload, or a registered workload model by
// name, on a preset machine with policies made by name from the policy
// registry, and returns the statistics and the model's metrics by name.
//
//   RunOptions o;
//   o.freq = "schedutil";
//   o.duration_ms = 50;
//   absl::StatusOr<ModelRun> r = RunModel("pgbench", {{"mode", "ro"}}, o);
//   double tps = r->metrics.at("tps");

#ifndef SCHEDSIM_WORKLOADS_MODEL_TEST_UTIL_H_
#define SCHEDSIM_WORKLOADS_MODEL_TEST_UTIL_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "platform/registry.h"
#include "sim/config.h"
#include "sim/program.h"
#include "sim/stats.h"
#include "sim/workload.h"
#include "topology/topology.h"

namespace schedsim::workloads {

struct RunOptions {
  std::string machine = "skylake-e3-1240v5";
  std::string freq = "performance";
  std::map<std::string, platform::ParamValue> freq_params;
  std::string idle = "menu";
  std::string placement = "sis_util";
  sim::SimConfig config;
  int64_t warmup_ms = 5;  // run, then ResetStats()
  int64_t duration_ms = 50;
  uint64_t seed = 1;
};

struct ModelRun {
  sim::SimStats stats;
  std::map<std::string, double> metrics;
};

// The preset machine (aborts the test on an unknown name).
topology::Topology Machine(const std::string& name);

absl::StatusOr<sim::SimStats> RunWorkload(const sim::Workload& workload,
                                          const RunOptions& options);

// Resolves `params` against the model's declaration, builds it for the
// machine, runs it and evaluates it (checking the metric names match the
// declaration).
absl::StatusOr<ModelRun> RunModel(
    const std::string& model,
    const std::map<std::string, platform::ParamValue>& params,
    const RunOptions& options);

// The op codes of a program in order: a model's program shape, for tests.
std::vector<sim::OpCode> OpCodes(const sim::Program& program);

}  // namespace schedsim::workloads

#endif  // SCHEDSIM_WORKLOADS_MODEL_TEST_UTIL_H_
