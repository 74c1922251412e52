// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/cost_model.h"

#include "gtest/gtest.h"

namespace schedsim::experiments {
namespace {

TEST(CostModelTest, MakespanOfLargestFirst) {
  EXPECT_DOUBLE_EQ(Makespan({}, 2), 0);
  EXPECT_DOUBLE_EQ(Makespan({3, 1, 2}, 1), 6);
  // Largest first on 2: 5 | 4, then 3 -> the 4 job, 2 -> the 5 job.
  EXPECT_DOUBLE_EQ(Makespan({2, 5, 3, 4}, 2), 7);
  EXPECT_DOUBLE_EQ(Makespan({1, 1}, 8), 1);
}

TEST(CostModelTest, OccupiedCpusBoundTheCost) {
  const double one = RunWallSeconds("hackbench", 256, 40, 1.0);
  const double all = RunWallSeconds("hackbench", 256, 5120, 1.0);
  const double some = RunWallSeconds("hackbench", 256, 1280, 1.0);
  // 40 tasks occupy 40 CPUs; 1280 occupy all 256; 5120 (20 per CPU)
  // overload them, at a dearer rate.
  EXPECT_NEAR((some - kRunSetupSeconds) / (one - kRunSetupSeconds),
              256.0 / 40.0, 1e-9);
  EXPECT_GT(all, some);
  EXPECT_GT(WallSecondsPerOccupiedCpuSecond("hackbench", 8), 0);
  EXPECT_GT(WallSecondsPerOccupiedCpuSecond("hackbench", 256), 0);
}

TEST(CostModelTest, AnOverloadedRunCostsMoreOnlyAfterItsOnset) {
  // 0.3 s of 512 groups on 256 CPUs cost what 0.3 s of 32 groups do (the
  // tiers' windows); a longer run pays the overloaded rate after it.
  const double onset = kOverloadOnsetSeconds;
  EXPECT_DOUBLE_EQ(RunWallSeconds("hackbench", 256, 20480, onset),
                   RunWallSeconds("hackbench", 256, 1280, onset));
  const double later = RunWallSeconds("hackbench", 256, 20480, onset + 1) -
                       RunWallSeconds("hackbench", 256, 20480, onset);
  EXPECT_NEAR(later,
              256 * WallSecondsPerOccupiedCpuSecond("hackbench", 256, 20480),
              1e-9);
  EXPECT_GT(WallSecondsPerOccupiedCpuSecond("hackbench", 256, 20480),
            WallSecondsPerOccupiedCpuSecond("hackbench", 256, 1280));
  // Small machines have no overloaded rate.
  EXPECT_DOUBLE_EQ(WallSecondsPerOccupiedCpuSecond("hackbench", 8, 1280),
                   WallSecondsPerOccupiedCpuSecond("hackbench", 8, 8));
}

TEST(CostModelTest, TbenchIsDearestWithATaskPerCpu) {
  const double light = WallSecondsPerOccupiedCpuSecond("tbench", 256, 128);
  const double busy = WallSecondsPerOccupiedCpuSecond("tbench", 256, 512);
  const double overloaded =
      WallSecondsPerOccupiedCpuSecond("tbench", 256, 1024);
  EXPECT_GT(busy, 1.5 * light);
  EXPECT_GT(busy, 1.5 * overloaded);
  // From the start of the run (tbench has no onset).
  EXPECT_NEAR(RunWallSeconds("tbench", 256, 1024, 0.1) - kRunSetupSeconds,
              0.1 * 256 * overloaded, 1e-9);
}

TEST(CostModelTest, AnUnmeasuredModelGetsTheLargestRate) {
  for (int cpus : {8, 256}) {
    const double unknown = WallSecondsPerOccupiedCpuSecond("no such", cpus);
    for (const char* m : {"hackbench", "netperf", "pgbench", "nas"}) {
      EXPECT_GE(unknown, WallSecondsPerOccupiedCpuSecond(m, cpus)) << m;
    }
  }
}

TEST(CostModelTest, SettledRunsAreExpectedShorterThanTheirMaximum) {
  EXPECT_DOUBLE_EQ(ExpectedSettledSeconds(10, 0.01, 20),
                   0.01 * kExpectedSettleBatches);
  EXPECT_DOUBLE_EQ(ExpectedSettledSeconds(0.1, 0.01, 20), 0.1);
  EXPECT_DOUBLE_EQ(ExpectedSettledSeconds(10, 0.01, 100), 1.0);
}

}  // namespace
}  // namespace schedsim::experiments
