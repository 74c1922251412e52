// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Internals of Simulator (see simulator.h). Private to sim/: one class whose
// methods are spread over simulator.cc (the engine loop, dispatch),
// simulator_init.cc (building the machine, the workload's checks),
// interpreter.cc (compute phases, the program interpreter),
// simulator_stats.cc (statistics), sched_fair.cc (runqueues, CFS, tick),
// wakeup.cc (try_to_wake_up and the placement path), idle.cc (cpuidle),
// noise.cc (background activity), freq.cc (frequency, power) and balance.cc
// (load balancing).
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
#include "sim/cfs.h"
#include "sim/config.h"
#include "sim/eevdf.h"
#include "sim/event_queue.h"
#include "sim/event_ring.h"
#include "sim/histogram.h"
#include "sim/hwp_model.h"
#include "sim/kvm_halt_poll.h"
#include "sim/pelt.h"
#include "sim/power.h"
#include "sim/program.h"
#include "sim/rng.h"
#include "sim/sched_state.h"
#include "sim/shared_objects.h"
#include "sim/simulator.h"
#include "sim/stats.h"
#include "sim/trace_sink.h"
#include "sim/winner_tree.h"
#include "sim/workload.h"
#include "topology/cpuset.h"
#include "topology/sched_domains.h"
#include "topology/topology.h"

namespace schedsim::sim {

// Event kinds, each with the container that holds it pending. RunUntil
// handles the trees' and rings' events; Dispatch those of queue_.
enum EventKind : uint16_t {
  kEvPhaseEnd,      // cpu: its running task's phase ends (phase_ends_)
  kEvTick,          // cpu: scheduler tick (ticks_)
  kEvTaskTimer,     // task: sleep or IO wait over; cpu: where it slept (queue_)
  kEvWakeDeliver,   // task: enqueue on `cpu`, wake list / IPI (deliveries_)
  kEvIdleExitDone,  // cpu: C-state exit finished (exits_)
  kEvPollTimeout,   // cpu: POLL time limit reached (queue_)
  kEvFreqDone,      // cpu = domain: P-state transition completes (queue_)
  kEvPmu,           // cpu = package: power-management evaluation (queue_)
  kEvNoise,         // cpu: background kernel activity; task = NoiseSource
                    // (queue_)
  kEvTaskIrq,       // task: a device interrupt (not IO, not a timer) wakes
                    // it; cpu: where it slept (queue_)
  kEvNewidleStep,   // cpu: a level of its newidle balance walk ends (queue_)
  kEvNohzBalance,   // cpu: the kicked idle CPU balances for the idle ones
                    // (queue_)
};

// The background activity of docs/model.md "Run-to-run variability".
enum NoiseSource : int32_t {
  kNoiseVmstat,       // per CPU, periodic, deferrable
  kNoiseWatchdog,     // one timer moving round the CPUs
  kNoiseWriteback,    // CPU 0, periodic
  kNoiseKernelTimer,  // per CPU, periodic
  kNoiseKworker,      // per CPU, Poisson
  kNoiseRcu,          // per CPU, Poisson
  kNoiseDeviceIrq,    // per CPU, Poisson
  kNoiseSources,
};

// Bands order simultaneous events: interrupts and deliveries before timers
// before scheduler work.
enum EventBand : uint8_t {
  kBandIrq = 0,
  kBandDeliver = 1,
  kBandTimer = 2,
  kBandSched = 3,
  kBandPmu = 4,
};

// The frequency at which x86's arch_scale_freq_capacity() reaches 1024
// for a domain whose highest frequency is `top_khz` (sim/freq.cc).
int64_t InvarianceRefKhz(const topology::FrequencySpec& f,
                         topology::Vendor vendor, int64_t top_khz);

struct FreqDomainState {
  topology::CpuSet cpus;
  std::vector<int32_t> cpu_list;  // `cpus`, in increasing order
  int32_t first_cpu = 0;
  int32_t package = 0;
  // The domain's frequency facts (Topology::frequency_of its CPUs) and
  // power parameters (the machine's, with the domain's own ceff_pf).
  const topology::FrequencySpec* spec = nullptr;
  topology::PowerSpec power;
  int64_t max_khz = 0;  // its highest frequency
  // The frequency at which PELT's frequency scale reaches 1024 (capped
  // there above it): arch_max_freq_ratio's reference (InvarianceRefKhz).
  int64_t invariance_khz = 0;
  // Work per cycle relative to the biggest CPU: a cycle of a CPU of
  // capacity C whose domain peaks at max_khz does C / 1024 x
  // (machine max / max_khz) of a biggest CPU's cycle (1 on a symmetric
  // machine). Workload cycles are the biggest CPU's.
  double work_per_cycle = 1.0;
  int64_t cur_khz = 0;  // what the CPUs run at
  // Cpu::ns_per_cycle at cur_khz: [0] alone on its core, [1] beside a busy
  // SMT sibling (SetCurKhz).
  double ns_per_cycle[2] = {0, 0};
  int64_t requested_khz = 0;  // the governor's last request (clamped)
  int64_t pending_khz = 0;
  EventHandle transition;
  int64_t policy_min_khz = 0;
  int64_t policy_max_khz = 0;
  int64_t ceiling_khz = 0;      // turbo / PL1 / boost ceiling
  int64_t active_power_mw = 0;  // per busy thread at cur_khz
  // HWP.
  std::vector<platform::HwpRequest> hwp_req;  // per CPU of the domain
  HwpModel hwp;
  int64_t window_busy_ns = 0;  // C0 time of the busiest CPU this window
  std::unique_ptr<platform::FreqDomain> view;
};

struct PackageState {
  topology::CpuSet cpus;
  int32_t busy_cpus = 0;                       // CPUs not in an idle state
  std::vector<int32_t> busy_threads_per_core;  // by dense core id
  int32_t active_cores = 0;
  EventHandle pmu;
  int64_t last_pmu_ns = 0;
  double last_energy_uj = 0;
  PowerLimiter limiter{PowerLimiterParams{}};
  int64_t cap_khz = PowerLimiter::kNoCap;
  PackageStats stats;
};

class SimulatorImpl;
std::unique_ptr<platform::SchedView> MakeSimSchedView(SimulatorImpl* sim);
std::unique_ptr<platform::IdleDevice> MakeSimIdleDevice(SimulatorImpl* sim,
                                                        int cpu);
std::unique_ptr<platform::FreqDomain> MakeSimFreqDomain(SimulatorImpl* sim,
                                                        int domain);

class SimulatorImpl {
 public:
  SimulatorImpl(const topology::Topology& topology, const SimConfig& config,
                const Policies& policies, uint64_t seed);
  // Builds the machine and the initial tasks of `workload` (which need not
  // outlive the call: the simulator keeps what it needs).
  absl::Status Init(const Workload& workload);
  absl::Status RunUntil(SimTime until);

