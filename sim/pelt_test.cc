// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/pelt.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <type_traits>

#include "gtest/gtest.h"

namespace schedsim::sim {
namespace {

static_assert(std::is_trivially_copyable_v<PeltSignal>);
static_assert(sizeof(PeltSignal) == 24);
static_assert(kPeltPeriodNs == 1048576);
static_assert(kPeltMinDivider == 46718);
static_assert(kUtilEstMargin == 10);
static_assert(PeltScale(1024, 1024) == 1024);
static_assert(PeltScale(512, 1024) == 512);
static_assert(PeltScale(1024, 512) == 512);
static_assert(PeltScale(768, 512) == 384);

constexpr int64_t kMs = 1000000;
constexpr uint32_t kFull = kSchedCapacityScale;

// Small deterministic generator for test schedules (splitmix64).
class TestRng {
 public:
  explicit TestRng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi] (slightly biased; fine for tests).
  int64_t Between(int64_t lo, int64_t hi) {
    return lo +
           static_cast<int64_t>(Next() % static_cast<uint64_t>(hi - lo + 1));
  }

 private:
  uint64_t state_;
};

// Runs (or idles) `s` from its last update until `end_ns`, updating every
// `step_ns`.
void Advance(PeltSignal& s, int64_t end_ns, int64_t step_ns, bool running,
             uint32_t scale = kFull) {
  int64_t t = s.last_update_ns;
  while (t < end_ns) {
    t = std::min(t + step_ns, end_ns);
    PeltUpdate(s, t, running, scale);
  }
}

TEST(PeltTest, LoadSignalSumsWeightsAndKeepsBlockedShares) {
  // A runqueue with two nice-0 tasks runnable for a long time: load_avg
  // tends to their summed weight (2048), past util's 1024 bound. One task
  // then sleeps for 32 ms (one half-life): its share stays,
  // halved, until it is detached.
  PeltSignal rq, a, b;
  const int64_t kLong = 400 * kPeltPeriodNs;
  PeltUpdateLoad(rq, kLong, 2048);
  PeltUpdateLoad(a, kLong, 1024);
  PeltUpdateLoad(b, kLong, 1024);
  EXPECT_NEAR(rq.util_avg, 2048, 8);
  EXPECT_NEAR(a.util_avg, 1024, 4);
  // b sleeps; a stays runnable.
  const int64_t later = kLong + 32 * kPeltPeriodNs;
  PeltUpdateLoad(rq, later, 1024);
  PeltUpdateLoad(b, later, 0);
  EXPECT_NEAR(b.util_avg, 512, 4);
  EXPECT_NEAR(rq.util_avg, 1024 + 512, 8);
  PeltDetach(rq, b);
  EXPECT_NEAR(rq.util_avg, 1024, 8);
}

TEST(PeltTest, DecayTableMatchesPublishedConstants) {
  // runnable_avg_yN_inv[] as published (y^n * (2^32 - 1)).
  EXPECT_EQ(PeltDecayFactor(0), 0xffffffffu);
  EXPECT_EQ(PeltDecayFactor(1), 0xfa83b2dau);
  EXPECT_EQ(PeltDecayFactor(2), 0xf5257d14u);
  EXPECT_EQ(PeltDecayFactor(16), 0xb504f333u);  // sqrt(1/2)
  EXPECT_EQ(PeltDecayFactor(30), 0x85aac367u);
  EXPECT_EQ(PeltDecayFactor(31), 0x82cd8698u);
}

TEST(PeltTest, DecayTableMatchesDoubleComputation) {
  // The way the table is generated for the kernel: in double precision.
  const double y = std::pow(0.5, 1.0 / 32.0);
  for (int n = 0; n < 32; ++n) {
    const auto expected = static_cast<uint32_t>(4294967295.0 * std::pow(y, n));
    EXPECT_EQ(PeltDecayFactor(n), expected) << "n=" << n;
  }
}

TEST(PeltTest, LoadAvgMaxIsTheFixedPointOfOnePeriodSteps) {
  // A sum that gains a full period (1024 units) per period and decays by y
  // per period settles at exactly LOAD_AVG_MAX.
  uint64_t sum = 0;
  for (int i = 0; i < 10000; ++i) sum = DecayLoad(sum, 1) + kPeltPeriodUnits;
  EXPECT_EQ(sum, kPeltLoadAvgMax);
  EXPECT_EQ(DecayLoad(sum, 1) + kPeltPeriodUnits, sum);
}

// floor(v * factor / 2^32) in 128-bit arithmetic.
uint64_t Reference(uint64_t v, uint32_t factor) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(v) * factor) >>
                               32);
}

