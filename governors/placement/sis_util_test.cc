// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// sis_util: the 6.1 select_idle_sibling sequence and SIS_UTIL's scan.
// CPU numbering: zen3-2s-nps1 LLC 0 is CPUs 0-7,128-135 (sibling of n is
// n+128); skylake-e3-1240v5 is one 8-CPU LLC with siblings (n, n+4).

#include "governors/placement/sis_util.h"

#include <algorithm>
#include <vector>

#include "gtest/gtest.h"
#include "platform/testing/fake_sched.h"

namespace schedsim::governors {
namespace {

using platform::WakeupRequest;
using platform::testing::FakeSchedView;

FakeSchedView Attached(const char* preset, SisUtil& sis) {
  FakeSchedView v = FakeSchedView::ForPreset(preset);
  sis.Attach(v.topology(), v.domains());
  return v;
}

struct DepthCase {
  int util_pct;
  int nr_idle_scan;  // docs/kernel-behaviour.md, "SIS_UTIL scan depth"
};

// With every CPU busy and prev == target, the probes before the scan are
// target (step 1) and prev's SMT sibling (select_idle_smt); the rest is the
// scan, which probes exactly nr_idle_scan CPUs (and no more).
void ExpectScanDepths(const char* preset, int llc_cpus,
                      const std::vector<DepthCase>& cases) {
  SisUtil sis;
  FakeSchedView v = Attached(preset, sis);
  v.SetAllBusy();
  ASSERT_EQ(v.topology().llc_span(0).Count(), llc_cpus);
  v.set_nr_idle_scan(0, 0);
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 0, 0)), 0);
  const size_t prelude = v.probes().size();
  EXPECT_EQ(prelude, 2u) << "target and prev's sibling";
  for (const DepthCase& c : cases) {
    v.ClearProbes();
    v.set_nr_idle_scan(0, c.nr_idle_scan);
    EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 0, 0)), 0);
    const size_t scanned = v.probes().size() - prelude;
    EXPECT_LE(scanned, static_cast<size_t>(c.nr_idle_scan))
        << c.util_pct << "% utilization";
    EXPECT_EQ(scanned, static_cast<size_t>(c.nr_idle_scan))
        << c.util_pct << "% utilization";
  }
}

TEST(SisUtilTest, ScanDepthFollowsNrIdleScanOnSixteenCpuLlc) {
  ExpectScanDepths("zen3-2s-nps1", 16,
                   {{0, 16}, {25, 14}, {50, 10}, {75, 3}, {85, 0}});
}

TEST(SisUtilTest, ScanDepthFollowsNrIdleScanOnEightCpuLlc) {
  ExpectScanDepths("skylake-e3-1240v5", 8,
                   {{0, 8}, {25, 7}, {50, 5}, {75, 1}, {85, 0}});
}

TEST(SisUtilTest, NoScanWhenNrIdleScanIsZeroEvenWithIdleCoreHint) {
  SisUtil sis;
  FakeSchedView v = Attached("zen3-2s-nps1", sis);
  v.SetAllBusy();
  v.SetIdle(3);
  v.SetIdle(131);  // a fully idle core the scan would find
  v.set_idle_cores(0, true);
  v.set_nr_idle_scan(0, 0);
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 0, 0)), 0);
  EXPECT_EQ(v.probes(), std::vector<int>({0}));  // target only
  EXPECT_TRUE(v.has_idle_cores(0));              // not cleared: no scan
}

TEST(SisUtilTest, ScanStartsAfterTargetAndWraps) {
  SisUtil sis;
  FakeSchedView v = Attached("zen3-2s-nps1", sis);
  v.SetAllBusy();
  v.set_nr_idle_scan(5, 16);
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 5, 5, 5)), 5);
  EXPECT_EQ(v.probes(),
            std::vector<int>({5, 133,                              // prelude
                              6, 7, 128, 129, 130, 131, 132, 133,  // scan
                              134, 135, 0, 1, 2, 3, 4, 5}));
  v.ClearProbes();
  v.set_nr_idle_scan(5, 4);
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 5, 5, 5)), 5);
  EXPECT_EQ(v.probes(), std::vector<int>({5, 133, 6, 7, 128, 129}));

  SisUtil sky;
  FakeSchedView s = Attached("skylake-e3-1240v5", sky);
  s.SetAllBusy();
  EXPECT_EQ(sky.SelectIdleSibling(s, s.Request(1, 6, 6, 6)), 6);
  EXPECT_EQ(s.probes(), std::vector<int>({6, 2, 7, 0, 1, 2, 3, 4, 5, 6}));
}

