// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "cli/cli.h"
#include "schedsim/cli.h"

namespace schedsim {

int RunCli(const std::vector<std::string>& args, std::ostream& out,
           std::ostream& err) {
  return cli::RunCli(args, out, err);
}

int CliMain(int argc, char** argv) {
  // Under `bazel run`, resolve relative paths against the user's directory.
  if (const char* dir = std::getenv("BUILD_WORKING_DIRECTORY")) {
    if (chdir(dir) != 0) {
      std::cerr << "schedsim: cannot enter " << dir << "\n";
      return 1;
    }
  }
  std::vector<std::string> args(argv + 1, argv + argc);
  return RunCli(args, std::cout, std::cerr);
}

}  // namespace schedsim
