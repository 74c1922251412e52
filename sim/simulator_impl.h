// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Internals of Simulator (see simulator.h). Private to sim/. SimulatorImpl's
// state is its two bases: the kernel's shared state (engine_state.h:
// CPUs, runqueues, tasks, sched_domain_shared, frequency domains and
// packages) and the run around it (run_state.h: the machine, the workload
// as kept, the events, the clock), with the types of engine_events.h and
// freq_state.h.
//
// The parts that are classes of their own are members (not pointers, so
// that their calls are direct), each tested alone on a state built by hand:
// - the fair class, in EngineState (fair_class.h, cfs.h, eevdf.h;
//   //sim:fair_class_test);
// - lb_, the load balancer (load_balancer.h; load_balancer.cc, balance.cc,
//   load_balance.cc; //sim:load_balancer_test), which moves a task through
//   BalanceMover (lb_mover_, below);
// - wake_, the wake-up and fork placement (wake_placement.h;
//   wake_placement.cc, find_idlest_cpu.cc; //sim:wake_placement_test);
// - noise_, run-to-run variability's streams and sources (noise.h,
//   noise.cc; //sim:noise_test);
// - freq_, frequency and package power (frequency.h, frequency.cc;
//   //sim:frequency_test);
// - idle_, the idle path's decisions and accounting: the sleep length,
//   the physical exit, the per-state counters, a KVM guest's halts
//   (idle_path.h, idle_path.cc; //sim:idle_path_test).
// - cache_, the cache-line and coherence model (cache_lines.h,
//   cache_lines.cc; //sim:cache_lines_test);
// - chan_, the blocking ops' model: channels, the pipe's mutex, IO
//   requests, batches (channel_ops.h, channel_ops.cc;
//   //sim:channel_ops_test);
// - progs_, the task programs' user space: the programs and their resume
//   table, loops, marks and stamps, the compute ops' sampling, the
//   barriers' arrivals and releases (task_programs.h, task_programs.cc;
//   //sim:task_programs_test);
// - exec_, the execution model's arithmetic: a CPU's rate, a phase
//   settled by the time elapsed, a phase's time memoised per CPU
//   (exec_model.h; //sim:exec_model_test).
//
// Its methods are the rest of the engine, which acts on the run (pushes
// events, settles phases, calls the policies), each in its files:
// simulator.cc (the engine loop, dispatch); simulator_init.cc,
// workload_checks.cc and fork.cc (building the machine, the workload's
// checks, a task's creation); interpreter.cc with interpreter_inline.h,
// phase.cc and op_waits.cc (the program interpreter's dispatch and each
// op's kernel side, the phases' settling and arming, a pipe mutex
// waiter's blocking and the timer of its turn);
// simulator_stats.cc (statistics); sched_fair.cc, sched_tick.cc and
// pelt_attach.cc (runqueues, the switch, the tick and preemption, PELT
// attach); wakeup.cc and sched_view.cc (try_to_wake_up, the placement
// policy's view); idle.cc (cpuidle's events: the governor's choice,
// POLL's limit, the idle tick, the end of a C-state's exit);
// noise_events.cc (the background sources' events); freq.cc and
// package_power.cc (frequency transitions, the PMU's evaluations, the
// governors' view); newidle_balance.cc and nohz_balance.cc (the load
// balancer's events: the newidle walk, the NO_HZ kick and its IPIs).
//
// State lives in dense arrays indexed by task id, CPU id and domain id.

#ifndef SCHEDSIM_SIM_SIMULATOR_IMPL_H_
#define SCHEDSIM_SIM_SIMULATOR_IMPL_H_

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/base/optimization.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "platform/cpufreq.h"
#include "platform/cpuidle.h"
#include "platform/placement.h"
#include "sim/cache_lines.h"
#include "sim/cfs.h"
#include "sim/channel_ops.h"
#include "sim/config.h"
#include "sim/eevdf.h"
#include "sim/engine_events.h"
#include "sim/engine_state.h"
#include "sim/event_queue.h"
#include "sim/event_ring.h"
#include "sim/exec_model.h"
#include "sim/freq_state.h"
#include "sim/frequency.h"
#include "sim/histogram.h"
#include "sim/hwp_model.h"
#include "sim/idle_path.h"
#include "sim/load_balancer.h"
#include "sim/noise.h"
#include "sim/pelt.h"
#include "sim/power.h"
#include "sim/program.h"
#include "sim/rng.h"
#include "sim/run_state.h"
#include "sim/sched_state.h"
#include "sim/shared_objects.h"
#include "sim/simulator.h"
#include "sim/stats.h"
#include "sim/task_programs.h"
#include "sim/trace_sink.h"
#include "sim/wake_placement.h"
#include "sim/winner_tree.h"
#include "sim/workload.h"
#include "topology/cpuset.h"
#include "topology/sched_domains.h"
#include "topology/topology.h"

