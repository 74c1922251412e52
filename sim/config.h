// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The model's parameters: every cost and tunable of the simulated machine
// and scheduler, with its unit in its name and its source beside it
// (a kernel file and symbol; docs/kernel-behaviour.md for measured figures;
// "kernel default" = the Linux 6.1 value; "assumed" = no published figure,
// sweep it). Experiments override fields by name.

#ifndef SCHEDSIM_SIM_CONFIG_H_
#define SCHEDSIM_SIM_CONFIG_H_

#include <cstdint>

namespace schedsim::sim {

struct SimConfig {
  // --- Scheduler -------------------------------------------------------
  int hz = 250;  // CONFIG_HZ default (kernel/Kconfig.hz)
  // CFS tunables before the log2(ncpus) scaling (kernel defaults:
  // sysctl_sched_latency 6 ms, min_granularity 0.75 ms, wakeup_granularity
  // 1 ms, scaled by 1 + ilog2(min(ncpus, 8))).
  int64_t sched_latency_ns = 6000000;
  int64_t sched_min_granularity_ns = 750000;
  int64_t sched_wakeup_granularity_ns = 1000000;
  // sysctl_sched_base_slice, EEVDF's request size before the log2(ncpus)
  // scaling (kernel/sched/fair.c, v6.6: 0.75 ms).
  int64_t sched_base_slice_ns = 750000;
  // sysctl_sched_migration_cost, kernel/sched/fair.c (kernel default).
  int64_t sched_migration_cost_ns = 500000;
  // Direct cost of a context switch, charged to the CPU switching (≈1-2 us
  // thread/process switch; docs/kernel-behaviour.md, "Costs of a context
  // switch").
  int64_t context_switch_ns = 1500;
  // The part of context_switch_ns that is the address-space switch
  // (context_switch() -> switch_mm_irqs_off(), arch/x86/mm/tlb.c, v6.1: CR3
  // write, TLB flush or PCID reuse, and the TLB refill after it). Not
  // charged when the task switched to shares the mm loaded on the CPU
  // (TaskSpec::mm: threads of one process; the idle task keeps the last
  // mm, lazy TLB). Measured pair: 1.07 us thread-to-thread against 2.41 us
  // process-to-process (docs/kernel-behaviour.md), so 56% of a process
  // switch; of 1500 ns, 830.
  int64_t mm_switch_ns = 830;

  // --- Wake-up path ----------------------------------------------------
  // Waker-side cost of try_to_wake_up (0.54-0.76 us measured;
  // docs/kernel-behaviour.md, "Costs of a wake-up").
  int64_t wakeup_cost_ns = 600;
  // Cost of probing one remote runqueue during the idle-CPU search
  // ("tens to low hundreds of ns"; assumed; docs/kernel-behaviour.md, "Cost
  // of the idle-CPU search").
  int64_t probe_cost_ns = 60;
  // IPI delivery latency to a CPU not polling (assumed; Norbert's C1 vs
  // POLL wake-ups differ by ~0.1 us plus the C1 exit; docs/kernel-behaviour.md,
  // "Costs of a wake-up").
  int64_t ipi_latency_ns = 400;
  // Syscall-side cost of a channel send or receive (pipe_write/read).
  int64_t pipe_op_ns = 900;     // assumed
  int64_t socket_op_ns = 1500;  // assumed (unix stream socket)
  // The pipe's mutex (fs/pipe.c pipe_write()/pipe_read() hold
  // __pipe_lock() around the copy and the wake-ups, v5.19): the cache
  // lines the critical section misses when the previous operation ran on
  // another CPU, each a Topology::LineTransferNs. Operations on one pipe
  // queue for it in order; a waiter spins until its turn, or sleeps until
  // then once its CPU is asked to reschedule, as mutex_optimistic_spin()
  // stops on need_resched() (kernel/locking/mutex.c). Only for channels
  // that are real pipes (ChannelSpec::pipe_mutex). 0 = not modelled: an
  // assumed cost, 0 until hackbench's costs are refitted with it
  // (docs/notebook/2026-12-validation.md).
  int64_t pipe_lock_lines = 0;

