// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "base/names.h"

#include "gtest/gtest.h"

namespace schedsim::base {
namespace {

TEST(NamesTest, EditDistance) {
  EXPECT_EQ(EditDistance("", ""), 0);
  EXPECT_EQ(EditDistance("hz", "hzz"), 1);
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3);
  EXPECT_EQ(EditDistance("abc", ""), 3);
}

TEST(NamesTest, DidYouMeanOnlyForCloseNames) {
  const std::vector<std::string> known = {"hz", "turbo", "noise_scale"};
  EXPECT_EQ(DidYouMean("hzz", known), " (did you mean 'hz'?)");
  EXPECT_EQ(DidYouMean("trbo", known), " (did you mean 'turbo'?)");
  EXPECT_EQ(DidYouMean("noise_scal", known), " (did you mean 'noise_scale'?)");
  // Two-character names must match exactly; longer ones allow more.
  EXPECT_EQ(DidYouMean("hx", known), "");
  EXPECT_EQ(DidYouMean("completely_else", known), "");
}

}  // namespace
}  // namespace schedsim::base