  void ResetStats();
  SimStats Stats() const;

  // --- Shared with the platform views -----------------------------------
  const topology::Topology& topo() const { return topo_; }
  const topology::SchedDomains& domains() const { return domains_; }
  const SimConfig& config() const { return config_; }
  int64_t now_ns() const { return now_ns_; }
  int64_t tick_ns() const { return tick_ns_; }
  // available_idle_cpu() and sched_idle_cpu(), from the dense probe_
  // bytes: an idle-CPU search reads one byte per CPU probed, 64 CPUs to a
  // cache line, instead of each CPU's own line.
  bool available_idle(int cpu) const {
    assert(probe_[cpu] == ProbeBits(cpus_[cpu]) && "probe_ is stale");
    return probe_[cpu] & kProbeAvailableIdle;
  }
  bool sched_idle(int cpu) const {
    assert(probe_[cpu] == ProbeBits(cpus_[cpu]) && "probe_ is stale");
    return probe_[cpu] & kProbeSchedIdle;
  }
  bool idle_for_wakeup(int cpu) const {
    assert(probe_[cpu] == ProbeBits(cpus_[cpu]) && "probe_ is stale");
    return probe_[cpu] != 0;
  }
  static constexpr uint8_t kProbeAvailableIdle = 1;
  static constexpr uint8_t kProbeSchedIdle = 2;
  uint8_t ProbeBits(const Cpu& c) const {
    // A newidle walk keeps `exiting` set, so the walk's flag (off the hot
    // line) is read only then.
    const bool available = c.mode != CpuMode::kBusy && c.nr_running == 0 &&
                           c.ttwu_pending == 0 &&
                           !(c.exiting && c.newidle_walk);
    // sched_idle_rq(): every runnable task is SCHED_IDLE.
    const bool sched_idle = c.nr_running > 0 && c.nr_sched_idle == c.nr_running;
    return (available ? kProbeAvailableIdle : 0) |
           (sched_idle ? sched_idle_bit_ : 0);
  }
  // Call after changing `cpu`'s mode, nr_running, ttwu_pending or
  // nr_sched_idle.
  void RefreshProbe(int cpu) { probe_[cpu] = ProbeBits(cpus_[cpu]); }
  int64_t cpu_util(int cpu) const;
  platform::CpuUtil UtilOf(int cpu) const;
  platform::CpuCounters CountersOf(int cpu) const;
  void SetTargetKhz(int domain, int64_t khz);
  void SetHwpRequest(int domain, int cpu, const platform::HwpRequest& req);
  std::vector<Cpu> cpus_;
  std::vector<FreqDomainState> fdoms_;
  // Per-LLC shared state (sd_llc_shared), by dense LLC id.
  struct LlcShared {
    bool has_idle_cores = false;
    int32_t nr_idle_scan = 0;
    int32_t nr_overloaded = 0;  // CPUs with nr_running >= 2
    int32_t nr_idle = 0;        // CPUs in an idle state
  };
  // LLC ids covered by each distinct scheduling domain (domains_.domains()).
  std::vector<std::vector<int32_t>> domain_llcs_;
  std::vector<LlcShared> llcs_;
  // Each CPU's sd_llc->avg_scan_cost (SIS_PROP; platform/placement.h):
  // cold, so outside Cpu.
  std::vector<int64_t> avg_scan_cost_ns_;
  // CPUs with nr_running >= 2, as CpuSet words.
  std::vector<uint64_t> overloaded_;
  // sd->max_newidle_lb_cost and sd->last_decay_max_lb_cost of one CPU's
  // domain level: the dearest newidle balance of the level so far.
  struct NewidleCost {
    int64_t max_ns = 0;
    int64_t last_decay_ns = 0;
  };
  // Per CPU, per domain level; only with SimConfig::newidle_load_balance
  // (empty otherwise).
  std::vector<std::vector<NewidleCost>> newidle_costs_;
  // nohz.next_balance (SimConfig::nohz_idle_balance): no kick before it;
  // kNoKick while a kicked CPU has yet to balance.
  int64_t nohz_next_balance_ns_ = 0;
  static constexpr int64_t kNoKick = INT64_MAX;
  // Per CPU: the time its newidle walk has taken so far (curr_cost).
  std::vector<int64_t> newidle_walk_cost_ns_;
  std::vector<uint8_t> probe_;  // ProbeBits of each CPU
  // kProbeSchedIdle, or 0 without SimConfig::sched_idle_fallback (before
  // v5.4 no CPU is sched-idle to a wake-up).
  uint8_t sched_idle_bit_ = kProbeSchedIdle;
  // SimConfig::sis_cluster_scan and a CLS domain on some CPU: the kernel's
  // sched_cluster_active (SchedView::cluster_scan_active()).
  bool cluster_scan_active_ = false;
  // Cpu::nr_running of each CPU, dense, for the busiest-CPU searches of
  // load balancing (kept by NoteNrRunning).
  std::vector<int32_t> nr_running_;
  int64_t scan_probes_ = 0;  // probes in the search under way
  // Topology::LineTransferNs(from, to), inline from a dense copy of each
  // CPU's core, LLC and package (a channel operation asks at every send
  // and receive).
  int64_t LineNs(int from, int to) const {
    if (from == to) return 0;
    const LinePlace& a = line_places_[static_cast<size_t>(from)];
    const LinePlace& b = line_places_[static_cast<size_t>(to)];
    const int level = a.core == b.core         ? 0
                      : a.llc == b.llc         ? 1
                      : a.package == b.package ? 2
                                               : 3;
    assert(line_ns_[level] == topo_.LineTransferNs(from, to));
    return line_ns_[level];
  }
  struct LinePlace {
    int32_t core;
    int32_t llc;
    int32_t package;
  };
  std::vector<LinePlace> line_places_;  // by CPU
  // CoherenceSpec's smt_ns, llc_ns, package_ns, remote_ns.
  std::array<int64_t, 4> line_ns_{};
  int64_t max_khz() const { return max_khz_; }
  int64_t poll_limit_ns() const { return poll_limit_ns_; }
  void set_gov_poll_limit_ns(int cpu, int64_t ns) {
    gov_poll_limit_ns_[cpu] = ns;
  }