TEST(PeltTest, DecayLoadHalvesEvery32Periods) {
  const uint64_t v = uint64_t{1} << 30;
  EXPECT_EQ(DecayLoad(v, 0), v - 1);  // y^0 is (2^32 - 1) / 2^32.
  EXPECT_EQ(DecayLoad(v, 32), v / 2 - 1);
  EXPECT_EQ(DecayLoad(v, 64), v / 4 - 1);
  EXPECT_EQ(DecayLoad(v, 16), Reference(v, 0xb504f333u));
  EXPECT_EQ(DecayLoad(0, 5), 0u);
  // Far past the horizon every value is 0, without a shift by >= 64.
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  EXPECT_EQ(DecayLoad(max, 63 * 32 + 1), 0u);
  EXPECT_EQ(DecayLoad(max, std::numeric_limits<uint64_t>::max()), 0u);
  EXPECT_EQ(DecayLoad(max, 63 * 32), 0u);  // (max >> 63) * y^0 = 1 * y^0
  EXPECT_EQ(DecayLoad(max, 62 * 32), 2u);  // (max >> 62) * y^0 = 3 * y^0
  // A full 64-bit value does not overflow the multiplication.
  EXPECT_EQ(DecayLoad(max, 1), Reference(max, 0xfa83b2dau));
  EXPECT_EQ(DecayLoad(max, 33), Reference(max >> 1, 0xfa83b2dau));
}

TEST(PeltTest, UtilAvgChangesOnlyAtPeriodBoundaries) {
  PeltSignal s;
  // 1000 us: not a whole period yet.
  EXPECT_FALSE(PeltUpdate(s, 1000000, true, kFull));
  EXPECT_EQ(s.util_avg, 0u);
  EXPECT_EQ(s.period_contrib, 1000000u >> 10);  // 976 units
  EXPECT_GT(s.util_sum, 0u);
  // Crossing 1048576 ns ends the first period.
  EXPECT_TRUE(PeltUpdate(s, 1100000, true, kFull));
  EXPECT_GT(s.util_avg, 0u);
  EXPECT_FALSE(PeltUpdate(s, 1200000, true, kFull));
}

TEST(PeltTest, SubUnitTimeIsCarriedToTheNextUpdate) {
  PeltSignal s;
  // Less than one PELT unit (1024 ns): nothing happens, nothing is lost.
  EXPECT_FALSE(PeltUpdate(s, 1000, true, kFull));
  EXPECT_EQ(s.last_update_ns, 0);
  EXPECT_EQ(s.util_sum, 0u);
  PeltUpdate(s, 2000, true, kFull);
  EXPECT_EQ(s.last_update_ns, 1024);
  EXPECT_EQ(s.period_contrib, 1u);
  EXPECT_EQ(s.util_sum, 1024u);

  // 1 ms in steps of 1000 ns accounts the same running time as one update.
  PeltSignal fine;
  Advance(fine, 1000000, 1000, true);
  PeltSignal coarse;
  PeltUpdate(coarse, 1000000, true, kFull);
  EXPECT_EQ(fine.last_update_ns, coarse.last_update_ns);
  EXPECT_EQ(fine.period_contrib, coarse.period_contrib);
  EXPECT_EQ(fine.util_sum, coarse.util_sum);
}

TEST(PeltTest, TimeGoingBackwardsOnlyResetsTheTimestamp) {
  PeltSignal s;
  PeltUpdate(s, 10 * kMs, true, kFull);
  const PeltSignal before = s;
  EXPECT_FALSE(PeltUpdate(s, 5 * kMs, true, kFull));
  EXPECT_EQ(s.last_update_ns, 5 * kMs);
  EXPECT_EQ(s.util_sum, before.util_sum);
  EXPECT_EQ(s.util_avg, before.util_avg);
  EXPECT_EQ(s.period_contrib, before.period_contrib);
}

TEST(PeltTest, RunningExactly32PeriodsFromZeroGivesHalf) {
  PeltSignal s;
  EXPECT_TRUE(PeltUpdate(s, 32 * kPeltPeriodNs, true, kFull));
  // The kernel's arithmetic: sum = (LOAD_AVG_MAX - LOAD_AVG_MAX * y^32) *
  // 1024, divider 46718.
  EXPECT_EQ(s.period_contrib, 0u);
  EXPECT_EQ(s.util_sum, 23919616u);
  EXPECT_EQ(s.util_avg, 512u);
}