TEST(SisUtilTest, ScanReturnsFirstIdleCpuInScanOrder) {
  SisUtil sis;
  FakeSchedView v = Attached("zen3-2s-nps1", sis);
  v.SetAllBusy();
  v.SetIdle(2);
  v.SetIdle(130);
  v.SetIdle(9);  // another LLC: never scanned
  v.set_nr_idle_scan(0, 16);
  // From target 5: 6, 7, 128, 129, 130 -> 130 before 2.
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 5, 5, 5)), 130);
  // A depth of 4 stops at 129.
  v.set_nr_idle_scan(0, 4);
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 5, 5, 5)), 5);
}

TEST(SisUtilTest, SelectIdleCoreReturnsFullyIdleCoresFirstScannedCpu) {
  SisUtil sis;
  FakeSchedView v = Attached("zen3-2s-nps1", sis);
  v.SetAllBusy();
  v.SetIdle(1);  // core {1,129}: partly idle
  v.SetIdle(3);
  v.SetIdle(131);  // core {3,131}: fully idle
  v.set_idle_cores(0, true);
  v.set_nr_idle_scan(0, 2);  // the core scan ignores the depth
  // Scan order from 5: 6, 7, 128, 129 (partly idle), 130, 131 -> 131.
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 5, 5, 5)), 131);
  EXPECT_TRUE(v.has_idle_cores(0));  // found: hint kept
}

TEST(SisUtilTest, SelectIdleCoreFallsBackToPartlyIdleCoresIdleSibling) {
  SisUtil sis;
  FakeSchedView v = Attached("zen3-2s-nps1", sis);
  v.SetAllBusy();
  v.SetIdle(129);  // core {1,129}: only 129 idle
  v.SetIdle(4);    // core {4,132}: only 4 idle, scanned later
  v.set_idle_cores(0, true);
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 5, 5, 5)), 129);
  EXPECT_FALSE(v.has_idle_cores(0));  // the full scan found no idle core
}

TEST(SisUtilTest, FailedFullCoreScanClearsHintAndProbesEachCpuOnce) {
  SisUtil sis;
  FakeSchedView v = Attached("zen3-2s-nps1", sis);
  v.SetAllBusy();
  v.set_idle_cores(0, true);
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 5, 5, 5)), 5);
  EXPECT_FALSE(v.has_idle_cores(0));
  // Target, then each core's two siblings once (siblings leave the mask).
  ASSERT_EQ(v.probes().size(), 1u + 16u);
  std::vector<int> scanned(v.probes().begin() + 1, v.probes().end());
  std::sort(scanned.begin(), scanned.end());
  EXPECT_EQ(scanned, v.topology().llc_span(0).ToVector());
}

TEST(SisUtilTest, RecentUsedCpuUpdatedUnconditionally) {
  SisUtil sis;
  FakeSchedView v = Attached("zen3-2s-nps1", sis);
  v.SetAllBusy();
  v.recent_used_cpu = 3;  // busy: not used
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 2, 0)), 0);
  EXPECT_EQ(v.recent_used_cpu, 2);  // replaced by prev anyway
  v.SetIdle(4);
  v.recent_used_cpu = 4;  // idle and cache-affine: used, and replaced
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 2, 0)), 4);
  EXPECT_EQ(v.recent_used_cpu, 2);
}

TEST(SisUtilTest, RecentUsedCpuUsedOnlyWhenIdleCacheAffineAndAllowed) {
  SisUtil sis;
  FakeSchedView v = Attached("zen3-2s-nps1", sis);
  v.SetAllBusy();
  v.set_nr_idle_scan(0, 0);  // no scan, to see recent_used_cpu alone
  v.SetIdle(8);              // idle, but another CCX
  v.recent_used_cpu = 8;
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 1, 0)), 0);
  v.SetIdle(6);
  v.recent_used_cpu = 6;
  topology::CpuSet allowed = v.topology().all_cpus();
  allowed.Clear(6);
  WakeupRequest r = v.Request(1, 0, 1, 0);
  r.allowed = &allowed;
  EXPECT_EQ(sis.SelectIdleSibling(v, r), 0);
  v.recent_used_cpu = 6;
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 1, 0)), 6);
}

