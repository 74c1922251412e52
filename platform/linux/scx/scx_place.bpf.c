/* Copyright 2026 The schedsim Authors.
 * SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only
 *
 * The BPF half of `schedsim scx`: a sched_ext scheduler that hands every
 * wake-up to the user-space agent (platform/linux/scx_agent.h), where a
 * schedsim placement policy chooses the CPU, and dispatches the task there.
 * Written for schedsim against the sched_ext interface as the kernel's BTF
 * describes it (vmlinux.h made by `bpftool btf dump ... format c`; the
 * callbacks are those of struct sched_ext_ops, kernel/sched/ext.c, Linux
 * 6.12+).
 *
 *   select_cpu   remembers the waking CPU and the wake flags; the task
 *                stays on prev_cpu's runqueue until the agent answers.
 *   enqueue      a wake-up goes to the agent through the `events` ring
 *                buffer and the task is held here (in no DSQ); single-CPU
 *                tasks and re-enqueues (slice end, yield, fork) are
 *                dispatched in place or to the shared DSQ. When the agent
 *                is behind (ring buffer full, max_outstanding undecided)
 *                the task goes to the shared DSQ and an idle CPU is kicked:
 *                the counted fallback.
 *   dispatch     (any CPU whose local DSQ ran dry) runs the agent if it is
 *                waiting, pops the agent's decisions from the `decisions`
 *                queue and inserts each task into the chosen CPU's local
 *                DSQ (kicking it if idle), then takes from the shared DSQ.
 *   running/stopping, update_idle
 *                keep the per-CPU state the agent's SchedView reads.
 *   init/exit    create the DSQs; record why the scheduler ended.
 *
 * When the agent exits for any reason its link closes and the kernel's
 * sched_ext disable path moves every task back to the fair class.
 */
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "scx_shared.h"

/* sched_ext's kfuncs are GPL-only: the kernel loads the program only with
 * a GPL-compatible license string. This file (written for schedsim, with no
 * kernel code in it) is therefore offered under Apache-2.0 or GPL-2.0, and
 * declares GPL to the kernel. */
char _license[] SEC("license") = "GPL";

/* The DSQ kfuncs were renamed in Linux 6.13 (scx_bpf_dispatch ->
 * scx_bpf_dsq_insert, scx_bpf_consume -> scx_bpf_dsq_move_to_local). Both
 * spellings are declared weak; the one the running kernel lacks resolves to
 * 0 and its branch is dead code to the verifier, so one object loads on
 * either. (Identical redeclarations of what vmlinux.h declares are fine.) */
void scx_bpf_dsq_insert(struct task_struct *p, u64 dsq_id, u64 slice,
                        u64 enq_flags) __ksym __weak;
void scx_bpf_dispatch(struct task_struct *p, u64 dsq_id, u64 slice,
                      u64 enq_flags) __ksym __weak;
bool scx_bpf_dsq_move_to_local(u64 dsq_id) __ksym __weak;
bool scx_bpf_consume(u64 dsq_id) __ksym __weak;

static __always_inline void dsq_insert(struct task_struct *p, u64 dsq_id,
                                       u64 slice, u64 enq_flags) {
  if (bpf_ksym_exists(scx_bpf_dsq_insert))
    scx_bpf_dsq_insert(p, dsq_id, slice, enq_flags);
  else
    scx_bpf_dispatch(p, dsq_id, slice, enq_flags);
}

static __always_inline bool dsq_move_to_local(u64 dsq_id) {
  if (bpf_ksym_exists(scx_bpf_dsq_move_to_local))
    return scx_bpf_dsq_move_to_local(dsq_id);
  return scx_bpf_consume(dsq_id);
}

#define SLICE_DEFAULT_NS 5000000ULL
#define MAX_DRAIN 64

struct {
  __uint(type, BPF_MAP_TYPE_RINGBUF);
  __uint(max_entries, 1 << 20);
} events SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_QUEUE);
  __uint(max_entries, 8192);
  __type(value, struct schedsim_scx_decision);
} decisions SEC(".maps");

/* Per task: what select_cpu saw, and where the task waits. */
struct task_ctx {
  s32 this_cpu;
  u32 wake_flags;
  u32 select_seen;
  s32 queued_cpu;  /* local DSQ it was inserted into, -1: none */
  u32 at_agent;    /* sent to the agent, no decision yet */
};

struct {
  __uint(type, BPF_MAP_TYPE_TASK_STORAGE);
  __uint(map_flags, BPF_F_NO_PREALLOC);
  __type(key, int);
  __type(value, struct task_ctx);
} task_ctxs SEC(".maps");

