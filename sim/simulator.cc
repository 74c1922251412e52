// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The engine loop, the execution model (compute phases at the CPU's
// frequency) and the task-program interpreter.

#include "sim/simulator.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <functional>
#include <utility>

#include "absl/strings/str_cat.h"
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

// Inline ops a task may run without time passing before the run stops
// with an error (an endless loop that never blocks or computes).
constexpr int kMaxInlineOps = 1 << 20;

// The streams of the run-to-run variability (noise.cc), forked from the
// run's seed: the background activity and start skew, the work jitter.
constexpr uint64_t kNoiseStream = 0x6e6f697365;     // "noise"
constexpr uint64_t kWorkStream = 0x776f726b;        // "work"
constexpr uint64_t kLayoutStream = 0x6c61796f7574;  // "layout"

// (int64_t)std::ceil(x) and std::llround(x) for 0 <= x < 2^63, without a
// libm call: the portable x86-64 baseline (`-c opt`, no SSE4.1) has no
// rounding instruction, so GCC calls ceil() and llround(). Exact: the
// truncation is exact, and x - trunc(x) is exact for every double.
inline int64_t CeilNonNegative(double x) {
  const int64_t t = static_cast<int64_t>(x);
  return t + (static_cast<double>(t) < x);
}
inline int64_t RoundNonNegative(double x) {  // halves away from zero
  const int64_t t = static_cast<int64_t>(x);
  return t + (x - static_cast<double>(t) >= 0.5);
}

}  // namespace

SimulatorImpl::SimulatorImpl(const topology::Topology& topology,
                             const SimConfig& config, const Policies& policies,
                             uint64_t seed)
    : topo_(topology),
      config_(config),
      policies_(policies),
      rng_(seed),
      noise_rng_(Rng(seed).Fork(kNoiseStream)),
      work_rng_(Rng(seed).Fork(kWorkStream)),
      layout_rng_(Rng(seed).Fork(kLayoutStream)) {}

// Records the first error: RunUntil stops after the current event and
// returns it. Handlers return right after calling it.
void SimulatorImpl::Fail(std::string message) {
  if (error_.empty()) error_ = std::move(message);
}

// What `cpu` executes per ns now: its domain's frequency, times the SMT
// factor while another thread of its core is busy. Cached, inverted, in
// Cpu::ns_per_cycle.
double SimulatorImpl::RateOf(int cpu) const {
  const Cpu& c = cpus_[cpu];
  double rate = static_cast<double>(fdoms_[c.domain].cur_khz) * 1e-6;
  int busy = packages_[c.package].busy_threads_per_core[c.core];
  if (c.mode == CpuMode::kBusy) --busy;
  if (busy > 0) rate = rate * config_.smt_factor_pct / 100.0;
  return rate;
}

void SimulatorImpl::UpdateRate(int cpu) {
  Cpu& c = cpus_[cpu];
  int busy = packages_[c.package].busy_threads_per_core[c.core];
  if (c.mode == CpuMode::kBusy) --busy;
  c.ns_per_cycle = fdoms_[c.domain].ns_per_cycle[busy > 0 ? 1 : 0];
  assert(c.ns_per_cycle == NsPerCycle(RateOf(cpu)));
}

// The same arithmetic as RateOf, done once per frequency change.
void SimulatorImpl::SetCurKhz(FreqDomainState& d, int64_t khz) {
  d.cur_khz = khz;
  const double rate = static_cast<double>(khz) * 1e-6;
  d.ns_per_cycle[0] = NsPerCycle(rate);
  d.ns_per_cycle[1] = NsPerCycle(rate * config_.smt_factor_pct / 100.0);
}

// Accounts the progress of `cpu`'s current phase since seg_start_ns at
// seg_ns_per_cycle: cycles and stall shrink in proportion to the time elapsed.
void SimulatorImpl::SettlePhase(int cpu) {
  Cpu& c = cpus_[cpu];
  if (c.curr < 0) return;
  Task& t = tasks_[c.curr];
  int64_t elapsed = now_ns_ - c.seg_start_ns;
  c.seg_start_ns = now_ns_;
  if (!t.in_phase || elapsed <= 0) return;
  double remaining = static_cast<double>(t.rem_cycles) * c.seg_ns_per_cycle +
                     static_cast<double>(t.rem_stall_ns);
  if (static_cast<double>(elapsed) >= remaining) {
    t.rem_cycles = 0;
    t.rem_stall_ns = 0;
    return;
  }
  double keep = 1.0 - static_cast<double>(elapsed) / remaining;
  t.rem_cycles = RoundNonNegative(static_cast<double>(t.rem_cycles) * keep);
  t.rem_stall_ns = RoundNonNegative(static_cast<double>(t.rem_stall_ns) * keep);
}