namespace schedsim::sim {

class SimulatorImpl;
std::unique_ptr<platform::SchedView> MakeSimSchedView(SimulatorImpl* sim);
std::unique_ptr<platform::FreqDomain> MakeSimFreqDomain(SimulatorImpl* sim,
                                                        int domain);

class SimulatorImpl : public RunState {
 public:
  SimulatorImpl(const topology::Topology& topology, const SimConfig& config,
                const Policies& policies, uint64_t seed);
  // Builds the machine and the initial tasks of `workload` (which need not
  // outlive the call: the simulator keeps what it needs).
  absl::Status Init(const Workload& workload);
  absl::Status RunUntil(SimTime until);

  void ResetStats();
  SimStats Stats() const;

  int64_t cpu_util(int cpu) const;
  platform::CpuUtil UtilOf(int cpu) const;
  platform::CpuCounters CountersOf(int cpu) const;
  void SetTargetKhz(int domain, int64_t khz);
  void SetHwpRequest(int domain, int cpu, const platform::HwpRequest& req);
  // The pipe mutex's wait for task `id` on `cpu` before its operation on
  // `ch` (chan_ decides): the spin to add to its kernel work (>= 0), or -1
  // when it went to sleep until its turn (the caller reschedules; the op
  // is retried).
  int64_t PipeLockWait(ChannelState& ch, int cpu, int id);
  // `cpu`'s current task `id`, preempted: if it spins for a pipe's mutex
  // with its turn ahead, it blocks until then (chan_.SpinToSleep).
  void MutexSpinToSleep(int cpu, int id);
  // A placement hook's access to a per-LLC line, by line_cpu_ (none when
  // -1): its cost (cache_) goes to line_cost_ns_, which the caller charges.
  void ReadLlcLine(int llc, LlcLine which) {
    if (line_cpu_ < 0) return;
    line_cost_ns_ += cache_.ReadLlcLine(line_cpu_, llc, which);
  }
  void WriteLlcLine(int llc, LlcLine which) {
    if (line_cpu_ < 0) return;
    line_cost_ns_ +=
        cache_.WriteLlcLine(line_cpu_, llc, which, now_ns_ + line_cost_ns_);
  }

 private:
  friend class Simulator;

  // simulator.cc (Dispatch, Fail, OnPhaseEnd), phase.cc (phases,
  // ChargeCpu, SiblingChanged), interpreter.cc (RunTask, BlockCurrent),
  // fork.cc (CreateTask, ReapTask), op_waits.cc (the blocking ops' events)
  void Dispatch(const Event& e);
  void Fail(std::string message);
  // Fail(absl::StrCat(args...)), out of line: the message is built only on
  // the cold path, so the hot handlers that can fail keep small frames
  // (StrCat's digit buffers inlined into them also bring a stack canary).
  template <typename... Args>
  ABSL_ATTRIBUTE_NOINLINE ABSL_ATTRIBUTE_COLD void FailCat(
      const Args&... args) {
    Fail(absl::StrCat(args...));
  }
  void SettlePhase(int cpu);
  void ReschedulePhaseEnd(int cpu);
  void ArmPhaseEnd(int cpu);  // its body (inlined into RunTask)
  // What `cpu` executes per ns now (exec_.Rate).
  double RateOf(int cpu) const;
  static double NsPerCycle(double rate) { return ExecModel::NsPerCycle(rate); }
  void UpdateRate(int cpu);  // Cpu::ns_per_cycle = NsPerCycle(RateOf(cpu))
  // Interprets the ops of `cpu`'s current task (`id`) until it blocks or
  // starts a phase.
  // `first`, when given, is &ops[t.pc] (the caller had it at hand): the
  // first dispatch then need not wait for the task's line.
  void RunTask(int cpu, int id, const Op* first = nullptr);
  void RunTask(int cpu) { RunTask(cpu, cpus_[cpu].curr); }
  void OnPhaseEnd(int cpu);
  int CreateTask(int spec_index, int parent_cpu);
  // The fair class's share of a new task: its entity, its own slice.
  void NewFairTask(int id, const SpecInfo& spec);
  // Frees the slot of `id`, an exited task its CPU has just switched away
  // from, for CreateTask to reuse.
  void ReapTask(int id);
  void BlockCurrent(int cpu, bool voluntary);
  void ChargeCpu(int cpu, int64_t cost_ns);  // steal time from `cpu`
  void SiblingChanged(int cpu);

