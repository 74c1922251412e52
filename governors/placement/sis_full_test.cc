// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// sis_full: the 6.1 sequence with an unlimited LLC scan. zen3-2s-nps1 LLC 0
// is CPUs 0-7,128-135 (the sibling of n is n+128).

#include "governors/placement/sis_full.h"

#include "governors/placement/sis_util.h"
#include "gtest/gtest.h"
#include "platform/testing/fake_sched.h"

namespace schedsim::governors {
namespace {

using platform::testing::FakeSchedView;

// Every CPU busy but the last of the LLC in scan order (135), and SIS_UTIL
// allowing no scan (nr_idle_scan 0) or a short one (3): sis_util gives up
// and returns the target; sis_full walks the LLC to 135.
TEST(SisFullTest, ScansTheWholeLlcWhateverTheDepth) {
  for (int nr_idle_scan : {0, 3}) {
    SisFull full;
    SisUtil util;
    FakeSchedView vf = FakeSchedView::ForPreset("zen3-2s-nps1");
    FakeSchedView vu = FakeSchedView::ForPreset("zen3-2s-nps1");
    full.Attach(vf.topology(), vf.domains());
    util.Attach(vu.topology(), vu.domains());
    for (FakeSchedView* v : {&vf, &vu}) {
      v->SetAllBusy();
      v->SetIdle(135);
      v->set_nr_idle_scan(0, nr_idle_scan);
    }
    EXPECT_EQ(util.SelectIdleSibling(vu, vu.Request(1, 0, 0, 0)), 0)
        << nr_idle_scan;
    EXPECT_EQ(full.SelectIdleSibling(vf, vf.Request(1, 0, 0, 0)), 135)
        << nr_idle_scan;
    // target, prev's sibling (128), then the scan from target + 1 in LLC
    // order: 1-7 and 128-135, 15 probes (128 again).
    EXPECT_EQ(vf.probes().size(), 17u) << nr_idle_scan;
  }
}

// With no idle CPU at all the scan still ends at the LLC's edge: after
// target and prev's sibling, each of the LLC's 16 CPUs once (the wrap ends
// at the target).
TEST(SisFullTest, StopsAtTheLlcBoundary) {
  SisFull full;
  FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
  full.Attach(v.topology(), v.domains());
  v.SetAllBusy();
  EXPECT_EQ(full.SelectIdleSibling(v, v.Request(1, 0, 0, 0)), 0);
  EXPECT_EQ(v.probes().size(), 18u);
}

}  // namespace
}  // namespace schedsim::governors
