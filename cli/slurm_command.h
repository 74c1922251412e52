// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// `schedsim slurm FILE --shards=N --out=DIR [--partition=P] [--time=T]
//  [--cpus-per-task=C] [--submit]`: writes the Slurm batch scripts that run
// an experiment (or, with --validate instead of FILE, the validation
// catalogue) as a job array of N shards and merge them in a job that
// depends on the array (afterok), and submits them with sbatch when
// --submit is given (docs/scale-out.md).
//
// In DIR: array.sbatch (task $SLURM_ARRAY_TASK_ID of --array=0-(N-1) runs
// `schedsim run FILE --shard=$SLURM_ARRAY_TASK_ID/N --out=DIR/shards`),
// merge.sbatch (`schedsim merge DIR/shards --out=DIR`, which writes the
// merged result where the unsharded --out=DIR would), submit.sh (the two
// sbatch calls), and the jobs' logs in DIR/logs. DIR must be on a file
// system every node shares; the scripts run from the directory the command
// ran in, so that FILE's name (as recorded in the result) is the same.

#ifndef SCHEDSIM_CLI_SLURM_COMMAND_H_
#define SCHEDSIM_CLI_SLURM_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

namespace schedsim::cli {

// `args` excludes "schedsim" and "slurm". Returns 0 on success, 1 when a
// file cannot be written or sbatch fails, 2 on a usage error.
int SlurmCommand(const std::vector<std::string>& args, std::ostream& out,
                 std::ostream& err);

}  // namespace schedsim::cli

#endif  // SCHEDSIM_CLI_SLURM_COMMAND_H_
