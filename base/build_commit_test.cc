// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// A program that links //base:build_commit reports the stamped commit, not
// version.cc's weak "unknown" (tests that do not link it say "unknown").

#include "base/build_info.h"
#include "base/version.h"
#include "gtest/gtest.h"

namespace schedsim::base {
namespace {

TEST(BuildCommitTest, TheStampReplacesTheDefault) {
  EXPECT_STREQ(SchedsimCommit(), SCHEDSIM_BUILD_COMMIT);
  EXPECT_NE(VersionLine().find(SCHEDSIM_BUILD_COMMIT), std::string::npos);
}

}  // namespace
}  // namespace schedsim::base
