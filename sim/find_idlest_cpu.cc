// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The fork and exec balance: find_idlest_cpu() walking down the
// SD_BALANCE_FORK / SD_BALANCE_EXEC domains with find_idlest_group() and
// find_idlest_group_cpu() (kernel/sched/fair.c, Linux 6.1), called by
// wake_up_new_task() and sched_exec() through select_task_rq_fair().

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "sim/load_balancer.h"
#include "sim/wake_placement.h"

namespace schedsim::sim {

int WakePlacement::FindIdlestCpu(int task, int this_cpu,
                                 uint32_t sd_flag) const {
  const topology::CpuSet* allowed = s_.AllowedOf(s_.tasks_[task]);
  int top = -1;
  for (int i = 0; i < domains_.depth(this_cpu); ++i) {
    if (domains_.domain(this_cpu, i).has(sd_flag)) top = i;
  }
  int cpu = allowed->Test(this_cpu) ? this_cpu : allowed->First();
  if (top < 0) return cpu;
  // sched_exec() balances the task that is running: find_idlest_group()
  // sees its CPU without it (cpu_util_without(), idle_cpu_without(),
  // kernel/sched/fair.c, v6.1), and keeps the local group when it has as
  // many idle CPUs as the idlest one.
  const bool self =
      sd_flag == topology::kSdBalanceExec && s_.cpus_[this_cpu].curr == task;
  const bool self_idle = self && s_.cpus_[this_cpu].nr_running == 1 &&
                         s_.cpus_[this_cpu].ttwu_pending == 0;
  auto idle_at = [&](int c) {
    return s_.available_idle(c) || (self_idle && c == this_cpu);
  };
  int level = top;
  int owner = this_cpu;
  while (level >= 0) {
    const topology::SchedDomain& sd = domains_.domain(owner, level);
    // find_idlest_group() (kernel/sched/fair.c, v6.1). With
    // SimConfig::find_idlest_group_local: the idlest group other than the
    // local one (the one holding `owner`): spare capacity first, then most
    // idle CPUs, then fewest runnable tasks, then lowest utilization
    // (update_pick_idlest(), with the task count as a tie-break of ours).
    // Then the local group is kept (no group: descend from `owner`'s own
    // child domain) when it has spare capacity and the idlest has none;
    // when both have spare capacity, on an SD_NUMA level while the local
    // group would hold at most imb_numa_nr running tasks and the idle CPUs
    // differ by at most NUMA_IMBALANCE_MIN (2) (adjust_numa_imbalance()),
    // and otherwise while it has as many idle CPUs as the idlest.
    // Simplified: a group has spare capacity while it runs fewer tasks
    // than it has CPUs or its utilization is below its capacity by
    // imbalance_pct (group_has_capacity() without the runnable test), and
    // two busy groups compare as above without the local preference (no
    // avg_load with imbalance_pct). Without the switch (the default, see
    // docs/validation.md): the group with the most idle CPUs, then the
    // fewest tasks, then the lowest utilization, the local group kept on
    // equal idle CPUs only for sched_exec().
    struct Pick {
      const topology::CpuSet* g = nullptr;
      int idle = -1;
      int64_t nr = 0, util = 0;
      bool spare = false;
    };
    auto idler = [](const Pick& a, const Pick& b) {  // without the spare test
      return b.g == nullptr || a.idle > b.idle ||
             (a.idle == b.idle &&
              (a.nr < b.nr || (a.nr == b.nr && a.util < b.util)));
    };
    auto better = [&](const Pick& a, const Pick& b) {
      if (b.g != nullptr && a.spare != b.spare) return a.spare;
      return idler(a, b);
    };
    const bool kernel_local = config_.find_idlest_group_local;
    Pick idlest, local;
    for (const topology::CpuSet& g : sd.groups) {
      if (!g.Intersects(*allowed)) continue;
      Pick s;
      s.g = &g;
      s.idle = 0;
      int64_t capacity = 0;
      int weight = 0;
      for (int c = g.First(); c >= 0; c = g.Next(c)) {
        if (idle_at(c)) ++s.idle;
        s.nr += s_.cpus_[c].nr_running + s_.cpus_[c].ttwu_pending;
        s.util += s_.CpuUtil(c, topo_.capacity(c));
        capacity += topo_.capacity(c);
        ++weight;
        if (self && c == this_cpu) {
          --s.nr;
          s.util = std::max<int64_t>(0, s.util - s_.tasks_[task].pelt.util_avg);
        }
      }
      s.spare = s.nr < weight || capacity * 100 > s.util * sd.imbalance_pct;
      if (!kernel_local) {
        if (self && g.Test(this_cpu)) local = s;
        if (idler(s, idlest)) idlest = s;
      } else if (g.Test(owner)) {
        local = s;
      } else if (better(s, idlest)) {
        idlest = s;
      }
    }
    const topology::CpuSet* best = idlest.g;
    if (!kernel_local) {
      if (local.g != nullptr && local.idle >= idlest.idle) best = local.g;
    } else if (local.g != nullptr) {
      bool stay = idlest.g == nullptr;
      if (!stay && local.spare != idlest.spare) {
        stay = local.spare;
      } else if (!stay && local.spare) {
        const bool numa_allowed =
            sd.has(topology::kSdNuma) &&
            local.nr + 1 <=
                ImbNumaNr(domains_, owner, static_cast<size_t>(level)) &&
            std::abs(local.idle - idlest.idle) <= 2;
        stay = numa_allowed || local.idle >= idlest.idle;
      } else if (!stay) {
        stay = !better(idlest, local);
      }
      if (stay) {
        // Descend from the local CPU's own child domain.
        if (allowed->Test(owner)) cpu = owner;
        int child = -1;
        for (int i = 0; i < level; ++i) {
          if (domains_.domain(owner, i).has(sd_flag)) child = i;
        }
        level = child;
        continue;
      }
    }
    if (best == nullptr) break;
    // find_idlest_group_cpu: the idle CPU in the shallowest state (most
    // recently idle on ties), else the least loaded.
    int pick = -1;
    int64_t pick_exit = std::numeric_limits<int64_t>::max();
    int64_t pick_stamp = -1;
    int least = -1;
    int64_t least_load = std::numeric_limits<int64_t>::max();
    for (int c = best->First(); c >= 0; c = best->Next(c)) {
      if (!allowed->Test(c)) continue;
      if (s_.sched_idle(c)) {
        pick = c;
        break;
      }
      if (idle_at(c)) {
        const Cpu& cc = s_.cpus_[c];
        int64_t exit = cc.mode == CpuMode::kIdle && cc.idle_state >= 0
                           ? topo_.cstates()[cc.idle_state].exit_latency_ns
                           : 0;
        // The exec'ing task's own CPU is idle as of now.
        const int64_t stamp =
            self_idle && c == this_cpu ? now_ns_ : cc.idle_stamp_ns;
        if (exit < pick_exit || (exit == pick_exit && stamp > pick_stamp)) {
          pick = c;
          pick_exit = exit;
          pick_stamp = stamp;
        }
      } else {
        int64_t load = CpuLoad(c) + s_.cpus_[c].ttwu_pending * 1024;
        if (load < least_load) {
          least = c;
          least_load = load;
        }
      }
    }
    int chosen = pick >= 0 ? pick : least;
    if (chosen < 0) break;
    cpu = chosen;
    // Descend into the chosen CPU's child domain.
    owner = cpu;
    int child = -1;
    for (int i = 0; i < domains_.depth(cpu); ++i) {
      if (domains_.domain(cpu, i).span.Count() < sd.span.Count() &&
          domains_.domain(cpu, i).has(sd_flag)) {
        child = i;
      }
    }
    level = child;
  }
  return cpu;
}

}  // namespace schedsim::sim
