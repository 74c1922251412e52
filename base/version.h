// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Which schedsim this is: its version (kept equal to CMakeLists.txt's
// project VERSION; base:version_test checks) and the git commit it was
// built from. Bazel stamps the commit through dev/workspace_status (the
// genrule //base:build_info) into the programs that link
// //base:build_commit (the schedsim binaries, the Python module; tests and
// other programs say "unknown", so that a new commit alone does not
// rebuild them); CMake defines SCHEDSIM_COMMIT at configure time. A build
// from outside a git checkout says "unknown".
//
//   std::cout << base::VersionLine() << "\n";  // schedsim 0.1.0 (commit ...)

#ifndef SCHEDSIM_BASE_VERSION_H_
#define SCHEDSIM_BASE_VERSION_H_

#include <string>

namespace schedsim::base {

inline constexpr char kSchedsimVersion[] = "0.1.0";

// The version of the layout of every result JSON the commands write (the
// first key, "schema_version", of `run`, `merge`, `simulate`, `shadow`,
// `topology` and `validate` JSON): raised when a key is removed, renamed
// or changes meaning, so that a reader can refuse what it does not know.
// Added keys do not raise it.
inline constexpr int kResultSchemaVersion = 1;

// The full commit hash, or "unknown".
const char* SchedsimCommit();

// "schedsim VERSION (commit HASH)".
std::string VersionLine();

}  // namespace schedsim::base

#endif  // SCHEDSIM_BASE_VERSION_H_