  // Kernel CPU work at the CPU's speed: context_switch_ns, wakeup_cost_ns
  // (and uclamp_enqueue_cost_ns) and the channels' pipe_op_ns/socket_op_ns
  // are instructions the CPU executes (__schedule(), try_to_wake_up(),
  // pipe_write()/pipe_read(), the socket calls), so they are given at the
  // machine's top frequency and take top / current frequency times as
  // long on a slower CPU (and longer beside a busy SMT sibling, as user
  // cycles do). The costs of moving cache lines (probe_cost_ns, the
  // coherence costs, ipi_latency_ns, the migration refill) stay in ns:
  // they are the fabric's, not the core's. Off: every kernel cost takes
  // its ns whatever the frequency.
  bool kernel_work_at_frequency = false;

  // --- Cache-hot migration penalty --------------------------------------
  // Extra stall when a task resumes on another LLC, scaled by NUMA distance
  // / 10 across nodes (assumed; working-set refill).
  int64_t llc_migration_penalty_ns = 20000;
  int64_t smt_migration_penalty_ns = 0;  // same core: L1/L2 shared

  // --- Execution model ---------------------------------------------------
  // Throughput of each SMT sibling when both run, in percent of a lone thread
  // (old smt_gain 1178 -> ~0.575 each; assumed 0.6; docs/kernel-behaviour.md,
  // "SMT throughput").
  int smt_factor_pct = 60;

  // --- Idle ---------------------------------------------------------------
  // PM QoS cpu_dma_latency in ns; -1 = no constraint (the kernel's 2000 s
  // default, PM_QOS_CPU_LATENCY_DEFAULT_VALUE in include/linux/pm_qos.h).
  int64_t pm_qos_latency_ns = -1;
  // The POLL state's time limit (drivers/cpuidle/poll_state.c poll_idle(),
  // added by commit a37b969a61c1 "cpuidle: poll_state: Add time limit to
  // poll_idle()", v4.18; the limit is platform/core/poll_limit.h's): after
  // it the CPU selects again and the governor learns that the period ended
  // by the limit (dev->poll_time_limit). False models kernels before v4.18,
  // whose poll_idle() spins until need_resched(): a polled period ends only
  // with a wake-up.
  bool poll_time_limit = true;

  // --- KVM guest ---------------------------------------------------------
  // Read only on a guest machine (experiments' "guest" key,
  // topology::GuestSpec; docs/model-idle-frequency.md, "Guests"). A HLT in the
  // guest exits to the host; kvm_vcpu_halt() (virt/kvm/kvm_main.c, v6.1) polls
  // for a wake-up for up to the vCPU's adaptive window, then schedules the
  // vCPU thread out (sim/kvm_halt_poll.h).
  // The HLT VM exit and the re-entry into the guest that follows its
  // wake-up, on the wake-up path of every halt (assumed: VM exit plus
  // entry round trips are about 1 us of hardware on recent Intel parts,
  // KVM's halt handling adds to it; sweep it).
  int64_t kvm_hlt_exit_ns = 1500;
  // The kvm module parameters halt_poll_ns (the largest window; x86's
  // KVM_HALT_POLL_NS_DEFAULT, arch/x86/include/asm/kvm_host.h),
  // halt_poll_ns_grow, halt_poll_ns_grow_start and halt_poll_ns_shrink
  // (virt/kvm/kvm_main.c, v6.1 defaults; shrink 0 resets the window, later
  // kernels default to 2).
  int64_t kvm_halt_poll_ns = 200000;
  int64_t kvm_halt_poll_ns_grow = 2;
  int64_t kvm_halt_poll_ns_grow_start = 10000;
  int64_t kvm_halt_poll_ns_shrink = 0;
  // The guest's cpuidle-haltpoll driver turns the host's polling off for
  // its vCPUs (MSR_KVM_POLL_CONTROL = 0: arch/x86/kernel/kvm.c
  // arch_haltpoll_enable(), kvm_arch_no_poll() on the host; v5.4+) when
  // the host offers KVM_FEATURE_POLL_CONTROL. False: a host without it,
  // which polls whatever the guest does. A guest booted with idle=halt has
  // no haltpoll driver: the host polls either way.
  bool kvm_poll_control = true;

