// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// A model of `perf bench sched pipe`: two tasks bounce one message back and
// forth over two pipes, so every round trip is two wake-ups and (on one CPU)
// two context switches.
//
//   sim::Workload w = PipePingPongWorkload(/*loops=*/1000, /*work_cycles=*/0);
//   // Metric kPingPongRoundTripMetric ("round_trip") counts 1000 round
//   // trips, with their latency from ping's stamp.
//
// Channels: 0 = "ping->pong" (A), 1 = "pong->ping" (B), both pipes.
// Programs and tasks (task 0 = ping, task 1 = pong, unplaced):
//
//   ping:  loop(loops) { stamp; compute(work_cycles); send(A); recv(B);
//                        mark(round_trip) } exit
//   pong:  loop(loops) { recv(A); compute(work_cycles); send(B) } exit
//
// loops = 0 makes both endless; work_cycles = 0 omits the compute ops (perf
// bench does no work between the syscalls, whose cost the simulator charges
// as SimConfig::pipe_op_ns per send and receive).

#ifndef SCHEDSIM_WORKLOADS_PIPE_PINGPONG_H_
#define SCHEDSIM_WORKLOADS_PIPE_PINGPONG_H_

#include <cstdint>

#include "sim/workload.h"

namespace schedsim::workloads {

inline constexpr int kPingPongChannelA = 0;  // ping -> pong
inline constexpr int kPingPongChannelB = 1;  // pong -> ping
inline constexpr int kPingPongRoundTripMetric = 0;

// REQUIRES: 0 <= loops <= INT32_MAX, work_cycles >= 0 (aborts with a
// message otherwise).
sim::Workload PipePingPongWorkload(int64_t loops, int64_t work_cycles);

}  // namespace schedsim::workloads

#endif  // SCHEDSIM_WORKLOADS_PIPE_PINGPONG_H_