  TraceSink* sink_ = nullptr;
  std::vector<Task> tasks_;
  std::vector<TaskCounters> task_stats_;
  // The fair class (sim/fair_class.h): CFS before Linux 6.6, EEVDF from
  // 6.6 (SimConfig::eevdf). Both are members, so that Fair() calls the
  // one in use directly (each is final): no virtual call on the hot path.
  Cfs cfs_{tasks_, cpus_};
  Eevdf eevdf_{tasks_, cpus_};
  bool eevdf_on_ = false;
  template <typename F>
  decltype(auto) Fair(F&& f) {
    return ABSL_PREDICT_FALSE(eevdf_on_) ? f(eevdf_) : f(cfs_);
  }
  template <typename F>
  decltype(auto) Fair(F&& f) const {
    return ABSL_PREDICT_FALSE(eevdf_on_) ? f(eevdf_) : f(cfs_);
  }
  // Slots of exited tasks, reaped when their CPU switched away from them
  // (finish_task_switch() drops a dead task's last reference); CreateTask
  // takes the most recently freed one, as the task_struct slab hands back
  // the object freed last. Keeps memory bounded by the live tasks.
  std::vector<int32_t> free_task_slots_;
  // Tasks whose slot was taken by a newer one since the last ResetStats
  // (SimStats::tasks_reaped).
  uint64_t tasks_reaped_ = 0;
  // Each task's se->avg.load_avg signal (PeltUpdateLoad), beside Task to
  // keep Task within three cache lines: only enqueue, dequeue and load
  // balancing touch it.
  std::vector<PeltSignal> task_load_;
  // UTIL_EST (SimConfig::util_est): each task's estimate and each CPU's
  // cfs_rq->avg.util_est.enqueued; empty when off.
  std::vector<UtilEst> task_util_est_;
  std::vector<uint32_t> rq_util_est_;
  bool util_est_ = false;
  // uclamp's bucket updates cost time: uclamp is on and either the static
  // key is not modelled (before v5.9) or a task set a clamp
  // (SimConfig::uclamp_static_key).
  bool uclamp_costs_ = false;
  // Per CPU: kernel work of a dequeue there (the uclamp_rq_dec() of a task
  // going to sleep) that the next task switched in, or the idle entry,
  // waits for.
  std::vector<int64_t> dequeue_debt_ns_;
  int64_t UclampUpdateNs(int cpu) const {
    return KernelWorkNs(cpu, config_.uclamp_enqueue_cost_ns);
  }
  // Per task, a pipe's mutex (SimConfig::pipe_lock_lines): kLockAsleep
  // while it sleeps for its turn, kLockGranted once its turn came (the
  // retried operation does not queue again).
  static constexpr uint8_t kLockAsleep = 1, kLockGranted = 2;
  std::vector<uint8_t> task_lock_;
  // Per CPU, the address space loaded (cpu_tlbstate.loaded_mm): the
  // TaskSpec::mm of the last task run there; the idle task keeps it (lazy
  // TLB). -1: not declared. Outside Cpu, which is full.
  std::vector<int32_t> loaded_mm_;
  // The pipe mutex's wait for task `id` on `cpu` before its operation on
  // `ch`: the spin to add to its kernel work (>= 0), or -1 when it went to
  // sleep until its turn (the caller reschedules; the op is retried).
  int64_t PipeLockWait(ChannelState& ch, int cpu, int id);
  // A task spinning for a pipe's mutex: until its turn at end_ns, which
  // the holder on `unlocker` gives it. Only while the mutex is modelled.
  struct MutexSpin {
    int64_t end_ns;
    int32_t unlocker;
  };
  absl::flat_hash_map<int32_t, MutexSpin> mutex_spins_;
  void MutexSpinToSleep(int cpu, int id);
  // Whether task_load_ and rq_load_ are kept: only LoadBalance() reads
  // them (SimConfig::balance_by_load with load_balance on).
  bool track_load_ = false;
  // Each CPU's cfs_rq->avg.load_avg signal (PeltUpdateLoad), beside Cpu
  // to keep Cpu within eight cache lines.
  std::vector<PeltSignal> rq_load_;
  // LoadBalance()'s scratch list of a runqueue's tasks.
  std::vector<int32_t> balance_candidates_;

