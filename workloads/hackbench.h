// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// A model of hackbench / `perf bench sched messaging`: groups of senders and
// receivers exchanging small messages over unix sockets or pipes.
//
//   HackbenchParams p;
//   p.groups = 2;
//   p.fds = 4;
//   p.loops = 10;
//   sim::Workload w = HackbenchWorkload(p);
//   // 2 groups * 4 senders * 4 receivers * 10 loops = 320 messages, counted
//   // by the metric "messages" (index kHackbenchMessagesMetric).
//
// Shape, as in perf's sched-messaging.c. Each of the `groups` groups has
// `fds` receivers and `fds` senders. Receiver i of a group reads from its
// own channel (a socketpair or pipe), and every sender of the group writes
// to all `fds` of the group's channels: per loop, one message to each
// receiver. A receiver therefore reads fds * loops messages and exits; a
// sender writes fds * loops messages and exits. Every task first waits at
// a start gate (perf's `ready()` + poll on the wake-up fd) until all tasks
// exist, unless `start_gate` is false.
//
// Tasks, in order (task ids follow this order): for each group, its `fds`
// receivers (one TaskSpec each, since each reads its own channel), then its
// `fds` senders (one TaskSpec with count = fds). All start unplaced (fork
// balancing from CPU 0). Channels: group g's receiver r reads channel
// g * fds + r. Programs: two, shared by all tasks through
// TaskSpec::channel_base (program channel 0 is the task's own channel for a
// receiver, its group's first channel for a sender).
//
//   sender (base g*fds):    [gate] loop(loops) { compute(message_cycles);
//                                                send(0); ...
//                                                compute(message_cycles);
//                                                send(fds-1) } exit
//   receiver (base g*fds+r): [gate] [stamp]
//                            loop(fds * loops) { recv(0); mark(messages);
//                                                compute(message_cycles) }
//                            exit
//
// loops = 0 makes both loops endless (the machine stays loaded until the
// simulation stops). `message_cycles` = 0 omits the compute ops.
//
// Cost model. Each send and receive costs the channel's syscall time
// (SimConfig::pipe_op_ns or socket_op_ns, charged by the simulator) plus
// `message_cycles` of user work at the CPU's frequency. The default,
// 3500 cycles, is 1.0 us at 3.5 GHz (assumed: the ~1-2 us per message the
// brief for this model asks for, at the low end because the syscall time
// is charged separately); a message then costs each side ~1.9 us (pipe) or
// ~2.5 us (socket) of CPU at 3.5 GHz before context switches and wake-ups.
//
// `threads` (perf's --thread) is recorded in the task names
// ("hackbench-thread/..." vs "hackbench-process/...") and in the address
// space: threads share one mm (TaskSpec::mm 0), so a switch between two of
// them on a CPU is not charged SimConfig::mm_switch_ns (context_switch() ->
// switch_mm_irqs_off(), v6.1). Processes leave the mm undeclared: every
// switch is charged in full (the kernel would skip switch_mm on the rare
// return from idle to the task that ran last).

#ifndef SCHEDSIM_WORKLOADS_HACKBENCH_H_
#define SCHEDSIM_WORKLOADS_HACKBENCH_H_

#include <cstdint>

#include "absl/status/status.h"
#include "sim/workload.h"

namespace schedsim::workloads {

// User cycles per message and side, fitted to seed 001's tip time at 128
// groups on zen3-2s-nps1 (docs/validation.md, "Calibration").
inline constexpr int64_t kDefaultHackbenchMessageCycles = 400;
// A hackbench task's warm cache: its stack, the 100-byte message buffer,
// the libc and perf text of its loop and the kernel's pipe or socket
// path, about 16 KiB (assumed).
inline constexpr int64_t kDefaultHackbenchWorkingSetBytes = 16 << 10;

// Messages a channel holds before a sender blocks, by kind (assumed; a
// 100-byte message, perf's DATASIZE).
//  - pipe: 64 KiB pipe buffer / 100 bytes = 655.
//  - unix stream socket: the sender blocks once the queued skbs' truesize
//    reaches sk_sndbuf (net.core.wmem_default = 212992 bytes); a 100-byte
//    skb has a truesize of ~700 bytes (data rounded to 128 + sk_buff 256 +
//    skb_shared_info 320), so ~300 messages.
inline constexpr int kHackbenchPipeCapacity = 655;
inline constexpr int kHackbenchSocketCapacity = 300;

// Index of the "messages" metric (one kMark per message received).
inline constexpr int kHackbenchMessagesMetric = 0;
// The two programs every hackbench task runs (see channel_base).
inline constexpr int kHackbenchReceiverProgram = 0;
inline constexpr int kHackbenchSenderProgram = 1;

struct HackbenchParams {
  int groups = 10;       // perf bench default
  int fds = 20;          // senders and receivers per group (perf default)
  int64_t loops = 100;   // messages each sender sends each receiver; 0 =
                         // forever
  bool pipe = false;     // true: pipes; false: unix stream sockets (default)
  bool threads = false;  // thread mode instead of process mode
  int64_t message_cycles = kDefaultHackbenchMessageCycles;  // per side
  bool start_gate = true;  // all tasks wait until every task has started
  // Receivers take a stamp once started (after the gate), so each message's
  // latency in the "messages" metric is the time since the start and the
  // largest is when the run's last message arrived (hackbench's "Time").
  bool stamp_start = false;
  // Messages per channel before a sender blocks; 0 = kHackbenchPipeCapacity
  // or kHackbenchSocketCapacity by channel kind.
  int channel_capacity = 0;
  // Every task's working set (TaskSpec::working_set_bytes): what a
  // migration to another LLC refills. -1 = the flat penalty.
  int64_t working_set_bytes = kDefaultHackbenchWorkingSetBytes;
};

// InvalidArgument naming the field unless: groups >= 1, fds >= 1,
// loops >= 0, fds * loops fits in an int32 loop count, message_cycles >= 0,
// channel_capacity >= 0, and the task count fits in an int.
absl::Status ValidateHackbenchParams(const HackbenchParams& params);

// The workload described in the file comment.
// REQUIRES: ValidateHackbenchParams(params).ok() (aborts with the message
// otherwise).
sim::Workload HackbenchWorkload(const HackbenchParams& params);

}  // namespace schedsim::workloads

#endif  // SCHEDSIM_WORKLOADS_HACKBENCH_H_
