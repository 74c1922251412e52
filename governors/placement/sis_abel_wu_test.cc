// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// sis_abel_wu: each patch of Abel Wu's v6 series on its own, and the whole
// series off being sis_util. zen3-2s-nps1 LLC 0 is CPUs 0-7,128-135
// (sibling of n is n+128).

#include "governors/placement/sis_abel_wu.h"

#include <random>
#include <vector>

#include "governors/placement/sis_util.h"
#include "governors/placement/test_util.h"
#include "gtest/gtest.h"
#include "platform/testing/fake_sched.h"

namespace schedsim::governors {
namespace {

using platform::WakeupRequest;
using platform::testing::FakeSchedView;
using topology::CpuSet;

SisAbelWuOptions NoPatches() {
  SisAbelWuOptions o;
  o.skip_core_update_if_pending = false;
  o.ignore_sis_util_with_idle_core = false;
  o.sis_core = false;
  o.scan_failure_handling = false;
  return o;
}

// Marks every CPU of LLC 0 busy and runs one wake-up that scans the whole
// LLC and finds nothing, which resets a SIS_CORE mask to empty.
void EmptyIdleMask(SisAbelWu& sis, FakeSchedView& v) {
  v.SetAllBusy();
  v.set_idle_cores(0, true);
  sis.SelectIdleSibling(v, v.Request(1, 0, 0, 0));
  ASSERT_TRUE(sis.idle_cpus(0).Empty());
  v.ClearProbes();
}

TEST(SisAbelWuTest, AllPatchesOffBehavesExactlyLikeSisUtil) {
  for (const char* preset : {"zen3-2s-nps1", "skylake-e3-1240v5"}) {
    FakeSchedView va = FakeSchedView::ForPreset(preset);
    FakeSchedView vb = FakeSchedView::ForPreset(preset);
    SisUtil util;
    SisAbelWu wu(NoPatches());
    util.Attach(va.topology(), va.domains());
    wu.Attach(vb.topology(), vb.domains());
    std::mt19937_64 rng_a(42), rng_b(42);
    const int n = va.topology().num_cpus();
    for (int round = 0; round < 2000; ++round) {
      const int busy_pct = 10 + (round % 9) * 10;
      testing::RandomizeState(va, rng_a, busy_pct);
      testing::RandomizeState(vb, rng_b, busy_pct);
      WakeupRequest ra = testing::RandomRequest(va, rng_a);
      WakeupRequest rb = testing::RandomRequest(vb, rng_b);
      CpuSet allowed_a = testing::RandomAllowed(n, rng_a, 70);
      CpuSet allowed_b = testing::RandomAllowed(n, rng_b, 70);
      ra.allowed = &allowed_a;
      rb.allowed = &allowed_b;
      va.ClearProbes();
      vb.ClearProbes();
      const int a = util.SelectIdleSibling(va, ra);
      const int b = wu.SelectIdleSibling(vb, rb);
      ASSERT_EQ(a, b) << preset << " round " << round;
      ASSERT_EQ(va.probes(), vb.probes()) << preset << " round " << round;
      ASSERT_EQ(va.recent_used_cpu, vb.recent_used_cpu);
      ASSERT_EQ(va.has_idle_cores(ra.target), vb.has_idle_cores(rb.target));
      // The idle-entry hook too.
      const int idle = ra.prev_cpu;
      util.OnCpuIdle(va, idle);
      wu.OnCpuIdle(vb, idle);
      ASSERT_EQ(va.probes(), vb.probes());
      ASSERT_EQ(va.has_idle_cores(idle), vb.has_idle_cores(idle));
    }
  }
}

TEST(SisAbelWuTest, Patch1SkipsHintUpdateWhenWakeupPending) {
  for (bool patch1 : {false, true}) {
    SisAbelWuOptions o = NoPatches();
    o.skip_core_update_if_pending = patch1;
    SisAbelWu sis(o);
    FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
    sis.Attach(v.topology(), v.domains());
    v.SetAllBusy();
    v.SetIdle(131);
    v.SetIdle(3);
    v.set_ttwu_pending(3, true);  // idle task running, wake-up queued
    sis.OnCpuIdle(v, 3);
    EXPECT_EQ(v.has_idle_cores(3), !patch1) << "patch1=" << patch1;
  }
}

TEST(SisAbelWuTest, Patch2ScansForIdleCoreWhenNrIdleScanIsZero) {
  for (bool patch2 : {false, true}) {
    SisAbelWuOptions o = NoPatches();
    o.ignore_sis_util_with_idle_core = patch2;
    SisAbelWu sis(o);
    FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
    sis.Attach(v.topology(), v.domains());
    v.SetAllBusy();
    v.SetIdle(6);
    v.SetIdle(134);
    v.set_idle_cores(0, true);
    v.set_nr_idle_scan(0, 0);  // SIS_UTIL: LLC overloaded
    EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 0, 0)), patch2 ? 6 : 0)
        << "patch2=" << patch2;
  }
}

