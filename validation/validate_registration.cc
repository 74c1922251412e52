// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Adds `validate` to the schedsim command line (cli/cli.h). The
// binary links this (alwayslink); the library's RunCli does not carry the
// catalogue.

#include "cli/cli.h"
#include "validation/validate_command.h"

namespace schedsim::validation {
namespace {

const bool kRegistered = cli::RegisterCommand(
    "validate",
    "run the validation catalogue (the published results) and print the\n"
    "             scoreboard (docs/validation.md)",
    &ValidateCommand);
const bool kMergeRegistered = RegisterValidateMerger();

}  // namespace
}  // namespace schedsim::validation