/* The only .bss variable: the agent maps it (scx_shared.h). */
struct schedsim_scx_bss shared;

static __always_inline u64 slice_ns(void) {
  u64 s = shared.config.slice_ns;
  return s ? s : SLICE_DEFAULT_NS;
}

static __always_inline bool is_agent(struct task_struct *p) {
  return shared.config.agent_tgid != 0 &&
         (u32)p->tgid == shared.config.agent_tgid;
}

static __always_inline struct schedsim_scx_cpu *cpu_state(s32 cpu) {
  if (cpu < 0 || cpu >= SCHEDSIM_SCX_MAX_CPUS) return NULL;
  return &shared.cpus[cpu];
}

static __always_inline struct task_ctx *lookup_ctx(struct task_struct *p) {
  return bpf_task_storage_get(&task_ctxs, p, 0, 0);
}

/* The task no longer waits in a local DSQ it was counted in. */
static __always_inline void unqueue(struct task_ctx *tctx) {
  struct schedsim_scx_cpu *c;
  if (!tctx || tctx->queued_cpu < 0) return;
  c = cpu_state(tctx->queued_cpu);
  if (c && c->nr_queued > 0) __sync_fetch_and_add(&c->nr_queued, -1);
  tctx->queued_cpu = -1;
}

/* The fallback: the shared DSQ, and an idle CPU (the kernel's idle mask)
 * kicked to take it. */
static __always_inline void place_fallback(struct task_struct *p,
                                           u64 enq_flags) {
  s32 cpu;
  dsq_insert(p, SCHEDSIM_SCX_FALLBACK_DSQ, slice_ns(), enq_flags);
  cpu = scx_bpf_pick_idle_cpu(p->cpus_ptr, 0);
  if (cpu >= 0) scx_bpf_kick_cpu(cpu, SCX_KICK_IDLE);
}

SEC("struct_ops/schedsim_select_cpu")
s32 BPF_PROG(schedsim_select_cpu, struct task_struct *p, s32 prev_cpu,
             u64 wake_flags) {
  struct task_ctx *tctx;
  if (is_agent(p)) return prev_cpu;
  tctx = lookup_ctx(p);
  if (tctx) {
    tctx->this_cpu = bpf_get_smp_processor_id();
    tctx->wake_flags = (u32)wake_flags;
    tctx->select_seen = 1;
  }
  return prev_cpu;
}

SEC("struct_ops/schedsim_enqueue")
void BPF_PROG(schedsim_enqueue, struct task_struct *p, u64 enq_flags) {
  struct schedsim_scx_event *e;
  struct task_ctx *tctx;
  u32 nr_cpus, i;
  s32 cpu;

  if (is_agent(p)) {
    /* The agent runs next wherever a CPU dispatches: an idle one if there
     * is one, else its own CPU is preempted. */
    __sync_fetch_and_add(&shared.counters.agent_enqueues, 1);
    dsq_insert(p, SCHEDSIM_SCX_AGENT_DSQ, slice_ns(), enq_flags);
    cpu = scx_bpf_pick_idle_cpu(p->cpus_ptr, 0);
    if (cpu >= 0)
      scx_bpf_kick_cpu(cpu, SCX_KICK_IDLE);
    else
      scx_bpf_kick_cpu(scx_bpf_task_cpu(p), SCX_KICK_PREEMPT);
    return;
  }
  tctx = lookup_ctx(p);
  if (p->nr_cpus_allowed == 1) {
    __sync_fetch_and_add(&shared.counters.pinned, 1);
    dsq_insert(p, SCX_DSQ_LOCAL, slice_ns(), enq_flags);
    return;
  }
  if (!(enq_flags & SCX_ENQ_WAKEUP) || !tctx ||
      shared.config.ready == 0) {
    __sync_fetch_and_add(&shared.counters.not_wakeup, 1);
    place_fallback(p, enq_flags);
    return;
  }
  if (shared.counters.outstanding >= shared.config.max_outstanding) {
    __sync_fetch_and_add(&shared.counters.fallback_backlog, 1);
    __sync_fetch_and_add(&shared.counters.fallback_placed, 1);
    place_fallback(p, enq_flags);
    return;
  }
  e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
  if (!e) {
    __sync_fetch_and_add(&shared.counters.fallback_ringbuf, 1);
    __sync_fetch_and_add(&shared.counters.fallback_placed, 1);
    place_fallback(p, enq_flags);
    return;
  }
  e->kind = SCHEDSIM_SCX_EV_WAKEUP;
  e->pid = (u32)p->pid;
  e->prev_cpu = scx_bpf_task_cpu(p);
  if (tctx->select_seen) {
    e->this_cpu = tctx->this_cpu;
    e->wake_flags = tctx->wake_flags;
  } else {
    e->this_cpu = bpf_get_smp_processor_id();
    e->wake_flags = 0;
  }
  tctx->select_seen = 0;
  nr_cpus = scx_bpf_nr_cpu_ids();
  e->all_allowed = (u32)p->nr_cpus_allowed >= nr_cpus;
  for (i = 0; i < SCHEDSIM_SCX_MASK_WORDS; i++) e->allowed[i] = 0;
  if (!e->all_allowed) {
    for (i = 0; i < SCHEDSIM_SCX_MAX_CPUS && i < nr_cpus; i++) {
      if (bpf_cpumask_test_cpu(i, p->cpus_ptr))
        e->allowed[(i / 64) & (SCHEDSIM_SCX_MASK_WORDS - 1)] |= 1ULL
                                                                << (i & 63);
    }
  }
  e->enq_ns = bpf_ktime_get_ns();
  tctx->at_agent = 1;
  __sync_fetch_and_add(&shared.counters.outstanding, 1);
  __sync_fetch_and_add(&shared.counters.wakeups_sent, 1);
  /* Always notify: an idle entry before it (submitted without a
   * notification) leaves the consumer behind, and the ring buffer then
   * notifies nobody by default. */
  bpf_ringbuf_submit(e, BPF_RB_FORCE_WAKEUP);
  /* The task is held here until the agent's decision comes back. */
}

