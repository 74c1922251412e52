// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The rules of virt/kvm/kvm_main.c (Linux v6.1) kvm_vcpu_halt(),
// grow_halt_poll_ns() and shrink_halt_poll_ns().

#include "sim/kvm_halt_poll.h"

#include "gtest/gtest.h"

namespace schedsim::sim {
namespace {

constexpr int64_t kUs = 1000;

TEST(KvmHaltPollTest, GrowsFromGrowStartAndDoublesUpToMax) {
  const KvmHaltPoll p;  // 200 us, x2, from 10 us, shrink 0
  // A short halt with no window: the window starts at grow_start.
  EXPECT_EQ(KvmAdjustHaltPollNs(0, 5 * kUs, p), 10 * kUs);
  // Halts beyond the window but below max double it...
  EXPECT_EQ(KvmAdjustHaltPollNs(10 * kUs, 50 * kUs, p), 20 * kUs);
  EXPECT_EQ(KvmAdjustHaltPollNs(160 * kUs, 190 * kUs, p), 200 * kUs);
  // ...capped at max (kvm->max_halt_poll_ns).
  EXPECT_EQ(KvmGrowHaltPollNs(150 * kUs, p), 200 * kUs);
  // A halt caught within the window leaves it.
  EXPECT_EQ(KvmAdjustHaltPollNs(40 * kUs, 30 * kUs, p), 40 * kUs);
  EXPECT_EQ(KvmAdjustHaltPollNs(40 * kUs, 40 * kUs, p), 40 * kUs);
  // At max, a halt just under max keeps it.
  EXPECT_EQ(KvmAdjustHaltPollNs(200 * kUs, 199 * kUs, p), 200 * kUs);
  // A halt of exactly max neither grows nor shrinks.
  EXPECT_EQ(KvmAdjustHaltPollNs(20 * kUs, 200 * kUs, p), 20 * kUs);
  // grow 0: no growth.
  KvmHaltPoll no_grow = p;
  no_grow.grow = 0;
  EXPECT_EQ(KvmAdjustHaltPollNs(0, 5 * kUs, no_grow), 0);
}

TEST(KvmHaltPollTest, LongHaltShrinksAsTheModuleParameterSays) {
  KvmHaltPoll p;
  // v6.1's default shrink 0 resets the window after a long halt.
  EXPECT_EQ(KvmAdjustHaltPollNs(80 * kUs, 5000 * kUs, p), 0);
  // With shrink 2 (the default of later kernels) it halves...
  p.shrink = 2;
  EXPECT_EQ(KvmAdjustHaltPollNs(80 * kUs, 5000 * kUs, p), 40 * kUs);
  // ...and drops to 0 below grow_start.
  EXPECT_EQ(KvmAdjustHaltPollNs(15 * kUs, 5000 * kUs, p), 0);
  // No window: a long halt leaves it at 0 (nothing to shrink, too long
  // to grow).
  EXPECT_EQ(KvmAdjustHaltPollNs(0, 5000 * kUs, p), 0);
}

TEST(KvmHaltPollTest, ZeroMaxDisablesPolling) {
  KvmHaltPoll p;
  p.max_ns = 0;
  EXPECT_EQ(KvmAdjustHaltPollNs(0, 5 * kUs, p), 0);
  EXPECT_EQ(KvmAdjustHaltPollNs(40 * kUs, 5 * kUs, p), 0);
}

}  // namespace
}  // namespace schedsim::sim
