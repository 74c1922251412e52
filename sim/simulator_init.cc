// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Building a simulation: SimulatorImpl's construction and Init, the boot
// of the modelled machine: the CPUs and runqueues (sched_init(),
// kernel/sched/core.c), the scheduling domains and their per-LLC shared
// state (build_sched_domains(), kernel/sched/topology.c, Linux 6.1), the
// programs and task specs, the policies' views and the initial tasks.
// Simulator::Create's checks of the workload are workload_checks.cc; a
// task's creation and reuse of its slot, fork.cc.

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "sim/simulator.h"
#include "sim/simulator_impl.h"

namespace schedsim::sim {

namespace {

// Nice-to-weight table of the fair class (sched_prio_to_weight): each nice
// level is ~10% of CPU time, weight(0) = 1024, weight ratio 1.25 per level.
constexpr int32_t kNiceWeights[40] = {
    88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
    9548,  7620,  6100,  4904,  3906,  3121,  2501,  1991,  1586,  1277,
    1024,  820,   655,   526,   423,   335,   272,   215,   172,   137,
    110,   87,    70,    56,    45,    36,    29,    23,    18,    15};

}  // namespace

SimulatorImpl::SimulatorImpl(const topology::Topology& topology,
                             const SimConfig& config, const Policies& policies,
                             uint64_t seed)
    : RunState(topology, config, policies, seed), noise_(seed) {}

RunState::RunState(const topology::Topology& topology, const SimConfig& config,
                   const Policies& policies, uint64_t seed)
    : booted_(!config.hwp && topology.frequency().has_hwp
                  ? std::optional<topology::Topology>(topology.WithoutHwp())
                  : std::nullopt),
      topo_(booted_ ? *booted_ : topology),
      config_(config),
      policies_(policies),
      rng_(seed) {}

absl::Status SimulatorImpl::Init(const Workload& workload) {
  const int n = topo_.num_cpus();
  absl::StatusOr<topology::SchedDomains> domains =
      topology::BuildSchedDomains(topo_);
  if (!domains.ok()) return domains.status();
  domains_ = *std::move(domains);
  all_cpus_ = topo_.all_cpus();
  if (config_.hz <= 0 || config_.hz > 10000) {
    return absl::InvalidArgumentError(
        absl::StrCat("hz must be in 1..10000, got ", config_.hz));
  }
  tick_ns_ = 1000000000 / config_.hz;
  if (absl::Status s = noise_.Init(config_, workload.work_cv); !s.ok()) {
    return s;
  }
  // Tunables scale by 1 + ilog2(min(ncpus, 8)) (SCHED_TUNABLESCALING_LOG).
  int factor = 1;
  for (int c = std::min(n, 8); c > 1; c >>= 1) ++factor;
  FairTunables fair;
  fair.latency_ns = config_.sched_latency_ns * factor;
  fair.min_granularity_ns = config_.sched_min_granularity_ns * factor;
  fair.wakeup_granularity_ns = config_.sched_wakeup_granularity_ns * factor;
  fair.base_slice_ns = config_.sched_base_slice_ns * factor;
  fair.tick_ns = tick_ns_;
  fair.buddies = config_.cfs_buddies;
  fair.run_to_parity = config_.run_to_parity;
  fair.place_lag = config_.place_lag;
  fair.place_deadline_initial = config_.place_deadline_initial;
  fair.preempt_short = config_.preempt_short;
  fair.delay_dequeue = config_.delay_dequeue;
  fair.delay_zero = config_.delay_zero;
  eevdf_on_ = config_.eevdf;

  // The POLL time limit (cpuidle_poll_time()) and a guest's halt polling.
  idle_.Init(tick_ns_);

  // What tasks are created from: the specs, compacted (names in one
  // string), with their affinity masks parsed.
  specs_.resize(workload.tasks.size());
  for (size_t i = 0; i < workload.tasks.size(); ++i) {
    const TaskSpec& spec = workload.tasks[i];
    SpecInfo& info = specs_[i];
    info.program = spec.program;
    info.channel_base = spec.channel_base;
    info.policy = spec.policy;
    info.rt_priority = static_cast<uint8_t>(spec.rt_priority);
    info.working_set_bytes = spec.working_set_bytes;
    info.slice_ns = spec.slice_ns;
    info.mm = spec.mm;
    info.weight = kNiceWeights[std::clamp(spec.nice, -20, 19) + 20];
    int64_t default_min =
        spec.policy == SchedPolicy::kFifo ? config_.uclamp_rt_default_min : 0;
    info.uclamp_min = static_cast<int16_t>(std::clamp<int64_t>(
        spec.uclamp_min < 0 ? default_min : spec.uclamp_min, 0, 1024));
    info.uclamp_max = static_cast<int16_t>(
        std::clamp(spec.uclamp_max < 0 ? 1024 : spec.uclamp_max, 0, 1024));
    info.name_begin = static_cast<uint32_t>(spec_names_.size());
    spec_names_ += spec.name;
    info.name_end = static_cast<uint32_t>(spec_names_.size());
    if (spec.affinity.empty()) continue;
    absl::StatusOr<topology::CpuSet> set =
        topology::CpuSet::ParseList(spec.affinity, n);
    if (!set.ok() || set->Empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "task '", spec.name, "': affinity '", spec.affinity,
          "' is not a non-empty CPU list of this ", n, "-CPU machine"));
    }
    info.affinity = static_cast<int32_t>(affinities_.size());
    affinities_.push_back(*std::move(set));
  }
  spec_names_.shrink_to_fit();
  // p->cpus_ptr by spec (affinities_ is complete: no pointer moves).
  spec_allowed_.resize(specs_.size());
  for (size_t i = 0; i < specs_.size(); ++i) {
    spec_allowed_[i] =
        specs_[i].affinity < 0
            ? &all_cpus_
            : &affinities_[static_cast<size_t>(specs_[i].affinity)];
  }

  progs_.Init(workload);
  cpus_.resize(n);
  loaded_mm_.assign(n, -1);
  Fair([&](auto& f) { f.Init(n, fair); });
  rq_load_.assign(n, PeltSignal{});
  util_est_ = config_.util_est;
  // sched_uclamp_used is switched on by a task's sched_setattr() clamp;
  // an RT task's default boost (sysctl_sched_uclamp_util_min_rt_default)
  // does not switch it on.
  bool clamp_set = false;
  for (const TaskSpec& spec : workload.tasks) {
    clamp_set |= spec.uclamp_min >= 0 || spec.uclamp_max >= 0;
  }
  uclamp_costs_ = config_.uclamp && (!config_.uclamp_static_key || clamp_set);
  dequeue_debt_ns_.assign(n, 0);
  rq_util_est_.assign(util_est_ ? n : 0, 0);
  track_load_ = config_.load_balance && config_.balance_by_load;
  phase_task_.assign(n, 0);  // valid ids even when unused (prefetched)
  phase_channel_.assign(n, &no_channel_);
  phase_op_.assign(n, nullptr);
  exec_.Init(n);
  lb_.Init(tick_ns_);
  sched_idle_bit_ = config_.sched_idle_fallback ? kProbeSchedIdle : 0;
  // sched_cluster_active: enabled by build_sched_domains() when a CPU has
  // an SD_CLUSTER domain (kernel/sched/topology.c, v6.7).
  cluster_scan_active_ = false;
  if (config_.sis_cluster_scan) {
    for (int cpu = 0; cpu < n && !cluster_scan_active_; ++cpu) {
      for (const topology::SchedDomain* d : domains_.Stack(cpu)) {
        if (d->name == "CLS") cluster_scan_active_ = true;
      }
    }
  }
  cache_.Init(workload.lines);
  phase_ends_.Reset(n);
  ticks_.Reset(n);
  // Places, siblings, balance state, LLCs, domains' LLCs (engine_state.cc).
  InitLayout(topo_, domains_);
  for (Cpu& c : cpus_) {
    c.stats.states.resize(topo_.cstates().size());
    c.rq.reserve(16);
  }
  for (int cpu = 0; cpu < n; ++cpu) RefreshProbe(cpu);

  wake_.Init();

  InitFrequency();

  chan_.Init(workload, config_);

  // The background activity's first events, then every CPU starts idle
  // (its governor sees the background timers).
  ArmNoise();
  for (int cpu = 0; cpu < n; ++cpu) {
    EnterIdle(cpu);
    if (!error_.empty()) return absl::FailedPreconditionError(error_);
  }

  // Initial tasks: placed on their start CPU or by fork balancing from CPU
  // 0, then woken as new tasks.
  size_t total = 0;
  for (const TaskSpec& spec : workload.tasks) total += spec.count;
  tasks_.reserve(total);
  task_stats_.reserve(total);
  task_load_.reserve(total);
  if (util_est_) task_util_est_.reserve(total);
  chan_.ReserveTasks(total);
  noise_.ReserveTasks(total);
  for (size_t i = 0; i < workload.tasks.size(); ++i) {
    for (int k = 0; k < workload.tasks[i].count; ++k) {
      int id = CreateTask(static_cast<int>(i), 0);
      Task& t = tasks_[id];
      int cpu = workload.tasks[i].start_cpu;
      if (cpu < 0) {
        cpu = t.policy == SchedPolicy::kFifo
                  ? wake_.SelectTaskRqRt(id, 0)
                  : wake_.FindIdlestCpu(id, 0, topology::kSdBalanceFork);
      }
      t.cpu = cpu;
      PostInitUtil(cpu, id);
      t.state = TaskState::kWaking;
      // Start-time skew: the task arrives a little later (0 without noise).
      const int64_t start_ns = now_ns_ + noise_.StartSkewNs();
      t.wake_start_ns = start_ns;
      ++cpus_[cpu].ttwu_pending;
      RefreshProbe(cpu);
      PushDelivery(start_ns, cpu, id);
    }
  }
  return absl::OkStatus();
}

}  // namespace schedsim::sim