SEC("struct_ops/schedsim_dequeue")
void BPF_PROG(schedsim_dequeue, struct task_struct *p, u64 deq_flags) {
  struct task_ctx *tctx = lookup_ctx(p);
  if (!tctx) return;
  /* Left before running (exit, affinity or priority change): a decision
   * still to come finds it gone. */
  tctx->at_agent = 0;
  unqueue(tctx);
}

/* One decision of the agent. */
static __always_inline void place_decision(
    struct schedsim_scx_decision *d) {
  struct task_struct *p;
  struct task_ctx *tctx;
  struct schedsim_scx_cpu *c;
  u64 lat, idx, now;

  if (shared.counters.outstanding > 0)
    __sync_fetch_and_add(&shared.counters.outstanding, -1);
  p = bpf_task_from_pid((s32)d->pid);
  if (!p) {
    __sync_fetch_and_add(&shared.counters.decision_dropped, 1);
    return;
  }
  tctx = lookup_ctx(p);
  if (!tctx || !tctx->at_agent) {
    __sync_fetch_and_add(&shared.counters.decision_dropped, 1);
    bpf_task_release(p);
    return;
  }
  tctx->at_agent = 0;
  c = cpu_state(d->cpu);
  if (!c || !bpf_cpumask_test_cpu((u32)d->cpu, p->cpus_ptr)) {
    __sync_fetch_and_add(&shared.counters.decision_disallowed, 1);
    __sync_fetch_and_add(&shared.counters.fallback_placed, 1);
    place_fallback(p, 0);
    bpf_task_release(p);
    return;
  }
  dsq_insert(p, SCX_DSQ_LOCAL_ON | (u64)d->cpu, slice_ns(), 0);
  tctx->queued_cpu = d->cpu;
  __sync_fetch_and_add(&c->nr_queued, 1);
  __sync_fetch_and_add(&shared.counters.policy_placed, 1);
  scx_bpf_kick_cpu(d->cpu, SCX_KICK_IDLE);
  bpf_task_release(p);

  now = bpf_ktime_get_ns();
  lat = now > d->enq_ns ? now - d->enq_ns : 0;
  idx = __sync_fetch_and_add(&shared.counters.lat_count, 1);
  shared.lat_ns[idx & (SCHEDSIM_SCX_LAT_SAMPLES - 1)] = lat;
  __sync_fetch_and_add(&shared.counters.lat_sum_ns, lat);
  if (lat > shared.counters.lat_max_ns) shared.counters.lat_max_ns = lat;
}

SEC("struct_ops/schedsim_dispatch")
void BPF_PROG(schedsim_dispatch, s32 cpu, struct task_struct *prev) {
  struct schedsim_scx_decision d;
  int i;

  dsq_move_to_local(SCHEDSIM_SCX_AGENT_DSQ);
  for (i = 0; i < MAX_DRAIN; i++) {
    if (bpf_map_pop_elem(&decisions, &d)) break;
    place_decision(&d);
  }
  dsq_move_to_local(SCHEDSIM_SCX_FALLBACK_DSQ);
}

