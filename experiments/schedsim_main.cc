// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The schedsim command-line tool. See docs/cli.md.

#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "experiments/cli.h"

int main(int argc, char** argv) {
  // Under `bazel run`, resolve relative paths against the user's directory.
  if (const char* dir = std::getenv("BUILD_WORKING_DIRECTORY")) {
    if (chdir(dir) != 0) {
      std::cerr << "schedsim: cannot enter " << dir << "\n";
      return 1;
    }
  }
  std::vector<std::string> args(argv + 1, argv + argc);
  return schedsim::experiments::RunCli(args, std::cout, std::cerr);
}
