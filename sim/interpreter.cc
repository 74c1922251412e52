// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The execution model (compute phases at the CPU's frequency, settled and
// rescheduled when the rate changes) and the task-program interpreter
// (RunTask): one translation unit, so that the phase helpers inline into
// the interpreter.

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <functional>
#include <vector>

#include "absl/base/optimization.h"
#include "sim/simulator_impl.h"

namespace schedsim::sim {

namespace {

// Inline ops a task may run without time passing before the run stops
// with an error (an endless loop that never blocks or computes).
constexpr int kMaxInlineOps = 1 << 20;

// (int64_t)std::ceil(x) and std::llround(x) for 0 <= x < 2^63, without a
// libm call: the portable x86-64 baseline (`-c opt`, no SSE4.1) has no
// rounding instruction, so GCC calls ceil() and llround(). Exact: the
// truncation is exact, and x - trunc(x) is exact for every double.
inline int64_t CeilNonNegative(double x) {
  const int64_t t = static_cast<int64_t>(x);
  return t + (static_cast<double>(t) < x);
}
inline int64_t RoundNonNegative(double x) {  // halves away from zero
  const int64_t t = static_cast<int64_t>(x);
  return t + (x - static_cast<double>(t) >= 0.5);
}

}  // namespace

// What `cpu` executes per ns now: its domain's frequency times the work
// one of its cycles does (FreqDomainState::work_per_cycle: 1 except on a
// CPU smaller than the biggest), times the SMT factor while another thread
// of its core is busy. Cached, inverted, in Cpu::ns_per_cycle.
double SimulatorImpl::RateOf(int cpu) const {
  const Cpu& c = cpus_[cpu];
  const FreqDomainState& d = fdoms_[c.domain];
  double rate = static_cast<double>(d.cur_khz) * 1e-6 * d.work_per_cycle;
  int busy = packages_[c.package].busy_threads_per_core[c.core];
  if (c.mode == CpuMode::kBusy) --busy;
  if (busy > 0) rate = rate * config_.smt_factor_pct / 100.0;
  return rate;
}

void SimulatorImpl::UpdateRate(int cpu) {
  Cpu& c = cpus_[cpu];
  int busy = packages_[c.package].busy_threads_per_core[c.core];
  if (c.mode == CpuMode::kBusy) --busy;
  c.ns_per_cycle = fdoms_[c.domain].ns_per_cycle[busy > 0 ? 1 : 0];
  assert(c.ns_per_cycle == NsPerCycle(RateOf(cpu)));
}

// The same arithmetic as RateOf, done once per frequency change.
void SimulatorImpl::SetCurKhz(FreqDomainState& d, int64_t khz) {
  d.cur_khz = khz;
  const double rate = static_cast<double>(khz) * 1e-6 * d.work_per_cycle;
  d.ns_per_cycle[0] = NsPerCycle(rate);
  d.ns_per_cycle[1] = NsPerCycle(rate * config_.smt_factor_pct / 100.0);
}

// Accounts the progress of `cpu`'s current phase since seg_start_ns at
// seg_ns_per_cycle: cycles and stall shrink in proportion to the time elapsed.
void SimulatorImpl::SettlePhase(int cpu) {
  Cpu& c = cpus_[cpu];
  if (c.curr < 0) return;
  Task& t = tasks_[c.curr];
  int64_t elapsed = now_ns_ - c.seg_start_ns;
  c.seg_start_ns = now_ns_;
  if (!t.in_phase || elapsed <= 0) return;
  double remaining = static_cast<double>(t.rem_cycles) * c.seg_ns_per_cycle +
                     static_cast<double>(t.rem_stall_ns);
  if (static_cast<double>(elapsed) >= remaining) {
    t.rem_cycles = 0;
    t.rem_stall_ns = 0;
    return;
  }
  double keep = 1.0 - static_cast<double>(elapsed) / remaining;
  t.rem_cycles = RoundNonNegative(static_cast<double>(t.rem_cycles) * keep);
  t.rem_stall_ns = RoundNonNegative(static_cast<double>(t.rem_stall_ns) * keep);
}

void SimulatorImpl::ReschedulePhaseEnd(int cpu) { ArmPhaseEnd(cpu); }

// ReschedulePhaseEnd's body, inlined into RunTask's phase start (most
// events end there).
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void SimulatorImpl::ArmPhaseEnd(int cpu) {
  Cpu& c = cpus_[cpu];
  Task& t = tasks_[c.curr];
  assert(c.ns_per_cycle == NsPerCycle(RateOf(cpu)) &&
         "Cpu::ns_per_cycle is stale");
  c.seg_ns_per_cycle = c.ns_per_cycle;
  // The cycles' time, memoised per CPU: the same task usually goes on with
  // a phase of the same cycles at the same rate, and the load and compare
  // then replace a chain of conversions and a multiplication on the path
  // from this event to the next (the end time feeds the tree replay).
  PhaseNsMemo& m = phase_ns_memo_[static_cast<size_t>(cpu)];
  if (ABSL_PREDICT_FALSE(t.rem_cycles != m.cycles ||
                         c.seg_ns_per_cycle != m.ns_per_cycle)) {
    m.cycles = t.rem_cycles;
    m.ns_per_cycle = c.seg_ns_per_cycle;
    m.ns =
        CeilNonNegative(static_cast<double>(t.rem_cycles) * c.seg_ns_per_cycle);
  }
  const int64_t end = now_ns_ + t.rem_stall_ns + m.ns;
  phase_ends_.Set(cpu, end, PackBandSeq(kBandSched, queue_.NextSeq()));
  phase_task_[cpu] = c.curr;
  const PhaseResume r = phase_resume_[t.program][t.pc];
  t.pc = r.pc;  // past a forever loop's kEndLoop (PhaseResume)
  phase_op_[cpu] = program_ops_[t.program] + r.pc;
  phase_channel_[cpu] =
      r.channel >= 0 ? &channels_[r.channel + t.channel_base] : &no_channel_;
}

// The SMT sibling of `cpu` started or stopped running: the throughput of a
// task running on the sibling changes.
void SimulatorImpl::SiblingChanged(int cpu) {
  for (int32_t s : cpus_[cpu].siblings) {
    Cpu& sc = cpus_[s];
    if (sc.mode != CpuMode::kBusy || sc.curr < 0 || !tasks_[sc.curr].in_phase)
      continue;
    assert(sc.ns_per_cycle == NsPerCycle(RateOf(s)) &&
           "Cpu::ns_per_cycle is stale");
    if (sc.ns_per_cycle == sc.seg_ns_per_cycle) continue;
    SettlePhase(s);
    ReschedulePhaseEnd(s);
  }
}

// Steals `cost_ns` from whatever `cpu` runs (interrupt work): a running
// phase ends later.
void SimulatorImpl::ChargeCpu(int cpu, int64_t cost_ns) {
  Cpu& c = cpus_[cpu];
  if (cost_ns <= 0 || c.curr < 0 || c.mode != CpuMode::kBusy) return;
  Task& t = tasks_[c.curr];
  if (t.in_phase) {
    SettlePhase(cpu);
    t.rem_stall_ns += cost_ns;
    ReschedulePhaseEnd(cpu);
  } else {
    t.pending_cost_ns += cost_ns;
  }
}

// What `writes` writes to shared line `line` by `cpu` cost, in ns of stall,
// when they start at `start_ns` and are spread over `cycles` of work.
//
// The line is a FIFO server: one CPU at a time owns it. A write by a CPU
// that does not own it moves it from the owner's cache
// (Topology::LineTransferNs: the read-for-ownership of a line held
// modified elsewhere); a write by the owner is a cache hit (its cost is in
// the op's cycles). The op stands for `writes` writes spread over its
// span, so it is contended when another CPU wrote the line within that
// span (or still holds it): then each of the writes finds the line
// elsewhere, pays a transfer from the last other writer and waits its
// turn behind the writes already queued. Uncontended, only the first write
// moves the line. A lock's critical section (`hold_ns`) keeps the line for
// each write. This is how a shared reference count (the struct file of a
// shared descriptor: fget/fput in fs/file.c, v6.1) or a global spinlock
// serialises CPUs: the line's throughput, one transfer plus one hold per
// write, bounds every writer's together.
int64_t SimulatorImpl::SharedLineStall(int cpu, int line, int writes,
                                       int64_t hold_ns, int64_t start_ns,
                                       int64_t cycles) {
  if (writes <= 0) return 0;
  const int64_t span_ns =
      CeilNonNegative(static_cast<double>(cycles) * cpus_[cpu].ns_per_cycle);
  if (line_write_end_.empty()) {
    return LineWriteStall(lines_[line], &line_stats_[line], cpu, writes,
                          hold_ns, start_ns, span_ns);
  }
  // Atomic writes (no hold) batch inside an LLC: count the CPUs of this
  // CPU's LLC contending with it (a write of theirs ends within this op's
  // span or later), itself included, up to CoherenceSpec::llc_handoffs.
  // A lock (hold_ns > 0) hands over in its queue's order: no batching.
  std::vector<int64_t>& ends = line_write_end_[static_cast<size_t>(line)];
  int local = 1;
  if (hold_ns == 0) {
    const int64_t since = start_ns - span_ns;
    const topology::CpuSet& llc = topo_.llcs()[line_places_[cpu].llc];
    for (int o = llc.First(); o >= 0 && local < llc_handoffs_;
         o = llc.Next(o)) {
      if (o != cpu && ends[static_cast<size_t>(o)] > since) ++local;
    }
  }
  const int64_t stall =
      LineWriteStall(lines_[line], &line_stats_[line], cpu, writes, hold_ns,
                     start_ns, span_ns, local);
  ends[static_cast<size_t>(cpu)] = start_ns + stall;
  return stall;
}

int64_t SimulatorImpl::LineWriteStall(LineState& l, SharedLineStats* stats,
                                      int cpu, int writes, int64_t hold_ns,
                                      int64_t start_ns, int64_t span_ns,
                                      int local_batch) {
  // The counters add up here and go to `stats` at the end: no local
  // SharedLineStats (its name, a std::string, would cost a construction and
  // a stack canary on every per-LLC line write of the wake-up path).
  uint64_t transfers = 0;
  const bool owned = l.owner == cpu;
  const int32_t other = owned ? l.prev_owner : l.owner;
  const int64_t other_end = owned ? l.prev_end_ns : l.owner_end_ns;
  const int64_t busy_until = std::max(l.owner_end_ns, l.prev_end_ns);
  int64_t stall = 0;
  int64_t end = 0;
  if (other >= 0 && other_end > start_ns - span_ns) {
    // Contended: every write moves the line and queues behind the others.
    // With `local_batch` > 1 CPUs of this LLC contending, the line comes
    // from afar once per `local_batch` writes and from inside the LLC for
    // the rest (CoherenceSpec::llc_handoffs): each write pays the average.
    int64_t move = LineNs(other, cpu);
    const int64_t near = line_ns_[1];
    if (local_batch > 1 && move > near) {
      move = (move + (local_batch - 1) * near + local_batch - 1) / local_batch;
    }
    const int64_t per_write = move + hold_ns;
    const int64_t begin = std::max(start_ns, busy_until);
    end = begin + per_write * writes;
    stall = end - start_ns;
    transfers = static_cast<uint64_t>(writes);
  } else {
    const int64_t move = owned || l.owner < 0 ? 0 : LineNs(l.owner, cpu);
    if (move > 0) transfers = 1;
    stall = move + hold_ns * writes;
    end = start_ns + stall;
  }
  if (stats != nullptr) {
    stats->writes += static_cast<uint64_t>(writes);
    stats->transfers += transfers;
    stats->stall_ns += stall;
  }
  if (!owned) {
    l.prev_owner = l.owner;
    l.prev_end_ns = l.owner_end_ns;
    l.owner = cpu;
  }
  l.owner_end_ns = end;
  return stall;
}

// A policy hook's access to a per-LLC line (LlcLine), by line_cpu_: the
// cost goes to line_cost_ns_, which the caller charges (the waker of a
// wake-up, the idle entry of update_idle_core). A read of a line another
// CPU wrote since this CPU last read it moves it here (shared); a write
// takes it from its owner (LineWriteStall) and invalidates every reader,
// which costs a transfer even when this CPU owned it while others read.
void SimulatorImpl::ReadLlcLine(int llc, LlcLine which) {
  const int cpu = line_cpu_;
  if (cpu < 0) return;
  const size_t i =
      static_cast<size_t>(llc) * kLlcLines + static_cast<size_t>(which);
  LineState& l = llc_lines_[i];
  topology::CpuSet& readers = llc_line_readers_[i];
  if (l.owner < 0 || l.owner == cpu || readers.Test(cpu)) return;
  line_cost_ns_ += LineNs(l.owner, cpu);
  readers.Set(cpu);
}

void SimulatorImpl::WriteLlcLine(int llc, LlcLine which) {
  const int cpu = line_cpu_;
  if (cpu < 0) return;
  const size_t i =
      static_cast<size_t>(llc) * kLlcLines + static_cast<size_t>(which);
  LineState& l = llc_lines_[i];
  topology::CpuSet& readers = llc_line_readers_[i];
  int64_t cost = 0;
  if (l.owner == cpu) {
    for (int r = readers.First(); r >= 0; r = readers.Next(r)) {
      if (r != cpu) {
        cost = LineNs(cpu, r);  // invalidate the copies
        break;
      }
    }
    l.owner_end_ns = now_ns_ + line_cost_ns_ + cost;
  } else {
    cost = LineWriteStall(l, nullptr, cpu, 1, 0, now_ns_ + line_cost_ns_, 0);
  }
  line_cost_ns_ += cost;
  readers.ClearAll();
  readers.Set(cpu);
}

// The lines of a channel operation on `cpu` that the previous operation
// left in another CPU's cache (kPipeOpLines). Inlined into RunTask: every
// send and receive asks.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline int64_t SimulatorImpl::ChannelLinesNs(
    ChannelState& ch, int cpu) {
  const int64_t ns = ch.last_cpu >= 0 ? ch.lines * LineNs(ch.last_cpu, cpu) : 0;
  ch.last_cpu = cpu;
  return ns;
}

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
  const Op* const ops = program_ops_[t.program];
  assert(first == nullptr || first == ops + t.pc);
  const Op* next = first != nullptr ? first : ops + t.pc;
  for (; guard < kMaxInlineOps; ++guard, next = ops + t.pc) {
    const Op& op = *next;
    switch (op.code) {
      case OpCode::kCompute: {
        ++t.pc;
        t.rem_cycles = op.d1.Sample(rng_);
        t.rem_stall_ns = op.d2.Sample(rng_);
        if (jitter_) JitterWork(t, id);
        if (t.rem_cycles == 0 && t.rem_stall_ns == 0 &&
            t.pending_cost_ns == 0) {
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
        const int64_t wake_ns = NextIoCompletion(id, op, &last);
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
        ChannelState& ch = channels_[op.arg + t.channel_base];
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
            task_lock_[id] &= ~kLockGranted;  // queue again when it retries
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
        if (ABSL_PREDICT_FALSE(op.arg2 == kChannelBatch)) n = TakeBatch(id);
        ch.messages += n;
        t.pending_cost_ns +=
            KernelWorkNs(cpu, ch.op_ns) + ChannelLinesNs(ch, cpu);
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
        ChannelState& ch = channels_[op.arg + t.channel_base];
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
            task_lock_[id] &= ~kLockGranted;  // queue again when it retries
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
          batch_taken_[id] = n;
        }
        ch.messages -= n;
        t.pending_cost_ns +=
            KernelWorkNs(cpu, ch.op_ns) + ChannelLinesNs(ch, cpu);
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
        BarrierState& b = barriers_[op.arg];
        if (++b.arrived >= b.parties) {
          // Last to arrive: release everyone.
          b.arrived = 0;
          ++b.generation;
          ++t.pc;
          for (int s : b.spinners) {
            Task& st = tasks_[s];
            st.spinning = false;
            ++st.pc;
            // It is running (spinning): its spin phase ends now.
            Cpu& sc = cpus_[st.cpu];
            if (sc.curr == s && st.in_phase) {
              SettlePhase(st.cpu);
              st.rem_cycles = 0;
              st.rem_stall_ns = 0;
              ReschedulePhaseEnd(st.cpu);
            }
          }
          b.spinners.clear();
          int w = b.waiters_head;
          b.waiters_head = -1;
          while (w >= 0) {
            int next = tasks_[w].next_waiter;
            tasks_[w].next_waiter = -1;
            TryToWakeUp(w, cpu, /*from_task=*/true, 0);
            w = next;
          }
          break;
        }
        int64_t spin = op.d1.Sample(rng_);
        if (spin > 0) {
          // Spin (busy, frequency-independent) until released or timed out.
          t.spinning = true;
          b.spinners.push_back(id);
          t.rem_cycles = 0;
          t.rem_stall_ns = spin;
          goto start_phase;
        }
        ++t.pc;
        t.next_waiter = b.waiters_head;
        b.waiters_head = id;
        BlockCurrent(cpu, true);
        return Schedule(cpu);
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
          int dst = FindIdlestCpu(child, cpu, topology::kSdBalanceFork);
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
        const int dst = FindIdlestCpu(id, cpu, topology::kSdBalanceExec);
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
        if (t.loop_level >= kMaxLoopDepth) {
          return FailCat("task ", id, ": loops nest too deep");
        }
        t.loop_left[t.loop_level++] = op.arg;  // 0 = forever
        ++t.pc;
        break;
      }
      case OpCode::kEndLoop: {
        int32_t& left = t.loop_left[t.loop_level - 1];
        if (left == 0 || --left > 0) {
          t.pc = static_cast<uint32_t>(op.arg + 1);
        } else {
          --t.loop_level;
          ++t.pc;
        }
        break;
      }
      case OpCode::kMark: {
        ++t.pc;
        // Marks and stamps take the time the op really executes: after the
        // kernel work still pending.
        MetricStats& m = metric_stats_[op.arg];
        ++m.count;
        if (t.stamp_ns >= 0) {
          m.latency_ns.Record(now_ns_ + t.pending_cost_ns - t.stamp_ns);
        }
        break;
      }
      case OpCode::kStamp: {
        ++t.pc;
        t.stamp_ns = now_ns_ + t.pending_cost_ns;
        break;
      }
      case OpCode::kShared: {
        ++t.pc;
        t.rem_cycles = op.d1.Sample(rng_);
        t.rem_stall_ns = 0;
        if (jitter_) JitterWork(t, id);
        const int64_t hold_ns = op.d2.Sample(rng_);
        t.rem_stall_ns +=
            SharedLineStall(cpu, op.arg, op.arg2, hold_ns,
                            now_ns_ + t.pending_cost_ns, t.rem_cycles);
        if (t.rem_cycles == 0 && t.rem_stall_ns == 0 &&
            t.pending_cost_ns == 0) {
          break;
        }
        goto start_phase;
      }
    }
  }
  return FailCat("task ", id, " (program '", programs_[t.program].name,
                 "') ran ", kMaxInlineOps,
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
