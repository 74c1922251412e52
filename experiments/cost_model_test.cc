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
