// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The commit of a Bazel build, for the programs that link //base:build_commit
// (alwayslink): this definition replaces base/version.cc's weak "unknown".

#include "base/build_info.h"
#include "base/version.h"

namespace schedsim::base {

const char* SchedsimCommit() { return SCHEDSIM_BUILD_COMMIT; }

}  // namespace schedsim::base