void SimulatorImpl::ReschedulePhaseEnd(int cpu) {
  Cpu& c = cpus_[cpu];
  Task& t = tasks_[c.curr];
  assert(c.ns_per_cycle == NsPerCycle(RateOf(cpu)) &&
         "Cpu::ns_per_cycle is stale");
  c.seg_ns_per_cycle = c.ns_per_cycle;
  const int64_t end =
      now_ns_ + t.rem_stall_ns +
      CeilNonNegative(static_cast<double>(t.rem_cycles) * c.seg_ns_per_cycle);
  phase_ends_.Set(cpu, end, PackBandSeq(kBandSched, queue_.NextSeq()));
  phase_task_[cpu] = c.curr;
  phase_op_[cpu] = program_ops_[t.program] + t.pc;
  const int32_t chan_op = next_channel_op_[t.program][t.pc];
  phase_channel_[cpu] =
      chan_op >= 0
          ? &channels_[program_ops_[t.program][chan_op].arg + t.channel_base]
          : &no_channel_;
}

void SimulatorImpl::StartPhase(int cpu, int64_t extra_stall_ns) {
  Cpu& c = cpus_[cpu];
  Task& t = tasks_[c.curr];
  t.in_phase = true;
  t.rem_stall_ns += extra_stall_ns + t.pending_cost_ns;
  t.pending_cost_ns = 0;
  c.seg_start_ns = now_ns_;
  ReschedulePhaseEnd(cpu);
}

// The SMT sibling of `cpu` started or stopped running: the throughput of a
// task running on the sibling changes.
void SimulatorImpl::SiblingChanged(int cpu) {
  for (int32_t s : cpus_[cpu].siblings) {
    Cpu& sc = cpus_[s];
    if (sc.mode != CpuMode::kBusy || sc.curr < 0 || !tasks_[sc.curr].in_phase)
      continue;
    assert(sc.ns_per_cycle == NsPerCycle(RateOf(s)) &&
           "Cpu::ns_per_cycle is stale");
    if (sc.ns_per_cycle == sc.seg_ns_per_cycle) continue;
    SettlePhase(s);
    ReschedulePhaseEnd(s);
  }
}

// Steals `cost_ns` from whatever `cpu` runs (interrupt work): a running
// phase ends later.
void SimulatorImpl::ChargeCpu(int cpu, int64_t cost_ns) {
  Cpu& c = cpus_[cpu];
  if (cost_ns <= 0 || c.curr < 0 || c.mode != CpuMode::kBusy) return;
  Task& t = tasks_[c.curr];
  if (t.in_phase) {
    SettlePhase(cpu);
    t.rem_stall_ns += cost_ns;
    ReschedulePhaseEnd(cpu);
  } else {
    t.pending_cost_ns += cost_ns;
  }
}

