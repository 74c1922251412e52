// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The blocking operations' model (sim/channel_ops.h): the pipe's mutex as
// mutex_optimistic_spin() and __mutex_unlock_slowpath() run it
// (kernel/locking/mutex.c, Linux 5.19), a kIo op's requests queued on
// their device, and the batch receive's count.

#include "sim/channel_ops.h"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace schedsim::sim {

void ChannelOps::Init(const Workload& workload, const SimConfig& config) {
  channels_.assign(workload.channels.size(), ChannelState());
  for (size_t i = 0; i < channels_.size(); ++i) {
    const ChannelSpec& spec = workload.channels[i];
    const bool pipe = spec.kind == ChannelSpec::Kind::kPipe;
    channels_[i].capacity = spec.capacity;
    channels_[i].messages = spec.initial_messages;
    channels_[i].op_ns = pipe ? config.pipe_op_ns : config.socket_op_ns;
    channels_[i].lines = pipe ? kPipeOpLines : kSocketOpLines;
    channels_[i].lock_lines = pipe && spec.pipe_mutex
                                  ? static_cast<int32_t>(config.pipe_lock_lines)
                                  : 0;
  }
  devices_.assign(workload.devices.size(), DeviceState());
  for (size_t i = 0; i < devices_.size(); ++i) {
    const DeviceSpec& spec = workload.devices[i];
    devices_[i].request_ns = spec.request_ns;
    devices_[i].bytes_per_us = spec.bytes_per_us;
    devices_[i].max_request_bytes = spec.max_request_bytes;
  }
  mutex_spins_.clear();
  io_progress_.clear();
  batch_taken_.clear();
}

// The pipe's mutex (SimConfig::pipe_lock_lines): a FIFO of holders, each
// holding it for the lines its critical section finds on the previous
// operation's CPU. A waiter spins, as mutex_optimistic_spin() does while
// the owner runs: the wait is kernel work on its CPU. It gives up on
// need_resched(): one that finds it already set sleeps until its turn at
// once; one whose CPU is asked to reschedule while it spins (a tick's
// check_preempt_tick(), a wake-up's preemption) sleeps from then on
// (SpinToSleep, from Schedule). A sleeping waiter is woken by the
// holder before it: __mutex_unlock_slowpath() hands the lock over and
// wake_up_q() runs try_to_wake_up() on the unlocker's CPU
// (kernel/locking/mutex.c, v5.19), so the wake-up is placed from there.
ChannelOps::MutexWait ChannelOps::PipeLockWait(ChannelState& ch, int cpu,
                                               int id, int64_t start_ns,
                                               bool need_resched) {
  MutexWait w;
  if (task_lock_[id] & kLockGranted) {
    task_lock_[id] &= ~kLockGranted;
    return w;
  }
  const int64_t hold =
      ch.last_cpu >= 0 ? ch.lock_lines * lines_.LineNs(ch.last_cpu, cpu) : 0;
  const int64_t begin = std::max(start_ns, ch.lock_free_ns);
  const int unlocker = ch.lock_cpu >= 0 ? ch.lock_cpu : cpu;
  ch.lock_free_ns = begin + hold;
  ch.lock_cpu = cpu;
  if (begin == start_ns) return w;
  if (!need_resched) {
    mutex_spins_[id] = MutexSpin{begin, unlocker};
    w.spin_ns = begin - start_ns;
    return w;
  }
  task_lock_[id] |= kLockAsleep | kLockGranted;
  w.spin_ns = -1;
  w.turn_ns = begin;
  w.unlocker = unlocker;
  return w;
}

// A preempted spinner stops (mutex_optimistic_spin() returns on
// need_resched()) and sleeps in the mutex's wait list, uninterruptible,
// until its turn; the holder before it wakes it (PipeLockWait). If its
// turn has come, nothing changes.
bool ChannelOps::SpinToSleep(int id, MutexSpin* spin) {
  auto it = mutex_spins_.find(id);
  if (it == mutex_spins_.end()) return false;
  *spin = it->second;
  mutex_spins_.erase(it);
  if (spin->end_ns <= now_ns_) return false;  // its turn has come
  task_lock_[id] |= kLockAsleep;
  return true;
}

// The kIo op `op` of task `id`: on first entry queues its requests on the
// device (each after every request queued before it, FIFO); then returns
// the completion of the next request still ahead, with `*last` set when
// no other follows (the op ends when it wakes). A time not after now means
// every request has completed (the op ends at once); until then the pc
// stays on the op and each completion is one IO wake-up.
int64_t ChannelOps::NextIoCompletion(int id, const Op& op, Rng& rng,
                                     bool* last) {
  auto it = io_progress_.find(id);
  if (it == io_progress_.end()) {
    DeviceState& dev = devices_[op.arg];
    int64_t bytes = op.d1.Sample(rng);
    const int64_t flush_ns = op.d2.Sample(rng);
    IoProgress p;
    int64_t at = std::max(now_ns_, dev.free_ns);
    do {
      const int64_t chunk = std::min(bytes, dev.max_request_bytes);
      bytes -= chunk;
      at += dev.request_ns + chunk * 1000 / dev.bytes_per_us;
      if (bytes == 0) at += flush_ns;
      p.completions.push_back(at);
    } while (bytes > 0);
    dev.free_ns = at;
    it = io_progress_.emplace(id, std::move(p)).first;
  }
  IoProgress& p = it->second;
  // Requests that completed while the task waited to run need no sleep.
  while (p.next < p.completions.size() && p.completions[p.next] <= now_ns_) {
    ++p.next;
  }
  int64_t wake_ns = now_ns_;
  if (p.next < p.completions.size()) wake_ns = p.completions[p.next++];
  *last = p.next == p.completions.size();
  if (*last) io_progress_.erase(it);
  return wake_ns;
}

int32_t ChannelOps::TakeBatch(int id) {
  auto it = batch_taken_.find(id);
  if (it == batch_taken_.end()) return 1;
  const int32_t n = it->second;
  batch_taken_.erase(it);
  return n;
}

}  // namespace schedsim::sim
