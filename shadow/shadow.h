// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Shadow evaluation: a policy is shown, decision by decision, the
// situations a real kernel met in a recorded ftrace text trace, and its
// answers are compared with the kernel's. Nothing is simulated: the trace
// is the ground truth, and the policy's decisions do not change what
// happens next (an open-loop replay). docs/traces-shadow.md has the long
// form.
// Its own package, shadow/ (//shadow); the namespace stays schedsim::traces,
// and traces/shadow.h (//traces:shadow) still includes this header.
//
//   absl::StatusOr<topology::Topology> m = topology::MakePreset("...");
//   auto menu = platform::PolicyRegistry::Global().MakeIdle("menu");
//   absl::StatusOr<IdleShadowReport> r =
//       ShadowIdle("trace.txt", *m, **menu, IdleShadowOptions());
//   // r->total.agreements of r->total.periods idle periods agree.
//
// Idle (ShadowIdle). Per CPU (the cpu_idle `cpu_id`), every cpu_idle enter
// opens an idle period and the next exit closes it (the rules of
// Summarize() in ftrace.h: an enter while a period is open closes it there;
// an exit without an open period is ignored; a period open at the end of
// the trace is cut at its last event). At each enter the governor is shown
// a trace-driven IdleDevice and Select()ed; at the close it is Reflect()ed
// with the measured residency (exit - enter). What the device shows:
//   * the state table of the chosen machine; the trace's state indices map
//     onto it by index (an index beyond the table is an error naming the
//     line);
//   * now_ns() = the enter timestamp;
//   * sleep_length_ns(): the time to the next timer is not in an ftrace
//     trace, and the measured idle duration must not be shown (a governor
//     does not see the future). By default it is the time to the next tick
//     boundary (ticks at multiples of 1/HZ of trace time, HZ from the
//     options), i.e. "a timer no later than the next tick", the
//     assumption when the tick was running; with assume_timer_in_ns > 0 it
//     is that constant instead. *delta_tick_ns is always the time to the
//     next tick boundary; tick_stopped() is false;
//   * latency_limit_ns(): the option (none by default);
//   * nr_iowait(): tasks that switched out in state D from this CPU and
//     have not been woken (sched_wakeup/_new/waking) or run since (an
//     approximation: D is not always an iowait sleep);
//   * poll_time_limit(): set when the governor chose a polling state and
//     the measured residency exceeds the kernel's poll limit
//     (cpuidle_poll_time: the first enabled non-polling state's target
//     residency of at least 10 us, capped at TICK_NSEC / 16);
//   * stats(): the usage/time/above/below counters of the states the
//     governor chose, updated with the measured residencies.
// The measured residency is what the kernel's choice produced; had the
// governor chosen otherwise (kept the tick, polled) the period might have
// ended differently. Periods are not split at ticks.
//
// Placement (ShadowPlacement). The trace is read twice. The first pass
// finds the CPU count, each CPU's first running task, which sched_waking
// belongs to which sched_wakeup, and which wake-ups look synchronous (see
// below). The second pass rebuilds the scheduler state as it goes and
// calls the policy's SelectIdleSibling at every wake-up decision:
//   * the decision point is a sched_waking that a later sched_wakeup of the
//     same pid completes (this_cpu = the CPU recording the sched_waking,
//     prev = its target_cpu, which is task_cpu(p) before select_task_rq),
//     else a sched_wakeup (this_cpu = its recording CPU, which for a
//     wake-up delivered through the wake list is the target's CPU, not the
//     waker's; prev = the CPU the task last ran on or was moved to, from
//     sched_switch, sched_migrate_task and earlier wake-ups);
//   * the kernel's answer is the sched_wakeup's target_cpu;
//   * target (wake_affine's choice is not in the trace): by default prev,
//     or this_cpu when the wake-up looks synchronous: the waking task (not
//     the idle task) switched out in a sleeping state on the same CPU within
//     sync_window_ns of the wake-up, with no other wake-up by it between.
//     WakeTarget::kPrev and kWaker force one or the other;
//   * wake flags: WF_TTWU, plus WF_SYNC for a synchronous wake-up;
//   * the SchedView: a CPU runs the task of its last sched_switch (before
//     its first one, the task recorded on its first event); it is idle when
//     that is the idle task (pid 0) and no woken or preempted task is
//     queued on it. nr_running counts the running task and the tasks woken
//     onto or preempted on the CPU (sched_switch prev_state R) and not yet
//     switched in, moved by sched_migrate_task; tasks already runnable when
//     tracing began are not seen. cpu_util is a PELT signal (sim/pelt.h) of
//     the CPU's busy time; nr_idle_scan is SIS_UTIL's, computed at each
//     decision from those utilizations and the LLC domain's imbalance_pct;
//     avg_idle is the EWMA of the CPU's idle durations (ttwu_do_wakeup's),
//     wake_avg_idle half of it at each wake-up, halved every jiffy; the
//     idle-core hint is kept by calling the policy's OnCpuIdle when a CPU
//     switches to the idle task; ttwu_pending and sched_idle are false;
//     probes cost probe_cost_ns each in scan_time_ns();
//   * the allowed mask: the trace's CPUs (the header's count, else the
//     highest CPU seen + 1), which must all be CPUs of the machine.
// Not evaluated (counted): sched_wakeup_new (fork placement takes another
// path; unless include_wakeup_new), wake-ups of RT tasks (prio < 100; the
// RT class places them), of per-CPU kthreads woken on their own CPU
// (comm kworker/N:*, ksoftirqd/N, migration/N, cpuhp/N, watchdog/N,
// rcuc/N: pinned, select_task_rq is not called), of tasks whose previous
// CPU is unknown, and sched_waking events no sched_wakeup completes.
// Inter-task effects are not replayed: the policy's choice does not move
// the task; the trace's target_cpu is applied to the rebuilt state.

