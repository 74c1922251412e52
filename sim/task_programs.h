// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The task programs' "user space" as a part of the engine: the programs
// (their ops, and what arming a phase end at a pc looks up), the loops'
// counters' semantics, the metrics (kMark, kStamp), the compute ops'
// sampling (with Noise's jitter and CacheLines' shared-line stall) and the
// barriers' arrival bookkeeping (who spins, who waits, who is released).
// Each op's part here is inline: the engine's interpreter (RunTask,
// interpreter.cc) dispatches every op once and calls it, and keeps the
// kernel's side of each op (blocking, waking, the switch, fork and exec,
// the kernel work pending before an op). Private to sim/.

#ifndef SCHEDSIM_SIM_TASK_PROGRAMS_H_
#define SCHEDSIM_SIM_TASK_PROGRAMS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/cache_lines.h"
#include "sim/noise.h"
#include "sim/program.h"
#include "sim/rng.h"
#include "sim/sched_state.h"
#include "sim/shared_objects.h"
#include "sim/stats.h"
#include "sim/workload.h"

namespace schedsim::sim {

class TaskPrograms {
 public:
  // Inline ops a task may run without time passing before the run stops
  // with an error (an endless loop that never blocks or computes).
  static constexpr int kMaxInlineOps = 1 << 20;

  TaskPrograms() = default;
  TaskPrograms(const TaskPrograms&) = delete;
  TaskPrograms& operator=(const TaskPrograms&) = delete;

  // The workload's programs (copied), barriers (no task arrived) and
  // metrics (none recorded).
  void Init(const Workload& workload);

  // --- Programs ---------------------------------------------------------
  // Program `program`'s first op (its ops never move after Init).
  const Op* ops(int program) const {
    return program_ops_[static_cast<size_t>(program)];
  }
  const std::string& name(int program) const {
    return programs_[static_cast<size_t>(program)].name;
  }
  // What arming a phase end with the task of `program` at `pc` looks up:
  // - pc: where the task resumes: the pc itself, or, when it is the kEndLoop
  //   of a loop that runs forever (its kLoop's arg is 0), the loop's first
  //   op, following such kEndLoops (and a pc whose chain of them comes back
  //   to itself stays). Such a kEndLoop only jumps: it reads no state but
  //   its own loop counter, which stays 0, and changes nothing but the pc,
  //   so taking the jump when the phase is armed instead of when it ends
  //   changes no result, and the phase end dispatches one op fewer.
  // - channel: the channel (op.arg, before the task's channel_base) of the
  //   channel op the task reaches next from that pc without computing or
  //   blocking (following loop jumps), or -1. Only a prefetch hint.
  struct PhaseResume {
    uint32_t pc;
    int32_t channel;
  };
  PhaseResume phase_resume(int program, uint32_t pc) const {
    return phase_resume_[static_cast<size_t>(program)][pc];
  }

  // --- Loops (kLoop, kEndLoop) -------------------------------------------
  // Task `t` enters the loop `op` (arg: its count, 0 = forever): false,
  // with nothing changed, when loops already nest kMaxLoopDepth deep.
  bool EnterLoop(Task& t, const Op& op) {
    if (t.loop_level >= kMaxLoopDepth) return false;
    t.loop_left[t.loop_level++] = op.arg;  // 0 = forever
    ++t.pc;
    return true;
  }
  // Task `t` reaches the end `op` of its innermost loop: back to the loop's
  // first op, or past the end when the count is done.
  static void EndLoop(Task& t, const Op& op) {
    int32_t& left = t.loop_left[t.loop_level - 1];
    if (left == 0 || --left > 0) {
      t.pc = static_cast<uint32_t>(op.arg + 1);
    } else {
      --t.loop_level;
      ++t.pc;
    }
  }

  // --- Metrics (kMark, kStamp) -------------------------------------------
  // The ops take the time they really execute, `at_ns` (after the kernel
  // work still pending). A mark counts, and records the latency from the
  // task's last stamp if it has one.
  void Mark(Task& t, const Op& op, int64_t at_ns) {
    ++t.pc;
    MetricStats& m = metric_stats_[static_cast<size_t>(op.arg)];
    ++m.count;
    if (t.stamp_ns >= 0) m.latency_ns.Record(at_ns - t.stamp_ns);
  }
  static void Stamp(Task& t, int64_t at_ns) {
    ++t.pc;
    t.stamp_ns = at_ns;
  }
  const std::vector<MetricStats>& metrics() const { return metric_stats_; }
  // Forgets what was recorded (the names stay).
  void ResetStats();

