// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// `schedsim run FILE [--format=table|json|csv] [--out=DIR] [--jobs=N]
//  [--trace=perfetto] [--trace-iteration=K] [--iterations=N] [--seed=N]
//  [--robustness[=PCT]] [--shard=I/N]`:
// runs an experiment file (experiment.h) and prints the comparison of its
// variants (compare.h) and the reports (reports.h). docs/cli-run.md documents
// the command, docs/experiments.md the file and
// docs/experiments-results.md the output.
//
// The output depends only on the file and the flags that change what runs
// (--iterations, --seed), never on --jobs. A progress bar goes to stderr
// when `err` is std::cerr and stderr is a terminal. --robustness adds the
// robustness verdict (robustness.h) to the table and the JSON, and states
// the number of runs on stderr. --shard=I/N runs one shard of the runs and
// writes a partial result for `schedsim merge` (run_shard.h, shard.h).

#ifndef SCHEDSIM_CLI_RUN_COMMAND_H_
#define SCHEDSIM_CLI_RUN_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

#include "experiments/experiment.h"
#include "experiments/robustness.h"
#include "experiments/runner.h"

namespace schedsim::cli {

// `args` excludes "schedsim" and "run". Returns the exit code: 0 success,
// 1 the experiment failed (unreadable or invalid file, a failed run, an
// unwritable output), 2 a usage error.
int RunCommand(const std::vector<std::string>& args, std::ostream& out,
               std::ostream& err);

// Prints `result` in `format` (table, json or csv) to `out` and, when
// `out_dir` is not empty, writes result.json, result.csv and result.txt
// there, as `schedsim run` does; `verdicts` (optional) adds the robustness
// verdict. `command` ("run", "merge") starts error messages. Returns 0, or
// 1 when a file cannot be written.
int PrintRunResult(const std::string& command,
                   const experiments::Experiment& experiment,
                   const experiments::ExperimentResult& result,
                   const std::vector<experiments::RobustnessEntry>* verdicts,
                   double robustness_pct, const std::string& format,
                   const std::string& out_dir, std::ostream& out,
                   std::ostream& err);

}  // namespace schedsim::cli

#endif  // SCHEDSIM_CLI_RUN_COMMAND_H_