 private:
  friend class Simulator;

  // simulator.cc (Dispatch, Fail, OnPhaseEnd), interpreter.cc (phases,
  // RunTask, BlockCurrent, ChargeCpu, SiblingChanged), simulator_init.cc
  // (CreateTask)
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
  double RateOf(int cpu) const;
  static double NsPerCycle(double rate) { return rate > 0 ? 1.0 / rate : 0; }
  // Kernel CPU work of `ns_at_top` ns at the machine's top frequency: how
  // long it takes on `cpu` now (SimConfig::kernel_work_at_frequency; the
  // ns unchanged when off).
  int64_t KernelWorkNs(int cpu, int64_t ns_at_top) const {
    if (kernel_cycles_per_ns_ == 0) return ns_at_top;
    const double ns = static_cast<double>(ns_at_top) * kernel_cycles_per_ns_ *
                      cpus_[cpu].ns_per_cycle;
    return static_cast<int64_t>(ns + 0.5);
  }
  // Cycles per ns of the biggest CPU at the machine's top frequency when
  // kernel_work_at_frequency is on, else 0.
  double kernel_cycles_per_ns_ = 0;
  void UpdateRate(int cpu);  // Cpu::ns_per_cycle = NsPerCycle(RateOf(cpu))
  // Sets a domain's cur_khz and the ns_per_cycle values that follow.
  void SetCurKhz(FreqDomainState& d, int64_t khz);
  // Interprets the ops of `cpu`'s current task (`id`) until it blocks or
  // starts a phase.
  // `first`, when given, is &ops[t.pc] (the caller had it at hand): the
  // first dispatch then need not wait for the task's line.
  void RunTask(int cpu, int id, const Op* first = nullptr);
  void RunTask(int cpu) { RunTask(cpu, cpus_[cpu].curr); }
  void OnPhaseEnd(int cpu);
  int CreateTask(int spec_index, int parent_cpu);
  struct SpecInfo;
  // The fair class's share of a new task: its entity, its own slice.
  void NewFairTask(int id, const SpecInfo& spec);
  // Frees the slot of `id`, an exited task its CPU has just switched away
  // from, for CreateTask to reuse.
  void ReapTask(int id);
  // kShared: the stall of `writes` writes to shared line `line`.
  int64_t SharedLineStall(int cpu, int line, int writes, int64_t hold_ns,
                          int64_t start_ns, int64_t cycles);
  // The stall of `writes` writes by `cpu` to `l` starting at `start_ns`,
  // spread over `span_ns` (the line model of SharedLineStall). Contended,
  // the line serves `local_batch` writes inside `cpu`'s LLC per move into
  // it (CoherenceSpec::llc_handoffs; 1: every write pays its transfer).
  int64_t LineWriteStall(LineState& l, SharedLineStats* stats, int cpu,
                         int writes, int64_t hold_ns, int64_t start_ns,
                         int64_t span_ns, int local_batch = 1);

 public:
  // The cache lines of per-LLC scheduler state the placement hooks use.
  enum class LlcLine : uint8_t {
    kSdLlcShared = 0,  // struct sched_domain_shared: has_idle_cores
    kPolicy = 1,       // the policy's own (SchedView::*_policy_llc_line)
  };
  static constexpr int kLlcLines = 2;
  void ReadLlcLine(int llc, LlcLine which);
  void WriteLlcLine(int llc, LlcLine which);
  // The CPU whose hook is running (-1: none; accesses are not charged) and
  // what its line accesses have cost so far.
  int32_t line_cpu_ = -1;
  int64_t line_cost_ns_ = 0;

 private:
  int64_t ChannelLinesNs(ChannelState& ch, int cpu);
  int64_t NextIoCompletion(int id, const Op& op, bool* last);
  int32_t TakeBatch(int id);
  // What a migration from `from` to `to` costs the task in cache refill.
  int64_t MigrationRefillNs(int task, int from, int to) const;
  void BlockCurrent(int cpu, bool voluntary);
  void ChargeCpu(int cpu, int64_t cost_ns);  // steal time from `cpu`
  void AccountBusyEnd(int cpu);
  void AccountBusyStart(int cpu);
  void SiblingChanged(int cpu);
  const topology::CpuSet* AllowedOf(const Task& t) const {
    return t.has_affinity ? &affinities_[specs_[t.spec].affinity] : &all_cpus_;
  }