int SimulatorImpl::CreateTask(int spec_index, int parent_cpu) {
  const SpecInfo& spec = specs_[spec_index];
  int id = static_cast<int>(tasks_.size());
  Task t;
  t.program = spec.program;
  t.spec = spec_index;
  t.channel_base = spec.channel_base;
  t.policy = spec.policy;
  t.rt_priority = spec.rt_priority;
  t.weight = spec.weight;
  t.uclamp_min = spec.uclamp_min;
  t.uclamp_max = spec.uclamp_max;
  t.has_affinity = spec.affinity >= 0;
  t.cpu = parent_cpu;
  t.pelt.last_update_ns = now_ns_;
  // A new task starts with half the capacity of its CPU as its utilization
  // (post_init_entity_util_avg's cap for an empty runqueue).
  t.pelt.util_avg = 512;
  t.pelt.util_sum = uint64_t{512} * kPeltMinDivider;
  tasks_.push_back(t);
  task_stats_.emplace_back();
  if (layout_sigma_ > 0) task_layout_.push_back(DrawLayoutFactor());
  return id;
}

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
  if (absl::Status s = InitNoise(workload); !s.ok()) return s;
  // Tunables scale by 1 + ilog2(min(ncpus, 8)) (SCHED_TUNABLESCALING_LOG).
  int factor = 1;
  for (int c = std::min(n, 8); c > 1; c >>= 1) ++factor;
  sched_latency_ns_ = config_.sched_latency_ns * factor;
  min_granularity_ns_ = config_.sched_min_granularity_ns * factor;
  wakeup_granularity_ns_ = config_.sched_wakeup_granularity_ns * factor;

  // POLL time limit: the target residency of the first enabled state with a
  // residency of at least 10 us, capped at TICK_NSEC / 16 [KP §3.1].
  poll_limit_ns_ = tick_ns_ / 16;
  for (const topology::CState& s : topo_.cstates()) {
    if (!s.disabled && !s.polling() && s.target_residency_ns >= 10000) {
      poll_limit_ns_ = std::min(poll_limit_ns_, s.target_residency_ns);
      break;
    }
  }

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

  programs_ = workload.programs;
  program_ops_.clear();
  next_channel_op_.clear();
  for (const Program& p : programs_) {
    program_ops_.push_back(p.ops.data());
    std::vector<int32_t> next(p.ops.size(), -1);
    for (size_t pc = 0; pc < p.ops.size(); ++pc) {
      size_t q = pc;
      for (int steps = 0; steps < 8 && q < p.ops.size(); ++steps) {
        const Op& op = p.ops[q];
        if (op.code == OpCode::kSend || op.code == OpCode::kRecv) {
          next[pc] = static_cast<int32_t>(q);
          break;
        }
        if (op.code == OpCode::kEndLoop) {
          q = static_cast<size_t>(op.arg) + 1;
        } else if (op.code == OpCode::kLoop || op.code == OpCode::kMark ||
                   op.code == OpCode::kStamp) {
          ++q;
        } else {
          break;
        }
      }
    }
    next_channel_op_.push_back(std::move(next));
  }
  cpus_.resize(n);
  phase_task_.assign(n, 0);  // valid ids even when unused (prefetched)
  phase_channel_.assign(n, &no_channel_);
  phase_op_.assign(n, nullptr);
  overloaded_.assign((n + 63) / 64, 0);
  probe_.resize(n);
  nr_running_.assign(n, 0);
  for (int cpu = 0; cpu < n; ++cpu) RefreshProbe(cpu);
  phase_ends_.Reset(n);
  ticks_.Reset(n);
  llcs_.resize(topo_.num_llcs());
  for (int cpu = 0; cpu < n; ++cpu) {
    Cpu& c = cpus_[cpu];
    c.llc = topo_.place(cpu).llc;
    c.package = topo_.place(cpu).package;
    c.core = topo_.place(cpu).core;
    const topology::CpuSet& core = topo_.smt_siblings(cpu);
    for (int s = core.First(); s >= 0; s = core.Next(s)) {
      if (s != cpu) c.siblings.push_back(s);
    }
    c.next_balance_ns.assign(domains_.depth(cpu), 0);
    for (int d = 0; d < domains_.depth(cpu); ++d) {
      c.next_balance_ns[d] = domains_.domain(cpu, d).min_interval_ms * 1000000;
    }
    c.stats.states.resize(topo_.cstates().size());
    c.rq.reserve(16);
  }
  for (LlcShared& l : llcs_) l.nr_idle_scan = 0;
  for (int l = 0; l < topo_.num_llcs(); ++l) {
    llcs_[l].nr_idle_scan = topo_.llcs()[l].Count();
  }

  affine_levels_.clear();
  affine_begin_.assign(1, 0);
  for (int cpu = 0; cpu < n; ++cpu) {
    for (int d = 0; d < domains_.depth(cpu); ++d) {
      const topology::SchedDomain& sd = domains_.domain(cpu, d);
      if (sd.has(topology::kSdWakeAffine)) {
        affine_levels_.push_back({&sd, sd.span.words().data()});
      }
    }
    affine_begin_.push_back(static_cast<int32_t>(affine_levels_.size()));
  }

  domain_llcs_.resize(domains_.domains().size());
  for (size_t d = 0; d < domains_.domains().size(); ++d) {
    const topology::CpuSet& span = domains_.domains()[d].span;
    for (int l = 0; l < topo_.num_llcs(); ++l) {
      if (topo_.llcs()[l].Intersects(span)) {
        domain_llcs_[d].push_back(l);
      }
    }
  }
  InitFrequency();

  channels_.resize(workload.channels.size());
  for (size_t i = 0; i < channels_.size(); ++i) {
    const ChannelSpec& spec = workload.channels[i];
    channels_[i].capacity = spec.capacity;
    channels_[i].op_ns = spec.kind == ChannelSpec::Kind::kPipe
                             ? config_.pipe_op_ns
                             : config_.socket_op_ns;
  }
  barriers_.resize(workload.barriers.size());
  for (size_t i = 0; i < barriers_.size(); ++i) {
    barriers_[i].parties = workload.barriers[i].parties;
  }
  metric_stats_.resize(workload.metrics.size());
  for (size_t i = 0; i < metric_stats_.size(); ++i) {
    metric_stats_[i].name = workload.metrics[i];
  }

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
  if (layout_sigma_ > 0) task_layout_.reserve(total);
  for (size_t i = 0; i < workload.tasks.size(); ++i) {
    for (int k = 0; k < workload.tasks[i].count; ++k) {
      int id = CreateTask(static_cast<int>(i), 0);
      Task& t = tasks_[id];
      int cpu = workload.tasks[i].start_cpu;
      if (cpu < 0) {
        cpu = t.policy == SchedPolicy::kFifo
                  ? SelectTaskRqRt(id, 0)
                  : FindIdlestCpu(id, 0, topology::kSdBalanceFork);
      }
      t.cpu = cpu;
      t.state = TaskState::kWaking;
      // Start-time skew: the task arrives a little later (0 without noise).
      const int64_t start_ns = now_ns_ + StartSkewNs();
      t.wake_start_ns = start_ns;
      ++cpus_[cpu].ttwu_pending;
      RefreshProbe(cpu);
      PushDelivery(start_ns, cpu, id);
    }
  }
  return absl::OkStatus();
}

