// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/kernels.h"

#include <set>
#include <string>

#include "gtest/gtest.h"

namespace schedsim::sim {
namespace {

TEST(KernelVersionTest, ParsesAndOrders) {
  auto v = ParseKernelVersion("6.12");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->major, 6);
  EXPECT_EQ(v->minor, 12);
  EXPECT_EQ(ParseKernelVersion("v4.16.3")->ToString(), "4.16");
  EXPECT_LT(*ParseKernelVersion("6.5"), *ParseKernelVersion("6.12"));
  for (const char* bad : {"", "6", "6.x", "six.1", "6.1.2.3", "1.0", "6.-1"}) {
    EXPECT_FALSE(ParseKernelVersion(bad).ok()) << bad;
  }
  EXPECT_NE(std::string(ParseKernelVersion("6").status().message())
                .find("MAJOR.MINOR"),
            std::string::npos);
}

TEST(KernelFeaturesTest, EachVersionSetsWhatItHas) {
  SimConfig c;
  ApplyKernel({6, 5}, &c);
  EXPECT_FALSE(c.eevdf);
  EXPECT_TRUE(c.cfs_buddies);
  EXPECT_TRUE(c.util_est);
  EXPECT_FALSE(c.newidle_migration_cost_gate);
  ApplyKernel({6, 6}, &c);
  EXPECT_TRUE(c.eevdf);
  EXPECT_FALSE(c.cfs_buddies);
  EXPECT_TRUE(c.run_to_parity);
  EXPECT_FALSE(c.delay_dequeue);
  EXPECT_FALSE(c.preempt_short);
  ApplyKernel({6, 12}, &c);
  EXPECT_TRUE(c.delay_dequeue);
  EXPECT_TRUE(c.preempt_short);
  // uclamp (5.3) pays its bucket updates until the 5.9 static key.
  ApplyKernel({5, 4}, &c);
  EXPECT_TRUE(c.uclamp);
  EXPECT_FALSE(c.uclamp_static_key);
  ApplyKernel({5, 10}, &c);
  EXPECT_TRUE(c.uclamp_static_key);
  ApplyKernel({4, 16}, &c);
  EXPECT_FALSE(c.eevdf);
  EXPECT_FALSE(c.util_est);
  EXPECT_FALSE(c.uclamp);
  EXPECT_FALSE(c.poll_time_limit);
  EXPECT_FALSE(c.smt_ignores_cache_hot);
  EXPECT_TRUE(c.newidle_migration_cost_gate);
  EXPECT_FALSE(c.sched_idle_fallback);
  ApplyKernel({5, 4}, &c);
  EXPECT_TRUE(c.sched_idle_fallback);
  ApplyKernel({3, 10}, &c);
  EXPECT_FALSE(c.newidle_load_balance);
  EXPECT_FALSE(c.frequency_invariance);
  EXPECT_STREQ(KernelPlacementPolicy({5, 19}), "sis_prop");
  EXPECT_STREQ(KernelPlacementPolicy({6, 1}), "sis_util");
}

TEST(KernelFeaturesTest, EveryEntryIsComplete) {
  std::set<std::string> names;
  for (const KernelFeature& f : KernelFeatures()) {
    EXPECT_TRUE(names.insert(f.name).second) << "twice: " << f.name;
    EXPECT_NE(std::string(f.since_commit), "") << f.name;
    EXPECT_NE(std::string(f.model), "") << f.name;
    if (f.until.major != 0) {
      EXPECT_LT(f.since, f.until) << f.name;
      EXPECT_NE(std::string(f.until_commit), "") << f.name;
    }
  }
  EXPECT_GE(KnownKernels().size(), 8u);
}

}  // namespace
}  // namespace schedsim::sim