  // --- Frequency -----------------------------------------------------------
  bool turbo = true;
  // HWP (Speed Shift) on parts that have it. false boots the part as the
  // kernel does with intel_pstate=no_hwp (drivers/cpufreq/intel_pstate.c,
  // intel_pstate_setup(), v6.1): the frequency is set by P-state requests
  // (IA32_PERF_CTL) and a policy that needs HWP is refused.
  bool hwp = true;
  // arch_scale_freq_invariant() (kernel/sched/topology.h callers, v6.1):
  // PELT utilization is scaled by the running frequency. false: scaled by
  // CPU capacity only, as on a kernel without frequency invariance (x86
  // before v5.7, or without usable APERF/MPERF); schedutil then uses its
  // non-invariant formula (FreqDomain::frequency_invariant()).
  bool frequency_invariance = true;
  // Package power limit (PL1) in mW; 0 = off.
  int64_t pl1_mw = 0;
  // Period of the package power-management evaluation (turbo ceiling by
  // active cores, PL1, HWP autonomous selection) (assumed 1 ms).
  int64_t pmu_period_ns = 1000000;

  // --- uclamp ---------------------------------------------------------------
  // CONFIG_UCLAMP_TASK: per-task clamps feed the frequency governor.
  bool uclamp = true;
  // sched_util_clamp_min_rt_default: the uclamp_min of RT tasks that set
  // none (kernel default 1024 = run RT at the highest frequency).
  int64_t uclamp_rt_default_min = 1024;
  // Cost of one uclamp bucket update (assumed): uclamp_rq_inc() at every
  // enqueue_task(), paid by the CPU that runs the enqueue (the waker, or the
  // target when the wake-up goes through its wake list), and uclamp_rq_dec()
  // at every dequeue_task(), paid by the CPU the task sleeps on
  // (kernel/sched/core.c enqueue_task(), dequeue_task(), v5.3-v6.12).
  int64_t uclamp_enqueue_cost_ns = 40;
  // sched_uclamp_used (46609ce22703 "sched/uclamp: Protect uclamp fast path
  // code with static key", v5.9): uclamp_rq_inc() and uclamp_rq_dec()
  // return at once until a task or a group sets a clamp, so a workload
  // without clamps pays nothing. Off: every enqueue and dequeue pays
  // (5.3-5.8).
  bool uclamp_static_key = true;

  // UTIL_EST (kernel/sched/features.h, on by default since v4.17): each
  // task keeps an estimate of its utilization from its last sleeps
  // (util_est_update()), the runqueue sums the estimates of its enqueued
  // tasks (util_est_enqueue()/util_est_dequeue()), and cpu_util_cfs() is
  // min(max(util_avg, that sum), capacity) (kernel/sched/fair.c and
  // sched.h, v6.1): what schedutil, SIS_UTIL's scan depth and load
  // balancing read. Off: util_avg alone. A named kernel sets it
  // (sim/kernels.h: from v4.17).
  bool util_est = false;