TEST(PeltTest, HalfLifeIsAbout32Ms) {
  PeltSignal s;
  Advance(s, 32 * kMs, 1 * kMs, true);
  EXPECT_NEAR(s.util_avg, 512, 20);
  // 32 ms is 30.5 periods (the last update crossed the 30th boundary, so
  // util_avg is fresh): 1024 * (1 - 0.5^(30.5 / 32)) = 495.
  EXPECT_NEAR(s.util_avg, 495, 2);
}

TEST(PeltTest, RampFollowsTheGeometricSeries) {
  // Running from 0 for n whole periods gives 1024 * (1 - 0.5^(n / 32)) to
  // within the truncations: 21, 43, 85, 162, 299, 512, 768, 960, 1020.
  for (int n : {1, 2, 4, 8, 16, 32, 64, 128, 256}) {
    PeltSignal s;
    PeltUpdate(s, n * kPeltPeriodNs, true, kFull);
    EXPECT_NEAR(s.util_avg, 1024.0 * (1 - std::pow(0.5, n / 32.0)), 1)
        << "n=" << n;
  }
}

TEST(PeltTest, AlwaysRunningConvergesTo1024) {
  PeltSignal s;
  uint32_t prev = 0;
  for (int64_t t = kMs; t <= 300 * kMs; t += kMs) {
    PeltUpdate(s, t, true, kFull);
    ASSERT_GE(s.util_avg, prev);  // monotone while running
    ASSERT_LE(s.util_avg, kFull);
    prev = s.util_avg;
  }
  EXPECT_GE(s.util_avg, 1000u);
  Advance(s, 1000 * kMs, kMs, true);
  EXPECT_EQ(s.util_avg, 1024u);
  EXPECT_LE(s.util_sum, uint64_t{kPeltLoadAvgMax} * kFull);
  // One lazy update over a long stretch reaches the same place.
  PeltSignal lazy;
  PeltUpdate(lazy, 1000 * kMs, true, kFull);
  EXPECT_EQ(lazy.util_avg, 1024u);
}

TEST(PeltTest, IdleEntityHalvesEvery32Periods) {
  PeltSignal s;
  PeltUpdate(s, 1000 * kMs, true, kFull);
  // Realign to a period boundary so that the idle intervals are whole
  // periods.
  const int64_t start_ns =
      (s.last_update_ns / kPeltPeriodNs + 1) * kPeltPeriodNs;
  PeltUpdate(s, start_ns, true, kFull);
  ASSERT_EQ(s.period_contrib, 0u);
  const uint32_t full = s.util_avg;
  ASSERT_EQ(full, 1024u);

  Advance(s, start_ns + 32 * kPeltPeriodNs, kMs, false);
  EXPECT_NEAR(s.util_avg, full / 2, 2);
  Advance(s, start_ns + 64 * kPeltPeriodNs, kMs, false);
  EXPECT_NEAR(s.util_avg, full / 4, 2);
  Advance(s, start_ns + 96 * kPeltPeriodNs, kMs, false);
  EXPECT_NEAR(s.util_avg, full / 8, 2);
  // Sleeping long enough decays to exactly zero.
  PeltUpdate(s, start_ns + 3000 * kPeltPeriodNs, false, kFull);
  EXPECT_EQ(s.util_sum, 0u);
  EXPECT_EQ(s.util_avg, 0u);
}

TEST(PeltTest, HalfFrequencyConvergesToHalf) {
  PeltSignal s;
  Advance(s, 1000 * kMs, kMs, true, PeltScale(512, 1024));
  EXPECT_NEAR(s.util_avg, 512, 2);
  // A CPU of capacity 512 at 3/4 of its maximum frequency: 384.
  PeltSignal small;
  Advance(small, 1000 * kMs, kMs, true, PeltScale(768, 512));
  EXPECT_NEAR(small.util_avg, 384, 2);
  // Scale 0 (e.g. a stopped clock): running counts as nothing.
  PeltSignal stopped;
  Advance(stopped, 100 * kMs, kMs, true, 0);
  EXPECT_EQ(stopped.util_sum, 0u);
}