  // sched_fair.cc; sched_tick.cc (CheckPreemptWakeup, OnTick, StartTick),
  // pelt_attach.cc (ComputePeltScale, PostInitUtil, DetachDeadUtil)
  void UpdateCurr(int cpu);
  void EnqueueTask(int cpu, int task, bool wakeup, uint32_t util_flags);
  // A woken task joins `cpu`: enqueued, or requeued where it is when it
  // is a delayed entity (EEVDF's DELAY_DEQUEUE).
  void EnqueueWoken(int cpu, int task, uint32_t util_flags);
  // `sleep`: the task blocks (DEQUEUE_SLEEP), which EEVDF may delay.
  void DequeueTask(int cpu, int task, bool sleep = false);
  // The dequeue of a delayed entity (DELAY_DEQUEUE) that was picked.
  void FinishDelayed(int cpu, int task);
  // What every dequeue does once the task has left the class's queue.
  void DequeueAccount(int cpu, int task);
  void Schedule(int cpu);  // pick next, switch
  void CheckPreemptWakeup(int cpu, int task);
  void OnTick(int cpu);
  void StartTick(int cpu);
  void UpdatePelt(int cpu);
  void UpdateTaskPelt(Task& t, bool running);
  // PeltScaleOf(cpu) at frequency `khz` of `cpu`'s domain.
  uint32_t ComputePeltScale(int cpu, int64_t khz) const;
  // Brings the runqueue's load signal up to now (before its weight changes).
  void UpdateRqLoad(int cpu);
  void GovernorUpdate(int cpu, uint32_t flags);
  // Tells the governor of a utilization change if there was one
  // (Cpu::util_changed), as cfs_rq_util_change() does.
  void UtilChangeUpdate(int cpu) {
    if (!cpus_[cpu].util_changed) return;
    cpus_[cpu].util_changed = false;
    GovernorUpdate(cpu, 0);
  }
  // post_init_entity_util_avg() + attach: a new fair task's initial
  // utilization, attached to `cpu`'s runqueue.
  void PostInitUtil(int cpu, int task);
  // Removes an exiting task's utilization from its runqueue
  // (remove_entity_load_avg() from task_dead_fair()).
  void DetachDeadUtil(int cpu, int task);

  // wakeup.cc (the decisions are wake_'s, sim/wake_placement.h)
  void TryToWakeUp(int task, int waker_cpu, bool from_task, uint32_t flags);
  int SelectTaskRqFair(int task, int prev, int this_cpu, bool from_task,
                       uint32_t wake_flags);
  ABSL_ATTRIBUTE_NOINLINE ABSL_ATTRIBUTE_COLD void FailPlacement(
      int cpu, int task, const topology::CpuSet& allowed);
  void OnWakeDeliver(int cpu, int task);
  // A sleep's timer, an IO completion or (`device_irq`) another device's
  // interrupt wakes `task` on `cpu`, where it slept.
  void OnTaskTimer(int cpu, int task, bool device_irq = false);
  void PushPending(Cpu& c, int task);

