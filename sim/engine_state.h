// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The state the engine's parts share, as the kernel keeps it: the CPUs
// and their runqueues (struct rq, sim/sched_state.h), the tasks (struct
// task_struct), the per-LLC shared state (struct sched_domain_shared,
// kernel/sched/topology.c, Linux 6.1), the frequency domains, the fair
// class (sim/fair_class.h) and the per-CPU and per-task arrays kept
// beside Cpu and Task. The first base of SimulatorImpl
// (sim/simulator_impl.h): its members are declared in the order they had
// in SimulatorImpl, and come first in its layout. Private to sim/.

#ifndef SCHEDSIM_SIM_ENGINE_STATE_H_
#define SCHEDSIM_SIM_ENGINE_STATE_H_

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/base/optimization.h"
#include "sim/cfs.h"
#include "sim/eevdf.h"
#include "sim/freq_state.h"
#include "sim/pelt.h"
#include "sim/sched_state.h"
#include "sim/stats.h"
#include "topology/cpuset.h"
#include "topology/sched_domains.h"
#include "topology/topology.h"

namespace schedsim::sim {

class TraceSink;  // sim/trace_sink.h

class EngineState {
 public:
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
  // --- The platform views' interface (sched_view.cc, idle_path.cc,
  // freq.cc): the state read-only, the writes a placement hook makes, and
  // the probes a wake-up's scan is billed for.
  const Cpu& cpu_state(int cpu) const { return cpus_[cpu]; }
  const FreqDomainState& domain_state(int domain) const {
    return fdoms_[domain];
  }
  bool has_idle_cores(int llc) const { return llcs_[llc].has_idle_cores; }
  void set_has_idle_cores(int llc, bool value) {
    llcs_[llc].has_idle_cores = value;
  }
  int nr_idle_scan(int llc) const { return llcs_[llc].nr_idle_scan; }
  bool cluster_scan_active() const { return cluster_scan_active_; }
  int64_t avg_scan_cost_ns(int cpu) const { return avg_scan_cost_ns_[cpu]; }
  void set_avg_scan_cost_ns(int cpu, int64_t value) {
    avg_scan_cost_ns_[cpu] = value;
  }
  // SIS_PROP's wake_avg_idle of `cpu`, aged by one halving per jiffy from
  // its stamp up to `jiffies`.
  int64_t AgeWakeAvgIdleNs(int cpu, int64_t jiffies) {
    Cpu& c = cpus_[cpu];
    while (c.wake_stamp_jiffies < jiffies && c.wake_avg_idle_ns > 0) {
      ++c.wake_stamp_jiffies;
      c.wake_avg_idle_ns /= 2;
    }
    return c.wake_avg_idle_ns;
  }
  void set_wake_avg_idle_ns(int cpu, int64_t value) {
    cpus_[cpu].wake_avg_idle_ns = value;
  }
  void CountProbe() { ++scan_probes_; }
  int64_t scan_probes() const { return scan_probes_; }
  // cpu_util_cfs() of `cpu` of capacity `capacity`: its runqueue's
  // utilization (UTIL_EST's estimate when higher), capped at the capacity.
  int64_t CpuUtil(int cpu, int64_t capacity) const {
    int64_t util = cpus_[cpu].rq_pelt.util_avg;
    if (util_est_) util = std::max<int64_t>(util, rq_util_est_[cpu]);
    return std::min<int64_t>(util, capacity);
  }

 protected:
  // The machine's layout, as build_sched_domains() and sd_init() leave it
  // (kernel/sched/topology.c, v6.1): each CPU's place, SMT siblings and
  // per-level balance state (balance_interval = min_interval, the last
  // balance an hour before the run, so a CPU's first busy tick finds every
  // level due); the LLCs and the LLCs each domain spans; the per-CPU
  // arrays sized, zero. The engine's Init and the parts' tests build the
  // state with this one body (engine_state.cc).
  void InitLayout(const topology::Topology& topo,
                  const topology::SchedDomains& domains);

  // The engine's parts that read and write the state as the kernel's
  // fair.c does struct rq.
  friend class LoadBalancer;
  friend class WakePlacement;
  friend class Frequency;
  friend class IdlePath;

  // p->cpus_ptr of task `t`.
  const topology::CpuSet* AllowedOf(const Task& t) const {
    return t.has_affinity ? spec_allowed_[t.spec] : &all_cpus_;
  }
  // add_nr_running() / sub_nr_running(): `cpu`'s runnable tasks change by
  // `delta`; its LLC's count of overloaded CPUs (nr_running >= 2) and the
  // overloaded_ bits follow.
  void NoteNrRunning(int cpu, int delta) {
    Cpu& c = cpus_[cpu];
    const bool was = c.nr_running >= 2;
    c.nr_running += delta;
    nr_running_[cpu] = c.nr_running;
    const bool is = c.nr_running >= 2;
    if (was != is) {
      llcs_[c.llc].nr_overloaded += is ? 1 : -1;
      overloaded_[cpu >> 6] ^= uint64_t{1} << (cpu & 63);
    }
  }

  std::vector<Cpu> cpus_;
  std::vector<FreqDomainState> fdoms_;
  std::vector<PackageState> packages_;
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
  // Per CPU, the address space loaded (cpu_tlbstate.loaded_mm): the
  // TaskSpec::mm of the last task run there; the idle task keeps it (lazy
  // TLB). -1: not declared. Outside Cpu, which is full.
  std::vector<int32_t> loaded_mm_;
  // Whether task_load_ and rq_load_ are kept: only LoadBalance() reads
  // them (SimConfig::balance_by_load with load_balance on).
  bool track_load_ = false;
  // Each CPU's cfs_rq->avg.load_avg signal (PeltUpdateLoad), beside Cpu
  // to keep Cpu within eight cache lines.
  std::vector<PeltSignal> rq_load_;
  // p->cpus_ptr: the machine's CPUs, and by task spec the CPUs its tasks
  // may run on (&all_cpus_ for a spec without an affinity).
  topology::CpuSet all_cpus_;
  std::vector<const topology::CpuSet*> spec_allowed_;

 protected:
  // PELT's invariance factor (0..1024) of `cpu` now: its domain's
  // frequency scale times its capacity (Cpu::pelt_scale).
  uint32_t PeltScaleOf(int cpu) const { return cpus_[cpu].pelt_scale; }
  // Cycles per ns of the biggest CPU at the machine's top frequency when
  // kernel_work_at_frequency is on, else 0.
  double kernel_cycles_per_ns_ = 0;

 public:
  // The cache lines of per-LLC scheduler state the placement hooks use.
  enum class LlcLine : uint8_t {
    kSdLlcShared = 0,  // struct sched_domain_shared: has_idle_cores
    kPolicy = 1,       // the policy's own (SchedView::*_policy_llc_line)
  };
  static constexpr int kLlcLines = 2;

 protected:
  // The CPU whose hook is running (-1: none; accesses are not charged) and
  // what its line accesses have cost so far.
  int32_t line_cpu_ = -1;
  int64_t line_cost_ns_ = 0;
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_ENGINE_STATE_H_
