// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// NearestIdlePlacement unit-tested with the scripted kit's FakeSchedView,
// and found by name in the policy registry.

#include "nearest_idle.h"

#include <vector>

#include "gtest/gtest.h"
#include "schedsim/testing.h"

namespace example {
namespace {

using schedsim::testing::FakeSchedView;

// Skylake E3-1240 v5: 4 cores, SMT siblings (n, n+4), one LLC.
TEST(NearestIdleTest, IdleTargetFirst) {
  FakeSchedView v = FakeSchedView::ForPreset("skylake-e3-1240v5");
  NearestIdlePlacement p;
  p.Attach(v.topology(), v.domains());
  EXPECT_EQ(p.SelectIdleSibling(v, v.Request(0, /*this_cpu=*/0, /*prev=*/2,
                                             /*target=*/0)),
            0);
  EXPECT_EQ(v.probes(), std::vector<int>{0});
}

TEST(NearestIdleTest, PrevThenSiblingThenTheLlcInOrder) {
  FakeSchedView v = FakeSchedView::ForPreset("skylake-e3-1240v5");
  NearestIdlePlacement p;
  p.Attach(v.topology(), v.domains());
  v.SetAllBusy();
  v.SetIdle(2);
  // prev (2) is idle and shares the LLC.
  EXPECT_EQ(p.SelectIdleSibling(v, v.Request(0, 0, /*prev=*/2, /*target=*/0)),
            2);

  v.ClearProbes();
  v.SetBusy(2);
  v.SetIdle(4);  // CPU 0's SMT sibling
  v.SetIdle(3);
  EXPECT_EQ(p.SelectIdleSibling(v, v.Request(0, 0, 1, 0)), 4);
  EXPECT_EQ(v.probes(), (std::vector<int>{0, 1, 4}));

  v.ClearProbes();
  v.SetBusy(4);
  EXPECT_EQ(p.SelectIdleSibling(v, v.Request(0, 0, 1, 0)), 3);
  EXPECT_EQ(v.probes(), (std::vector<int>{0, 1, 4, 1, 2, 3}));
}

TEST(NearestIdleTest, GivesUpAfterMaxProbes) {
  FakeSchedView v = FakeSchedView::ForPreset("skylake-e3-1240v5");
  NearestIdlePlacement p(/*max_probes=*/2);
  p.Attach(v.topology(), v.domains());
  v.SetAllBusy();
  v.SetIdle(7);
  EXPECT_EQ(p.SelectIdleSibling(v, v.Request(0, 0, 0, 0)), 0);
  EXPECT_EQ(v.probes().size(), 3u);  // the target, then two
}

TEST(NearestIdleTest, RegisteredByName) {
  absl::StatusOr<std::unique_ptr<schedsim::PlacementPolicy>> p =
      schedsim::MakePlacementPolicy("nearest_idle", {{"max_probes", 4}});
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ((*p)->name(), "nearest_idle");
  EXPECT_FALSE(
      schedsim::MakePlacementPolicy("nearest_idle", {{"max_probe", 4}}).ok());
}

}  // namespace
}  // namespace example
