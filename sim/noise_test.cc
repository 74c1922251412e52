// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Run-to-run variability's sources and draws without the engine: the
// config's checks, the scaling by noise_scale, the sources' delays, the
// work and layout factors and the start skew (docs/model.md "Run-to-run
// variability").

#include "sim/noise.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "sim/config.h"
#include "sim/engine_events.h"
#include "sim/sched_state.h"

namespace schedsim::sim {
namespace {

std::string InitError(const SimConfig& c, double work_cv = 0) {
  Noise n(1);
  absl::Status s = n.Init(c, work_cv);
  return s.ok() ? "" : std::string(s.message());
}

TEST(NoiseTest, InitNamesTheFieldOutOfRange) {
  SimConfig c;
  c.noise_scale = -1;
  EXPECT_NE(InitError(c).find("noise_scale must be in 0..100"),
            std::string::npos);
  c.noise_scale = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(InitError(c).find("noise_scale"), std::string::npos);
  c = SimConfig();
  EXPECT_NE(InitError(c, 11).find("work_cv must be in 0..10"),
            std::string::npos);
  c.vmstat_interval_ns = 0;
  EXPECT_NE(InitError(c).find("vmstat_interval_ns must be >= 1, got 0"),
            std::string::npos);
  c = SimConfig();
  c.kworker_per_s = -1;
  EXPECT_NE(InitError(c).find("kworker_per_s must be >= 0"), std::string::npos);
  c = SimConfig();
  c.layout_cv_pct = 101;
  EXPECT_NE(InitError(c).find("layout_cv_pct must be in 0..100"),
            std::string::npos);
  EXPECT_EQ(InitError(SimConfig(), 0.5), "");
}

TEST(NoiseTest, ScaleZeroTurnsEverySourceOffAndDrawsNothing) {
  SimConfig zero;
  zero.noise_scale = 0;
  Noise a(7), b(7);
  ASSERT_TRUE(a.Init(zero, /*work_cv=*/0.3).ok());
  EXPECT_FALSE(a.jitter());
  EXPECT_FALSE(a.layout_on());
  for (int s = 0; s < kNoiseSources; ++s) EXPECT_FALSE(a.On(s)) << s;
  for (int k = 0; k < 3; ++k) EXPECT_EQ(a.StartSkewNs(), 0);
  a.NewTask(0);  // no layout draw either
  // Switched on, both streams are where they started.
  ASSERT_TRUE(a.Init(SimConfig(), 0).ok());
  ASSERT_TRUE(b.Init(SimConfig(), 0).ok());
  for (int k = 0; k < 3; ++k) EXPECT_EQ(a.StartSkewNs(), b.StartSkewNs());
  a.NewTask(0);
  b.NewTask(0);
  EXPECT_EQ(a.layout_factor(0), b.layout_factor(0));
}

TEST(NoiseTest, TheScaleDividesPeriodsAndMultipliesRates) {
  SimConfig c;
  c.noise_scale = 2;
  Noise n(1);
  ASSERT_TRUE(n.Init(c, 0).ok());
  EXPECT_EQ(n.period_ns(kNoiseVmstat), c.vmstat_interval_ns / 2);
  EXPECT_EQ(n.period_ns(kNoiseWatchdog), c.watchdog_interval_ns / 2);
  EXPECT_EQ(n.period_ns(kNoiseKernelTimer), c.kernel_timer_interval_ns / 2);
  EXPECT_DOUBLE_EQ(n.mean_ns(kNoiseKworker), 1e9 / (c.kworker_per_s * 2.0));
  EXPECT_DOUBLE_EQ(n.mean_ns(kNoiseRcu), 1e9 / (c.rcu_per_s * 2.0));
  EXPECT_EQ(n.cost_ns(kNoiseVmstat), c.vmstat_cost_ns);  // not scaled
  EXPECT_EQ(n.cost_ns(kNoiseDeviceIrq), c.device_irq_ns);
  EXPECT_EQ(n.start_skew_ns(), c.start_skew_max_ns * 2);
  // A source whose rate is 0 is off; the others stay on.
  c.rcu_per_s = 0;
  ASSERT_TRUE(n.Init(c, 0).ok());
  EXPECT_FALSE(n.On(kNoiseRcu));
  EXPECT_TRUE(n.On(kNoiseKworker));
  EXPECT_TRUE(n.On(kNoiseVmstat));
}

TEST(NoiseTest, SourcesFireAtARandomPhaseThenPeriodicallyOrPoisson) {
  Noise n(3);
  ASSERT_TRUE(n.Init(SimConfig(), 0).ok());
  const int64_t period = n.period_ns(kNoiseKernelTimer);
  for (int k = 0; k < 1000; ++k) {
    const int64_t d = n.FirstDelayNs(kNoiseKernelTimer);
    ASSERT_GE(d, 1);
    ASSERT_LE(d, period);
  }
  EXPECT_EQ(n.NextDelayNs(kNoiseKernelTimer), period);
  // Exponential intervals of the source's mean.
  double sum = 0;
  const int kDraws = 20000;
  for (int k = 0; k < kDraws; ++k) sum += n.NextDelayNs(kNoiseKworker);
  EXPECT_NEAR(sum / kDraws / n.mean_ns(kNoiseKworker), 1.0, 0.03);
  EXPECT_TRUE(Noise::Visible(kNoiseWatchdog));
  EXPECT_FALSE(Noise::Visible(kNoiseVmstat));  // deferrable
  EXPECT_FALSE(Noise::PerCpu(kNoiseWriteback));
  EXPECT_TRUE(Noise::Poisson(kNoiseDeviceIrq));
}

TEST(NoiseTest, ScaleWorkRoundsHalvesAwayFromZeroAndClamps) {
  EXPECT_EQ(Noise::ScaleWork(3, 0.5), 2);  // 1.5
  EXPECT_EQ(Noise::ScaleWork(5, 0.5), 3);  // 2.5
  EXPECT_EQ(Noise::ScaleWork(10, 0.04), 0);
  EXPECT_EQ(Noise::ScaleWork(-4, 1.0), 0);
  EXPECT_EQ(Noise::ScaleWork(int64_t{1000000000000000000}, 100.0),
            int64_t{9000000000000000000});
  EXPECT_EQ(Noise::ScaleWork(1000, 1.0), 1000);
}

TEST(NoiseTest, TheLayoutFactorIsTheTasksOwnAndDrawnAgainForANewTask) {
  Noise n(5);
  ASSERT_TRUE(n.Init(SimConfig(), /*work_cv=*/0).ok());  // layout 1%
  ASSERT_TRUE(n.jitter());
  ASSERT_TRUE(n.layout_on());
  n.NewTask(0);
  n.NewTask(1);
  const float f0 = n.layout_factor(0);
  EXPECT_NE(f0, n.layout_factor(1));
  EXPECT_NEAR(f0, 1.0, 0.1);
  Task t;
  for (int k = 0; k < 3; ++k) {  // the same every time (memoised)
    t.rem_cycles = 1000000;
    t.rem_stall_ns = 0;
    n.JitterWork(t, 0);
    EXPECT_EQ(t.rem_cycles, Noise::ScaleWork(1000000, f0));
  }
  t.rem_cycles = 2000000;  // other cycles: scaled anew
  t.rem_stall_ns = 1000;
  n.JitterWork(t, 0);
  EXPECT_EQ(t.rem_cycles, Noise::ScaleWork(2000000, f0));
  EXPECT_EQ(t.rem_stall_ns, Noise::ScaleWork(1000, f0));
  n.NewTask(0);  // a reaped slot's new task
  EXPECT_NE(n.layout_factor(0), f0);
  // The factors have mean 1 and the configured CV.
  double sum = 0, sum2 = 0;
  const int kTasks = 20000;
  for (int id = 2; id < kTasks + 2; ++id) {
    n.NewTask(id);
    sum += n.layout_factor(id);
    sum2 += double{n.layout_factor(id)} * n.layout_factor(id);
  }
  const double mean = sum / kTasks;
  EXPECT_NEAR(mean, 1.0, 0.001);
  EXPECT_NEAR(std::sqrt(sum2 / kTasks - mean * mean), 0.01, 0.001);
}

TEST(NoiseTest, TheWorkFactorHasMeanOneAndTheWorkloadsCv) {
  SimConfig c;
  c.layout_cv_pct = 0;
  Noise n(9);
  ASSERT_TRUE(n.Init(c, /*work_cv=*/0.1).ok());
  ASSERT_TRUE(n.jitter());
  ASSERT_FALSE(n.layout_on());
  double sum = 0, sum2 = 0;
  const int kOps = 20000;
  for (int k = 0; k < kOps; ++k) {
    Task t;
    t.rem_cycles = 1000000;
    n.JitterWork(t, 0);
    const double f = t.rem_cycles / 1e6;
    sum += f;
    sum2 += f * f;
  }
  const double mean = sum / kOps;
  EXPECT_NEAR(mean, 1.0, 0.005);
  EXPECT_NEAR(std::sqrt(sum2 / kOps - mean * mean), 0.1, 0.005);
}

TEST(NoiseTest, TheStreamsAreIndependent) {
  // Drawing work factors does not move the sources' stream.
  SimConfig c;
  Noise a(11), b(11);
  ASSERT_TRUE(a.Init(c, 0.2).ok());
  ASSERT_TRUE(b.Init(c, 0.2).ok());
  a.NewTask(0);
  b.NewTask(0);
  for (int k = 0; k < 10; ++k) {
    Task t;
    t.rem_cycles = 1000;
    a.JitterWork(t, 0);
  }
  for (int k = 0; k < 10; ++k) {
    EXPECT_EQ(a.FirstDelayNs(kNoiseVmstat), b.FirstDelayNs(kNoiseVmstat));
  }
  for (int k = 0; k < 10; ++k) {
    const int64_t skew = a.StartSkewNs();
    EXPECT_EQ(skew, b.StartSkewNs());
    EXPECT_GE(skew, 0);
    EXPECT_LE(skew, a.start_skew_ns());
  }
}

}  // namespace
}  // namespace schedsim::sim