  // --- Load balancing --------------------------------------------------------
  bool load_balance = true;
  bool newidle_balance = true;
  // Newidle balancing as newidle_balance() (kernel/sched/fair.c, Linux 5.19
  // and 6.1): load_balance(CPU_NEWLY_IDLE) level by level (with
  // balance_by_load; the count model's pull without), each level's scan
  // (probe_cost_ns per CPU of its span) taking simulated time during which the
  // CPU is not idle to wake-ups (rq->curr is still the blocked task), the walk
  // stopping where avg_idle is below the cost so far plus the level's
  // sd->max_newidle_lb_cost, or once a task was woken onto it. Off: one
  // task pulled from the busiest CPU of the lowest level with one queued, at
  // no cost (before v3.11 kernels had no cost walk). A named kernel sets it
  // (sim/kernels.h); without one, the model's default here stands
  // (docs/validation.md, "Each row runs its report's kernel"; the measurements
  // that once kept it off: docs/notebook/2026-12-validation.md).
  bool newidle_load_balance = false;
  // Kernels before v5.16 skipped newidle balancing while avg_idle was below
  // sched_migration_cost (commit c5b0a7eefc70, "sched/fair: Remove
  // sysctl_sched_migration_cost condition", removed it). On by default, as
  // the model always had it. A named kernel sets it (sim/kernels.h); without
  // one, the model's default here stands (docs/validation.md, "Each row runs
  // its report's kernel"; the measurements that once kept it off:
  // docs/notebook/2026-12-validation.md).
  bool newidle_migration_cost_gate = true;
  // task_hot() treats no task as cache-hot to a balance of an SMT domain
  // (SD_SHARE_CPUCAPACITY: the siblings share their caches), so a sibling
  // may always take a queued task (commit ec73240b1627, "sched/fair: Ignore
  // cache hotness for SMT migration", v5.10). False models kernels before
  // v5.10, where the cache-hot rule held at the SMT level too. A named kernel
  // sets it (sim/kernels.h); without one, the model's default here stands
  // (docs/validation.md, "Each row runs its report's kernel"; the measurements
  // that once kept it off: docs/notebook/2026-12-validation.md).
  bool smt_ignores_cache_hot = false;
  // sched_idle_cpu(): a CPU running only SCHED_IDLE tasks counts as idle
  // for a waking task, as a fallback target in select_idle_sibling()
  // (target, prev, recent_used_cpu, the LLC scan; commit 3c29e651e16d
  // "sched/fair: Fall back to sched-idle CPU if idle CPU isn't found",
  // v5.4) and in find_idlest_group_cpu() (17346452b25b, v5.6, taken as
  // 5.4's). False models kernels before v5.4: the placement policy's view
  // answers sched_idle() false everywhere. A named kernel sets it.
  bool sched_idle_fallback = true;
  // The idle-CPU search scans the waking task's cluster (the CLS level,
  // CPUs sharing an L2 or LLC tag) before the rest of the LLC (commit
  // 8881e1639f1f "sched/fair: Scan cluster before scanning LLC in wake-up
  // path", v6.7). Only machines with a cluster level (kunpeng920-2s-4826,
  // an import with cluster_cpus_list) are affected. Off by default; a named
  // kernel from 6.7 sets it.
  bool sis_cluster_scan = false;
  // NO_HZ idle balancing as the kernel's (kernel/sched/fair.c, v5.19 and
  // v6.1): an overloaded CPU's tick (nohz_balancer_kick(), nr_running >= 2)
  // kicks one idle CPU only once nohz.next_balance has come, and the kicked
  // CPU (_nohz_idle_balance()) runs rebalance_domains(CPU_IDLE) for every
  // idle CPU whose balance is due: each level at its own interval (no busy
  // factor), should_we_balance(), load_balance() with the cache-hot rule
  // and its failures counted; a CPU that received tasks leaves idle. Off:
  // every such tick hands one queued task, hot or not, to the nearest idle
  // CPU at once. A named kernel sets it (sim/kernels.h); without one, the
  // model's default here stands (docs/validation.md, "Each row runs its
  // report's kernel"; the measurements that once kept it off:
  // docs/notebook/2026-12-validation.md).
  bool nohz_idle_balance = false;
  // CFS buddies (kernel/sched/fair.c, v2.6.29 to v6.5; features.h: NEXT_BUDDY
  // off, LAST_BUDDY and CACHE_HOT_BUDDY on): a wake-up that preempts marks
  // the wakee as the runqueue's next buddy and, with at least
  // sched_nr_latency (8) tasks on it, the preempted task as its last buddy
  // (check_preempt_wakeup()); pick_next_entity() runs the next buddy, else
  // the last, instead of the leftmost task when that is not unfair
  // (wakeup_preempt_entity() < 1); a task's marks go when it is picked
  // (set_next_entity()), dequeued (dequeue_entity()) or has run its slice
  // (check_preempt_tick()); task_hot() calls a buddy cache-hot to a balance
  // whose destination has tasks. Commit 4793241be408 ("sched: backward
  // looking buddy") added the last buddy so that a producer preempted by its
  // consumer gets the CPU back. Off: the leftmost task always runs. A named
  // kernel sets it (sim/kernels.h); without one, the model's default here
  // stands (docs/validation.md, "Each row runs its report's kernel"; the
  // measurements that once kept it off: docs/notebook/2026-12-validation.md).
  bool cfs_buddies = false;
  // The fair class: EEVDF (kernel/sched/fair.c, v6.6 and later; sim/eevdf.h)
  // instead of CFS's leftmost-vruntime pick (sim/cfs.h). A kernel version
  // (sim/kernels.h) sets it and the switches below.
  bool eevdf = false;
  // EEVDF's sched_feat switches (kernel/sched/features.h): RUN_TO_PARITY,
  // PLACE_LAG and PLACE_DEADLINE_INITIAL (v6.6 on), PREEMPT_SHORT,
  // DELAY_DEQUEUE and DELAY_ZERO (v6.12 on). Read only with eevdf.
  bool run_to_parity = true;
  bool place_lag = true;
  bool place_deadline_initial = true;
  bool preempt_short = false;
  bool delay_dequeue = false;
  bool delay_zero = true;
  // A task's own slice (TaskSpec::slice_ns, sched_attr.sched_runtime) as
  // EEVDF's request size (v6.12 on); off: every task asks for the base
  // slice. Read only with eevdf.
  bool task_slices = false;
  // Fork, exec and initial placement with find_idlest_group()'s local
  // group (kernel/sched/fair.c, v6.1): at each level the local group is
  // kept when it has spare capacity and the idlest other one has none, or
  // as many idle CPUs, and on an SD_NUMA level while it would run at most
  // imb_numa_nr tasks and the idle CPUs differ by at most 2
  // (adjust_numa_imbalance()): a lone forking task keeps its children on
  // its node. Off: the group with the most idle CPUs wins, the local one
  // kept on ties only for sched_exec(), so a lone parent's children go to
  // the other socket (no kernel's rule). A named kernel sets it
  // (sim/kernels.h); without one, the model's default here stands
  // (docs/validation.md, "Each row runs its report's kernel"; the measurements
  // that once kept it off: docs/notebook/2026-12-validation.md).
  bool find_idlest_group_local = false;
  // Periodic balancing as the kernel's load_balance() on PELT load
  // (group_classify, find_busiest_group, calculate_imbalance, Linux 6.1;
  // docs/model-scheduler.md "Load balancing"), the default since 2026-12-03.
  // Off: groups compared by runnable tasks against CPUs, which leaves loaded
  // groups unbalanced (the model before; docs/notebook/2026-12-validation.md).
  bool balance_by_load = true;