TEST(SisAbelWuTest, Patch2KeepsSisUtilWithoutIdleCoreHint) {
  SisAbelWuOptions o = NoPatches();
  o.ignore_sis_util_with_idle_core = true;
  SisAbelWu sis(o);
  FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
  sis.Attach(v.topology(), v.domains());
  v.SetAllBusy();
  v.SetIdle(6);
  v.set_nr_idle_scan(0, 0);
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 0, 0)), 0);
  EXPECT_EQ(v.probes().size(), 2u);  // target, prev's sibling: no scan
}

TEST(SisCoreTest, IdleMaskStartsAsWholeLlc) {
  SisAbelWu sis;
  FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
  sis.Attach(v.topology(), v.domains());
  EXPECT_EQ(sis.idle_cpus(0), v.topology().llc_span(0));
  EXPECT_EQ(sis.idle_cpus(200), v.topology().llc_span(200));
}

TEST(SisCoreTest, AtMostOneCpuPerCoreInIdleMask) {
  SisAbelWu sis;
  FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
  sis.Attach(v.topology(), v.domains());
  EmptyIdleMask(sis, v);
  std::mt19937_64 rng(7);
  const CpuSet& llc = v.topology().llc_span(0);
  for (int round = 0; round < 3000; ++round) {
    testing::RandomizeState(v, rng, 50);
    // A CPU of LLC 0 goes idle, or a wake-up targets LLC 0.
    const int cpu = testing::RandomLlcSibling(v, 0, rng);
    if (round % 3 != 0) {
      v.SetIdle(cpu);
      sis.OnCpuIdle(v, cpu);
    } else {
      WakeupRequest r = v.Request(1, cpu, cpu, cpu);
      sis.SelectIdleSibling(v, r);
    }
    const CpuSet& icpus = sis.idle_cpus(0);
    ASSERT_TRUE(icpus.IsSubsetOf(llc));
    for (int c = icpus.First(); c >= 0; c = icpus.Next(c)) {
      ASSERT_EQ((v.topology().smt_siblings(c) & icpus).Count(), 1)
          << "round " << round << ": " << icpus.ToList();
    }
  }
}

TEST(SisCoreTest, OnCpuIdleInsertsAtCoreGranularity) {
  SisAbelWu sis;
  FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
  sis.Attach(v.topology(), v.domains());
  EmptyIdleMask(sis, v);
  v.SetIdle(2);
  sis.OnCpuIdle(v, 2);
  v.SetIdle(130);
  sis.OnCpuIdle(v, 130);  // its sibling 2 is already recorded
  v.SetIdle(5);
  sis.OnCpuIdle(v, 5);
  EXPECT_EQ(sis.idle_cpus(0).ToList(), "2,5");
}

TEST(SisCoreTest, ScanVisitsOnlyIdleMask) {
  SisAbelWu sis;
  FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
  sis.Attach(v.topology(), v.domains());
  EmptyIdleMask(sis, v);
  v.SetIdle(6);
  sis.OnCpuIdle(v, 6);
  v.SetIdle(3);
  sis.OnCpuIdle(v, 3);
  v.SetBusy(3);  // stale entry: a false positive
  v.ClearProbes();
  // Target 0 busy; prev's sibling 128 busy; the scan probes 3, then 6.
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 0, 0)), 6);
  EXPECT_EQ(v.probes(), std::vector<int>({0, 128, 3, 6}));
}

TEST(SisCoreTest, ScanRespectsAllowedMask) {
  SisAbelWu sis;
  FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
  sis.Attach(v.topology(), v.domains());
  EmptyIdleMask(sis, v);
  v.SetIdle(6);
  sis.OnCpuIdle(v, 6);
  CpuSet allowed = v.topology().all_cpus();
  allowed.Clear(6);
  WakeupRequest r = v.Request(1, 0, 0, 0);
  r.allowed = &allowed;
  EXPECT_EQ(sis.SelectIdleSibling(v, r), 0);
  for (int cpu : v.probes()) EXPECT_NE(cpu, 6);
}

