// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "traces/cpu_timeline.h"

#include "gtest/gtest.h"

namespace schedsim::traces {
namespace {

// Span 100..200 ns in 4 bins of 25 ns.
TEST(CpuTimelineTest, TimeWeightedFrequencyPerBin) {
  CpuTimeline t(2, 100, 200, 4);
  t.OnFrequency(0, 0, 1000);    // before the span: 1000 from 100 on
  t.OnFrequency(110, 0, 3000);  // bin 0: 10 ns at 1000, 15 ns at 3000
  t.OnFrequency(160, 1, 2000);  // CPU 1 unknown before 160
  t.Finish(190);                // the last 10 ns are not known
  EXPECT_DOUBLE_EQ(t.MeanKhz(0, 0), (10 * 1000.0 + 15 * 3000.0) / 25);
  EXPECT_DOUBLE_EQ(t.MeanKhz(0, 1), 3000);
  EXPECT_DOUBLE_EQ(t.MeanKhz(0, 3), 3000);  // 15 ns known
  EXPECT_LT(t.MeanKhz(1, 0), 0);            // unknown
  EXPECT_DOUBLE_EQ(t.MeanKhz(1, 2), 2000);  // 160..175
  EXPECT_EQ(t.cpus(), (std::vector<int>{0, 1}));
}

TEST(CpuTimelineTest, TheIdleStateOfMostOfEachBin) {
  CpuTimeline t(1, 0, 100, 2);
  t.OnIdle(0, 0, 2);    // 0..30 in state 2
  t.OnIdle(30, 0, -1);  // 30..40 busy
  t.OnIdle(40, 0, 0);   // 40..100 in state 0
  t.Finish(100);
  EXPECT_EQ(t.MainIdleState(0, 0), 2);
  EXPECT_EQ(t.MainIdleState(0, 1), 0);
  EXPECT_DOUBLE_EQ(t.IdleShare(0, 0), 40.0 / 50);
  EXPECT_EQ(t.num_idle_states(), 3);
  CpuTimeline busy(1, 0, 100, 1);
  busy.OnIdle(0, 0, 1);
  busy.OnIdle(10, 0, -1);
  busy.Finish(100);
  EXPECT_EQ(busy.MainIdleState(0, 0), CpuTimeline::kNotIdle);
  CpuTimeline none(1, 0, 100, 1);
  none.Finish(100);
  EXPECT_EQ(none.MainIdleState(0, 0), CpuTimeline::kUnknown);
  EXPECT_LT(none.IdleShare(0, 0), 0);
}

TEST(CpuTimelineTest, OnlyTheSelectedCpus) {
  CpuTimeline t(4, 0, 10, 1, {false, true, false, true});
  t.OnFrequency(0, 0, 5);  // not selected: ignored
  t.OnFrequency(0, 3, 7);
  t.Finish(10);
  EXPECT_EQ(t.cpus(), (std::vector<int>{1, 3}));
  EXPECT_DOUBLE_EQ(t.MeanKhz(3, 0), 7);
}

}  // namespace
}  // namespace schedsim::traces
