// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "topology/cpuset.h"

#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedsim::topology {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(CpuSetTest, ParsesKernelCpuListAndPrintsItBack) {
  absl::StatusOr<CpuSet> set = CpuSet::ParseList("0-15,128-143\n", 256);
  ASSERT_TRUE(set.ok()) << set.status();
  EXPECT_EQ(set->Count(), 32);
  EXPECT_TRUE(set->Test(143));
  EXPECT_FALSE(set->Test(16));
  EXPECT_EQ(set->ToList(), "0-15,128-143");
}

TEST(CpuSetTest, EmptyListIsEmptySet) {
  absl::StatusOr<CpuSet> set = CpuSet::ParseList("\n", 8);
  ASSERT_TRUE(set.ok());
  EXPECT_TRUE(set->Empty());
  EXPECT_EQ(set->First(), -1);
  EXPECT_EQ(set->ToList(), "");
}

TEST(CpuSetTest, RejectsMalformedAndOutOfRangeLists) {
  EXPECT_THAT(CpuSet::ParseList("0-x", 8).status().message(),
              HasSubstr("expected a CPU list"));
  EXPECT_THAT(CpuSet::ParseList("3-1", 8).status().message(),
              HasSubstr("expected a CPU list"));
  EXPECT_THAT(CpuSet::ParseList("0-8", 8).status().message(),
              HasSubstr("beyond the 8 CPUs"));
}

// Issue 49 #16: the message gives the reason, once.
TEST(CpuSetTest, AMalformedListSaysWhatIsWrongWithIt) {
  EXPECT_EQ(CpuSet::ParseList("0-x", 8).status().message(),
            "expected a CPU list like \"0-3,8\", got \"0-x\": \"0-x\" is not "
            "a CPU number or a range N-M of them");
  EXPECT_EQ(CpuSet::ParseList("1,3-1", 8).status().message(),
            "expected a CPU list like \"0-3,8\", got \"1,3-1\": the range "
            "\"3-1\" ends before it starts");
  EXPECT_EQ(CpuSet::ParseList("1-2-3", 8).status().message(),
            "expected a CPU list like \"0-3,8\", got \"1-2-3\": \"1-2-3\" has "
            "more than one '-'");
}

TEST(CpuSetTest, ParsesHexMask) {
  absl::StatusOr<CpuSet> set = CpuSet::ParseMask("00000001,0000000f", 64);
  ASSERT_TRUE(set.ok()) << set.status();
  EXPECT_THAT(set->ToVector(), ElementsAre(0, 1, 2, 3, 32));
  EXPECT_FALSE(CpuSet::ParseMask("zz", 64).ok());
}

TEST(CpuSetTest, WrapIterationStartsAtStartAndWraps) {
  CpuSet set = *CpuSet::ParseList("1,3,5,7", 8);
  std::vector<int> order;
  for (int c = set.NextWrap(-1, 4); c >= 0; c = set.NextWrap(c, 4)) {
    order.push_back(c);
  }
  EXPECT_THAT(order, ElementsAre(5, 7, 1, 3));
}

TEST(CpuSetTest, SetAlgebra) {
  CpuSet a = *CpuSet::ParseList("0-7", 130);
  CpuSet b = *CpuSet::ParseList("4-11,129", 130);
  EXPECT_EQ((a & b).ToList(), "4-7");
  EXPECT_EQ((a | b).ToList(), "0-11,129");
  CpuSet c = a;
  c.AndNot(b);
  EXPECT_EQ(c.ToList(), "0-3");
  EXPECT_TRUE(c.IsSubsetOf(a));
  EXPECT_FALSE(a.IsSubsetOf(b));
  EXPECT_TRUE(a.Intersects(b));
  EXPECT_EQ(b.Next(11), 129);
  CpuSet d;  // AssignAnd into an empty set takes the operands' width
  d.AssignAnd(a, b);
  EXPECT_EQ(d, a & b);
  d.AssignAnd(b, b);
  EXPECT_EQ(d.ToList(), "4-11,129");
  EXPECT_EQ(d.width(), 130);
}

}  // namespace
}  // namespace schedsim::topology