// Inlined into RunUntil: most events are phase ends.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void SimulatorImpl::OnPhaseEnd(int cpu) {
  // The task from phase_task_, not c.curr: the two loads then overlap.
  const int id = phase_task_[cpu];
  Cpu& c = cpus_[cpu];
  assert(c.curr == id);
  Task& t = tasks_[id];
  t.in_phase = false;
  t.rem_cycles = 0;
  t.rem_stall_ns = 0;
  if (t.spinning) {
    // Spun on a barrier until the spin limit: block now.
    t.spinning = false;
    BarrierState& b = barriers_[program_ops_[t.program][t.pc].arg];
    auto it = std::find(b.spinners.begin(), b.spinners.end(), id);
    if (it != b.spinners.end()) b.spinners.erase(it);
    t.next_waiter = b.waiters_head;
    b.waiters_head = id;
    ++t.pc;
    BlockCurrent(cpu, true);
    return Schedule(cpu);
  }
  if (c.need_resched) return Schedule(cpu);
  return RunTask(cpu, id, phase_op_[cpu]);
}

absl::Status SimulatorImpl::RunUntil(SimTime until) {
  if (!error_.empty()) return absl::FailedPreconditionError(error_);
  const int64_t until_ns = until.ns();
  while (true) {
    // The earliest of five heads: the phase ends (most events), the ticks,
    // the wake-up deliveries, the C-state exits, the queue (timers, POLL
    // limits, frequency transitions, the PMU). Empty trees report the
    // largest key.
    int64_t time_ns = phase_ends_.top_time_ns();
    uint64_t key = phase_ends_.top_band_seq();
    int source = 0;
    if (KeyBefore(ticks_.top_time_ns(), ticks_.top_band_seq(), time_ns, key)) {
      time_ns = ticks_.top_time_ns();
      key = ticks_.top_band_seq();
      source = 1;
    }
    // The rings report the largest key when empty.
    if (KeyBefore(deliveries_.TopTime(), deliveries_.TopBandSeq(), time_ns,
                  key)) {
      time_ns = deliveries_.TopTime();
      key = deliveries_.TopBandSeq();
      source = 3;
    }
    if (KeyBefore(exits_.TopTime(), exits_.TopBandSeq(), time_ns, key)) {
      time_ns = exits_.TopTime();
      key = exits_.TopBandSeq();
      source = 4;
    }
    if (!queue_.empty() &&
        KeyBefore(queue_.TopTime().ns(), queue_.TopBandSeq(), time_ns, key)) {
      time_ns = queue_.TopTime().ns();
      source = 2;
    } else if (key == EventWinnerTree::kEmpty) {
      break;  // nothing pending
    }
    if (time_ns > until_ns) break;
    now_ns_ = time_ns;
    ++events_;
    // The next wake-up delivery is a few events away: start bringing its
    // CPU's and task's lines in.
    if (source != 3 && !deliveries_.empty()) {
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
    // Handlers report a broken rule through Fail() (error_), not a return
    // value: the hot path carries no status.
    if (source == 0) {
      // A phase end usually re-arms its slot for the next phase: leave it
      // set, and clear it after the handler only if the handler did not.
      const int cpu = phase_ends_.top_slot();
      // The slot with the next time is most likely the next event (this
      // one re-arms later): start loading its lines now, so that they
      // arrive while this event runs. ReschedulePhaseEnd prefetches the
      // actual next top too, when it is known.
      const int runner = phase_ends_.runner_up_slot();
      __builtin_prefetch(cpus_.data() + runner);
      __builtin_prefetch(tasks_.data() + phase_task_[runner]);
      __builtin_prefetch(phase_channel_[runner]);
      OnPhaseEnd(cpu);
      if (phase_ends_.band_seq(cpu) == key) phase_ends_.Clear(cpu);
    } else if (source == 1) {
      const int cpu = ticks_.top_slot();
      ticks_.Clear(cpu);
      if (cpus_[cpu].mode == CpuMode::kBusy) {
        OnTick(cpu);
      } else {
        OnIdleTick(cpu);
      }
    } else if (source == 3) {
      const Event e = deliveries_.Pop();
      OnWakeDeliver(e.cpu, e.task);
    } else if (source == 4) {
      OnIdleExitDone(exits_.Pop().cpu);
    } else {
      Dispatch(queue_.Pop());
    }
    if (ABSL_PREDICT_FALSE(!error_.empty())) {
      return absl::FailedPreconditionError(error_);
    }
  }
  if (until_ns > now_ns_) now_ns_ = until_ns;
  return absl::OkStatus();
}

// The kinds that live in queue_; RunUntil handles the trees' and the
// rings' events itself.
void SimulatorImpl::Dispatch(const Event& e) {
  switch (static_cast<EventKind>(e.kind)) {
    case kEvTaskTimer:
      return OnTaskTimer(e.cpu, e.task);
    case kEvPollTimeout:
      return OnPollTimeout(e.cpu);
    case kEvFreqDone:
      return OnFreqDone(e.cpu);
    case kEvPmu:
      return OnPmu(e.cpu);
    case kEvNoise:
      return OnNoise(e.cpu, e.task);
    case kEvPhaseEnd:
    case kEvTick:
    case kEvWakeDeliver:
    case kEvIdleExitDone:
      break;  // never queued
  }
  return FailCat("event kind ", e.kind, " does not belong in the queue");
}

// Dequeues the running task of `cpu` (it blocks or exits) and accounts it.
void SimulatorImpl::BlockCurrent(int cpu, bool voluntary) {
  Cpu& c = cpus_[cpu];
  int id = c.curr;
  Task& t = tasks_[id];
  UpdateCurr(cpu);
  UpdatePelt(cpu);
  t.block_start_ns = now_ns_;
  t.last_ran_ns = now_ns_;
  if (t.state != TaskState::kDead) t.state = TaskState::kBlocked;
  if (voluntary) ++task_stats_[id].voluntary_switches;
  if (t.iowait) ++c.nr_iowait;
  c.need_resched = true;
  DequeueTask(cpu, id);
}

// Runs the program of `cpu`'s current task from its pc until it starts a
// phase, blocks, yields or exits.
void SimulatorImpl::RunTask(int cpu, int id, const Op* first) {
  Cpu& c = cpus_[cpu];
  Task& t = tasks_[id];
  const Op* const ops = program_ops_[t.program];
  assert(first == nullptr || first == ops + t.pc);
  const Op* next = first != nullptr ? first : ops + t.pc;
  for (int guard = 0; guard < kMaxInlineOps; ++guard, next = ops + t.pc) {
    const Op& op = *next;
    switch (op.code) {
      case OpCode::kCompute: {
        ++t.pc;
        t.rem_cycles = op.d1.Sample(rng_);
        t.rem_stall_ns = op.d2.Sample(rng_);
        if (jitter_) JitterWork(t);
        if (t.rem_cycles == 0 && t.rem_stall_ns == 0 &&
            t.pending_cost_ns == 0) {
          break;  // nothing to do: no phase (and no zero-length event)
        }
        StartPhase(cpu, 0);
        return;
      }
      case OpCode::kSleep:
      case OpCode::kIoWait: {
        if (t.pending_cost_ns > 0) {  // finish kernel work first
          StartPhase(cpu, 0);
          return;
        }
        ++t.pc;
        int64_t d = op.d1.Sample(rng_);
        t.iowait = op.code == OpCode::kIoWait;
        BlockCurrent(cpu, true);
        queue_.Push(SimTime::FromNanoseconds(now_ns_ + d), kBandTimer,
                    kEvTaskTimer, cpu, id);
        if (!t.iowait) {
          // A sleep is a timer the idle governor can see (its next timer
          // event); an IO completion is a device interrupt it cannot.
          std::vector<int64_t>& timers = cpus_[cpu].timers;
          timers.push_back(now_ns_ + d);
          std::push_heap(timers.begin(), timers.end(), std::greater<int64_t>());
        }
        return Schedule(cpu);
      }
      case OpCode::kSend: {
        // The send (and the wake-up it may do) happens once the kernel work
        // already queued (context switch, a previous receive) is done, so
        // that it sees the reader's real state.
        if (t.pending_cost_ns > 0) {
          StartPhase(cpu, 0);
          return;
        }
        ChannelState& ch = channels_[op.arg + t.channel_base];
        if (ch.messages >= ch.capacity) {
          // Full: wait for a reader (pc stays; retried on wake-up).
          t.next_waiter = -1;
          if (ch.writers_tail >= 0) {
            tasks_[ch.writers_tail].next_waiter = id;
          } else {
            ch.writers_head = id;
          }
          ch.writers_tail = id;
          BlockCurrent(cpu, true);
          return Schedule(cpu);
        }
        ++t.pc;
        ++ch.messages;
        t.pending_cost_ns += ch.op_ns;
        if (ch.readers_head >= 0) {
          int reader = ch.readers_head;
          ch.readers_head = tasks_[reader].next_waiter;
          if (ch.readers_head < 0) ch.readers_tail = -1;
          tasks_[reader].next_waiter = -1;
          TryToWakeUp(reader, cpu, /*from_task=*/true, platform::kWfSync);
        }
        break;
      }
      case OpCode::kRecv: {
        ChannelState& ch = channels_[op.arg + t.channel_base];
        if (ch.messages == 0) {
          if (t.pending_cost_ns > 0) {
            StartPhase(cpu, 0);
            return;
          }
          t.next_waiter = -1;
          if (ch.readers_tail >= 0) {
            tasks_[ch.readers_tail].next_waiter = id;
          } else {
            ch.readers_head = id;
          }
          ch.readers_tail = id;
          BlockCurrent(cpu, true);
          return Schedule(cpu);
        }
        ++t.pc;
        --ch.messages;
        t.pending_cost_ns += ch.op_ns;
        if (ch.writers_head >= 0) {
          int writer = ch.writers_head;
          ch.writers_head = tasks_[writer].next_waiter;
          if (ch.writers_head < 0) ch.writers_tail = -1;
          tasks_[writer].next_waiter = -1;
          TryToWakeUp(writer, cpu, /*from_task=*/true, platform::kWfSync);
        }
        break;
      }
      case OpCode::kBarrier: {
        if (t.pending_cost_ns > 0) {
          StartPhase(cpu, 0);
          return;
        }
        BarrierState& b = barriers_[op.arg];
        if (++b.arrived >= b.parties) {
          // Last to arrive: release everyone.
          b.arrived = 0;
          ++b.generation;
          ++t.pc;
          for (int s : b.spinners) {
            Task& st = tasks_[s];
            st.spinning = false;
            ++st.pc;
            // It is running (spinning): its spin phase ends now.
            Cpu& sc = cpus_[st.cpu];
            if (sc.curr == s && st.in_phase) {
              SettlePhase(st.cpu);
              st.rem_cycles = 0;
              st.rem_stall_ns = 0;
              ReschedulePhaseEnd(st.cpu);
            }
          }
          b.spinners.clear();
          int w = b.waiters_head;
          b.waiters_head = -1;
          while (w >= 0) {
            int next = tasks_[w].next_waiter;
            tasks_[w].next_waiter = -1;
            TryToWakeUp(w, cpu, /*from_task=*/true, 0);
            w = next;
          }
          break;
        }
        int64_t spin = op.d1.Sample(rng_);
        if (spin > 0) {
          // Spin (busy, frequency-independent) until released or timed out.
          t.spinning = true;
          b.spinners.push_back(id);
          t.rem_cycles = 0;
          t.rem_stall_ns = spin;
          StartPhase(cpu, 0);
          return;
        }
        ++t.pc;
        t.next_waiter = b.waiters_head;
        b.waiters_head = id;
        BlockCurrent(cpu, true);
        return Schedule(cpu);
      }
      case OpCode::kYield: {
        ++t.pc;
        if (c.nr_running > 1) {
          // sched_yield: go behind the other runnable tasks.
          UpdateCurr(cpu);
          int rightmost = -1;
          for (int q : c.rq) {
            if (rightmost < 0 ||
                tasks_[q].vruntime > tasks_[rightmost].vruntime)
              rightmost = q;
          }
          if (rightmost >= 0 && t.policy != SchedPolicy::kFifo) {
            t.vruntime = std::max(t.vruntime, tasks_[rightmost].vruntime + 1);
          }
          c.need_resched = true;
          return Schedule(cpu);
        }
        break;
      }
      case OpCode::kFork: {
        ++t.pc;
        // The child runs the given program; its spec is the parent's.
        for (int k = 0; k < op.arg2; ++k) {
          int child = CreateTask(t.spec, cpu);
          Task& ct = tasks_[child];
          ct.program = op.arg;
          int dst = FindIdlestCpu(child, cpu, topology::kSdBalanceFork);
          ++placement_stats_.forks;
          ct.cpu = dst;
          ct.state = TaskState::kWaking;
          ct.wake_start_ns = now_ns_;
          ++cpus_[dst].ttwu_pending;
          RefreshProbe(dst);
          PushDelivery(now_ns_ + config_.wakeup_cost_ns, dst, child);
          tasks_[id].pending_cost_ns += config_.wakeup_cost_ns;
        }
        return RunTask(cpu, id);  // `t` may have moved (tasks_ grew)
      }
      case OpCode::kExit: {
        if (t.pending_cost_ns > 0) {  // finish the last kernel work
          StartPhase(cpu, 0);
          return;
        }
        t.state = TaskState::kDead;
        if (sink_) sink_->OnTaskExit(now_ns_, id);
        BlockCurrent(cpu, true);
        return Schedule(cpu);
      }
      case OpCode::kLoop: {
        if (t.loop_level >= kMaxLoopDepth) {
          return FailCat("task ", id, ": loops nest too deep");
        }
        t.loop_left[t.loop_level++] = op.arg;  // 0 = forever
        ++t.pc;
        break;
      }
      case OpCode::kEndLoop: {
        int32_t& left = t.loop_left[t.loop_level - 1];
        if (left == 0 || --left > 0) {
          t.pc = static_cast<uint32_t>(op.arg + 1);
        } else {
          --t.loop_level;
          ++t.pc;
        }
        break;
      }
      case OpCode::kMark: {
        ++t.pc;
        // Marks and stamps take the time the op really executes: after the
        // kernel work still pending.
        MetricStats& m = metric_stats_[op.arg];
        ++m.count;
        if (t.stamp_ns >= 0) {
          m.latency_ns.Record(now_ns_ + t.pending_cost_ns - t.stamp_ns);
        }
        break;
      }
      case OpCode::kStamp: {
        ++t.pc;
        t.stamp_ns = now_ns_ + t.pending_cost_ns;
        break;
      }
    }
  }
  return FailCat("task ", id, " (program '", programs_[t.program].name,
                 "') ran ", kMaxInlineOps,
                 " operations without computing, sleeping or "
                 "blocking: an endless loop that takes no time");
}

void SimulatorImpl::ResetStats() {
  SimStats unused;
  (void)unused;
  stats_start_ns_ = now_ns_;
  events_ = 0;
  lb_migrations_ = 0;
  background_events_ = 0;
  placement_stats_ = PlacementStats();
  wakeup_latency_ = LatencyHistogram();
  for (TaskCounters& ts : task_stats_) ts = TaskCounters();
  for (Task& t : tasks_) t.run_ns = 0;
  for (MetricStats& m : metric_stats_) {
    std::string name = std::move(m.name);
    m = MetricStats();
    m.name = std::move(name);
  }
  for (Cpu& c : cpus_) {
    if (c.mode == CpuMode::kBusy) {
      AccountBusyEnd(static_cast<int>(&c - cpus_.data()));
      AccountBusyStart(static_cast<int>(&c - cpus_.data()));
    }
    AccountEnergy(static_cast<int>(&c - cpus_.data()));
    size_t nstates = c.stats.states.size();
    c.stats = CpuStats();
    c.stats.states.resize(nstates);
    c.energy_uj = 0;
    if (c.mode == CpuMode::kIdle)
      c.idle_enter_ns = std::max(c.idle_enter_ns, now_ns_);
  }
  for (PackageState& p : packages_) {
    p.stats = PackageStats();
    p.last_energy_uj = 0;
  }
}

SimStats SimulatorImpl::Stats() const {
  // Work on a copy so that open intervals can be closed.
  SimulatorImpl& self = const_cast<SimulatorImpl&>(*this);
  SimStats out;
  out.start_ns = stats_start_ns_;
  out.end_ns = now_ns_;
  out.events = events_;
  out.placement = placement_stats_;
  out.wakeup_latency_ns = wakeup_latency_;
  out.metrics = metric_stats_;
  out.tasks.resize(tasks_.size());
  for (size_t i = 0; i < tasks_.size(); ++i) {
    const Task& t = tasks_[i];
    const TaskCounters& k = task_stats_[i];
    TaskStats& ts = out.tasks[i];
    const SpecInfo& spec = specs_[t.spec];
    ts.name =
        spec_names_.substr(spec.name_begin, spec.name_end - spec.name_begin);
    ts.wakeup_latency_ns = k.wakeup_latency_ns.ToSmall();
    ts.run_ns = t.run_ns;
    ts.iowait_ns = k.iowait_ns;
    ts.migrations = k.migrations;
    ts.wakeups = k.wakeups;
    ts.voluntary_switches = k.voluntary_switches;
    ts.involuntary_switches = k.involuntary_switches;
    ts.exited = t.state == TaskState::kDead;
  }
  out.load_balance_migrations = lb_migrations_;
  out.background_events = background_events_;
  for (size_t i = 0; i < cpus_.size(); ++i) {
    int cpu = static_cast<int>(i);
    if (cpus_[i].mode == CpuMode::kBusy) {
      self.AccountBusyEnd(cpu);
      self.AccountBusyStart(cpu);
    }
    self.AccountEnergy(cpu);
    CpuStats cs = cpus_[i].stats;
    if (cpus_[i].mode == CpuMode::kIdle && cpus_[i].idle_state >= 0) {
      int64_t open =
          now_ns_ - std::max(cpus_[i].idle_enter_ns, stats_start_ns_);
      if (open > 0) {
        cs.idle_ns += open;
        cs.states[cpus_[i].idle_state].time_ns += open;
      }
    }
    std::sort(cs.busy_ns_at_khz.begin(), cs.busy_ns_at_khz.end());
    out.context_switches += cs.context_switches;
    out.migrations += cs.migrations_in;
    out.cpus.push_back(std::move(cs));
  }
  // Package energy: the CPUs' own energy plus uncore and core static power
  // over the whole interval.
  const topology::PowerSpec& pw = topo_.power();
  double seconds = (now_ns_ - stats_start_ns_) * 1e-9;
  for (size_t p = 0; p < packages_.size(); ++p) {
    PackageStats ps = packages_[p].stats;
    double e = 0;
    for (int cpu = packages_[p].cpus.First(); cpu >= 0;
         cpu = packages_[p].cpus.Next(cpu)) {
      e += cpus_[cpu].energy_uj;
    }
    int cores = 0;
    for (int core = 0; core < topo_.num_cores(); ++core) {
      if (topo_.cores()[core].IsSubsetOf(packages_[p].cpus)) ++cores;
    }
    e += (static_cast<double>(pw.uncore_mw) +
          static_cast<double>(pw.static_mw_per_core) * cores) *
         seconds * 1000.0;
    ps.energy_uj = e;
    out.packages.push_back(ps);
  }
  return out;
}

// --- Simulator (public facade) --------------------------------------------

absl::StatusOr<std::unique_ptr<Simulator>> Simulator::Create(
    const topology::Topology& topology, const SimConfig& config,
    const Workload& workload, const Policies& policies, uint64_t seed) {
  if (policies.freq == nullptr || policies.idle == nullptr ||
      policies.placement == nullptr) {
    return absl::InvalidArgumentError(
        "a simulation needs a frequency governor, an idle governor and a "
        "placement policy");
  }
  const int n = topology.num_cpus();
  for (size_t i = 0; i < workload.tasks.size(); ++i) {
    const TaskSpec& t = workload.tasks[i];
    std::string where = absl::StrCat("task '", t.name, "'");
    if (t.program < 0 ||
        t.program >= static_cast<int>(workload.programs.size())) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": program ", t.program, " does not exist (",
                       workload.programs.size(), " programs)"));
    }
    if (t.count < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": negative count"));
    }
    if (t.start_cpu >= 0 && t.start_cpu < n && !t.affinity.empty()) {
      absl::StatusOr<topology::CpuSet> allowed =
          topology::CpuSet::ParseList(t.affinity, n);
      if (allowed.ok() && !allowed->Test(t.start_cpu)) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, ": start CPU ", t.start_cpu,
                         " is outside its affinity ", t.affinity));
      }
    }
    if (t.start_cpu >= n) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": start CPU ", t.start_cpu, " beyond the ", n,
                       " CPUs of ", topology.name()));
    }
    if (t.nice < -20 || t.nice > 19) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": nice ", t.nice, " outside -20..19"));
    }
    if (t.policy == SchedPolicy::kFifo &&
        (t.rt_priority < 1 || t.rt_priority > 99)) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": SCHED_FIFO priority ", t.rt_priority, " outside 1..99"));
    }
  }
  for (size_t p = 0; p < workload.programs.size(); ++p) {
    for (size_t i = 0; i < workload.programs[p].ops.size(); ++i) {
      const Op& op = workload.programs[p].ops[i];
      std::string where =
          absl::StrCat("program '", workload.programs[p].name, "' op ", i, " (",
                       OpCodeName(op.code), ")");
      auto check = [&](size_t limit, const char* what) -> absl::Status {
        if (op.arg < 0 || static_cast<size_t>(op.arg) >= limit) {
          return absl::InvalidArgumentError(
              absl::StrCat(where, ": ", what, " ", op.arg, " does not exist (",
                           limit, " defined)"));
        }
        return absl::OkStatus();
      };
      absl::Status s;
      switch (op.code) {
        case OpCode::kSend:
        case OpCode::kRecv:
          s = check(workload.channels.size(), "channel");
          break;
        case OpCode::kBarrier:
          s = check(workload.barriers.size(), "barrier");
          break;
        case OpCode::kMark:
          s = check(workload.metrics.size(), "metric");
          break;
        case OpCode::kFork:
          s = check(workload.programs.size(), "program");
          break;
        default:
          break;
      }
      if (!s.ok()) return s;
    }
  }
  // Channel ids with each task's base, over every program it may run (its
  // own and those it forks, transitively).
  for (const TaskSpec& t : workload.tasks) {
    std::vector<bool> seen(workload.programs.size(), false);
    std::vector<int> todo = {t.program};
    seen[t.program] = true;
    while (!todo.empty()) {
      int p = todo.back();
      todo.pop_back();
      for (const Op& op : workload.programs[p].ops) {
        if ((op.code == OpCode::kSend || op.code == OpCode::kRecv) &&
            (t.channel_base < 0 ||
             int64_t{op.arg} + t.channel_base >=
                 static_cast<int64_t>(workload.channels.size()))) {
          return absl::InvalidArgumentError(absl::StrCat(
              "task '", t.name, "': channel ", op.arg, " + channel_base ",
              t.channel_base, " does not exist (", workload.channels.size(),
              " defined)"));
        }
        if (op.code == OpCode::kFork && !seen[op.arg]) {
          seen[op.arg] = true;
          todo.push_back(op.arg);
        }
      }
    }
  }
  for (const BarrierSpec& b : workload.barriers) {
    if (b.parties < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("barrier '", b.name, "': parties must be >= 1"));
    }
  }
  for (const ChannelSpec& c : workload.channels) {
    if (c.capacity < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("channel '", c.name, "': capacity must be >= 1"));
    }
  }
  auto impl = std::make_unique<SimulatorImpl>(topology, config, policies, seed);
  absl::Status s = impl->Init(workload);
  if (!s.ok()) return s;
  return std::unique_ptr<Simulator>(new Simulator(std::move(impl)));
}