#ifndef SCHEDSIM_SHADOW_SHADOW_H_
#define SCHEDSIM_SHADOW_SHADOW_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "platform/cpuidle.h"
#include "platform/placement.h"
#include "topology/topology.h"

namespace schedsim::traces {

// --- Idle ---------------------------------------------------------------

struct IdleShadowOptions {
  // CONFIG_HZ: tick boundaries are at multiples of 1e9 / hz ns of trace
  // time. 1..10000.
  int hz = 250;
  // > 0: sleep_length_ns() returns this instead of the time to the next
  // tick boundary.
  int64_t assume_timer_in_ns = 0;
  // The PM QoS limit shown to the governor; < 0: none.
  int64_t latency_limit_ns = -1;
};

// "Too deep", "too shallow" and exit latency of a sequence of choices,
// judged against the measured residencies (the kernel's `above` and
// `below` rules).
struct IdleCost {
  // Residency < the chosen state's target residency.
  int64_t too_deep = 0;
  // Residency >= the target residency of the next deeper enabled state.
  int64_t too_shallow = 0;
  // Sum of the chosen states' advertised exit latencies.
  int64_t exit_latency_ns = 0;
  // Choices equal to the deepest enabled state whose target residency the
  // measured residency reached (the oracle's choice).
  int64_t oracle = 0;
};

struct IdleShadowCpu {
  int cpu = -1;  // -1 for the total
  // Idle periods (cpu_idle enters) and the sum of their residencies.
  int64_t periods = 0;
  int64_t idle_ns = 0;
  // Periods where the governor chose the recorded state.
  int64_t agreements = 0;
  // confusion[recorded][chosen], machine state count square.
  std::vector<std::vector<int64_t>> confusion;
  IdleCost governor;  // the governor's choices
  IdleCost kernel;    // the recorded states