TEST(SisCoreTest, FailedFullScanResetsIdleMask) {
  SisAbelWuOptions o;
  o.scan_failure_handling = false;  // patch 3 alone
  SisAbelWu sis(o);
  FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
  sis.Attach(v.topology(), v.domains());
  EmptyIdleMask(sis, v);
  for (int cpu : {1, 2, 3}) {
    v.SetIdle(cpu);
    sis.OnCpuIdle(v, cpu);
  }
  v.SetAllBusy();  // all three are stale now
  v.set_idle_cores(0, false);
  v.set_nr_idle_scan(0, 16);  // deep enough to scan the whole mask
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 0, 0)), 0);
  EXPECT_TRUE(sis.idle_cpus(0).Empty());
}

TEST(SisScanFailureTest, ExhaustedScanMakesNextScanFailProne) {
  SisAbelWu sis;  // the whole series
  FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
  sis.Attach(v.topology(), v.domains());
  EmptyIdleMask(sis, v);
  for (int cpu : {1, 2, 3, 4}) {
    v.SetIdle(cpu);
    sis.OnCpuIdle(v, cpu);
  }
  v.SetAllBusy();
  v.SetIdle(131);  // a true negative: sibling of recorded 3, not in icpus
  v.set_idle_cores(0, false);
  v.set_nr_idle_scan(0, 2);
  // Depth 2 probes 1, 2 and runs out: the next scan from 0 is fail-prone.
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 0, 0)), 0);
  EXPECT_TRUE(sis.scan_sibling_pending(0));
  EXPECT_EQ(sis.idle_cpus(0).ToList(), "1-4");  // no reset
  v.ClearProbes();
  v.set_nr_idle_scan(0, 16);
  // Fail-prone: whole cores {1,129}, {2,130} are busy and leave the mask;
  // core {3,131} yields 131.
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 0, 0)), 131);
  EXPECT_FALSE(sis.scan_sibling_pending(0));  // consumed
  EXPECT_EQ(v.probes(), std::vector<int>({0, 128, 1, 129, 2, 130, 3, 131}));
  EXPECT_EQ(sis.idle_cpus(0).ToList(), "3-4");
}

TEST(SisScanFailureTest, FailedScanWithoutIdleCoreKeepsMask) {
  SisAbelWu sis;
  FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
  sis.Attach(v.topology(), v.domains());
  EmptyIdleMask(sis, v);
  for (int cpu : {1, 2}) {
    v.SetIdle(cpu);
    sis.OnCpuIdle(v, cpu);
  }
  v.SetAllBusy();
  v.set_idle_cores(0, false);
  v.set_nr_idle_scan(0, 16);
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 0, 0)), 0);
  // A complete, ordinary scan: patch 4 resets only after a core scan.
  EXPECT_EQ(sis.idle_cpus(0).ToList(), "1-2");
  EXPECT_FALSE(sis.scan_sibling_pending(0));
  // After a failed idle-core scan it does.
  v.set_idle_cores(0, true);
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 0, 0)), 0);
  EXPECT_TRUE(sis.idle_cpus(0).Empty());
  EXPECT_FALSE(v.has_idle_cores(0));
}

TEST(SisScanFailureTest, DepthCountsCoreScansWithoutPatch2) {
  SisAbelWuOptions o;
  o.ignore_sis_util_with_idle_core = false;
  SisAbelWu sis(o);
  FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
  sis.Attach(v.topology(), v.domains());
  EmptyIdleMask(sis, v);
  for (int cpu : {1, 2, 3, 4}) {
    v.SetIdle(cpu);
    sis.OnCpuIdle(v, cpu);
  }
  v.SetAllBusy();
  v.SetIdle(4);
  v.SetIdle(132);  // core {4,132} idle, fourth in scan order
  v.set_idle_cores(0, true);
  v.set_nr_idle_scan(0, 2);  // two core scans: 1 and 2
  EXPECT_EQ(sis.SelectIdleSibling(v, v.Request(1, 0, 0, 0)), 0);
  EXPECT_TRUE(v.has_idle_cores(0));  // not a full scan: hint kept
  EXPECT_TRUE(sis.scan_sibling_pending(0));
}

}  // namespace
}  // namespace schedsim::governors
