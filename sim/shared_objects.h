// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The simulator's state of the objects tasks share (sim/workload.h):
// channels, shared cache lines, block devices and barriers, and the
// per-task progress of an IO. Internal to the simulator (simulator_impl.h).

#ifndef SCHEDSIM_SIM_SHARED_OBJECTS_H_
#define SCHEDSIM_SIM_SHARED_OBJECTS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace schedsim::sim {

// Cache lines one pipe or socket operation writes that the other end
// reads next: for a pipe (fs/pipe.c pipe_write/pipe_read, v6.1) the
// pipe_inode_info's mutex and head/tail, its wait queue, the pipe_buffer
// and the data page's first line; for a unix stream socket
// (net/unix/af_unix.c unix_stream_sendmsg/recvmsg) also the skb head and
// its shared info and the peer's receive queue. When the previous
// operation ran on another CPU each line moves (Topology::LineTransferNs).
inline constexpr int kPipeOpLines = 4;
inline constexpr int kSocketOpLines = 6;

struct ChannelState {
  int32_t messages = 0;
  int32_t capacity = 0;                          // ChannelSpec::capacity
  int32_t readers_head = -1, readers_tail = -1;  // blocked in Recv
  int32_t writers_head = -1, writers_tail = -1;  // blocked in Send (full)
  int64_t op_ns = 0;      // cost of a send or receive (pipe or socket)
  int32_t lines = 0;      // cache lines an operation writes (kPipeOpLines)
  int32_t last_cpu = -1;  // the CPU of the last operation
  // The pipe's mutex (SimConfig::pipe_lock_lines; 0 for sockets and for
  // channels used as locks): lines its critical section misses, and when
  // the last queued holder releases it, on which CPU (the one whose
  // mutex_unlock() wakes a waiter queued behind it).
  int32_t lock_lines = 0;
  int32_t lock_cpu = -1;
  int64_t lock_free_ns = 0;
};

// A shared line (Workload::lines): the CPU that wrote it last and until
// when its write holds it, and the same for the last writer before that
// one (the most recent other CPU, from the owner's point of view).
struct LineState {
  int32_t owner = -1;
  int32_t prev_owner = -1;
  int64_t owner_end_ns = 0;
  int64_t prev_end_ns = 0;
};

// A block device's queue (DeviceSpec): requests are served one at a time
// in the order they were queued, so the queue is the time the last queued
// request completes.
struct DeviceState {
  int64_t free_ns = 0;  // the last queued request completes
  int64_t request_ns = 0;
  int64_t bytes_per_us = 1;
  int64_t max_request_bytes = 1;
};

// A task waiting for the requests of one kIo op after the first: when the
// next completes, how many follow, and each one's completion time.
struct IoProgress {
  std::vector<int64_t> completions;  // ascending; the next is [next]
  size_t next = 0;
};

struct BarrierState {
  int parties = 0;
  int arrived = 0;
  int32_t waiters_head = -1;  // blocked
  std::vector<int32_t> spinners;
  uint64_t generation = 0;
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_SHARED_OBJECTS_H_