  // sched_fair.cc
  void UpdateCurr(int cpu);
  void EnqueueTask(int cpu, int task, bool wakeup, uint32_t util_flags);
  // A woken task joins `cpu`: enqueued, or requeued where it is when it
  // is a delayed entity (EEVDF's DELAY_DEQUEUE).
  void EnqueueWoken(int cpu, int task, uint32_t util_flags);
  // `sleep`: the task blocks (DEQUEUE_SLEEP), which EEVDF may delay.
  void DequeueTask(int cpu, int task, bool sleep = false);
  // The dequeue of a delayed entity (DELAY_DEQUEUE) that was picked.
  void FinishDelayed(int cpu, int task);
  // schedstats' update_stats_wait_start()/_end(): `task` starts or ends a
  // wait on a runqueue.
  void WaitStart(int task) { task_stats_[task].wait_start_ns = now_ns_; }
  void WaitEnd(int task) {
    TaskCounters& k = task_stats_[task];
    if (k.wait_start_ns < 0) return;
    const int64_t wait = now_ns_ - k.wait_start_ns;
    k.wait_sum_ns += wait;
    if (wait > k.wait_max_ns) k.wait_max_ns = wait;
    ++k.wait_count;
    k.wait_start_ns = -1;
  }
  // What every dequeue does once the task has left the class's queue.
  void DequeueAccount(int cpu, int task);
  void Schedule(int cpu);  // pick next, switch
  void CheckPreemptWakeup(int cpu, int task);
  void OnTick(int cpu);
  void StartTick(int cpu);
  // Arms `cpu`'s next tick at time_ns (band kBandTimer).
  void SetTick(int cpu, int64_t time_ns) {
    ticks_.Set(cpu, time_ns, PackBandSeq(kBandTimer, queue_.NextSeq()));
    others_changed_ = true;
  }
  void ClearTick(int cpu) {
    ticks_.Clear(cpu);
    others_changed_ = true;
  }
  void UpdatePelt(int cpu);
  void UpdateTaskPelt(Task& t, bool running);
  // PELT's invariance factor (0..1024) of `cpu` now: its domain's
  // frequency scale times its capacity (Cpu::pelt_scale).
  uint32_t PeltScaleOf(int cpu) const { return cpus_[cpu].pelt_scale; }
  // The same at frequency `khz` of `cpu`'s domain.
  uint32_t ComputePeltScale(int cpu, int64_t khz) const;
  // Brings the runqueue's load signal up to now (before its weight changes).
  void UpdateRqLoad(int cpu);
  void NoteNrRunning(int cpu, int delta);
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

  // wakeup.cc
  void TryToWakeUp(int task, int waker_cpu, bool from_task, uint32_t flags);
  int SelectTaskRqFair(int task, int prev, int this_cpu, bool from_task,
                       uint32_t wake_flags);
  int SelectTaskRqRt(int task, int prev);
  ABSL_ATTRIBUTE_NOINLINE ABSL_ATTRIBUTE_COLD void FailPlacement(
      int cpu, int task, const topology::CpuSet& allowed);
  int WakeAffine(const topology::SchedDomain& sd, int task, int this_cpu,
                 int prev, bool sync, int waker_task);
  bool WakeWide(int task, int waker_task) const;
  void RecordWakee(int waker_task, int task);
  int64_t CpuLoad(int cpu) const;
  int64_t TaskLoad(int task) const;
  void OnWakeDeliver(int cpu, int task);
  // A sleep's timer, an IO completion or (`device_irq`) another device's
  // interrupt wakes `task` on `cpu`, where it slept.
  void OnTaskTimer(int cpu, int task, bool device_irq = false);
  int FindIdlestCpu(int task, int this_cpu, uint32_t sd_flag);
  void PushPending(Cpu& c, int task);

  // idle.cc
  void EnterIdle(int cpu);
  // entry_work_ns: kernel work on the idle path before the state starts.
  void SelectAndEnterIdle(int cpu, int64_t entry_work_ns = 0);
  // Ends the idle period now; `by_poll`: a wake-up or a task's timer ended
  // a POLL period (a guest's successful poll).
  void LeaveIdle(int cpu, bool by_poll);
  void OnIdleExitDone(int cpu);
  // The interrupt work and the wake list held while the CPU could not take
  // them (a C-state exit, a newidle balance level): wake-ups first, then
  // the tasks delivered meanwhile are enqueued.
  void DrainHeldWakeups(int cpu);
  // ttwu_do_wakeup()'s avg_idle update: the idle period that began at
  // idle_stamp ends now.
  void NoteIdleEnd(Cpu& c);
  // The rest of EnterIdle once no newidle balance found a task: the
  // policy's idle-entry work, then the idle state.
  void EnterIdleState(int cpu);
  void OnPollTimeout(int cpu);
  void OnIdleTick(int cpu);
  int64_t PhysicalExitNs(int cpu) const;
  // On a KVM guest (guest_): the wake-up cost of the halt `cpu` is in, now:
  // the VM exit and re-entry (kvm_hlt_exit_ns), and once the host stopped
  // polling (the vCPU's window, kvm_window_ns_) the host CPU's idle exit,
  // the host's wake-up of the vCPU thread and its switch back to it.
  int64_t GuestHaltExitNs(int cpu) const;
  // The halt or guest poll that ends now on `cpu` (LeaveIdle): the
  // counters, and kvm_vcpu_halt()'s window update.
  void NoteGuestIdleEnd(int cpu, int state, int64_t residency_ns, bool woken);
  int64_t SleepLengthNs(int cpu, int64_t* delta_tick_ns) const;

