// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The schedsim command line (docs/cli.md) as a library call, so that a
// program of your own can be the `schedsim` tool with your registered
// policies (policy.h) linked in: they are then listed by `policies` and
// selectable by name in `simulate` scenario files, `run` experiment files
// and the `shadow` and `govd` flags.
//
//   // my_schedsim.cc, linked with the library and your policies:
//   int main(int argc, char** argv) { return schedsim::CliMain(argc, argv); }

#ifndef SCHEDSIM_INCLUDE_SCHEDSIM_CLI_H_
#define SCHEDSIM_INCLUDE_SCHEDSIM_CLI_H_

#include <ostream>
#include <string>
#include <vector>

namespace schedsim {

// Runs `schedsim ARGS` (`args` without the program name), writing results
// to `out` and diagnostics to `err`. Returns the exit code: 0 success, 1
// failure, 2 usage error.
int RunCli(const std::vector<std::string>& args, std::ostream& out,
           std::ostream& err);

// main() of the tool: RunCli on argv[1..] with std::cout and std::cerr.
// Under `bazel run`, relative paths are taken from the directory bazel was
// run in (BUILD_WORKING_DIRECTORY).
int CliMain(int argc, char** argv);

}  // namespace schedsim

#endif  // SCHEDSIM_INCLUDE_SCHEDSIM_CLI_H_