SEC("struct_ops/schedsim_running")
void BPF_PROG(schedsim_running, struct task_struct *p) {
  s32 cpu = scx_bpf_task_cpu(p);
  struct schedsim_scx_cpu *c = cpu_state(cpu);
  struct task_ctx *tctx = lookup_ctx(p);
  unqueue(tctx);
  if (!c) return;
  c->curr_pid = (u32)p->pid;
  c->run_start_ns = bpf_ktime_get_ns();
  c->idle = 0;
}

SEC("struct_ops/schedsim_stopping")
void BPF_PROG(schedsim_stopping, struct task_struct *p, bool runnable) {
  s32 cpu = scx_bpf_task_cpu(p);
  struct schedsim_scx_cpu *c = cpu_state(cpu);
  u64 now = bpf_ktime_get_ns();
  if (!c) return;
  if (c->run_start_ns && now > c->run_start_ns)
    c->busy_ns += now - c->run_start_ns;
  c->run_start_ns = 0;
  c->curr_pid = 0;
}

SEC("struct_ops/schedsim_update_idle")
void BPF_PROG(schedsim_update_idle, s32 cpu, bool idle) {
  struct schedsim_scx_cpu *c = cpu_state(cpu);
  struct schedsim_scx_event *e;
  u64 now = bpf_ktime_get_ns();
  u64 delta, avg;
  if (!c) return;
  if (idle) {
    c->idle = 1;
    c->idle_stamp_ns = now;
    if (!shared.config.send_idle_events) return;
    e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
    if (!e) return;
    __builtin_memset(e, 0, sizeof(*e));
    e->kind = SCHEDSIM_SCX_EV_IDLE;
    e->this_cpu = cpu;
    e->prev_cpu = cpu;
    e->enq_ns = now;
    __sync_fetch_and_add(&shared.counters.idle_events, 1);
    bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
    return;
  }
  c->idle = 0;
  /* rq->avg_idle: EWMA 1/8 of idle periods, capped at 2 * the migration
   * cost (update_rq_avg_idle, kernel/sched/core.c). */
  if (c->idle_stamp_ns && now > c->idle_stamp_ns) {
    delta = now - c->idle_stamp_ns;
    avg = (c->avg_idle_ns * 7 + delta) / 8; /* avg += (delta - avg) / 8 */
    c->avg_idle_ns = avg > 1000000 ? 1000000 : avg;
  }
  c->idle_stamp_ns = 0;
}

SEC("struct_ops/schedsim_init_task")
s32 BPF_PROG(schedsim_init_task, struct task_struct *p,
             struct scx_init_task_args *args) {
  struct task_ctx *tctx = bpf_task_storage_get(
      &task_ctxs, p, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
  if (!tctx) return -12; /* -ENOMEM */
  tctx->queued_cpu = -1;
  return 0;
}

SEC("struct_ops.s/schedsim_init")
s32 BPF_PROG(schedsim_init) {
  s32 err = scx_bpf_create_dsq(SCHEDSIM_SCX_FALLBACK_DSQ, -1);
  if (err) return err;
  return scx_bpf_create_dsq(SCHEDSIM_SCX_AGENT_DSQ, -1);
}

/* exit_msg holds the reason in its first half and the message in its
 * second. */
SEC("struct_ops/schedsim_exit")
void BPF_PROG(schedsim_exit, struct scx_exit_info *ei) {
  bpf_probe_read_kernel_str(shared.exit_msg, SCHEDSIM_SCX_EXIT_MSG / 2,
                            ei->reason);
  bpf_probe_read_kernel_str(shared.exit_msg + SCHEDSIM_SCX_EXIT_MSG / 2,
                            SCHEDSIM_SCX_EXIT_MSG / 2, ei->msg);
  shared.counters.exit_kind = ei->kind ? ei->kind : 1;
}

SEC(".struct_ops.link")
struct sched_ext_ops schedsim_ops = {
    .select_cpu = (void *)schedsim_select_cpu,
    .enqueue = (void *)schedsim_enqueue,
    .dequeue = (void *)schedsim_dequeue,
    .dispatch = (void *)schedsim_dispatch,
    .running = (void *)schedsim_running,
    .stopping = (void *)schedsim_stopping,
    .update_idle = (void *)schedsim_update_idle,
    .init_task = (void *)schedsim_init_task,
    .init = (void *)schedsim_init,
    .exit = (void *)schedsim_exit,
    .flags = SCX_OPS_KEEP_BUILTIN_IDLE,
    .timeout_ms = 5000,
    .name = "schedsim",
};