  // noise.cc
  // Validates the noise fields of config_ and the workload's work_cv and
  // derives the scaled periods and rates.
  absl::Status InitNoise(const Workload& workload);
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
  // The compute op's jitter factor (lognormal, mean 1) applied to cycles
  // and stall, times the task's layout factor (task `id` is `t`).
  // REQUIRES: jitter_. Inline: it runs at nearly every phase start when
  // the layout source is on (the default).
  void JitterWork(Task& t, int id) {
    if (work_sigma_ == 0) {
      // The layout source alone: the factor is the task's own, so given
      // cycles always scale to the same value. Memoised per task (a task's
      // compute ops mostly have the same cycles), which takes the
      // multiplication and the rounding off the phase path.
      TaskLayout& l = task_layout_[static_cast<size_t>(id)];
      if (ABSL_PREDICT_FALSE(t.rem_cycles != l.cycles_in)) {
        l.cycles_in = t.rem_cycles;
        l.cycles_out = ScaleWork(t.rem_cycles, l.factor);
      }
      t.rem_cycles = l.cycles_out;
      if (t.rem_stall_ns != 0) {
        t.rem_stall_ns = ScaleWork(t.rem_stall_ns, l.factor);
      }
      return;
    }
    double f = DrawWorkFactor();
    if (layout_sigma_ > 0) f *= task_layout_[static_cast<size_t>(id)].factor;
    t.rem_cycles = ScaleWork(t.rem_cycles, f);
    t.rem_stall_ns = ScaleWork(t.rem_stall_ns, f);
  }
  // v * f rounded to the nearest integer, 0 when not positive, at most
  // 9e18.
  static int64_t ScaleWork(int64_t v, double f) {
    const double x = static_cast<double>(v) * f;
    if (!(x > 0)) return 0;
    if (x > 9.0e18) return int64_t{9000000000000000000};
    // std::llround(x) for 0 < x <= 9e18 (halves away from zero), exact:
    // the truncation is exact, and so is x - trunc(x).
    const int64_t i = static_cast<int64_t>(x);
    return i + (x - static_cast<double>(i) >= 0.5);
  }
  double DrawWorkFactor();  // work_rng_'s lognormal draw (noise.cc)
  // The layout factor of a new task (1 when the source is off).
  float DrawLayoutFactor();
  // The start skew of a new initial task: uniform 0..start_skew_ns_.
  int64_t StartSkewNs();

  // freq.cc
  void InitFrequency();
  void SetDomainKhz(int domain, int64_t khz);
  int64_t EffectiveKhz(const FreqDomainState& d, int64_t requested) const;
  void OnFreqDone(int domain);
  void OnPmu(int package);
  void PackageBusyChanged(int cpu, bool busy);
  void AccountEnergy(int cpu);

  // balance.cc
  // Newidle balancing without SimConfig::newidle_load_balance: the lowest
  // level that yields a task pulls one, at no cost.
  void NewidleBalance(int cpu);
  // SimConfig::newidle_load_balance: newidle_balance()'s walk over the
  // levels as events, each level's pull at the end of its scan. Start it
  // (false: nothing to do, the caller enters idle), or go on from
  // `level` (newidle_walk_cost_ns_ holds the cost so far).
  bool StartNewidleWalk(int cpu);
  bool NewidleWalkFrom(int cpu, int level);
  void OnNewidleStep(int cpu, int level);
  // load_balance(CPU_NEWLY_IDLE) at `level` of `cpu`'s domains: whether a
  // task moved to `cpu`.
  bool NewidlePull(int cpu, int level);
  // update_newidle_cost() (kernel/sched/fair.c, Linux 5.19): raise the
  // level's max cost, or decay it by 253/256 when a second has passed
  // since the last raise or decay.
  void UpdateNewidleCost(NewidleCost& level, int64_t cost_ns);
  void PeriodicBalance(int cpu);
  // should_we_balance(): only the first idle CPU of the local group, else
  // its first CPU, balances the domain periodically.
  bool ShouldWeBalance(int cpu, const topology::SchedDomain& sd) const;
  void NohzKick(int cpu);
  // SimConfig::nohz_idle_balance: _nohz_idle_balance() on `ilb`, for every
  // idle CPU whose balance is due; then nohz.next_balance.
  void OnNohzBalance(int ilb);
  // When `cpu`'s rebalance_domains() is next due (rq->next_balance).
  int64_t NextBalanceNs(int cpu) const;
  // get_sd_balance_interval(): `cpu`'s interval at `level`, busy_factor
  // times longer on a busy CPU, clamped to [1 jiffy,
  // max_load_balance_interval].
  int64_t BalanceIntervalNs(int cpu, size_t level, bool busy) const;
  // task_hot() for a balance towards `dst_cpu`: ran within
  // sched_migration_cost, or (SimConfig::cfs_buddies) a buddy of its
  // runqueue while `dst_cpu` runs tasks (CACHE_HOT_BUDDY).
  bool TaskHot(int task, int dst_cpu) const;
  // Whether a balance of `sd` may take a cache-hot task: after more than
  // cache_nice_tries failed balances, and at an SMT level always when
  // SimConfig::smt_ignores_cache_hot is on.
  bool IgnoreHot(const topology::SchedDomain& sd,
                 uint32_t nr_balance_failed) const;
  bool CanMigrate(int task, int dst_cpu, bool ignore_hot) const;
  void MigrateQueued(int task, int src, int dst);
  int FindBusiestCpu(const topology::CpuSet& span, int this_cpu,
                     int min_nr) const;
  // The busiest CPU (nr_running >= 2) of distinct domain `domain_id`,
  // visiting only its LLCs that have an overloaded CPU.
  int FindOverloadedCpu(int domain_id, int this_cpu) const;
  void UpdateIdleCpuScan(int cpu, const topology::SchedDomain& sd);
  // load_balance() at level `level` of `cpu`'s domain stack, for a CPU that
  // is idle (`idle`) or busy at its tick: find_busiest_group(),
  // find_busiest_queue() and detach_tasks() (balance.cc). `newidle`: the
  // CPU_NEWLY_IDLE balance of a CPU still in schedule(), whose rq->curr is
  // the task that just left, so idle_cpu() does not count it. Returns the
  // tasks moved, or -1 when the domain is balanced.
  int LoadBalance(int cpu, size_t level, bool idle, bool newidle = false);
  // The count-based periodic balance at `level` (balance_by_load false):
  // pulls one task when another group has more runnable tasks than CPUs
  // and the local group has room. 1: pulled a task; 0: an imbalance, but only
  // cache-hot tasks to move; -1: balanced, or every candidate pinned.
  int CountBalance(int cpu, size_t level);
  // Pulls the first queued task of `src` that may move to `dst`: 1 when
  // one moved, 0 when only cache-hot ones could have, -1 when none may.
  int PullOne(int src, int dst, bool ignore_hot);
  // cfs_rq->avg.load_avg of `cpu`, decayed (or accrued) up to now.
  int64_t CpuLoadAvg(int cpu) const;
  // sd->imb_numa_nr of `cpu`'s domain at `level` (build_sched_domains()).
  int ImbNumaNr(int cpu, size_t level) const;