  // idle.cc: cpuidle's events (the decisions and the accounting are
  // idle_'s, sim/idle_path.h)
  void EnterIdle(int cpu);
  // entry_work_ns: kernel work on the idle path before the state starts.
  void SelectAndEnterIdle(int cpu, int64_t entry_work_ns = 0);
  // Ends the idle period now; `by_poll`: a wake-up or a task's timer ended
  // a POLL period (a guest's successful poll); `exit_ns`: the time to the
  // end of the exit, in the period the governor reads (IdlePath::Leave).
  // The governor's reflect runs now: no exit is simulated.
  void LeaveIdle(int cpu, bool by_poll, int64_t exit_ns);
  // Ends the idle period now with an exit that takes `exit_ns` and the
  // CPU's interrupt work after it until `done_ns` (kEvIdleExitDone). The
  // governor's reflect runs then: cpuidle_idle_call() (kernel/sched/idle.c,
  // v6.1) calls cpuidle_reflect() once cpuidle_enter_state() returned and
  // the interrupt that woke the CPU was handled.
  void LeaveIdleWithExit(int cpu, int64_t exit_ns, int64_t done_ns);
  // Their common part (accounting, the POLL timer, avg_idle, the trace);
  // returns the state the governor is told of (-1: none, idle=halt).
  int EndIdlePeriod(int cpu, bool by_poll, int64_t exit_ns);
  void OnIdleExitDone(int cpu);
  // The interrupt work and the wake list held while the CPU could not take
  // them (a C-state exit, a newidle balance level): wake-ups first, then
  // the tasks delivered meanwhile are enqueued.
  void DrainHeldWakeups(int cpu);
  // The rest of EnterIdle once no newidle balance found a task: the
  // policy's idle-entry work, then the idle state.
  void EnterIdleState(int cpu);
  void OnPollTimeout(int cpu);
  void OnIdleTick(int cpu);

  // noise_events.cc: the background sources' events (noise_ says when)
  // Arms the first event of every source that is on (before the CPUs
  // first go idle, so that their governors see the timers).
  void ArmNoise();
  // Schedules source `s`'s next event on `cpu` at `time_ns`; a visible
  // timer joins the CPU's timer list.
  void PushNoise(int64_t time_ns, int cpu, int s);
  void OnNoise(int cpu, int s);
  // The CPU spends `cost_ns` in kernel context: stolen from a running task,
  // or an idle CPU exits its state, runs it and goes idle again.
  void RunKernelWork(int cpu, int64_t cost_ns);

  // freq.cc; package_power.cc (OnPmu, PackageBusyChanged); the decisions
  // and the accounting are freq_'s (sim/frequency.h)
  void InitFrequency();
  void SetDomainKhz(int domain, int64_t khz);
  void OnFreqDone(int domain);
  void OnPmu(int package);
  void PackageBusyChanged(int cpu, bool busy);

  // newidle_balance.cc, nohz_balance.cc: the load balancer's events (its
  // decisions and balances are lb_'s, sim/load_balancer.h).
  // SimConfig::newidle_load_balance: newidle_balance()'s walk over the
  // levels as events, each level's pull at the end of its scan. Start it
  // (false: nothing to do, the caller enters idle), or go on from
  // `level`.
  bool StartNewidleWalk(int cpu);
  bool NewidleWalkFrom(int cpu, int level);
  void OnNewidleStep(int cpu, int level);
  // An overloaded CPU's tick kicks an idle CPU (nohz_balancer_kick()).
  void NohzKick(int cpu);
  // SimConfig::nohz_idle_balance: _nohz_idle_balance() on `ilb`, for every
  // idle CPU whose balance is due; then nohz.next_balance.
  void OnNohzBalance(int ilb);

  // The parts, members (not pointers) so that their calls are direct.
  // The programs' user space: ops, loops, metrics, compute sampling,
  // barriers' arrivals (RunTask keeps the kernel's side of each op); and
  // the execution model's arithmetic: rates, settling, phase times. First,
  // beside the run's state: the per-op path reads them.
  TaskPrograms progs_;
  ExecModel exec_{config_};
  // The load balancer moves a task through the engine's dequeue and
  // enqueue (newidle_balance.cc).
  class BalanceMoverImpl final : public BalanceMover {
   public:
    explicit BalanceMoverImpl(SimulatorImpl* sim) : sim_(sim) {}
    void MigrateQueued(int task, int src, int dst) override;

   private:
    SimulatorImpl* sim_;
  };
  BalanceMoverImpl lb_mover_{this};
  LoadBalancer lb_{*this, topo_, domains_, config_, now_ns_, lb_mover_};
  WakePlacement wake_{*this, topo_, domains_, config_, now_ns_};
  // Run-to-run variability: its streams, the jitter, the sources.
  Noise noise_;
  Frequency freq_{*this, topo_, config_, now_ns_, stats_start_ns_};
  // The idle path's decisions and accounting (idle.cc keeps its events).
  IdlePath idle_{*this, topo_, config_, now_ns_, stats_start_ns_};
  // The cache lines: transfers, the shared and per-LLC lines, refills.
  CacheLines cache_{topo_, config_};
  // The channels, the pipe's mutex, the devices' queues, batches.
  ChannelOps chan_{cache_, now_ns_};
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_SIMULATOR_IMPL_H_
