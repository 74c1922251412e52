// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The engine's side of a pipe's mutex (its model is chan_,
// sim/channel_ops.h): a waiter that sleeps until its turn blocks, and the
// timer of its turn is armed on the CPU whose unlock wakes it
// (__mutex_unlock_slowpath() -> wake_up_q(), kernel/locking/mutex.c,
// Linux 5.19); OnTaskTimer (wakeup.cc) wakes it from there.

#include <algorithm>
#include <cstdint>

#include "sim/simulator_impl.h"

namespace schedsim::sim {

int64_t SimulatorImpl::PipeLockWait(ChannelState& ch, int cpu, int id) {
  const ChannelOps::MutexWait w =
      chan_.PipeLockWait(ch, cpu, id, now_ns_ + tasks_[id].pending_cost_ns,
                         cpus_[cpu].need_resched);
  if (w.spin_ns >= 0) return w.spin_ns;
  tasks_[id].iowait = false;
  BlockCurrent(cpu, true);
  QueuePush(SimTime::FromNanoseconds(w.turn_ns), kBandTimer, kEvTaskTimer,
            w.unlocker, id);
  return -1;
}

// A preempted spinner sleeps in the mutex's wait list until its turn:
// the rest of the spin leaves its phase. Its operation is already done;
// the phase resumes once it runs again.
void SimulatorImpl::MutexSpinToSleep(int cpu, int id) {
  ChannelOps::MutexSpin spin;
  if (!chan_.SpinToSleep(id, &spin)) return;
  SettlePhase(cpu);
  Task& t = tasks_[id];
  // The spin is the end of the kernel work queued before its operation's
  // own cost, so what is left of the phase's stall holds it.
  t.rem_stall_ns -= std::min(t.rem_stall_ns, spin.end_ns - now_ns_);
  BlockCurrent(cpu, true);
  cpus_[cpu].need_resched = false;  // Schedule() is already picking
  QueuePush(SimTime::FromNanoseconds(spin.end_ns), kBandTimer, kEvTaskTimer,
            spin.unlocker, id);
}

}  // namespace schedsim::sim