  // The machine as booted: a copy without HWP when config.hwp is false on
  // an HWP part (intel_pstate=no_hwp), else empty; topo_ is it or the
  // caller's.
  std::optional<topology::Topology> booted_;
  const topology::Topology& topo_;
  SimConfig config_;
  // The workload as the simulator keeps it: the programs, and per task
  // spec what CreateTask needs (names concatenated in spec_names_).
  struct SpecInfo {
    int32_t program = 0;
    int32_t channel_base = 0;
    int32_t weight = 1024;
    int32_t affinity = -1;  // index into affinities_, -1 = all CPUs
    uint32_t name_begin = 0;
    uint32_t name_end = 0;
    int16_t uclamp_min = 0;  // resolved (defaults applied, clamped)
    int16_t uclamp_max = 1024;
    SchedPolicy policy = SchedPolicy::kNormal;
    uint8_t rt_priority = 0;
    int64_t working_set_bytes = -1;  // TaskSpec::working_set_bytes
    int64_t slice_ns = 0;            // TaskSpec::slice_ns
    int32_t mm = -1;                 // TaskSpec::mm
  };
  std::vector<Program> programs_;
  std::vector<SpecInfo> specs_;
  std::string spec_names_;
  Policies policies_;
  Rng rng_;
  // Run-to-run variability (noise.cc): its own streams, forked from the
  // run's seed, so that the workload's draws are those of a run without
  // noise.
  Rng noise_rng_;
  Rng work_rng_;
  double work_sigma_ = 0;  // of the jitter factor's log; 0 = off
  double work_mu_ = 0;
  double layout_sigma_ = 0;  // of the layout factor's log; 0 = off
  double layout_mu_ = 0;
  bool jitter_ = false;  // work_sigma_ > 0 || layout_sigma_ > 0
  Rng layout_rng_;
  // Per task (by id), only while the layout source is on: its layout
  // factor, and JitterWork's memo (the last cycles scaled, and the result;
  // used only while the work source is off).
  struct TaskLayout {
    float factor = 1;
    int64_t cycles_in = -1;
    int64_t cycles_out = 0;
  };
  std::vector<TaskLayout> task_layout_;
  // Per source: its period (periodic sources) or mean interval (Poisson),
  // scaled by noise_scale; 0 = off.
  std::array<int64_t, kNoiseSources> noise_period_ns_{};
  std::array<double, kNoiseSources> noise_mean_ns_{};
  std::array<int64_t, kNoiseSources> noise_cost_ns_{};
  int64_t start_skew_ns_ = 0;
  topology::SchedDomains domains_;
  topology::CpuSet all_cpus_;
  std::vector<topology::CpuSet> affinities_;  // see SpecInfo::affinity
  // By CPU, its SD_WAKE_AFFINE domains lowest first (for
  // SelectTaskRqFair): CPU c's are affine_levels_[affine_begin_[c] ..
  // affine_begin_[c + 1]).
  struct AffineLevel {
    const topology::SchedDomain* sd;
    const uint64_t* span;  // sd->span's words
  };
  std::vector<AffineLevel> affine_levels_;
  std::vector<int32_t> affine_begin_;
  // By program: its first op (programs_ is never modified after Init).
  std::vector<const Op*> program_ops_;
  // By program and pc, what arming a phase end with the task at that pc
  // looks up (ArmPhaseEnd):
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
  std::vector<std::vector<PhaseResume>> phase_resume_;
  std::vector<ChannelState> channels_;
  std::vector<BarrierState> barriers_;
  std::vector<LineState> lines_;
  // With CoherenceSpec::llc_handoffs > 1: per workload line, when each
  // CPU's last write to it ended (dense by CPU).
  std::vector<std::vector<int64_t>> line_write_end_;
  int llc_handoffs_ = 1;
  std::vector<DeviceState> devices_;
  // Tasks inside a kIo op whose requests have not all completed, by task.
  absl::flat_hash_map<int32_t, IoProgress> io_progress_;
  // Tasks whose last RecvBatch took messages the next SendBatch answers.
  absl::flat_hash_map<int32_t, int32_t> batch_taken_;
  std::vector<SharedLineStats> line_stats_;
  std::vector<LineState> llc_lines_;                // kLlcLines per LLC
  std::vector<topology::CpuSet> llc_line_readers_;  // CPUs holding a copy
  std::vector<PackageState> packages_;
  std::vector<MetricStats> metric_stats_;
  PlacementStats placement_stats_;
  LatencyHistogram wakeup_latency_;
  uint64_t events_ = 0;
  uint64_t lb_migrations_ = 0;
  uint64_t background_events_ = 0;
  uint64_t mm_switches_avoided_ = 0;  // RunTotals::mm_switches_avoided
  int64_t stats_start_ns_ = 0;

