// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The task-program interpreter (RunTask): a task's ops run until it starts
// a compute phase, blocks, yields or exits. The kernel paths each op takes
// are modelled elsewhere (the syscalls' wake-ups in wakeup.cc, the switch
// in sched_fair.cc); the execution model is phase.cc, the blocking ops'
// model chan_ (channel_ops.h; its events op_waits.cc), the line model
// cache_ (cache_lines.h); RunTask's inline helpers interpreter_inline.h.

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <functional>
#include <vector>

#include "absl/base/optimization.h"
#include "sim/interpreter_inline.h"
#include "sim/simulator_impl.h"

namespace schedsim::sim {

// Dequeues the running task of `cpu` (it blocks or exits) and accounts it.
void SimulatorImpl::BlockCurrent(int cpu, bool voluntary) {
  Cpu& c = cpus_[cpu];
  int id = c.curr;
  Task& t = tasks_[id];
  UpdateCurr(cpu);
  UpdatePelt(cpu);
  t.block_start_ns = now_ns_;
  t.last_ran_ns = now_ns_;
  if (t.state != TaskState::kDead) t.state = TaskState::kBlocked;
  if (voluntary) ++task_stats_[id].voluntary_switches;
  if (t.iowait) ++c.nr_iowait;
  c.need_resched = true;
  if (t.state == TaskState::kDead) DetachDeadUtil(cpu, id);
  // dequeue_task()'s uclamp_rq_dec() on this CPU, before it switches.
  if (uclamp_costs_) dequeue_debt_ns_[cpu] += UclampUpdateNs(cpu);
  // A task going to sleep (not exiting, not moved by exec) is a
  // DEQUEUE_SLEEP, which EEVDF's DELAY_DEQUEUE may delay.
  DequeueTask(cpu, id, /*sleep=*/voluntary && t.state != TaskState::kDead);
}

// Runs the program of `cpu`'s current task from its pc until it starts a
// phase, blocks, yields or exits.
void SimulatorImpl::RunTask(int cpu, int id, const Op* first) {
  int64_t guard = 0;  // inline ops (and forked children) so far
refetch:              // after a fork: tasks_ grew, so `t` is fetched again
  Cpu& c = cpus_[cpu];
  Task& t = tasks_[id];
  const Op* const ops = progs_.ops(t.program);
  assert(first == nullptr || first == ops + t.pc);
  const Op* next = first != nullptr ? first : ops + t.pc;
  for (; guard < TaskPrograms::kMaxInlineOps; ++guard, next = ops + t.pc) {
    const Op& op = *next;
    switch (op.code) {
      case OpCode::kCompute: {
        if (!TaskPrograms::SampleCompute(t, id, op, rng_, noise_)) {
          break;  // nothing to do: no phase (and no zero-length event)
        }
        goto start_phase;
      }
      case OpCode::kSleep:
      case OpCode::kIoWait: {
        if (t.pending_cost_ns > 0) {  // finish kernel work first
          goto start_phase;
        }
        ++t.pc;
        int64_t d = op.d1.Sample(rng_);
        const bool device = op.code == OpCode::kIoWait && op.arg != 0;
        t.iowait = op.code == OpCode::kIoWait && !device;
        BlockCurrent(cpu, true);
        QueuePush(SimTime::FromNanoseconds(now_ns_ + d), kBandTimer,
                  device ? kEvTaskIrq : kEvTaskTimer, cpu, id);
        if (op.code == OpCode::kSleep) {
          // A sleep is a timer the idle governor can see (its next timer
          // event); an IO completion is a device interrupt it cannot.
          std::vector<int64_t>& timers = cpus_[cpu].timers;
          timers.push_back(now_ns_ + d);
          std::push_heap(timers.begin(), timers.end(), std::greater<int64_t>());
        }
        return Schedule(cpu);
      }
      case OpCode::kIo: {
        if (t.pending_cost_ns > 0) {  // finish kernel work first
          goto start_phase;
        }
        bool last = false;
        const int64_t wake_ns = chan_.NextIoCompletion(id, op, rng_, &last);
        if (last) ++t.pc;
        if (wake_ns <= now_ns_) break;  // every request has completed
        t.iowait = true;
        BlockCurrent(cpu, true);
        QueuePush(SimTime::FromNanoseconds(wake_ns), kBandTimer, kEvTaskTimer,
                  cpu, id);
        return Schedule(cpu);
      }
      case OpCode::kSend: {
        // The send (and the wake-up it may do) happens once the kernel work
        // already queued (context switch, a previous receive) is done, so
        // that it sees the reader's real state.
        if (t.pending_cost_ns > 0) {
          goto start_phase;
        }
        ChannelState& ch = chan_.channel(op.arg + t.channel_base);
        if (ch.messages >= ch.capacity) {
          // Full: wait for a reader (pc stays; retried on wake-up).
          t.next_waiter = -1;
          if (ch.writers_tail >= 0) {
            tasks_[ch.writers_tail].next_waiter = id;
          } else {
            ch.writers_head = id;
          }
          ch.writers_tail = id;
          if (ABSL_PREDICT_FALSE(ch.lock_lines > 0)) {
            chan_.DropTurn(id);  // queue again when it retries
          }
          BlockCurrent(cpu, true);
          return Schedule(cpu);
        }
        if (ABSL_PREDICT_FALSE(ch.lock_lines > 0)) {
          const int64_t spin = PipeLockWait(ch, cpu, id);
          if (spin < 0) return Schedule(cpu);
          t.pending_cost_ns += spin;
        }
        ++t.pc;
        int32_t n = 1;
        if (ABSL_PREDICT_FALSE(op.arg2 == kChannelBatch)) {
          n = chan_.TakeBatch(id);
        }
        ch.messages += n;
        t.pending_cost_ns +=
            KernelWorkNs(cpu, ch.op_ns) + cache_.ChannelLinesNs(ch, cpu);
        for (; n > 0 && ch.readers_head >= 0; --n) {
          int reader = ch.readers_head;
          ch.readers_head = tasks_[reader].next_waiter;
          if (ch.readers_head < 0) ch.readers_tail = -1;
          tasks_[reader].next_waiter = -1;
          TryToWakeUp(reader, cpu, /*from_task=*/true, platform::kWfSync);
        }
        break;
      }
      case OpCode::kRecv: {
        ChannelState& ch = chan_.channel(op.arg + t.channel_base);
        if (ch.messages == 0) {
          if (t.pending_cost_ns > 0) {
            goto start_phase;
          }
          t.next_waiter = -1;
          if (ch.readers_tail >= 0) {
            tasks_[ch.readers_tail].next_waiter = id;
          } else {
            ch.readers_head = id;
          }
          ch.readers_tail = id;
          if (ABSL_PREDICT_FALSE(ch.lock_lines > 0)) {
            chan_.DropTurn(id);  // queue again when it retries
          }
          BlockCurrent(cpu, true);
          return Schedule(cpu);
        }
        if (ABSL_PREDICT_FALSE(ch.lock_lines > 0)) {
          const int64_t spin = PipeLockWait(ch, cpu, id);
          if (spin < 0) return Schedule(cpu);
          t.pending_cost_ns += spin;
        }
        ++t.pc;
        int32_t n = 1;
        if (ABSL_PREDICT_FALSE(op.arg2 == kChannelBatch)) {
          n = ch.messages;  // every message waiting: one batch
          chan_.NoteBatch(id, n);
        }
        ch.messages -= n;
        t.pending_cost_ns +=
            KernelWorkNs(cpu, ch.op_ns) + cache_.ChannelLinesNs(ch, cpu);
        for (; n > 0 && ch.writers_head >= 0; --n) {
          int writer = ch.writers_head;
          ch.writers_head = tasks_[writer].next_waiter;
          if (ch.writers_head < 0) ch.writers_tail = -1;
          tasks_[writer].next_waiter = -1;
          TryToWakeUp(writer, cpu, /*from_task=*/true, platform::kWfSync);
        }
        break;
      }
      case OpCode::kBarrier: {
        if (t.pending_cost_ns > 0) {
          goto start_phase;
        }
        switch (progs_.Arrive(t, id, op, rng_)) {
          case TaskPrograms::Arrival::kRelease:
            // Last to arrive: release everyone.
            progs_.Release(
                op.arg, tasks_,
                [&](int s) {
                  // It is running (spinning): its spin phase ends now.
                  Task& st = tasks_[s];
                  if (cpus_[st.cpu].curr == s && st.in_phase) {
                    SettlePhase(st.cpu);
                    st.rem_cycles = 0;
                    st.rem_stall_ns = 0;
                    ReschedulePhaseEnd(st.cpu);
                  }
                },
                [&](int w) { TryToWakeUp(w, cpu, /*from_task=*/true, 0); });
            break;
          case TaskPrograms::Arrival::kSpin:
            goto start_phase;
          case TaskPrograms::Arrival::kWait:
            BlockCurrent(cpu, true);
            return Schedule(cpu);
        }
        break;
      }
      case OpCode::kYield: {
        ++t.pc;
        if (c.nr_running > 1) {
          // sched_yield: the class's yield_task_fair().
          UpdateCurr(cpu);
          if (t.policy != SchedPolicy::kFifo) {
            Fair([&](auto& f) { f.Yield(cpu, id); });
          }
          c.need_resched = true;
          return Schedule(cpu);
        }
        break;
      }
      case OpCode::kFork: {
        ++t.pc;
        // The child runs the given program; its spec is the parent's.
        // CreateTask reuses an exited task's slot or grows tasks_, which
        // may move it: `t` is not used again before it is fetched anew
        // (refetch).
        const int spec = t.spec;
        const int count = op.arg2;
        const int program = op.arg;
        for (int k = 0; k < count; ++k) {
          if (free_task_slots_.empty() &&
              tasks_.size() >= static_cast<size_t>(kMaxTasks)) {
            return FailCat("task ", id, ": a fork beyond the limit of ",
                           kMaxTasks, " live tasks");
          }
          int child = CreateTask(spec, cpu);
          Task& ct = tasks_[child];
          ct.program = program;
          int dst = wake_.FindIdlestCpu(child, cpu, topology::kSdBalanceFork);
          ++placement_stats_.forks;
          ct.cpu = dst;
          // wake_up_new_task(): the initial utilization is attached to the
          // chosen runqueue before the task is enqueued.
          PostInitUtil(dst, child);
          ct.state = TaskState::kWaking;
          ct.wake_start_ns = now_ns_;
          ++cpus_[dst].ttwu_pending;
          RefreshProbe(dst);
          // wake_up_new_task() enqueues from the parent's CPU, with its
          // uclamp_rq_inc().
          const int64_t wake_ns = KernelWorkNs(cpu, config_.wakeup_cost_ns) +
                                  (uclamp_costs_ ? UclampUpdateNs(cpu) : 0);
          PushDelivery(now_ns_ + wake_ns, dst, child);
          tasks_[id].pending_cost_ns += wake_ns;
        }
        // Each child counts as an inline op, so a task that forks in a
        // loop that takes no time stops with the error below instead of
        // creating tasks without end.
        guard += count;
        first = nullptr;
        goto refetch;
      }
      case OpCode::kExec: {
        if (t.pending_cost_ns > 0) {  // finish the kernel work first
          goto start_phase;
        }
        // execve() replaces the image: the new program from its start, the
        // same task (its PELT signal, vruntime and channels kept).
        t.program = op.arg;
        t.pc = 0;
        t.loop_level = 0;
        ++guard;
        // sched_exec() (kernel/sched/core.c, v6.1): select_task_rq() with
        // WF_EXEC, find_idlest_cpu over the SD_BALANCE_EXEC domains; on
        // another CPU, stop_one_cpu(migration_cpu_stop) takes the task off
        // this runqueue and enqueues it there (move_queued_task).
        const int dst = wake_.FindIdlestCpu(id, cpu, topology::kSdBalanceExec);
        if (dst == cpu) {
          first = nullptr;
          goto refetch;
        }
        BlockCurrent(cpu, /*voluntary=*/false);
        t.state = TaskState::kWaking;
        t.wake_start_ns = now_ns_;
        ++cpus_[dst].ttwu_pending;
        RefreshProbe(dst);
        // The stopper's switch and the move cost this CPU what a wake-up
        // costs its waker.
        PushDelivery(now_ns_ + KernelWorkNs(cpu, config_.wakeup_cost_ns), dst,
                     id);
        return Schedule(cpu);
      }
      case OpCode::kExit: {
        if (t.pending_cost_ns > 0) {  // finish the last kernel work
          goto start_phase;
        }
        t.state = TaskState::kDead;
        if (sink_) sink_->OnTaskExit(now_ns_, id);
        BlockCurrent(cpu, true);
        return Schedule(cpu);
      }
      case OpCode::kLoop: {
        if (!progs_.EnterLoop(t, op)) {
          return FailCat("task ", id, ": loops nest too deep");
        }
        break;
      }
      case OpCode::kEndLoop: {
        TaskPrograms::EndLoop(t, op);
        break;
      }
      // Marks and stamps take the time the op really executes: after the
      // kernel work still pending.
      case OpCode::kMark: {
        progs_.Mark(t, op, now_ns_ + t.pending_cost_ns);
        break;
      }
      case OpCode::kStamp: {
        TaskPrograms::Stamp(t, now_ns_ + t.pending_cost_ns);
        break;
      }
      case OpCode::kShared: {
        if (!TaskPrograms::SampleShared(t, id, op, rng_, noise_, cache_, cpu,
                                        now_ns_ + t.pending_cost_ns,
                                        c.ns_per_cycle)) {
          break;
        }
        goto start_phase;
      }
    }
  }
  return FailCat("task ", id, " (program '", progs_.name(t.program), "') ran ",
                 TaskPrograms::kMaxInlineOps,
                 " operations without computing, sleeping or "
                 "blocking: an endless loop that takes no time");
start_phase:
  // A compute phase starts, or the kernel work queued so far runs before
  // the op that follows it: one copy of the phase start, with the phase
  // end's arming inlined, for every op that gets here.
  assert(c.curr == id);
  t.in_phase = true;
  t.rem_stall_ns += t.pending_cost_ns;
  t.pending_cost_ns = 0;
  c.seg_start_ns = now_ns_;
  ArmPhaseEnd(cpu);
}

}  // namespace schedsim::sim
