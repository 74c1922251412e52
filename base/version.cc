// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "base/version.h"

#include <string>

namespace schedsim::base {

#if defined(SCHEDSIM_COMMIT)
// CMake: defined on this file at configure time (CMakeLists.txt).
const char* SchedsimCommit() { return SCHEDSIM_COMMIT; }
#else
// Bazel: "unknown" unless the program links //base:build_commit, whose
// definition replaces this weak one. Only the programs this repository
// ships (the schedsim binaries, the Python module) link it: a test that
// depended on the commit would be rebuilt and rerun at every commit, and
// the disk cache could never answer for it.
__attribute__((weak)) const char* SchedsimCommit() { return "unknown"; }
#endif

std::string VersionLine() {
  return std::string("schedsim ") + kSchedsimVersion + " (commit " +
         SchedsimCommit() + ")";
}

}  // namespace schedsim::base
