// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// `schedsim run --mmtests=DIR`: the result written as mmtests writes its
// per-benchmark logs, one "kernel" (test run name) per variant, so that
// mmtests' own reporting (compare-kernels.sh, extract-mmtests.pl, run in
// DIR) reads a simulated comparison like a measured one:
//
//   DIR/<variant>/iter-0/hackbench/logs/hackbench-<groups>-<iteration>
//
// with iterations numbered from 1, each file holding the line perf bench
// sched messaging prints and mmtests' hackbench extraction reads
// (MMTests::ExtractHackbench: the files hackbench-<group>-*, the number of
// `Total time: <seconds>`):
//
//        Total time: 0.123456 [sec]
//
// The number is the run's time_s metric. Only the hackbench model has this
// layout here: mmtests' pgbench and netperf extractions read per-second
// transaction logs and netperf's own result blocks, which the models do not
// produce (an error says so).

#ifndef SCHEDSIM_EXPERIMENTS_MMTESTS_EXPORT_H_
#define SCHEDSIM_EXPERIMENTS_MMTESTS_EXPORT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "experiments/experiment.h"
#include "experiments/runner.h"

namespace schedsim::experiments {

// Writes the logs under `dir` (created if missing); returns the files
// written. Errors: a model without an mmtests layout, a file that cannot
// be written (naming it).
absl::StatusOr<std::vector<std::string>> WriteMmtestsLogs(
    const Experiment& experiment, const ExperimentResult& result,
    const std::string& dir);

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_MMTESTS_EXPORT_H_
