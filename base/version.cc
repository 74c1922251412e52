// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "base/version.h"

#include <string>

#if !defined(SCHEDSIM_COMMIT)
// Bazel: written by the stamped genrule //base:build_info.
#include "base/build_info.h"
#define SCHEDSIM_COMMIT SCHEDSIM_BUILD_COMMIT
#endif

namespace schedsim::base {

const char* SchedsimCommit() { return SCHEDSIM_COMMIT; }

std::string VersionLine() {
  return std::string("schedsim ") + kSchedsimVersion + " (commit " +
         SchedsimCommit() + ")";
}

}  // namespace schedsim::base
