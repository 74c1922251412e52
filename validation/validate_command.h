// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// `schedsim validate`: runs the validation catalogue (catalogue.h) and
// prints the scoreboard (scoreboard.h). docs/cli-validate.md lists the flags;
// docs/validation.md explains the catalogue, the tiers and the verdicts.
//
//   schedsim validate --tier=quick --format=json
//   schedsim validate --only='^001/hackbench' --jobs=2
//   schedsim validate --check-floor        # exit 1 below validation/floor.json
//   schedsim validate --shard=0/4 --out=DIR  # a partial result to merge

#ifndef SCHEDSIM_VALIDATION_VALIDATE_COMMAND_H_
#define SCHEDSIM_VALIDATION_VALIDATE_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

namespace schedsim::validation {

// `args` without the program and command names. Returns the exit code: 0,
// 1 on a failed run or a scoreboard below the floor (--check-floor), 2 on
// a usage error.
int ValidateCommand(const std::vector<std::string>& args, std::ostream& out,
                    std::ostream& err);

// Lets `schedsim merge` merge the partial results of `schedsim validate
// --shard=I/N` (experiments/shard.h): registers their merger, which prints
// and writes the scoreboard as `validate` does. Returns true, to
// initialise a static.
bool RegisterValidateMerger();

}  // namespace schedsim::validation

#endif  // SCHEDSIM_VALIDATION_VALIDATE_COMMAND_H_
