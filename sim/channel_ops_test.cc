// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The blocking operations' model without the engine: the channels as the
// workload declares them, the pipe's mutex (a waiter spins while the
// holder runs, sleeps when it must reschedule, and its retried operation
// does not queue again), a kIo op's requests completing in order on their
// device, and the batch receive's count.

#include "sim/channel_ops.h"

#include <cstdint>
#include <utility>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "sim/cache_lines.h"
#include "sim/config.h"
#include "sim/program.h"
#include "sim/rng.h"
#include "sim/shared_objects.h"
#include "sim/workload.h"
#include "topology/topology.h"

namespace schedsim::sim {
namespace {

using topology::Topology;
using topology::TopologyBuilder;

constexpr int64_t kLlcNs = 40, kPackageNs = 100;

// One package, LLCs 0-3 and 4-7 of single-thread cores.
Topology Machine() {
  TopologyBuilder b("channels");
  for (int cpu = 0; cpu < 8; ++cpu) b.AddCpu(cpu, 0, 0, cpu / 4, cpu);
  b.set_distances({{10}});
  topology::CoherenceSpec c;
  c.smt_ns = 10;
  c.llc_ns = kLlcNs;
  c.package_ns = kPackageNs;
  c.remote_ns = 200;
  b.set_coherence(c);
  absl::StatusOr<Topology> t = b.Build();
  EXPECT_TRUE(t.ok()) << t.status();
  return *std::move(t);
}

// A machine, a clock and the part, with a pipe with a mutex (channel 0),
// a socket (1), a plain pipe (2) and a device (0).
struct Rig {
  explicit Rig(SimConfig c = SimConfig())
      : topo(Machine()), config(c), cache(topo, config), ops(cache, now_ns) {
    cache.Init({});
    workload.AddChannel("pipe");
    workload.channels[0].pipe_mutex = true;
    workload.AddChannel("socket", ChannelSpec::Kind::kSocket, 100);
    workload.AddChannel("plain");
    workload.channels[2].initial_messages = 1;
    DeviceSpec dev;
    dev.request_ns = 1000;
    dev.bytes_per_us = 1000;  // a byte per ns
    dev.max_request_bytes = 4096;
    workload.AddDevice(dev);
    ops.Init(workload, config);
    for (int id = 0; id < 4; ++id) ops.NewTask(id);
  }
  int64_t now_ns = 0;
  Topology topo;
  SimConfig config;
  Workload workload;
  CacheLines cache;
  ChannelOps ops;
};

SimConfig WithPipeMutex() {
  SimConfig c;
  c.pipe_lock_lines = 8;
  c.pipe_op_ns = 900;
  c.socket_op_ns = 1500;
  return c;
}

TEST(ChannelOpsTest, ChannelsAreBuiltFromTheWorkload) {
  Rig rig(WithPipeMutex());
  const ChannelState& pipe = rig.ops.channel(0);
  EXPECT_EQ(pipe.capacity, 655);
  EXPECT_EQ(pipe.op_ns, 900);
  EXPECT_EQ(pipe.lines, kPipeOpLines);
  EXPECT_EQ(pipe.lock_lines, 8);
  const ChannelState& socket = rig.ops.channel(1);
  EXPECT_EQ(socket.capacity, 100);
  EXPECT_EQ(socket.op_ns, 1500);
  EXPECT_EQ(socket.lines, kSocketOpLines);
  EXPECT_EQ(socket.lock_lines, 0);              // no pipe mutex on a socket
  EXPECT_EQ(rig.ops.channel(2).lock_lines, 0);  // a pipe without one
  EXPECT_EQ(rig.ops.channel(2).messages, 1);
  EXPECT_EQ(rig.ops.channel(0).messages, 0);
}

TEST(ChannelOpsTest, PipeMutexWaiterSpinsWhileTheHolderRunsAndSleepsWhenAsked) {
  Rig rig(WithPipeMutex());
  ChannelState& ch = rig.ops.channel(0);
  // Task 0 on CPU 0 finds the mutex free.
  ChannelOps::MutexWait w = rig.ops.PipeLockWait(ch, 0, 0, 1000, false);
  EXPECT_EQ(w.spin_ns, 0);
  rig.cache.ChannelLinesNs(ch, 0);  // its operation
  // Task 1 on CPU 4 takes it at once too: it holds it for the 8 lines its
  // critical section finds on CPU 0, until 1000 + 8 * 100.
  w = rig.ops.PipeLockWait(ch, 4, 1, 1000, false);
  EXPECT_EQ(w.spin_ns, 0);
  EXPECT_EQ(ch.lock_free_ns, 1000 + 8 * kPackageNs);
  rig.cache.ChannelLinesNs(ch, 4);
  EXPECT_FALSE(rig.ops.any_spinning());
  // Task 2 on CPU 5 comes at 1200 while the holder runs: it spins until
  // 1800, kernel work on its CPU.
  w = rig.ops.PipeLockWait(ch, 5, 2, 1200, false);
  EXPECT_EQ(w.spin_ns, 600);
  EXPECT_TRUE(rig.ops.any_spinning());
  EXPECT_EQ(ch.lock_free_ns, 1800 + 8 * kLlcNs);
  // Its CPU is asked to reschedule at 1500: it stops spinning and sleeps
  // until its turn, which CPU 4's unlock gives it.
  rig.now_ns = 1500;
  ChannelOps::MutexSpin spin{};
  ASSERT_TRUE(rig.ops.SpinToSleep(2, &spin));
  EXPECT_EQ(spin.end_ns, 1800);
  EXPECT_EQ(spin.unlocker, 4);
  EXPECT_FALSE(rig.ops.any_spinning());
  EXPECT_FALSE(rig.ops.SpinToSleep(2, &spin));  // only once
  // The timer of its turn is the mutex's, once.
  EXPECT_TRUE(rig.ops.TakeTurn(2));
  EXPECT_FALSE(rig.ops.TakeTurn(2));
  // A task that never waited: its timers are its own.
  EXPECT_FALSE(rig.ops.TakeTurn(0));
}

TEST(ChannelOpsTest, PipeMutexSpinnerWhoseTurnCameGoesOn) {
  Rig rig(WithPipeMutex());
  ChannelState& ch = rig.ops.channel(0);
  rig.ops.PipeLockWait(ch, 0, 0, 0, false);
  rig.cache.ChannelLinesNs(ch, 0);
  rig.ops.PipeLockWait(ch, 4, 1, 0, false);  // holds it until 800
  rig.cache.ChannelLinesNs(ch, 4);
  EXPECT_EQ(rig.ops.PipeLockWait(ch, 5, 2, 100, false).spin_ns, 700);
  // Preempted at its turn: it has the mutex, nothing to sleep for.
  rig.now_ns = 800;
  ChannelOps::MutexSpin spin{};
  EXPECT_FALSE(rig.ops.SpinToSleep(2, &spin));
  EXPECT_FALSE(rig.ops.any_spinning());
  EXPECT_FALSE(rig.ops.TakeTurn(2));
}

TEST(ChannelOpsTest, PipeMutexWaiterThatMustRescheduleSleepsAndIsNotRequeued) {
  Rig rig(WithPipeMutex());
  ChannelState& ch = rig.ops.channel(0);
  rig.ops.PipeLockWait(ch, 0, 0, 0, false);
  rig.cache.ChannelLinesNs(ch, 0);
  rig.ops.PipeLockWait(ch, 4, 1, 0, false);  // holds it until 800
  rig.cache.ChannelLinesNs(ch, 4);
  // need_resched already set: task 2 sleeps until its turn at once.
  ChannelOps::MutexWait w = rig.ops.PipeLockWait(ch, 5, 2, 300, true);
  EXPECT_EQ(w.spin_ns, -1);
  EXPECT_EQ(w.turn_ns, 800);
  EXPECT_EQ(w.unlocker, 4);
  EXPECT_FALSE(rig.ops.any_spinning());
  const int64_t free_ns = ch.lock_free_ns;
  EXPECT_EQ(free_ns, 800 + 8 * kLlcNs);
  EXPECT_TRUE(rig.ops.TakeTurn(2));
  // Woken at its turn, it retries the operation: the mutex is its own, it
  // does not queue again.
  w = rig.ops.PipeLockWait(ch, 5, 2, 900, false);
  EXPECT_EQ(w.spin_ns, 0);
  EXPECT_EQ(ch.lock_free_ns, free_ns);
  // The next operation queues as any.
  w = rig.ops.PipeLockWait(ch, 5, 2, 900, false);
  EXPECT_EQ(w.spin_ns, free_ns - 900);
}

TEST(ChannelOpsTest, PipeMutexTurnIsDroppedWhenTheTaskBlocksOnTheChannel) {
  Rig rig(WithPipeMutex());
  ChannelState& ch = rig.ops.channel(0);
  rig.ops.PipeLockWait(ch, 0, 0, 0, false);
  rig.cache.ChannelLinesNs(ch, 0);
  rig.ops.PipeLockWait(ch, 4, 1, 0, false);
  rig.cache.ChannelLinesNs(ch, 4);
  EXPECT_EQ(rig.ops.PipeLockWait(ch, 5, 2, 300, true).spin_ns, -1);
  EXPECT_TRUE(rig.ops.TakeTurn(2));
  // Woken, it finds the channel empty and blocks: its turn is gone, the
  // retry queues behind the last holder.
  rig.ops.DropTurn(2);
  const int64_t free_ns = ch.lock_free_ns;
  EXPECT_EQ(rig.ops.PipeLockWait(ch, 5, 2, 900, false).spin_ns, free_ns - 900);
}

TEST(ChannelOpsTest, NewTaskInASlotStartsOffEveryMutex) {
  Rig rig(WithPipeMutex());
  ChannelState& ch = rig.ops.channel(0);
  rig.ops.PipeLockWait(ch, 0, 0, 0, false);
  rig.cache.ChannelLinesNs(ch, 0);
  rig.ops.PipeLockWait(ch, 4, 1, 0, false);
  rig.cache.ChannelLinesNs(ch, 4);
  EXPECT_EQ(rig.ops.PipeLockWait(ch, 5, 3, 300, true).spin_ns, -1);
  rig.ops.NewTask(3);  // slot 3 reused by a new task
  EXPECT_FALSE(rig.ops.TakeTurn(3));
  rig.ops.NewTask(4);  // and a new slot
  EXPECT_FALSE(rig.ops.TakeTurn(4));
}

TEST(ChannelOpsTest, IoRequestsCompleteInOrderOnTheirDevice) {
  Rig rig;
  Rng rng(1);
  Op io;
  io.code = OpCode::kIo;
  io.arg = 0;
  io.d1 = Dist::Constant(10000);  // bytes: requests of 4096, 4096, 1808
  io.d2 = Dist::Constant(500);    // the flush after the last
  bool last = true;
  // Each request after the one before it: 1000 ns plus a byte per ns.
  EXPECT_EQ(rig.ops.NextIoCompletion(1, io, rng, &last), 5096);
  EXPECT_FALSE(last);
  rig.now_ns = 5096;
  EXPECT_EQ(rig.ops.NextIoCompletion(1, io, rng, &last), 10192);
  EXPECT_FALSE(last);
  // Another task's request queues behind every one queued before it.
  Op small = io;
  small.d1 = Dist::Constant(2048);
  rig.now_ns = 6000;
  EXPECT_EQ(rig.ops.NextIoCompletion(2, small, rng, &last),
            13500 + 1000 + 2048 + 500);
  EXPECT_TRUE(last);
  // The first task's last request, with its flush.
  rig.now_ns = 12000;
  EXPECT_EQ(rig.ops.NextIoCompletion(1, io, rng, &last),
            10192 + 1000 + 1808 + 500);
  EXPECT_TRUE(last);
  // Done: the next kIo op of the task queues anew, after the device's
  // queue; requests that completed while it waited to run need no sleep.
  rig.now_ns = 100000;
  EXPECT_EQ(rig.ops.NextIoCompletion(1, io, rng, &last), 105096);
  EXPECT_FALSE(last);
  rig.now_ns = 200000;
  EXPECT_EQ(rig.ops.NextIoCompletion(1, io, rng, &last), 200000);
  EXPECT_TRUE(last);
}

TEST(ChannelOpsTest, BatchSendAnswersTheLastBatchReceive) {
  Rig rig;
  EXPECT_EQ(rig.ops.TakeBatch(1), 1);  // took none: one message
  rig.ops.NoteBatch(1, 7);
  rig.ops.NoteBatch(2, 3);
  EXPECT_EQ(rig.ops.TakeBatch(1), 7);
  EXPECT_EQ(rig.ops.TakeBatch(1), 1);  // forgotten once asked
  EXPECT_EQ(rig.ops.TakeBatch(2), 3);
}

}  // namespace
}  // namespace schedsim::sim