TEST(PeltTest, QuarterDutyCycleGivesAQuarter) {
  // 1 ms running, 3 ms sleeping, for 8 s.
  PeltSignal s;
  uint32_t lo = kFull;
  uint32_t hi = 0;
  int64_t t = 0;
  for (int cycle = 0; cycle < 2000; ++cycle) {
    PeltUpdate(s, t + 1 * kMs, true, kFull);
    if (cycle >= 500) {
      lo = std::min(lo, s.util_avg);
      hi = std::max(hi, s.util_avg);
    }
    PeltUpdate(s, t + 4 * kMs, false, kFull);
    if (cycle >= 500) {
      lo = std::min(lo, s.util_avg);
      hi = std::max(hi, s.util_avg);
    }
    t += 4 * kMs;
  }
  EXPECT_NEAR(s.util_avg, 256, 30);
  EXPECT_NEAR(lo, 256, 30);
  EXPECT_NEAR(hi, 256, 30);
}

// Plays the same schedule of (duration, running, scale) segments into one
// signal with a single update per segment and into another with many small
// updates at random points inside each segment.
TEST(PeltTest, LazyUpdateMatchesManySmallUpdates) {
  TestRng rng(42);
  const uint32_t kScales[] = {1024, 512, 700, 1};
  for (int trial = 0; trial < 200; ++trial) {
    PeltSignal lazy;
    PeltSignal fine;
    int64_t t = 0;
    const int segments = static_cast<int>(rng.Between(1, 40));
    for (int i = 0; i < segments; ++i) {
      const int64_t length_ns =
          rng.Between(1, rng.Next() % 10 == 0 ? 200 * kMs : 20 * kMs);
      const bool running = rng.Next() % 2 == 0;
      const uint32_t scale = kScales[rng.Next() % 4];
      const int64_t end_ns = t + length_ns;
      PeltUpdate(lazy, end_ns, running, scale);
      while (t < end_ns) {
        t = std::min(end_ns, t + rng.Between(1, 3 * kMs));
        PeltUpdate(fine, t, running, scale);
      }
    }
    ASSERT_EQ(lazy.last_update_ns, fine.last_update_ns);
    ASSERT_EQ(lazy.period_contrib, fine.period_contrib);
    // Both recompute util_avg at the next boundary. The truncations in the
    // decay differ between one long step and many short ones, so the sums
    // differ by a few parts in 10^4 and the averages by at most 1.
    PeltUpdate(lazy, t + 2 * kPeltPeriodNs, false, kFull);
    PeltUpdate(fine, t + 2 * kPeltPeriodNs, false, kFull);
    EXPECT_LE(std::abs(static_cast<int>(lazy.util_avg) -
                       static_cast<int>(fine.util_avg)),
              1)
        << "trial " << trial;
    EXPECT_LE(std::abs(static_cast<double>(lazy.util_sum) -
                       static_cast<double>(fine.util_sum)),
              1e-3 * kPeltLoadAvgMax * kFull)
        << "trial " << trial;
  }
}

TEST(PeltTest, NoOverflowOverOneHour) {
  constexpr int64_t kHourNs = 3600LL * 1000 * kMs;
  const uint64_t max_sum = uint64_t{kPeltLoadAvgMax} * kFull;
  TestRng rng(7);
  PeltSignal s;
  PeltSignal rq;  // a runqueue signal that runs whenever `s` does
  int64_t t = 0;
  bool running = true;
  while (t < kHourNs) {
    t += rng.Between(1, 5 * kMs);
    const uint32_t scale = static_cast<uint32_t>(rng.Between(0, 1024));
    PeltUpdate(s, t, running, scale);
    PeltUpdate(rq, t, running, scale);
    ASSERT_LE(s.util_avg, kFull);
    ASSERT_LE(s.util_sum, max_sum);
    ASSERT_LT(s.period_contrib, kPeltPeriodUnits);
    running = rng.Next() % 3 != 0;
  }
  EXPECT_EQ(s.util_sum, rq.util_sum);
  EXPECT_EQ(s.util_avg, rq.util_avg);
  // One update spanning the hour, running and idle.
  PeltSignal hour;
  PeltUpdate(hour, kHourNs, true, kFull);
  EXPECT_EQ(hour.util_avg, 1024u);
  PeltUpdate(hour, 2 * kHourNs, false, kFull);
  EXPECT_EQ(hour.util_sum, 0u);
  EXPECT_EQ(hour.util_avg, 0u);
}

