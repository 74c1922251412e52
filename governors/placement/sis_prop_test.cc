// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// sis_prop: SIS_PROP's depth from wake_avg_idle / avg_scan_cost, and the
// feedback of each scan's time. The fake charges 60 ns per probe.

#include "governors/placement/sis_prop.h"

#include <vector>

#include "gtest/gtest.h"
#include "platform/testing/fake_sched.h"

namespace schedsim::governors {
namespace {

using platform::testing::FakeSchedView;

TEST(SisPropTest, DepthFormula) {
  // span_avg = 16 * 1000 = 16000 > 4 * 100: nr = 160.
  EXPECT_EQ(SisPropDepth(16, 1000, 99), 160);
  // span_avg = 16 * 50 = 800 > 400: nr = 8.
  EXPECT_EQ(SisPropDepth(16, 50, 99), 8);
  // span_avg = 16 * 25 = 400, not > 400: the floor of 4.
  EXPECT_EQ(SisPropDepth(16, 25, 99), 4);
  EXPECT_EQ(SisPropDepth(8, 0, 0), 4);
}

// Scan probes for an all-busy LLC (minus target and prev's sibling).
size_t ScanProbes(int64_t wake_avg_idle_ns, int64_t avg_scan_cost_ns) {
  SisProp sis;
  FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
  sis.Attach(v.topology(), v.domains());
  v.SetAllBusy();
  v.set_wake_avg_idle_ns(0, wake_avg_idle_ns);
  v.set_avg_scan_cost_ns(0, avg_scan_cost_ns);
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 0, 0)), 0);
  return v.probes().size() - 2;
}

TEST(SisPropTest, ScanDepthFollowsAvgIdleOverAvgCost) {
  EXPECT_EQ(ScanProbes(1000, 99), 16u);  // nr = 160: the whole LLC
  EXPECT_EQ(ScanProbes(50, 99), 7u);     // nr = 8: 7 CPUs
  EXPECT_EQ(ScanProbes(25, 99), 3u);     // nr = 4: 3 CPUs
  EXPECT_EQ(ScanProbes(0, 0), 3u);
}

TEST(SisPropTest, CompletedScanChargesItsTimeToTheWakingCpu) {
  SisProp sis;
  FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
  sis.Attach(v.topology(), v.domains());
  v.SetAllBusy();
  v.SetIdle(3);
  v.set_wake_avg_idle_ns(0, 100000);
  v.set_avg_scan_cost_ns(0, 1000);
  // avg_scan_cost lives in the waking CPU's own sd_llc (each CPU has its
  // own sched_domain): CPU 1, in the same LLC, keeps its own.
  v.set_avg_scan_cost_ns(1, 5000);
  // Scan 1, 2, 3: three probes, 180 ns.
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 0, 0)), 3);
  EXPECT_EQ(v.wake_avg_idle_ns(0), 100000 - 180);
  EXPECT_EQ(v.avg_scan_cost_ns(0), 1000 + (180 - 1000) / 8);
  EXPECT_EQ(v.avg_scan_cost_ns(1), 5000);
}

TEST(SisPropTest, ScanTimeCannotMakeWakeAvgIdleNegative) {
  SisProp sis;
  FakeSchedView v = FakeSchedView::ForPreset("skylake-e3-1240v5");
  sis.Attach(v.topology(), v.domains());
  v.SetAllBusy();
  v.SetIdle(2);
  v.set_wake_avg_idle_ns(0, 100);  // nr = 8*100/1 = 800
  v.set_avg_scan_cost_ns(0, 0);
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 0, 0)), 2);
  EXPECT_EQ(v.wake_avg_idle_ns(0), 0);
  EXPECT_EQ(v.avg_scan_cost_ns(0), 120 / 8);
}

TEST(SisPropTest, ExhaustedDepthSkipsAccounting) {
  SisProp sis;
  FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
  sis.Attach(v.topology(), v.domains());
  v.SetAllBusy();
  v.set_wake_avg_idle_ns(0, 25);  // nr = 4
  v.set_avg_scan_cost_ns(0, 99);
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 0, 0)), 0);
  EXPECT_EQ(v.wake_avg_idle_ns(0), 25);
  EXPECT_EQ(v.avg_scan_cost_ns(0), 99);
}

TEST(SisPropTest, IdleCoreScanIgnoresDepthAndAccounting) {
  SisProp sis;
  FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
  sis.Attach(v.topology(), v.domains());
  v.SetAllBusy();
  v.SetIdle(7);
  v.SetIdle(135);
  v.set_idle_cores(0, true);
  v.set_wake_avg_idle_ns(0, 0);  // SIS_PROP alone would scan 3 CPUs
  v.set_nr_idle_scan(0, 0);      // SIS_UTIL is off
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 0, 0)), 7);
  EXPECT_EQ(v.wake_avg_idle_ns(0), 0);
  EXPECT_EQ(v.avg_scan_cost_ns(0), 0);
}

TEST(SisPropTest, UsesWakingCpusAverages) {
  SisProp sis;
  FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
  sis.Attach(v.topology(), v.domains());
  v.SetAllBusy();
  v.set_wake_avg_idle_ns(0, 0);       // target's: would give 3 CPUs
  v.set_wake_avg_idle_ns(9, 100000);  // the waker's (LLC 1): all 16
  v.set_avg_scan_cost_ns(9, 0);
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 9, 0, 0)), 0);
  EXPECT_EQ(v.probes().size(), 2u + 16u);
}

}  // namespace
}  // namespace schedsim::governors