  // --- Compute (kCompute, kShared) ---------------------------------------
  // The engine's other parts are arguments, not members: the engine passes
  // its own, at no cost on the per-op path.
  // Task `id` (`t`) reaches compute op `op`: its cycles and stall drawn
  // from `rng` (the cycles first) and jittered by `noise`. Whether a phase
  // starts: false when there is nothing to run, no work and no kernel work
  // pending (no zero-length phase).
  static bool SampleCompute(Task& t, int id, const Op& op, Rng& rng,
                            Noise& noise) {
    ++t.pc;
    t.rem_cycles = op.d1.Sample(rng);
    t.rem_stall_ns = op.d2.Sample(rng);
    if (noise.jitter()) noise.JitterWork(t, id);
    return t.rem_cycles != 0 || t.rem_stall_ns != 0 || t.pending_cost_ns != 0;
  }
  // Likewise a shared-line op on `cpu` at `ns_per_cycle`: its cycles
  // (jittered), then its hold time drawn, and the stall of its writes on
  // `lines` from `start_ns` (after the kernel work pending).
  static bool SampleShared(Task& t, int id, const Op& op, Rng& rng,
                           Noise& noise, CacheLines& lines, int cpu,
                           int64_t start_ns, double ns_per_cycle) {
    ++t.pc;
    t.rem_cycles = op.d1.Sample(rng);
    t.rem_stall_ns = 0;
    if (noise.jitter()) noise.JitterWork(t, id);
    const int64_t hold_ns = op.d2.Sample(rng);
    t.rem_stall_ns += lines.SharedLineStall(
        cpu, op.arg, op.arg2, hold_ns, start_ns, t.rem_cycles, ns_per_cycle);
    return t.rem_cycles != 0 || t.rem_stall_ns != 0 || t.pending_cost_ns != 0;
  }

  // --- Barriers (kBarrier) -----------------------------------------------
  enum class Arrival {
    // The last to arrive: it goes on past the barrier; Release() then
    // frees the others.
    kRelease,
    // It spins (busy, frequency-independent: its stall) until released or
    // its spin limit ends (SpinTimedOut).
    kSpin,
    // It waits, blocked, until released (past the barrier when woken).
    kWait,
  };
  // Task `id` (`t`) arrives at barrier `op` (arg: the barrier; d1: its
  // spin limit, drawn from `rng` unless it is the last).
  Arrival Arrive(Task& t, int id, const Op& op, Rng& rng) {
    BarrierState& b = barriers_[static_cast<size_t>(op.arg)];
    if (++b.arrived >= b.parties) {
      b.arrived = 0;
      ++b.generation;
      ++t.pc;
      return Arrival::kRelease;
    }
    const int64_t spin = op.d1.Sample(rng);
    if (spin > 0) {
      t.spinning = true;
      b.spinners.push_back(id);
      t.rem_cycles = 0;
      t.rem_stall_ns = spin;
      return Arrival::kSpin;
    }
    ++t.pc;
    t.next_waiter = b.waiters_head;
    b.waiters_head = id;
    return Arrival::kWait;
  }
  // After kRelease at barrier `barrier`: every spinner, in the order they
  // arrived, goes on past it (`spun(s)` then ends its spin), then every
  // waiter, the last to arrive first, is `wake(w)`n.
  template <typename Spun, typename Wake>
  void Release(int barrier, std::vector<Task>& tasks, Spun&& spun,
               Wake&& wake) {
    BarrierState& b = barriers_[static_cast<size_t>(barrier)];
    for (int s : b.spinners) {
      Task& st = tasks[static_cast<size_t>(s)];
      st.spinning = false;
      ++st.pc;
      spun(s);
    }
    b.spinners.clear();
    int w = b.waiters_head;
    b.waiters_head = -1;
    while (w >= 0) {
      const int next = tasks[static_cast<size_t>(w)].next_waiter;
      tasks[static_cast<size_t>(w)].next_waiter = -1;
      wake(w);
      w = next;
    }
  }
  // Task `id` (`t`, at its barrier op) spun until its limit: it waits now
  // (past the barrier when woken).
  void SpinTimedOut(Task& t, int id) {
    t.spinning = false;
    BarrierState& b = barriers_[static_cast<size_t>(ops(t.program)[t.pc].arg)];
    auto it = std::find(b.spinners.begin(), b.spinners.end(), id);
    if (it != b.spinners.end()) b.spinners.erase(it);
    t.next_waiter = b.waiters_head;
    b.waiters_head = id;
    ++t.pc;
  }
  const BarrierState& barrier(int i) const {
    return barriers_[static_cast<size_t>(i)];
  }

 private:
  // The two the per-op path reads first (one line).
  std::vector<const Op*> program_ops_;  // by program: its first op
  std::vector<std::vector<PhaseResume>> phase_resume_;  // by program, pc
  std::vector<Program> programs_;
  std::vector<BarrierState> barriers_;
  std::vector<MetricStats> metric_stats_;
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_TASK_PROGRAMS_H_
