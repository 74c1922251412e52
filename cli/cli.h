// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The schedsim command line: `schedsim COMMAND [FLAGS]`. Each command writes
// its result to `out` and diagnostics to `err`, and returns the process exit
// code (0 success, 1 failure, 2 usage error). docs/cli.md documents them.

#ifndef SCHEDSIM_CLI_CLI_H_
#define SCHEDSIM_CLI_CLI_H_

#include <ostream>
#include <string>
#include <vector>

namespace schedsim::cli {

// `args` excludes the program name.
int RunCli(const std::vector<std::string>& args, std::ostream& out,
           std::ostream& err);

// A command linked in from a package above this one (validation/'s
// `validate`): `name` runs `run`, and `summary` is its line in the usage
// text. Call it from a static initializer (an alwayslink library). Returns
// true so that it can initialise a static.
using CommandFunction = int (*)(const std::vector<std::string>& args,
                                std::ostream& out, std::ostream& err);
bool RegisterCommand(const std::string& name, const std::string& summary,
                     CommandFunction run);

}  // namespace schedsim::cli

#endif  // SCHEDSIM_CLI_CLI_H_
