// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "base/version.h"

#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"

namespace schedsim::base {
namespace {

TEST(VersionTest, LineNamesVersionAndCommit) {
  const std::string line = VersionLine();
  EXPECT_EQ(line.rfind("schedsim 0.", 0), 0u) << line;
  EXPECT_NE(line.find(std::string("(commit ") + SchedsimCommit() + ")"),
            std::string::npos);
  // A 40-digit hash, or "unknown" outside a git checkout.
  const std::string commit = SchedsimCommit();
  EXPECT_TRUE(
      commit == "unknown" ||
      (commit.size() == 40 &&
       commit.find_first_not_of("0123456789abcdef") == std::string::npos))
      << commit;
}

TEST(VersionTest, SameAsTheCMakeProjectVersion) {
  std::ifstream in("CMakeLists.txt");
  std::stringstream text;
  text << in.rdbuf();
  ASSERT_FALSE(text.str().empty()) << "CMakeLists.txt is a data dependency";
  EXPECT_NE(text.str().find(std::string("project(schedsim VERSION ") +
                            kSchedsimVersion + " "),
            std::string::npos);
}

}  // namespace
}  // namespace schedsim::base
