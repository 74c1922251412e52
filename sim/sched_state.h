// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The scheduler's shared state as the kernel keeps it: the tasks (struct
// task_struct with its sched_entity) and the CPUs (struct rq with its
// cfs_rq and rt_rq). The engine's parts (the fair class, the wake-up path,
// idle, frequency, balancing) read and write these; each part's private
// state lives in the part.

#ifndef SCHEDSIM_SIM_SCHED_STATE_H_
#define SCHEDSIM_SIM_SCHED_STATE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/event_queue.h"
#include "sim/histogram.h"
#include "sim/pelt.h"
#include "sim/program.h"
#include "sim/stats.h"
#include "sim/workload.h"

namespace schedsim::sim {

enum class TaskState : uint8_t {
  kRunnable,  // on a runqueue (or running: see Cpu::curr)
  kBlocked,   // sleeping, in IO wait, or waiting on a channel or barrier
  kWaking,    // try_to_wake_up chose a CPU; delivery pending
  kDead,
};

// A task, in three cache lines by use: the phase-end path (the op
// interpreter) reads and writes only the first.
struct alignas(64) Task {
  // The one-bit flags below have no default member initializers (C++17).
  Task()
      : iowait(false),
        has_affinity(false),
        uclamp_inc_at_target(false),
        remote_enqueue(false) {}
  // --- The interpreter: program, loops, the current phase.
  int64_t rem_cycles = 0;       // of the current phase
  int64_t rem_stall_ns = 0;     // of the current phase
  int64_t pending_cost_ns = 0;  // kernel time to prepend to the next phase
  int64_t stamp_ns = -1;        // last kStamp
  std::array<int32_t, kMaxLoopDepth> loop_left{};
  uint32_t pc = 0;
  int32_t program = 0;       // TaskPrograms::ops(program)
  int32_t channel_base = 0;  // TaskSpec::channel_base
  int8_t loop_level = 0;
  bool in_phase = false;  // a compute phase is in progress
  bool spinning = false;  // spinning on a barrier
  TaskState state = TaskState::kBlocked;
  // --- Scheduling: CFS, runqueues, blocking.
  int64_t vruntime = 0;
  int64_t exec_start_ns = 0;  // when it last started running
  int64_t slice_exec_ns = 0;  // run time since it was last picked
  int64_t last_ran_ns = 0;    // for task_hot
  int64_t run_ns = 0;         // TaskStats::run_ns, kept here (UpdateCurr)
  int32_t weight = 1024;
  int32_t cpu = 0;           // current, or last, CPU
  int32_t rq_pos = -1;       // index in its runqueue heap, -1 if not queued
  int32_t next_waiter = -1;  // link in a channel/barrier/wake-list queue
  SchedPolicy policy = SchedPolicy::kNormal;
  uint8_t rt_priority = 0;
  bool iowait : 1;        // blocked in IO wait
  bool has_affinity : 1;  // its spec restricts its CPUs
  // Woken through the target's wake list: the target CPU runs the enqueue
  // and pays its uclamp_rq_inc() (SimulatorImpl::EnqueueTask).
  bool uclamp_inc_at_target : 1;
  // Woken by a waker that enqueues it itself on a busy CPU of its LLC (no
  // wake list): the enqueue's cpufreq callbacks are remote.
  bool remote_enqueue : 1;
  int16_t uclamp_min = 0;
  int16_t uclamp_max = 1024;
  // --- Wake-up bookkeeping, PELT, identity.
  int64_t wake_start_ns = -1;  // try_to_wake_up time; -1 = not waking
  int64_t block_start_ns = 0;
  int64_t wakee_flip_decay_ns = 0;
  PeltSignal pelt;
  int32_t last_wakee = -1;
  uint32_t wakee_flips = 0;
  int32_t recent_used_cpu = -1;
  int32_t spec = 0;  // index of its TaskSpec (name, affinity)
};
static_assert(sizeof(Task) == 192, "three cache lines");
static_assert(offsetof(Task, vruntime) == 64, "interpreter fields: line 0");
static_assert(offsetof(Task, wake_start_ns) == 128, "sched fields: line 1");

// A task's counters: TaskStats without the name (Stats() takes it from the
// task's spec), run_ns (in Task) and exited (state == kDead).
struct TaskCounters {
  uint64_t migrations = 0;
  uint64_t wakeups = 0;
  uint64_t voluntary_switches = 0;
  uint64_t involuntary_switches = 0;
  int64_t iowait_ns = 0;
  // schedstats' se.statistics.wait_*: time on a runqueue, runnable but not
  // running (from enqueue or preemption to the switch in).
  int64_t wait_sum_ns = 0;
  int64_t wait_max_ns = 0;
  uint64_t wait_count = 0;
  int64_t wait_start_ns = -1;  // waiting since; -1 when not waiting
  CompactLatencyHistogram wakeup_latency_ns;  // runnable -> running
};

enum class CpuMode : uint8_t {
  kBusy,   // running a task
  kIdle,   // in idle state `idle_state`
  kAwake,  // the idle task runs outside any C-state (exiting, IRQ)
};

// A CPU. The first cache line holds what the phase-end path and the
// idle-CPU search's probes read; the second the runqueue.
struct alignas(64) Cpu {
  // --- Hot: the running task, its phase, the probed state.
  int32_t curr = -1;
  CpuMode mode = CpuMode::kAwake;
  bool need_resched = false;
  bool polling = false;
  bool exiting = false;       // C-state exit in progress
  int32_t nr_running = 0;     // fair + RT, including curr
  int32_t ttwu_pending = 0;   // wake-ups in flight to this CPU
  int32_t nr_sched_idle = 0;  // runnable SCHED_IDLE tasks, including curr
  int32_t nr_fair = 0;
  int64_t seg_start_ns = 0;  // the current phase's segment started
  // ns per cycle (1 / RateOf; 0 when the CPU executes nothing): a phase's
  // cycles take cycles * ns_per_cycle, a multiplication on the phase-end
  // path instead of a division.
  double seg_ns_per_cycle = 0;  // of the current phase's segment
  double ns_per_cycle = 0;      // now: NsPerCycle(RateOf) (UpdateRate)
  // PELT's invariance factor (PeltScale): the domain's frequency scale
  // times the CPU's capacity, 1024 at the biggest CPU's highest frequency.
  uint32_t pelt_scale = 1024;
  int32_t nr_uclamped = 0;  // runnable tasks with non-default clamps
  int32_t domain = 0;
  int32_t llc = 0;
  // --- Runqueue.
  int64_t load_weight = 0;  // sum of weights of fair tasks
  int64_t min_vruntime = 0;
  std::vector<int32_t> rq;     // fair tasks queued (not curr): heap
  std::vector<int32_t> rt_rq;  // RT tasks queued: sorted by priority
  // --- The rest.
  PeltSignal rq_pelt;
  EventHandle idle_timer;  // POLL time limit
  bool tick_running = false;
  bool poll_limit_hit = false;
  // In newidle_balance() (SimConfig::newidle_load_balance): the CPU is
  // still in schedule() with its last task as rq->curr, so idle_cpu() is
  // false and no wake-up picks it as idle; deliveries wait for the level
  // under way to end (kEvNewidleStep).
  bool newidle_walk = false;
  // The runqueue's utilization changed (its PELT signal decayed across a
  // period boundary, or a task's signal was attached or removed) since the
  // governor was last told: the kernel's cfs_rq_util_change() condition.
  bool util_changed = false;
  int32_t package = 0;
  int32_t core = 0;
  // Idle.
  int32_t idle_state = -1;
  int32_t last_state = -1;
  int32_t nr_iowait = 0;
  int64_t idle_enter_ns = 0;
  int64_t last_residency_ns = 0;
  int32_t pending_head = -1;  // wake list: tasks to enqueue on exit
  int32_t pending_tail = -1;
  std::vector<int32_t> irq_pending;  // timer/IO wake-ups awaiting the exit
  std::vector<int64_t> timers;       // min-heap of pending timer expiries (ns)
  // SIS_PROP inputs.
  int64_t avg_idle_ns = 1000000;
  int64_t wake_avg_idle_ns = 500000;
  int64_t wake_stamp_jiffies = 0;
  int64_t idle_stamp_ns = 0;
  // Load balancing, per domain level: the last periodic balance
  // (sd->last_balance), how many ran, and the current interval
  // (sd->balance_interval, in ms: doubled up to max_interval when balanced,
  // reset to min_interval when tasks moved).
  struct BalanceLevel {
    int64_t last_ns;
    int32_t interval_ms;
    uint32_t count;  // balances run as the group's balancer (never reset)
    // sd->nr_balance_failed: periodic balances in a row that found an
    // imbalance and moved nothing; past cache_nice_tries, cache-hot tasks
    // may move (can_migrate_task()).
    uint32_t nr_balance_failed;
  };
  std::vector<BalanceLevel> balance;
  // Accounting.
  int64_t busy_since_ns = 0;
  int64_t khz = 0;  // frequency the busy segment is accounted at
  int64_t energy_since_ns = 0;
  double energy_uj = 0;
  // Free-running counters (never reset): C0 cycles at the actual and at the
  // base frequency, and C0 time, for APERF/MPERF and HWP activity.
  double aperf = 0;
  double mperf = 0;
  int64_t c0_total_ns = 0;
  int64_t c0_at_last_pmu_ns = 0;
  std::vector<int32_t> siblings;  // the other SMT threads of the core
  CpuStats stats;
};
static_assert(offsetof(Cpu, load_weight) == 64, "hot fields: line 0");
static_assert(sizeof(Cpu) <= 512, "keep Cpu within eight cache lines");

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_SCHED_STATE_H_
