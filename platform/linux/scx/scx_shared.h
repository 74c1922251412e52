/* Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
 *
 * The memory the sched_ext BPF program (scx_place.bpf.c) and the user-space
 * agent (platform/linux/scx_agent.h) share: the records of the ring buffer
 * that carries wake-ups and idle entries to the agent, the records of the
 * queue map that carries its decisions back, and the layout of the BPF
 * program's global data (.bss), which the agent maps and reads directly:
 * the per-CPU state its SchedView shows the policy, the configuration it
 * writes before attaching, and the counters both sides print on exit.
 *
 * Plain C, included by the BPF program (after vmlinux.h) and by C++.
 */
#ifndef SCHEDSIM_PLATFORM_LINUX_SCX_SCX_SHARED_H_
#define SCHEDSIM_PLATFORM_LINUX_SCX_SCX_SHARED_H_

#ifndef __bpf__
#include <stdint.h>
typedef uint64_t scx_u64;
typedef uint32_t scx_u32;
typedef int32_t scx_s32;
#else
typedef __u64 scx_u64;
typedef __u32 scx_u32;
typedef __s32 scx_s32;
#endif

/* CPUs the shared arrays cover; a machine with more is refused. */
#define SCHEDSIM_SCX_MAX_CPUS 256
#define SCHEDSIM_SCX_MASK_WORDS (SCHEDSIM_SCX_MAX_CPUS / 64)
/* Decision latencies kept for the p99 (the last this many). */
#define SCHEDSIM_SCX_LAT_SAMPLES 65536
/* The shared DSQ of the fallback (and of re-enqueued tasks). */
#define SCHEDSIM_SCX_FALLBACK_DSQ 1
/* The agent's own DSQ, consumed first by every CPU's ops.dispatch. */
#define SCHEDSIM_SCX_AGENT_DSQ 2
/* Length of the exit reason kept from ops.exit. */
#define SCHEDSIM_SCX_EXIT_MSG 128

/* Ring-buffer record kinds. */
#define SCHEDSIM_SCX_EV_WAKEUP 1 /* a task woke: place it */
#define SCHEDSIM_SCX_EV_IDLE 2   /* a CPU is about to go idle */

/* Kernel -> agent, one per wake-up (or idle entry). */
struct schedsim_scx_event {
  scx_u32 kind;
  scx_u32 pid;
  scx_s32 this_cpu; /* the waking CPU (or the CPU going idle) */
  scx_s32 prev_cpu; /* where the task last ran */
  scx_u32 wake_flags;
  scx_u32 all_allowed; /* 1: may run on every CPU; else see allowed */
  scx_u64 enq_ns;      /* bpf_ktime_get_ns() at ops.enqueue */
  scx_u64 allowed[SCHEDSIM_SCX_MASK_WORDS];
};

/* Agent -> kernel, one per placed wake-up. */
struct schedsim_scx_decision {
  scx_u32 pid;
  scx_s32 cpu;
  scx_u64 enq_ns;
};

/* What the BPF side keeps per CPU (written by BPF, read by the agent). */
struct schedsim_scx_cpu {
  scx_u32 idle;      /* 1: running the idle task (ops.update_idle) */
  scx_u32 nr_queued; /* placed here and not yet running */
  scx_u32 curr_pid;  /* running task, 0: idle */
  scx_u32 pad;
  scx_u64 busy_ns; /* total time a task ran (running..stopping) */
  scx_u64 run_start_ns;
  scx_u64 idle_stamp_ns; /* when it last went idle */
  scx_u64 avg_idle_ns;   /* EWMA 1/8 of idle periods (rq->avg_idle) */
  scx_u64 pad2[2];
};

/* Counters (BPF writes; the agent reads them at exit). */
struct schedsim_scx_counters {
  scx_u64 wakeups_sent;        /* queued to the agent */
  scx_u64 policy_placed;       /* dispatched where the agent said */
  scx_u64 fallback_placed;     /* agent behind or gone: BPF placed it */
  scx_u64 fallback_ringbuf;    /* ...because the ring buffer was full */
  scx_u64 fallback_backlog;    /* ...because max_outstanding were queued */
  scx_u64 decision_dropped;    /* decision for a task that had left */
  scx_u64 decision_disallowed; /* CPU not in the task's mask: fallback */
  scx_u64 pinned;              /* single-CPU tasks, dispatched in place */
  scx_u64 not_wakeup;          /* re-enqueues (slice end, yield) */
  scx_u64 agent_enqueues;      /* the agent's own wake-ups */
  scx_u64 idle_events;
  scx_u64 lat_count;
  scx_u64 lat_sum_ns;
  scx_u64 lat_max_ns;
  scx_u64 outstanding; /* sent to the agent, decision not back */
  scx_u64 exit_kind;   /* ops.exit's exit_info->kind (0: none) */
};

struct schedsim_scx_config {
  scx_u32 agent_tgid;
  scx_u32 nr_cpus;
  scx_u64 max_outstanding; /* queued-but-undecided bound (fallback beyond) */
  scx_u64 slice_ns;
  scx_u32 send_idle_events;
  scx_u32 ready; /* 0 until the agent has written this */
};

/* The BPF program's only .bss variable: libbpf maps it into the agent
 * (BPF_F_MMAPABLE), so both read and write the same memory. */
struct schedsim_scx_bss {
  struct schedsim_scx_config config;
  struct schedsim_scx_counters counters;
  struct schedsim_scx_cpu cpus[SCHEDSIM_SCX_MAX_CPUS];
  /* Enqueue-to-dispatch latency of the last SCHEDSIM_SCX_LAT_SAMPLES
   * policy placements, ns, at index lat_count % SCHEDSIM_SCX_LAT_SAMPLES. */
  scx_u64 lat_ns[SCHEDSIM_SCX_LAT_SAMPLES];
  /* ops.exit's reason and message ("reason: msg"), NUL-terminated. */
  char exit_msg[SCHEDSIM_SCX_EXIT_MSG];
};

#endif /* SCHEDSIM_PLATFORM_LINUX_SCX_SCX_SHARED_H_ */
