// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// prev: target or prev, never a scan.

#include "governors/placement/prev.h"

#include <vector>

#include "gtest/gtest.h"
#include "platform/testing/fake_sched.h"

namespace schedsim::governors {
namespace {

using platform::WakeupRequest;
using platform::testing::FakeSchedView;

TEST(PrevPlacementTest, IdleTargetFirst) {
  PrevPlacement prev;
  FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
  v.SetAllBusy();
  v.SetIdle(0);
  v.SetIdle(1);
  EXPECT_EQ(prev.SelectIdleSibling(v, v.Request(1, 0, 1, 0)), 0);
  EXPECT_EQ(v.probes(), std::vector<int>({0}));
}

TEST(PrevPlacementTest, IdleCacheAffinePrevWhenTargetBusy) {
  PrevPlacement prev;
  FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
  v.SetAllBusy();
  v.SetIdle(129);
  EXPECT_EQ(prev.SelectIdleSibling(v, v.Request(1, 0, 129, 0)), 129);
  EXPECT_EQ(v.probes(), std::vector<int>({0, 129}));
}

TEST(PrevPlacementTest, NeverScansAndNeverLeavesTargetsLlcForPrev) {
  PrevPlacement prev;
  FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
  v.SetAllBusy();
  v.SetIdle(8);  // prev, another CCX
  v.SetIdle(3);  // an idle CPU a scan would find
  v.recent_used_cpu = 3;
  EXPECT_EQ(prev.SelectIdleSibling(v, v.Request(1, 0, 8, 0)), 0);
  EXPECT_EQ(v.probes(), std::vector<int>({0}));
  EXPECT_EQ(v.recent_used_cpu, 3);  // untouched
}

TEST(PrevPlacementTest, DisallowedTargetReplacedByAllowedCpuOfItsNode) {
  PrevPlacement prev;
  FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
  v.SetAllBusy();
  topology::CpuSet allowed(v.topology().num_cpus());
  allowed.Set(200);  // socket 1
  allowed.Set(40);   // socket 0, like target 0
  WakeupRequest r = v.Request(1, 0, 0, 0);
  r.allowed = &allowed;
  EXPECT_EQ(prev.SelectIdleSibling(v, r), 40);
  EXPECT_TRUE(v.probes().empty());
}

}  // namespace
}  // namespace schedsim::governors