TEST(PeltTest, AttachAndDetachMoveATasksUtilization) {
  // A runqueue whose other task has been running half the time.
  PeltSignal rq;
  int64_t t = 0;
  for (int i = 0; i < 500; ++i) {
    PeltUpdate(rq, t += kMs, true, kFull);
    PeltUpdate(rq, t += kMs, false, kFull);
  }
  PeltUpdate(rq, t += 300000, false, kFull);
  PeltSignal task;
  Advance(task, t, kMs, true);  // always running elsewhere: ~1024
  const PeltSignal rq_before = rq;

  PeltAttach(rq, task);
  EXPECT_EQ(task.last_update_ns, rq.last_update_ns);
  EXPECT_EQ(task.period_contrib, rq.period_contrib);
  EXPECT_EQ(task.util_sum, uint64_t{task.util_avg} * PeltDivider(rq));
  EXPECT_EQ(rq.util_avg, rq_before.util_avg + task.util_avg);
  EXPECT_EQ(rq.util_sum, rq_before.util_sum + task.util_sum);

  PeltDetach(rq, task);
  EXPECT_EQ(rq.util_avg, rq_before.util_avg);
  EXPECT_EQ(rq.util_sum, rq_before.util_sum);

  // Detaching more than is there clamps at 0.
  PeltSignal empty;
  PeltDetach(empty, task);
  EXPECT_EQ(empty.util_avg, 0u);
  EXPECT_EQ(empty.util_sum, 0u);

  // The sum is kept at least util_avg * PELT_MIN_DIVIDER.
  PeltSignal lopsided;
  lopsided.util_avg = 600;
  lopsided.util_sum = 600ull * PeltDivider(lopsided);
  PeltSignal big_sum;
  big_sum.util_avg = 100;
  big_sum.util_sum = 700ull * kPeltMinDivider;
  PeltDetach(lopsided, big_sum);
  EXPECT_EQ(lopsided.util_avg, 500u);
  EXPECT_EQ(lopsided.util_sum, 500ull * kPeltMinDivider);
}

TEST(PeltTest, AttachedTaskAndRunqueueEvolveTogether) {
  // A lone task on an idle runqueue: after attaching, the runqueue's
  // signal is the task's.
  PeltSignal rq;
  PeltUpdate(rq, 50 * kMs, false, kFull);
  PeltSignal task;
  Advance(task, 50 * kMs, kMs, true);
  PeltAttach(rq, task);
  for (int64_t t = 51 * kMs; t <= 300 * kMs; t += kMs) {
    const bool running = (t / kMs) % 3 != 0;
    PeltUpdate(task, t, running, kFull);
    PeltUpdate(rq, t, running, kFull);
  }
  EXPECT_EQ(rq.util_sum, task.util_sum);
  EXPECT_EQ(rq.util_avg, task.util_avg);
}

TEST(UtilEstTest, FastUpFollowsIncreasesAtOnce) {
  UtilEst ue;
  UtilEstUpdate(ue, 300, kFull);
  EXPECT_EQ(ue.enqueued, 300u);
  EXPECT_EQ(ue.ewma, 300u);
  EXPECT_EQ(TaskUtilEst(ue), 300u);
  EXPECT_TRUE(ue.util_avg_unchanged);
}

TEST(UtilEstTest, NothingIsLearnedUntilUtilAvgChanges) {
  UtilEst ue;
  UtilEstUpdate(ue, 300, kFull);
  // The task slept again without running a period: no new sample.
  UtilEstUpdate(ue, 100, kFull);
  EXPECT_EQ(ue.enqueued, 300u);
  EXPECT_EQ(ue.ewma, 300u);
  UtilEstNoteUtilAvgChange(ue);
  UtilEstUpdate(ue, 100, kFull);
  EXPECT_EQ(ue.enqueued, 100u);
  EXPECT_EQ(ue.ewma, 250u);  // (3 * 300 + 100) / 4
}

TEST(UtilEstTest, EwmaDecreasesByAQuarterOfTheGap) {
  UtilEst ue;
  UtilEstUpdate(ue, 800, kFull);
  const uint32_t expected[] = {650, 537, 452, 389, 341};
  for (uint32_t e : expected) {
    UtilEstNoteUtilAvgChange(ue);
    UtilEstUpdate(ue, 200, kFull);
    EXPECT_EQ(ue.enqueued, 200u);
    EXPECT_EQ(ue.ewma, e);
    EXPECT_EQ(TaskUtilEst(ue), e);
  }
  // Rounds down: 341 -> (3 * 341 + 200) / 4 = 305.75 -> 305.
  UtilEstNoteUtilAvgChange(ue);
  UtilEstUpdate(ue, 200, kFull);
  EXPECT_EQ(ue.ewma, 305u);
}

