// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The interpreter's slow paths for blocking ops: the pipe's mutex as
// mutex_optimistic_spin() and __mutex_unlock_slowpath() run it
// (kernel/locking/mutex.c, Linux 5.19), a kIo op's requests queued on
// their device, and the batch receive's count.

#include <algorithm>
#include <cassert>
#include <cstdint>

#include "absl/base/optimization.h"
#include "sim/simulator_impl.h"

namespace schedsim::sim {

// The pipe's mutex (SimConfig::pipe_lock_lines): a FIFO of holders, each
// holding it for the lines its critical section finds on the previous
// operation's CPU. A waiter spins, as mutex_optimistic_spin() does while
// the owner runs: the wait is kernel work on its CPU. It gives up on
// need_resched(): one that finds it already set sleeps until its turn at
// once; one whose CPU is asked to reschedule while it spins (a tick's
// check_preempt_tick(), a wake-up's preemption) sleeps from then on
// (MutexSpinToSleep, from Schedule). A sleeping waiter is woken by the
// holder before it: __mutex_unlock_slowpath() hands the lock over and
// wake_up_q() runs try_to_wake_up() on the unlocker's CPU
// (kernel/locking/mutex.c, v5.19), so the wake-up is placed from there.
int64_t SimulatorImpl::PipeLockWait(ChannelState& ch, int cpu, int id) {
  if (task_lock_[id] & kLockGranted) {
    task_lock_[id] &= ~kLockGranted;
    return 0;
  }
  const int64_t start = now_ns_ + tasks_[id].pending_cost_ns;
  const int64_t hold =
      ch.last_cpu >= 0 ? ch.lock_lines * LineNs(ch.last_cpu, cpu) : 0;
  const int64_t begin = std::max(start, ch.lock_free_ns);
  const int unlocker = ch.lock_cpu >= 0 ? ch.lock_cpu : cpu;
  ch.lock_free_ns = begin + hold;
  ch.lock_cpu = cpu;
  if (begin == start) return 0;
  if (!cpus_[cpu].need_resched) {
    mutex_spins_[id] = MutexSpin{begin, unlocker};
    return begin - start;
  }
  task_lock_[id] |= kLockAsleep | kLockGranted;
  tasks_[id].iowait = false;
  BlockCurrent(cpu, true);
  QueuePush(SimTime::FromNanoseconds(begin), kBandTimer, kEvTaskTimer, unlocker,
            id);
  return -1;
}

// `cpu`'s current task `id`, preempted: if it is spinning for a pipe's
// mutex, it stops (mutex_optimistic_spin() returns on need_resched()) and
// sleeps in the mutex's wait list, uninterruptible, until its turn: the
// rest of the spin leaves its phase and the holder before it wakes it
// (PipeLockWait). Its operation is already done; the phase resumes once
// it runs again. Otherwise (no spin, or its turn has come) nothing changes.
void SimulatorImpl::MutexSpinToSleep(int cpu, int id) {
  auto it = mutex_spins_.find(id);
  if (it == mutex_spins_.end()) return;
  const MutexSpin spin = it->second;
  mutex_spins_.erase(it);
  if (spin.end_ns <= now_ns_) return;  // its turn has come
  SettlePhase(cpu);
  Task& t = tasks_[id];
  // The spin is the end of the kernel work queued before its operation's
  // own cost, so what is left of the phase's stall holds it.
  t.rem_stall_ns -= std::min(t.rem_stall_ns, spin.end_ns - now_ns_);
  task_lock_[id] |= kLockAsleep;
  BlockCurrent(cpu, true);
  cpus_[cpu].need_resched = false;  // Schedule() is already picking
  QueuePush(SimTime::FromNanoseconds(spin.end_ns), kBandTimer, kEvTaskTimer,
            spin.unlocker, id);
}

// The kIo op `op` of task `id`: on first entry queues its requests on the
// device (each after every request queued before it, FIFO); then returns
// the completion of the next request still ahead, with `*last` set when
// no other follows (the op ends when it wakes). A time not after now means
// every request has completed (the op ends at once); until then the pc
// stays on the op and each completion is one IO wake-up.
int64_t SimulatorImpl::NextIoCompletion(int id, const Op& op, bool* last) {
  auto it = io_progress_.find(id);
  if (it == io_progress_.end()) {
    DeviceState& dev = devices_[op.arg];
    int64_t bytes = op.d1.Sample(rng_);
    const int64_t flush_ns = op.d2.Sample(rng_);
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

// How many messages task `id`'s last batch receive took (1 if it took
// none), forgotten once asked.
int32_t SimulatorImpl::TakeBatch(int id) {
  auto it = batch_taken_.find(id);
  if (it == batch_taken_.end()) return 1;
  const int32_t n = it->second;
  batch_taken_.erase(it);
  return n;
}

}  // namespace schedsim::sim
