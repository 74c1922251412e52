// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The wake-up and fork placement decisions as a part of the engine,
// over the shared state of sim/engine_state.h (kernel/sched/fair.c,
// Linux 6.1): record_wakee(), wake_wide(), wake_affine() with
// wake_affine_idle() and wake_affine_weight(), cpu_load() and the task's
// load as estimated here, the lowest SD_WAKE_AFFINE domain spanning the
// previous CPU (select_task_rq_fair()'s domain walk), find_idlest_cpu()
// with find_idlest_group() and find_idlest_group_cpu() for fork and exec,
// and select_task_rq_rt() simplified. The part owns each CPU's list of
// SD_WAKE_AFFINE domains. The engine (wakeup.cc) runs try_to_wake_up(),
// asks the placement policy for select_idle_sibling() and counts the
// outcomes. Private to sim/.
//
// Simplifications: cpu_load() and task_h_load() are estimated from PELT
// utilization and weights (schedsim keeps no separate load_avg signal
// for the wake-up); record_wakee runs only for wake-ups by a task, not
// from interrupts.

#ifndef SCHEDSIM_SIM_WAKE_PLACEMENT_H_
#define SCHEDSIM_SIM_WAKE_PLACEMENT_H_

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "sim/config.h"
#include "sim/engine_state.h"
#include "sim/sched_state.h"
#include "topology/cpuset.h"
#include "topology/sched_domains.h"
#include "topology/topology.h"

namespace schedsim::sim {

class WakePlacement {
 public:
  // Reads and writes `state`; reads the others, which must outlive it
  // (`now_ns` is the engine's clock).
  WakePlacement(EngineState& state, const topology::Topology& topo,
                const topology::SchedDomains& domains, const SimConfig& config,
                const int64_t& now_ns)
      : s_(state),
        topo_(topo),
        domains_(domains),
        config_(config),
        now_ns_(now_ns) {}
  WakePlacement(const WakePlacement&) = delete;
  WakePlacement& operator=(const WakePlacement&) = delete;

  // Lists each CPU's SD_WAKE_AFFINE domains (domains built).
  void Init();

  // cpu_load(): the runqueue's load, estimated from its utilization and
  // the average weight of its fair tasks, plus one average weight per
  // queued task; a CPU with no fair task, its decaying utilization.
  int64_t CpuLoad(int cpu) const {
    const Cpu& c = s_.cpus_[cpu];
    if (c.nr_fair == 0) return c.rq_pelt.util_avg;  // blocked load decaying
    int64_t avg_weight = c.load_weight / c.nr_fair;
    return c.rq_pelt.util_avg * avg_weight / 1024 +
           int64_t{std::max(c.nr_fair - 1, 0)} * avg_weight;
  }
  // task_h_load(): utilization times weight / 1024.
  int64_t TaskLoad(int task) const {
    const Task& t = s_.tasks_[task];
    return int64_t{t.pelt.util_avg} * t.weight / 1024;
  }
  // record_wakee(): the waker's wakee_flips halve once a second and count
  // each change of wakee.
  void RecordWakee(int waker_task, int task) {
    Task& w = s_.tasks_[waker_task];
    if (now_ns_ > w.wakee_flip_decay_ns + 1000000000) {
      w.wakee_flips >>= 1;
      w.wakee_flip_decay_ns = now_ns_;
    }
    if (w.last_wakee != task) {
      w.last_wakee = task;
      ++w.wakee_flips;
    }
  }
  // wake_wide(): the waker and wakee flip among more partners than the
  // waker's LLC has CPUs (a 1:N pattern); never for an interrupt's wake-up
  // (`waker_task` -1).
  bool WakeWide(int task, int waker_task) const {
    if (waker_task < 0) return false;
    uint32_t master = s_.tasks_[waker_task].wakee_flips;
    uint32_t slave = s_.tasks_[task].wakee_flips;
    if (master < slave) std::swap(master, slave);
    uint32_t factor = static_cast<uint32_t>(
        domains_.llc_size(s_.cpus_.empty() ? 0 : s_.tasks_[waker_task].cpu));
    return slave >= factor && master >= slave * factor;
  }
  // select_task_rq_fair()'s walk: the lowest SD_WAKE_AFFINE domain of
  // `this_cpu` that spans `prev`, or nullptr.
  const topology::SchedDomain* AffineDomain(int this_cpu, int prev) const {
    for (int i = affine_begin_[this_cpu]; i < affine_begin_[this_cpu + 1];
         ++i) {
      const AffineLevel& l = affine_levels_[i];
      if ((l.span[prev >> 6] >> (prev & 63)) & 1) return l.sd;
    }
    return nullptr;
  }
  // wake_affine(): `this_cpu` (the waker's) or `prev` for the wakee
  // `task` in `sd`: wake_affine_idle() first, then wake_affine_weight()
  // (with `waker_task`'s load taken off this CPU for a `sync` wake-up).
  int WakeAffine(const topology::SchedDomain& sd, int task, int this_cpu,
                 int prev, bool sync, int waker_task) const;
  // find_idlest_cpu() for `task` from `this_cpu` over the domains with
  // `sd_flag` (SD_BALANCE_FORK or SD_BALANCE_EXEC).
  int FindIdlestCpu(int task, int this_cpu, uint32_t sd_flag) const;
  // select_task_rq_rt(), simplified: stay on `prev` unless it runs an RT
  // task of equal or higher priority; then the first allowed CPU that is
  // idle, else one running a fair task.
  int SelectTaskRqRt(int task, int prev) const;

 private:
  struct AffineLevel {
    const topology::SchedDomain* sd;
    const uint64_t* span;  // sd->span's words
  };

  EngineState& s_;
  const topology::Topology& topo_;
  const topology::SchedDomains& domains_;
  const SimConfig& config_;
  const int64_t& now_ns_;
  // By CPU, its SD_WAKE_AFFINE domains lowest first: CPU c's are
  // affine_levels_[affine_begin_[c] .. affine_begin_[c + 1]).
  std::vector<AffineLevel> affine_levels_;
  std::vector<int32_t> affine_begin_;
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_WAKE_PLACEMENT_H_
