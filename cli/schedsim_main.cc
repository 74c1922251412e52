// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The schedsim command-line tool. See docs/cli.md.

#include <poll.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "cli/cli.h"

int main(int argc, char** argv) {
  // Under `bazel run`, resolve relative paths against the user's directory.
  if (const char* dir = std::getenv("BUILD_WORKING_DIRECTORY")) {
    if (chdir(dir) != 0) {
      std::cerr << "schedsim: cannot enter " << dir << "\n";
      return 1;
    }
  }
  // Issue 49 #6: `schedsim run ... --trace=perfetto | head` died of SIGPIPE
  // before writing its trace files (0 bytes). With SIGPIPE ignored a write
  // to a closed pipe fails instead: the command finishes its files and
  // exits with its own code, as govd already did on a closed output. Any
  // other failure to write stdout (a full disk) is an error.
  std::signal(SIGPIPE, SIG_IGN);
  std::vector<std::string> args(argv + 1, argv + argc);
  const int code = schedsim::cli::RunCli(args, std::cout, std::cerr);
  std::cout.flush();
  if (!std::cout.good()) {
    struct pollfd p = {STDOUT_FILENO, POLLOUT, 0};
    if (poll(&p, 1, 0) == 1 && (p.revents & POLLERR) != 0) {
      return code;  // the reader went away (`| head`): the files are whole
    }
    std::cerr << "schedsim: cannot write the output to stdout\n";
    return code != 0 ? code : 1;
  }
  return code;
}