  // 100 * agreements / periods; 0 without periods.
  double agreement_pct() const;
};

struct IdleShadowReport {
  std::string governor;
  std::string machine;
  std::vector<topology::CState> states;  // the machine's table
  IdleShadowOptions options;
  // CPUs with at least one idle period, ascending, and their total.
  std::vector<IdleShadowCpu> cpus;
  IdleShadowCpu total;
  // cpu_idle exits without an open period (ignored) and periods cut at the
  // end of the trace (counted, residency up to the last event).
  int64_t unmatched_exits = 0;
  int64_t open_at_end = 0;
  // The trace's first and last event timestamps.
  int64_t first_ns = -1;
  int64_t last_ns = -1;
  // The CPU count the trace's header gives; -1 when it gives none.
  int trace_cpus = -1;
};

// Runs `governor` over the idle periods of the ftrace text file
// `trace_path` with `machine`'s state table. The governor must be fresh
// (Enable() is called here on each CPU's device). Errors: NotFound for an
// unreadable file; InvalidArgument "FILE:LINE: ..." for a malformed line,
// a recorded state beyond the table, or a governor choosing an invalid or
// disabled state; InvalidArgument for options out of range or a machine
// without idle states.
absl::StatusOr<IdleShadowReport> ShadowIdle(const std::string& trace_path,
                                            const topology::Topology& machine,
                                            platform::IdleGovernor& governor,
                                            const IdleShadowOptions& options);

// --- Placement ------------------------------------------------------------

enum class WakeTarget {
  kSyncWaker,  // this_cpu for synchronous-looking wake-ups, else prev
  kPrev,       // always prev
  kWaker,      // always this_cpu
};
// "sync", "prev", "waker".
const char* WakeTargetName(WakeTarget target);

struct PlacementShadowOptions {
  WakeTarget target = WakeTarget::kSyncWaker;
  // A wake-up is synchronous when its waker sleeps within this time.
  int64_t sync_window_ns = 50000;
  // Charged per probe in SchedView::scan_time_ns().
  int64_t probe_cost_ns = 60;
  // For the jiffy decay of wake_avg_idle. 1..10000.
  int hz = 250;
  // Also evaluate sched_wakeup_new (as an ordinary wake-up).
  bool include_wakeup_new = false;
};

// What happened at the evaluated decisions. "Idle" is the rebuilt state at
// the decision: the CPU ran the idle task with nothing queued.
struct PlacementShadowReport {
  std::string policy;
  std::string machine;
  PlacementShadowOptions options;
  int trace_cpus = 0;

  int64_t wakeup_events = 0;  // sched_wakeup and sched_wakeup_new lines
  int64_t waking_events = 0;  // sched_waking lines
  int64_t evaluated = 0;
  // Not evaluated, by reason (see the file comment).
  int64_t skipped_wakeup_new = 0;
  int64_t skipped_rt = 0;
  int64_t skipped_pinned = 0;
  int64_t skipped_no_prev = 0;
  int64_t skipped_unmatched_waking = 0;
  // sched_waking decisions whose kernel answer was taken from the task's
  // next run (its first sched_migrate_task after the waking, else the CPU
  // that next switched it in), in a trace with no sched_wakeup at all (what
  // `perf sched record` records on current kernels).
  int64_t wakings_from_next_run = 0;

  int64_t agreements = 0;    // the policy chose the kernel's target_cpu
  int64_t sync_wakeups = 0;  // evaluated with WF_SYNC
  // Evaluated with target = this_cpu by the WakeTarget rule.
  int64_t waker_targets = 0;
  // Whether each side's CPU was idle, and the four combinations.
  int64_t policy_idle = 0;
  int64_t kernel_idle = 0;
  int64_t both_idle = 0;
  int64_t policy_idle_kernel_busy = 0;
  int64_t kernel_idle_policy_busy = 0;
  int64_t both_busy = 0;
  // Where each side's CPU lies relative to the request: target, prev (!=
  // target), this_cpu (!= both) or elsewhere.
  int64_t policy_chose_target = 0;
  int64_t policy_chose_prev = 0;
  int64_t policy_chose_this = 0;
  int64_t policy_chose_other = 0;
  int64_t kernel_chose_target = 0;
  int64_t kernel_chose_prev = 0;
  int64_t kernel_chose_this = 0;
  int64_t kernel_chose_other = 0;
  // Runqueues the policy probed, in all searches.
  int64_t probes = 0;
  // confusion[kernel's cpu][policy's cpu], trace_cpus square.
  std::vector<std::vector<int64_t>> confusion;

  double agreement_pct() const;
};

// Runs `policy` (fresh: Attach() is called here) over the wake-ups of the
// ftrace text file `trace_path` on `machine`. Errors: NotFound for an
// unreadable file; InvalidArgument "FILE:LINE: ..." for a malformed line or
// a CPU the machine does not have, or for a policy choosing a CPU outside
// the trace's CPUs; InvalidArgument for options out of range.
absl::StatusOr<PlacementShadowReport> ShadowPlacement(
    const std::string& trace_path, const topology::Topology& machine,
    platform::PlacementPolicy& policy, const PlacementShadowOptions& options);

// If `comm` names a per-CPU kernel thread bound to one CPU (kworker/N:*,
// ksoftirqd/N, migration/N, cpuhp/N, watchdog/N, rcuc/N), that CPU; else -1.
int PinnedKthreadCpu(absl::string_view comm);

}  // namespace schedsim::traces

#endif  // SCHEDSIM_SHADOW_SHADOW_H_
