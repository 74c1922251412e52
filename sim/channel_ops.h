// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The blocking operations' model as a part of the engine: the channels
// (pipes and sockets) with the pipe's mutex as mutex_optimistic_spin()
// and __mutex_unlock_slowpath() run it (kernel/locking/mutex.c, Linux
// 5.19), the block devices' request queues a kIo op's requests wait in
// (DeviceSpec: blk-mq's single hardware queue, filemap_fdatawait_range()
// waiting request by request), and the batch receive's count. It owns the
// channels, the devices, each task's progress through an IO and its state
// on a pipe's mutex, and decides what an operation waits for; the engine
// (interpreter.cc, sched_fair.cc, wakeup.cc) blocks the task, arms the
// timer of its turn and wakes it. Private to sim/.

#ifndef SCHEDSIM_SIM_CHANNEL_OPS_H_
#define SCHEDSIM_SIM_CHANNEL_OPS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "sim/cache_lines.h"
#include "sim/config.h"
#include "sim/program.h"
#include "sim/rng.h"
#include "sim/shared_objects.h"
#include "sim/workload.h"

namespace schedsim::sim {

class ChannelOps {
 public:
  // Reads `lines` (the line transfers of a pipe's critical section) and
  // `now_ns` (the engine's clock), which must outlive it.
  ChannelOps(const CacheLines& lines, const int64_t& now_ns)
      : lines_(lines), now_ns_(now_ns) {}
  ChannelOps(const ChannelOps&) = delete;
  ChannelOps& operator=(const ChannelOps&) = delete;

  // The workload's channels (their costs from `config`: pipe_op_ns or
  // socket_op_ns, the lines of an operation, pipe_lock_lines for a pipe
  // with a mutex) and devices; no task inside an IO or a batch.
  void Init(const Workload& workload, const SimConfig& config);

  // Channel `i` (the task's channel_base plus the op's channel).
  ChannelState& channel(size_t i) { return channels_[i]; }
  const ChannelState& channel(size_t i) const { return channels_[i]; }

  // --- Tasks ------------------------------------------------------------
  void ReserveTasks(size_t n) { task_lock_.reserve(n); }
  // Task `id` is new (the next id, or an exited task's slot reused): not
  // on any mutex.
  void NewTask(size_t id) {
    if (id == task_lock_.size()) {
      task_lock_.push_back(0);
    } else {
      task_lock_[id] = 0;
    }
  }

  // --- The pipe's mutex (SimConfig::pipe_lock_lines) ---------------------
  // What task `id` on `cpu` waits for the mutex of `ch` before its
  // operation, which it reaches at `start_ns` (after its queued kernel
  // work), `need_resched` telling whether its CPU is asked to reschedule.
  struct MutexWait {
    // >= 0: the spin to add to its kernel work (0: the mutex was free, or
    // its turn came while it slept); -1: it sleeps until its turn.
    int64_t spin_ns = 0;
    int64_t turn_ns = 0;   // when its turn comes (spin_ns < 0)
    int32_t unlocker = 0;  // the CPU whose unlock wakes it (spin_ns < 0)
  };
  MutexWait PipeLockWait(ChannelState& ch, int cpu, int id, int64_t start_ns,
                         bool need_resched);
  // Task `id` blocks on a full or empty channel: when it retries, it
  // queues on the mutex again.
  void DropTurn(int id) { task_lock_[id] &= ~kLockGranted; }
  // Whether some task spins for a mutex (Schedule() asks every switch).
  bool any_spinning() const { return !mutex_spins_.empty(); }
  // Task `id` is preempted: if it spins for a mutex and its turn is still
  // ahead, it stops spinning and sleeps until then: true, with the turn
  // and the CPU that wakes it in `*spin`. Otherwise false (no change).
  struct MutexSpin {
    int64_t end_ns;
    int32_t unlocker;
  };
  bool SpinToSleep(int id, MutexSpin* spin);
  // A timer fires for task `id`: whether it is its turn on a mutex it
  // slept for (then it is no longer asleep on it).
  bool TakeTurn(int id) {
    if (!(task_lock_[id] & kLockAsleep)) return false;
    task_lock_[id] &= ~kLockAsleep;
    return true;
  }

  // --- IO and batches -----------------------------------------------------
  // The kIo op `op` of task `id`: on first entry queues its requests
  // (their sizes and the flush drawn from `rng`) on the device; returns
  // the completion of the next request still ahead, with `*last` set when
  // no other follows. A time not after now: every request has completed.
  int64_t NextIoCompletion(int id, const Op& op, Rng& rng, bool* last);
  // Task `id`'s batch receive took `n` messages, which its next batch send
  // answers (TakeBatch: 1 if it took none, forgotten once asked).
  void NoteBatch(int id, int32_t n) { batch_taken_[id] = n; }
  int32_t TakeBatch(int id);

 private:
  // task_lock_'s bits: asleep while the task sleeps for its turn; granted
  // once its turn came (the retried operation does not queue again).
  static constexpr uint8_t kLockAsleep = 1, kLockGranted = 2;

  const CacheLines& lines_;
  const int64_t& now_ns_;
  std::vector<ChannelState> channels_;
  std::vector<DeviceState> devices_;
  std::vector<uint8_t> task_lock_;  // by task
  // Tasks spinning for a pipe's mutex: until their turn at end_ns, which
  // the holder on `unlocker` gives them.
  absl::flat_hash_map<int32_t, MutexSpin> mutex_spins_;
  // Tasks inside a kIo op whose requests have not all completed.
  absl::flat_hash_map<int32_t, IoProgress> io_progress_;
  // Tasks whose last batch receive took messages the next send answers.
  absl::flat_hash_map<int32_t, int32_t> batch_taken_;
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_CHANNEL_OPS_H_
