// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The fair classes driven alone, without the engine: the kernel's own
// invariants of EEVDF (kernel/sched/fair.c, v6.6 and v6.12) and CFS's
// leftmost pick. Each EEVDF test fails when its mechanism is switched off.

#include <cstdlib>
#include <vector>

#include "gtest/gtest.h"
#include "sim/cfs.h"
#include "sim/eevdf.h"

namespace schedsim::sim {
namespace {

// One CPU's worth of the engine's bookkeeping around a fair class.
template <typename Class>
struct Rig {
  explicit Rig(int ntasks, FairTunables tun = FairTunables{}, int ncpus = 1)
      : tasks(static_cast<size_t>(ntasks)),
        cpus(static_cast<size_t>(ncpus)),
        fair(tasks, cpus) {
    tun.base_slice_ns = 3000000;
    fair.Init(ncpus, tun);
    for (int i = 0; i < ntasks; ++i) fair.TaskNew(i);
  }
  // The task runs: enqueue, pick it as the only one, or let the class pick.
  void Wake(int task, int cpu = 0) {
    fair.Enqueue(cpu, task, tasks[task].cpu, kEnqueueWakeup);
    tasks[task].cpu = cpu;
  }
  // schedule(): put the running task back (if runnable) and pick.
  int Schedule(int cpu = 0, bool prev_runnable = true) {
    int prev = cpus[cpu].curr;
    if (prev >= 0 && prev_runnable) fair.PutPrev(cpu, prev);
    int next = fair.Pick(cpu);
    while (next >= 0 && fair.Delayed(next)) {
      fair.Dequeue(cpu, next, kDequeueSleep | kDequeueDelayed);
      next = fair.Pick(cpu);
    }
    if (next >= 0) fair.SetNext(cpu, next);
    cpus[cpu].curr = next;
    return next;
  }
  // The running task runs `ns`; true when the class asks to reschedule.
  bool Run(int64_t ns, int cpu = 0) {
    int curr = cpus[cpu].curr;
    return fair.Charge(cpu, tasks[curr], ns);
  }
  // The running task blocks; false when its dequeue is delayed.
  bool Block(int cpu = 0) {
    int curr = cpus[cpu].curr;
    bool gone = fair.Dequeue(cpu, curr, kDequeueSleep);
    Schedule(cpu, /*prev_runnable=*/false);
    return gone;
  }
  std::vector<Task> tasks;
  std::vector<Cpu> cpus;
  Class fair;
};

TEST(EevdfTest, LagsOfARunqueueSumToZero) {
  Rig<Eevdf> r(6);
  r.tasks[2].weight = 3121;  // nice -5
  r.tasks[4].weight = 335;   // nice 5
  for (int i = 0; i < 6; ++i) r.Wake(i);
  r.Schedule();
  uint32_t x = 12345;
  for (int step = 0; step < 2000; ++step) {
    x = x * 1103515245 + 12345;
    const int64_t ns = 50000 + (x >> 8) % 4000000;
    if (r.Run(ns)) r.Schedule();
    int64_t load = 0;
    for (const Task& t : r.tasks) load += t.weight;
    // sum of w * (V - v) = W * floor(S / W) - S: in (-W, 0].
    const int64_t sum = r.fair.WeightedLagSum(0);
    ASSERT_LE(sum, 0) << "step " << step;
    ASSERT_GT(sum, -load) << "step " << step;
  }
}

TEST(EevdfTest, AnIneligibleEntityIsNeverPicked) {
  Rig<Eevdf> r(5);
  for (int i = 0; i < 5; ++i) r.Wake(i);
  int picked = r.Schedule();
  uint32_t x = 7;
  for (int step = 0; step < 3000; ++step) {
    x = x * 1103515245 + 12345;
    if (r.Run(100000 + (x >> 8) % 2000000)) {
      // The pick considers the running task put back: check each choice.
      r.fair.PutPrev(0, picked);
      r.cpus[0].curr = -1;
      const int next = r.fair.Pick(0);
      ASSERT_TRUE(r.fair.Eligible(0, next)) << "step " << step;
      r.fair.SetNext(0, next);
      r.cpus[0].curr = picked = next;
    }
  }
}

TEST(EevdfTest, PlacementFollowsTheLagKeptAcrossSleep) {
  FairTunables tun;
  Rig<Eevdf> r(3, tun);
  for (int i = 0; i < 3; ++i) r.Wake(i);
  r.Schedule();
  // Task a runs long: it leaves with negative lag. Another that never ran
  // since its placement leaves with positive lag.
  const int a = r.cpus[0].curr;
  r.Run(2500000);
  ASSERT_TRUE(r.Block());
  const int64_t lag_a = r.fair.Vlag(a);
  EXPECT_LT(lag_a, 0);
  const int b = r.cpus[0].curr;
  int waiting = -1;
  for (int i = 0; i < 3; ++i) {
    if (i != a && i != b) waiting = i;
  }
  r.Run(3000000);
  // The waiting task is behind V: it has positive lag when it leaves.
  ASSERT_TRUE(r.fair.Dequeue(0, waiting, kDequeueSleep));
  const int64_t lag_w = r.fair.Vlag(waiting);
  EXPECT_GT(lag_w, 0);
  // Both come back: the positive one ahead of V, the negative one behind.
  const int64_t v1 = r.fair.AvgVruntime(0);
  r.Wake(waiting);
  EXPECT_LT(r.tasks[waiting].vruntime, v1);
  const int64_t v2 = r.fair.AvgVruntime(0);
  r.Wake(a);
  EXPECT_GT(r.tasks[a].vruntime, v2);
}

TEST(EevdfTest, WithoutPlaceLagAWakerLandsOnTheAverage) {
  FairTunables tun;
  tun.place_lag = false;
  Rig<Eevdf> r(3, tun);
  for (int i = 0; i < 3; ++i) r.Wake(i);
  r.Schedule();
  const int a = r.cpus[0].curr;
  r.Run(2500000);
  ASSERT_TRUE(r.Block());
  const int64_t v = r.fair.AvgVruntime(0);
  r.Wake(a);
  EXPECT_EQ(r.tasks[a].vruntime, v);
}

// Two tasks; the first ran 1 ms and was put back, so the second runs,
// 10 us in: eligible (behind the average) and inside the deadline it was
// picked with.
void RunSecondTaskEligible(Rig<Eevdf>& r) {
  r.Wake(0);
  r.Wake(1);
  ASSERT_EQ(r.Schedule(), 0);
  r.Run(1000000);
  ASSERT_EQ(r.Schedule(), 1);
  r.Run(10000);
  ASSERT_TRUE(r.fair.Eligible(0, 1));
}

// RUN_TO_PARITY: a waking task with an earlier deadline does not preempt
// a running task that is eligible and inside the slice it was picked with.
TEST(EevdfTest, RunToParityKeepsTheCpuUntilTheSliceOrEligibilityEnds) {
  for (bool parity : {true, false}) {
    FairTunables tun;
    tun.run_to_parity = parity;
    Rig<Eevdf> r(3, tun);
    r.tasks[2].weight = 3121;  // nice -5: a shorter virtual slice
    RunSecondTaskEligible(r);
    r.Wake(2);
    ASSERT_LT(r.fair.Deadline(2), r.fair.Deadline(1));
    const bool preempt = r.fair.WakeupPreempt(0, 2);
    EXPECT_EQ(preempt, !parity) << "parity " << parity;
  }
}

TEST(EevdfTest, ANewDeadlineAsksForAReschedule) {
  Rig<Eevdf> r(2);
  r.Wake(0);
  r.Wake(1);
  r.Schedule();
  const int curr = r.cpus[0].curr;
  const int64_t deadline = r.fair.Deadline(curr);
  EXPECT_FALSE(r.Run(100000));
  // Past the deadline (half a slice: PLACE_DEADLINE_INITIAL) it gets a new
  // one and the CPU is rescheduled.
  EXPECT_TRUE(r.Run(3000000));
  EXPECT_GT(r.fair.Deadline(curr), deadline);
  // The other is picked now.
  EXPECT_NE(r.Schedule(), curr);
}

// PREEMPT_SHORT (v6.12): a waking task with a shorter slice preempts a
// protected running task whose deadline is later.
TEST(EevdfTest, AShortSliceWakeeCancelsTheProtection) {
  for (bool short_on : {true, false}) {
    FairTunables tun;
    tun.preempt_short = short_on;
    Rig<Eevdf> r(3, tun);
    r.fair.SetSlice(2, 300000);  // 0.3 ms against the 3 ms base
    RunSecondTaskEligible(r);
    r.Wake(2);
    const bool preempt = r.fair.WakeupPreempt(0, 2);
    EXPECT_EQ(preempt, short_on);
  }
}

// DELAY_DEQUEUE (v6.12): a task that blocks with negative lag stays queued
// until it is eligible; picked, it leaves with its positive lag dropped.
TEST(EevdfTest, ABlockingTaskWithNegativeLagStaysQueued) {
  for (bool delay : {true, false}) {
    FairTunables tun;
    tun.delay_dequeue = delay;
    Rig<Eevdf> r(2, tun);
    r.Wake(0);
    r.Wake(1);
    r.Schedule();
    const int a = r.cpus[0].curr;
    r.Run(1400000);  // ahead of V: not eligible, inside its deadline
    ASSERT_FALSE(r.fair.Eligible(0, a));
    const bool gone = r.fair.Dequeue(0, a, kDequeueSleep);
    EXPECT_EQ(gone, !delay);
    EXPECT_EQ(r.fair.Delayed(a), delay);
    EXPECT_EQ(r.tasks[a].rq_pos >= 0, delay) << "still on the runqueue";
    EXPECT_EQ(r.cpus[0].nr_fair, delay ? 2 : 1);
    if (!delay) continue;
    // Woken before it is picked: requeued where it is, no longer delayed.
    r.fair.Requeue(0, a);
    EXPECT_FALSE(r.fair.Delayed(a));
    EXPECT_GE(r.tasks[a].rq_pos, 0);
  }
}

TEST(CfsTest, TheLeftmostRunsAndAWakeeNeedsTheGranularityToPreempt) {
  FairTunables tun;
  tun.latency_ns = 24000000;
  tun.wakeup_granularity_ns = 4000000;
  Rig<Cfs> r(3, tun);
  r.tasks[0].vruntime = 5000000;
  r.tasks[1].vruntime = 1000000;
  r.fair.Enqueue(0, 0, 0, 0);
  r.fair.Enqueue(0, 1, 0, 0);
  EXPECT_EQ(r.Schedule(), 1);
  r.Run(2000000);
  EXPECT_EQ(r.tasks[1].vruntime, 3000000);
  // A wakee at 0 vruntime leads by 3 ms: under the granularity.
  r.tasks[2].vruntime = 0;
  r.fair.Enqueue(0, 2, 0, 0);
  EXPECT_FALSE(r.fair.WakeupPreempt(0, 2));
  r.Run(2000000);  // now 5 ms ahead
  EXPECT_TRUE(r.fair.WakeupPreempt(0, 2));
}

}  // namespace
}  // namespace schedsim::sim