Simulator::Simulator(std::unique_ptr<SimulatorImpl> impl)
    : impl_(std::move(impl)) {}
Simulator::~Simulator() = default;

absl::Status Simulator::RunUntil(SimTime until) {
  return impl_->RunUntil(until);
}
absl::Status Simulator::RunFor(SimDuration duration) {
  return impl_->RunUntil(now() + duration);
}
SimTime Simulator::now() const {
  return SimTime::FromNanoseconds(impl_->now_ns());
}
void Simulator::ResetStats() { impl_->ResetStats(); }
SimStats Simulator::Stats() const { return impl_->Stats(); }
void Simulator::set_trace_sink(TraceSink* sink) { impl_->sink_ = sink; }
const topology::Topology& Simulator::topology() const { return impl_->topo(); }
const topology::SchedDomains& Simulator::domains() const {
  return impl_->domains();
}
int Simulator::task_count() const {
  return static_cast<int>(impl_->tasks_.size());
}
int Simulator::task_cpu(int task) const { return impl_->tasks_[task].cpu; }
bool Simulator::task_running(int task) const {
  const Task& t = impl_->tasks_[task];
  return impl_->cpus_[t.cpu].curr == task;
}
int Simulator::cpu_idle_state(int cpu) const {
  const Cpu& c = impl_->cpus_[cpu];
  return c.mode == CpuMode::kIdle ? c.idle_state : -1;
}
int64_t Simulator::cpu_khz(int cpu) const {
  return impl_->fdoms_[impl_->cpus_[cpu].domain].cur_khz;
}

}  // namespace schedsim::sim