  // --- Run-to-run variability (docs/model.md "Run-to-run variability") ----
  // Scales every source below: the rates of the background timers, kernel
  // thread wake-ups and interrupts (periods divide by it), the CV of user
  // work (Workload::work_cv, set by each model's work_cv_pct) and the start
  // skew. 0 turns every source off: no random numbers drawn, no events
  // added, the run is what it is without noise.
  double noise_scale = 1.0;
  // vmstat_update: each CPU folds its per-CPU VM counters every
  // sysctl_stat_interval = HZ (1 s) (mm/vmstat.c, vmstat_update,
  // Linux 6.1). A deferrable work item: the idle governor does not see it
  // and it never wakes an idle CPU; one due while its CPU idles is skipped
  // (a CPU entering NO_HZ idle folds its counters itself, quiet_vmstat in
  // mm/vmstat.c). Cost assumed.
  int64_t vmstat_interval_ns = 1000000000;
  int64_t vmstat_cost_ns = 2000;  // assumed
  // The clocksource watchdog: one timer every WATCHDOG_INTERVAL = HZ >> 1
  // (0.5 s), moved to the next online CPU each time (kernel/time/
  // clocksource.c, clocksource_watchdog, Linux 6.1). Not deferrable: the
  // idle governor of the CPU it is on sees it. Cost (reading the watchdog
  // clocksource, HPET/ACPI PM timer) assumed.
  int64_t watchdog_interval_ns = 500000000;
  int64_t watchdog_cost_ns = 3000;  // assumed
  // Writeback: the flusher's periodic wake-up every dirty_writeback_interval
  // = 500 centisecs (5 s) (mm/page-writeback.c dirty_writeback_interval,
  // fs/fs-writeback.c wb_workfn / wb_wakeup_delayed, Linux 6.1), on CPU 0
  // (the unbound kworker; assumed placement). Visible to the idle governor.
  int64_t writeback_interval_ns = 5000000000;
  int64_t writeback_cost_ns = 20000;  // assumed
  // Other per-CPU non-deferrable kernel timers (networking, delayed work
  // queued with queue_delayed_work_on, the RCU grace-period machinery's
  // timeouts): one periodic timer per CPU, assumed 10 per second; each CPU's
  // phase is random. Visible to the idle governor.
  int64_t kernel_timer_interval_ns = 100000000;  // assumed
  int64_t kernel_timer_cost_ns = 1500;           // assumed
  // kworker wake-ups (kernel/workqueue.c, process_one_work: work queued
  // from interrupts and other CPUs): Poisson per CPU, each a short
  // kernel-thread run charged as kernel time on the CPU. Rate and run time
  // assumed.
  int64_t kworker_per_s = 50;     // assumed
  int64_t kworker_run_ns = 5000;  // assumed
  // RCU: callback processing and quiescent-state reports in RCU_SOFTIRQ
  // (kernel/rcu/tree.c, rcu_core, Linux 6.1): Poisson per CPU, charged as
  // softirq time. Rate and cost assumed.
  int64_t rcu_per_s = 30;     // assumed
  int64_t rcu_run_ns = 3000;  // assumed
  // Device interrupts (network, storage, USB...): Poisson per CPU, each a
  // hard-IRQ handler; not a timer, so the idle governor cannot see them.
  // Rate and handler time assumed.
  int64_t device_irq_per_s = 100;  // assumed
  int64_t device_irq_ns = 2500;    // assumed
  // Start-time skew: each initial task's first wake-up is delayed by a
  // uniform 0..start_skew_max_ns (fork/exec and the launcher's loop;
  // assumed).
  int64_t start_skew_max_ns = 50000;  // assumed
  // Memory layout: each task's user work runs, for the whole run, at a
  // speed factor of its own (lognormal, mean 1, this CV in percent), drawn
  // when the task is created: physical page placement, cache-set and TLB
  // conflicts and address-space randomisation differ from run to run and
  // do not average out over a run, as the per-op work jitter does
  // (Mytkowicz et al., "Producing Wrong Data Without Doing Anything
  // Obviously Wrong!", ASPLOS 2009; Curtsinger and Berger, "STABILIZER:
  // Statistically Sound Performance Evaluation", ASPLOS 2013: layout alone
  // moves run times by several percent). The CV is assumed.
  double layout_cv_pct = 1.0;  // assumed
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_CONFIG_H_