TEST(UtilEstTest, ChangesWithinOnePercentAreSkipped) {
  UtilEst ue;
  UtilEstUpdate(ue, 400, kFull);
  // 395 is within the margin (|diff| < 10) of both ewma and enqueued: no
  // store, and the flag stays clear.
  UtilEstNoteUtilAvgChange(ue);
  UtilEstUpdate(ue, 395, kFull);
  EXPECT_EQ(ue.enqueued, 400u);
  EXPECT_EQ(ue.ewma, 400u);
  EXPECT_FALSE(ue.util_avg_unchanged);
  // 390 is 10 away: not within the margin, so the ewma moves.
  UtilEstUpdate(ue, 390, kFull);
  EXPECT_EQ(ue.enqueued, 390u);
  EXPECT_EQ(ue.ewma, 397u);  // (3 * 400 + 390) / 4 = 397.5
  // 391 is close to ewma 397 but 1 from enqueued 390: skipped.
  UtilEstNoteUtilAvgChange(ue);
  UtilEstUpdate(ue, 391, kFull);
  EXPECT_EQ(ue.enqueued, 390u);
  EXPECT_EQ(ue.ewma, 397u);
}

TEST(UtilEstTest, CloseToEwmaButFarFromEnqueuedStoresEnqueuedOnly) {
  UtilEst ue;
  UtilEstUpdate(ue, 500, kFull);
  UtilEstNoteUtilAvgChange(ue);
  UtilEstUpdate(ue, 100, kFull);  // ewma 400, enqueued 100
  ASSERT_EQ(ue.ewma, 400u);
  UtilEstNoteUtilAvgChange(ue);
  UtilEstUpdate(ue, 395, kFull);
  EXPECT_EQ(ue.enqueued, 395u);
  EXPECT_EQ(ue.ewma, 400u);
  EXPECT_TRUE(ue.util_avg_unchanged);
}

TEST(UtilEstTest, SaturatedTasksTeachNothingOnTheWayDown) {
  UtilEst ue;
  UtilEstUpdate(ue, 900, kFull);
  UtilEstNoteUtilAvgChange(ue);
  // On a CPU of capacity 512, a util of 600 is saturated: ignored.
  UtilEstUpdate(ue, 600, 512);
  EXPECT_EQ(ue.enqueued, 900u);
  EXPECT_EQ(ue.ewma, 900u);
  EXPECT_FALSE(ue.util_avg_unchanged);
  // Increases are still taken (fast up comes before the capacity check).
  UtilEstUpdate(ue, 1000, 512);
  EXPECT_EQ(ue.ewma, 1000u);
}

TEST(UtilEstTest, RunqueueAggregateAddsAndClampsAtZero) {
  UtilEst a;
  UtilEstUpdate(a, 300, kFull);
  UtilEst b;
  UtilEstUpdate(b, 200, kFull);
  uint32_t rq_util_est = 0;
  UtilEstEnqueue(rq_util_est, a);
  UtilEstEnqueue(rq_util_est, b);
  EXPECT_EQ(rq_util_est, 500u);
  UtilEstDequeue(rq_util_est, a);
  EXPECT_EQ(rq_util_est, 200u);
  UtilEstDequeue(rq_util_est, a);
  EXPECT_EQ(rq_util_est, 0u);
}

TEST(UtilEstTest, PeriodicTaskKeepsItsEstimateAcrossSleeps) {
  // 4 ms running, 12 ms sleeping: util_avg at wakeup has decayed, the
  // estimate remembers the value at the last sleep.
  PeltSignal s;
  UtilEst ue;
  int64_t t = 0;
  uint32_t at_sleep = 0;
  for (int i = 0; i < 200; ++i) {
    if (PeltUpdate(s, t += 4 * kMs, true, kFull)) UtilEstNoteUtilAvgChange(ue);
    at_sleep = s.util_avg;
    UtilEstUpdate(ue, at_sleep, kFull);
    if (PeltUpdate(s, t += 12 * kMs, false, kFull)) {
      UtilEstNoteUtilAvgChange(ue);
    }
  }
  // The estimate is the utilization at the last sleep, well above the
  // decayed util_avg seen at wakeup. A 25% duty cycle with a 16 ms period
  // peaks above 256 (288 here) and bottoms out below it.
  EXPECT_NEAR(TaskUtilEst(ue), at_sleep, kUtilEstMargin);
  EXPECT_GT(TaskUtilEst(ue), s.util_avg + 50);
  EXPECT_GT(at_sleep, 256u);
  EXPECT_LT(at_sleep, 320u);
}

}  // namespace
}  // namespace schedsim::sim
