// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The test kit's own behaviour: what a governor test relies on.

#include "gtest/gtest.h"
#include "platform/testing/fake_freq.h"
#include "platform/testing/fake_idle.h"
#include "platform/testing/fake_sched.h"

namespace schedsim::platform::testing {
namespace {

class AlwaysState final : public IdleGovernor {
 public:
  explicit AlwaysState(int s) : s_(s) {}
  absl::string_view name() const override { return "always"; }
  int Select(IdleDevice&, bool* stop_tick) override {
    *stop_tick = true;
    return s_;
  }
  void Reflect(IdleDevice& dev, int index) override {
    reflected_residency = dev.last_residency_ns();
  }
  int s_;
  int64_t reflected_residency = -1;
};

TEST(FakeIdleDeviceTest, IdlePeriodUpdatesCountersAndReflects) {
  FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  AlwaysState c6(4);  // C6: residency 200 us
  dev.set_next_timer_in_ns(1000000);
  dev.IdlePeriod(c6, 50000);   // too short: above
  dev.IdlePeriod(c6, 900000);  // long enough for C7s (800 us): below
  EXPECT_EQ(dev.stats(4).usage, 2u);
  EXPECT_EQ(dev.stats(4).above, 1u);
  EXPECT_EQ(dev.stats(4).below, 1u);
  EXPECT_EQ(c6.reflected_residency, 900000);
  EXPECT_EQ(dev.now_ns(), 950000);
  // The timer (50 us left) ends the next period early.
  dev.IdlePeriod(c6, 1000000);
  EXPECT_EQ(dev.last_residency_ns(), 50000);
}

TEST(FakeIdleDeviceTest, PollStopsAtItsTimeLimit) {
  FakeIdleDevice dev = FakeIdleDevice::ForPreset("skylake-e3-1240v5");
  AlwaysState poll(0);
  dev.IdlePeriod(poll, 1000000);
  EXPECT_TRUE(dev.poll_time_limit());
  EXPECT_EQ(dev.last_residency_ns(), 20000);  // C1E's 20 us residency
}

TEST(FakeFreqDomainTest, RecordsRequestsAndAdvancesCounters) {
  FakeFreqDomain d = FakeFreqDomain::ForPreset("zen3-2s-nps1", 3);
  EXPECT_EQ(d.cpus().ToList(), "3,131");
  d.set_busy_fraction(3, 0.5);
  d.SetTargetKhz(1500000);
  d.Advance(1000000);  // 1 ms
  EXPECT_EQ(d.counters(3).tsc, 2000000u);
  EXPECT_EQ(d.counters(3).mperf, 1000000u);
  EXPECT_EQ(d.counters(3).aperf, 750000u);
  EXPECT_EQ(d.counters(131).aperf, 0u);
  ASSERT_EQ(d.actions().size(), 1u);
  EXPECT_EQ(d.actions()[0].khz, 1500000);
  d.SetTargetKhz(9000000);
  EXPECT_EQ(d.requested_khz(), 3675000);  // clamped to the policy max
}

TEST(FakeSchedViewTest, CountsProbesAndKeepsPerLlcHints) {
  FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
  v.SetBusy(v.topology().llc_span(0));
  EXPECT_FALSE(v.available_idle(0));
  EXPECT_TRUE(v.available_idle(8));
  EXPECT_EQ(v.probes(), (std::vector<int>{0, 8}));
  v.set_idle_cores(130, true);
  EXPECT_TRUE(v.has_idle_cores(5));   // same CCX as 130
  EXPECT_FALSE(v.has_idle_cores(8));  // next CCX
  v.set_nr_idle_scan(0, 3);
  EXPECT_EQ(v.nr_idle_scan(135), 3);
  EXPECT_EQ(v.scan_time_ns(), 120);
}

}  // namespace
}  // namespace schedsim::platform::testing