TEST(SisUtilTest, PrevOutsideTargetsLlcNeverChosen) {
  SisUtil sis;
  FakeSchedView v = Attached("zen3-2s-nps1", sis);
  v.SetAllBusy();
  v.SetIdle(8);    // prev, in LLC 1
  v.SetIdle(136);  // prev's sibling
  v.set_nr_idle_scan(0, 16);
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 8, 0)), 0);
  for (int cpu : v.probes()) {
    EXPECT_TRUE(v.topology().llc_span(0).Test(cpu)) << cpu;
  }
}

TEST(SisUtilTest, IdleCacheAffinePrevChosenAfterBusyTarget) {
  SisUtil sis;
  FakeSchedView v = Attached("skylake-e3-1240v5", sis);
  v.SetAllBusy();
  v.SetIdle(3);
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 3, 0)), 3);
  EXPECT_EQ(v.probes(), std::vector<int>({0, 3}));
}

TEST(SisUtilTest, PrevsIdleSiblingBeforeTheScan) {
  SisUtil sis;
  FakeSchedView v = Attached("zen3-2s-nps1", sis);
  v.SetAllBusy();
  v.SetIdle(129);  // sibling of prev 1
  v.SetIdle(6);    // the scan from 0 would find 1..6 first
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 1, 0)), 129);
  // With the idle-core hint set, select_idle_smt is skipped.
  v.set_idle_cores(0, true);
  v.SetIdle(134);  // core {6,134} fully idle
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 1, 0)), 6);
}

TEST(SisUtilTest, PerCpuKthreadWakeeStacksOnPrev) {
  SisUtil sis;
  FakeSchedView v = Attached("zen3-2s-nps1", sis);
  v.SetAllBusy();
  v.SetIdle(7);
  WakeupRequest r = v.Request(1, 2, 2, 2);
  r.waker_is_per_cpu_kthread = true;
  EXPECT_EQ(sis.SelectIdleSibling(v, r), 2);  // kworker's CPU, 1 running
  v.SetBusy(2, 2);
  EXPECT_EQ(sis.SelectIdleSibling(v, r), 7);  // 2 running: search
}

TEST(SisUtilTest, SchedIdleCpuCountsAsIdle) {
  SisUtil sis;
  FakeSchedView v = Attached("skylake-e3-1240v5", sis);
  v.SetAllBusy();
  v.set_sched_idle(2, true);
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 0, 0)), 2);
}

TEST(SisUtilTest, OnCpuIdleSetsHintWhenWholeCoreIdle) {
  SisUtil sis;
  FakeSchedView v = Attached("skylake-e3-1240v5", sis);
  v.SetAllBusy();
  v.SetIdle(1);
  sis.OnCpuIdle(v, 1);
  EXPECT_FALSE(v.has_idle_cores(1));  // sibling 5 busy
  v.SetIdle(5);
  sis.OnCpuIdle(v, 5);
  EXPECT_TRUE(v.has_idle_cores(1));
}

// v6.7's cluster-first scan (cluster_scan_active) on kunpeng920-2s-4826,
// every CPU busy but 16 and 20. Target 17 (cluster 16-19): without the
// key the LLC scan from 18 reaches 20 first; with it the cluster's 18, 19,
// 16 come first and 16 wins. Then with 18 and 20 idle, target 19 and a
// depth of 2: the cluster walk (16, 17) uses the depth up and the wake-up
// stays on the target, where the plain scan finds 20 at once.
TEST(SisUtilTest, ClusterFirstScanPrefersTheTargetsCluster) {
  for (bool active : {false, true}) {
    SisUtil sis;
    FakeSchedView v = Attached("kunpeng920-2s-4826", sis);
    v.SetAllBusy();
    v.SetIdle(16);
    v.SetIdle(20);
    v.set_cluster_scan_active(active);
    v.set_nr_idle_scan(17, 10);
    EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 17, 17, 17)),
              active ? 16 : 20)
        << active;
    v.SetBusy(16);
    v.SetIdle(18);
    v.set_nr_idle_scan(19, 2);
    EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(2, 19, 19, 19)),
              active ? 19 : 20)
        << active;
  }
}

}  // namespace
}  // namespace schedsim::governors
