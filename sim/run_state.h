// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The run around the kernel's state (sim/engine_state.h): the machine as
// booted, the config, the workload as the simulator keeps it (task specs;
// its programs, barriers and metrics are TaskPrograms'), the policies,
// the random streams, the statistics, the pending events and the clock.
// The second base of SimulatorImpl (sim/simulator_impl.h), whose methods
// are the engine's parts; its members keep their order in SimulatorImpl's
// layout. Private to sim/.

#ifndef SCHEDSIM_SIM_RUN_STATE_H_
#define SCHEDSIM_SIM_RUN_STATE_H_

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "platform/cpuidle.h"
#include "platform/placement.h"
#include "sim/config.h"
#include "sim/engine_events.h"
#include "sim/engine_state.h"
#include "sim/event_queue.h"
#include "sim/event_ring.h"
#include "sim/histogram.h"
#include "sim/program.h"
#include "sim/rng.h"
#include "sim/shared_objects.h"
#include "sim/simulator.h"
#include "sim/stats.h"
#include "sim/winner_tree.h"
#include "sim/workload.h"
#include "topology/cpuset.h"
#include "topology/sched_domains.h"
#include "topology/topology.h"

namespace schedsim::sim {

class RunState : public EngineState {
 public:
  RunState(const topology::Topology& topology, const SimConfig& config,
           const Policies& policies, uint64_t seed);

  // --- Shared with the platform views -----------------------------------
  const topology::Topology& topo() const { return topo_; }
  const topology::SchedDomains& domains() const { return domains_; }
  const SimConfig& config() const { return config_; }
  int64_t now_ns() const { return now_ns_; }
  int64_t tick_ns() const { return tick_ns_; }
  int64_t max_khz() const { return max_khz_; }
  int64_t UclampUpdateNs(int cpu) const {
    return KernelWorkNs(cpu, config_.uclamp_enqueue_cost_ns);
  }

 protected:
  // Kernel CPU work of `ns_at_top` ns at the machine's top frequency: how
  // long it takes on `cpu` now (SimConfig::kernel_work_at_frequency; the
  // ns unchanged when off).
  int64_t KernelWorkNs(int cpu, int64_t ns_at_top) const {
    if (kernel_cycles_per_ns_ == 0) return ns_at_top;
    const double ns = static_cast<double>(ns_at_top) * kernel_cycles_per_ns_ *
                      cpus_[cpu].ns_per_cycle;
    return static_cast<int64_t>(ns + 0.5);
  }
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
  // Arms `cpu`'s next tick at time_ns (band kBandTimer).
  void SetTick(int cpu, int64_t time_ns) {
    ticks_.Set(cpu, time_ns, PackBandSeq(kBandTimer, queue_.NextSeq()));
    others_changed_ = true;
  }
  void ClearTick(int cpu) {
    ticks_.Clear(cpu);
    others_changed_ = true;
  }

  // The machine as booted: a copy without HWP when config.hwp is false on
  // an HWP part (intel_pstate=no_hwp), else empty; topo_ is it or the
  // caller's.
  std::optional<topology::Topology> booted_;
  const topology::Topology& topo_;
  SimConfig config_;
  // The workload as the simulator keeps it: per task spec what CreateTask
  // needs (names concatenated in spec_names_).
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
  std::vector<SpecInfo> specs_;
  std::string spec_names_;
  Policies policies_;
  Rng rng_;
  topology::SchedDomains domains_;
  // See SpecInfo::affinity; EngineState::spec_allowed_ points into it.
  std::vector<topology::CpuSet> affinities_;
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
  ChannelState no_channel_;
  // Each CPU's next tick (slot = CPU), keyed the same way: kept out of
  // queue_, which then holds only the timers, POLL limits, frequency
  // transitions and PMU evaluations in flight.
  EventWinnerTree ticks_;
  int64_t now_ns_ = 0;
  int64_t tick_ns_ = 4000000;
  int64_t max_khz_ = 0;  // for frequency invariance
  std::string error_;

  std::vector<std::unique_ptr<platform::IdleDevice>> idle_devices_;
  std::unique_ptr<platform::SchedView> sched_view_;
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_RUN_STATE_H_