  EventQueue queue_;
  // Every change to queue_, ticks_, deliveries_ or exits_ goes through
  // these helpers (or RunUntil's pops), which set others_changed_: RunUntil
  // then recomputes the earliest of those four heads (others_*), and
  // otherwise compares the phase ends' top with the cached one alone.
  EventHandle QueuePush(SimTime time, uint8_t band, uint16_t kind,
                        int32_t cpu = -1, int32_t task = -1) {
    others_changed_ = true;
    return queue_.Push(time, band, kind, cpu, task);
  }
  bool QueueCancel(EventHandle handle) {
    others_changed_ = true;
    return queue_.Cancel(handle);
  }
  bool others_changed_ = true;
  int64_t others_time_ns_ = 0;
  uint64_t others_key_ = 0;
  int others_source_ = 0;
  // Wake-up deliveries (kEvWakeDeliver), never cancelled and due a few
  // microseconds after they are pushed: a sorted ring instead of the heap.
  // Their keys take seqs from queue_, so the merge keeps the exact order.
  EventRing deliveries_;
  void PushDelivery(int64_t time_ns, int cpu, int task) {
    if (deliveries_.PushNewest(time_ns,
                               PackBandSeq(kBandDeliver, queue_.NextSeq()),
                               kEvWakeDeliver, cpu, task)) {
      PrefetchDeliveryTop();
    }
    others_changed_ = true;
  }
  // The next wake-up delivery is a few events away: start bringing its
  // CPU's and task's lines in when it becomes the ring's front (pushed
  // there, or the one before it popped). REQUIRES: !deliveries_.empty().
  void PrefetchDeliveryTop() const {
    const char* task =
        reinterpret_cast<const char*>(tasks_.data() + deliveries_.TopTask());
    const char* cpu =
        reinterpret_cast<const char*>(cpus_.data() + deliveries_.TopCpu());
    __builtin_prefetch(cpu);         // the probed state
    __builtin_prefetch(cpu + 64);    // the runqueue
    __builtin_prefetch(task);        // the op interpreter's line
    __builtin_prefetch(task + 64);   // the scheduler's (enqueue)
    __builtin_prefetch(task + 128);  // wake-up and PELT
  }
  // C-state exits in progress (kEvIdleExitDone), likewise: due the physical
  // exit latency after they are pushed, a few distinct values.
  EventRing exits_;
  void PushIdleExit(int64_t time_ns, int cpu) {
    exits_.PushNewest(time_ns, PackBandSeq(kBandIrq, queue_.NextSeq()),
                      kEvIdleExitDone, cpu, -1);
    others_changed_ = true;
  }
  // Each busy CPU's pending phase end (slot = CPU), keyed like queue_'s
  // events with seqs from queue_.NextSeq(): RunUntil pops the earlier head.
  EventWinnerTree phase_ends_;
  std::vector<int32_t> phase_task_;  // by CPU: the task of its phase end
  // By CPU: the channel its task will use right after the phase (a prefetch
  // hint; a dummy when none).
  std::vector<const ChannelState*> phase_channel_;
  // By CPU: the op its task resumes at when the phase ends (&ops[pc]).
  std::vector<const Op*> phase_op_;
  // By CPU: ReschedulePhaseEnd's last cycles and rate, and the ns they
  // take (CeilNonNegative(cycles * ns_per_cycle)).
  struct PhaseNsMemo {
    int64_t cycles = -1;
    double ns_per_cycle = -1;
    int64_t ns = 0;
  };
  std::vector<PhaseNsMemo> phase_ns_memo_;
  ChannelState no_channel_;
  // Each CPU's next tick (slot = CPU), keyed the same way: kept out of
  // queue_, which then holds only the timers, POLL limits, frequency
  // transitions and PMU evaluations in flight.
  EventWinnerTree ticks_;
  int64_t now_ns_ = 0;
  int64_t tick_ns_ = 4000000;
  int64_t poll_limit_ns_ = 0;
  // Per CPU: the governor's POLL limit (IdleDevice::set_poll_limit_ns,
  // dev->poll_limit_ns); 0 = poll_limit_ns_.
  std::vector<int64_t> gov_poll_limit_ns_;
  // A KVM guest (topo_.guest(); docs/model-idle-frequency.md, "Guests"):
  // whether the host polls after a HLT (not when the guest's haltpoll driver
  // turned it off, SimConfig::kvm_poll_control), its parameters, each vCPU's
  // window (vcpu->halt_poll_ns) and the counters.
  const topology::GuestSpec* guest_ = nullptr;
  bool host_polls_ = false;
  KvmHaltPoll kvm_;
  std::vector<int64_t> kvm_window_ns_;
  GuestTotals guest_stats_;
  int64_t max_khz_ = 0;  // for frequency invariance
  std::string error_;

  std::vector<std::unique_ptr<platform::IdleDevice>> idle_devices_;
  std::unique_ptr<platform::SchedView> sched_view_;
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_SIMULATOR_IMPL_H_
