// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// load_balance() on PELT load, the periodic balance's default model
// (sim/balance.cc describes the models; kernel/sched/fair.c
// load_balance(), find_busiest_group(), calculate_imbalance(), Linux
// 6.1).

#include <algorithm>
#include <cassert>

#include "sim/load_balancer.h"

namespace schedsim::sim {

// --- load_balance() ---------------------------------------------------------
//
// Linux 6.1 kernel/sched/fair.c. update_sg_lb_stats() sums each group's
// load (cpu_load(): cfs_rq->avg.load_avg, blocked load included), CFS
// utilization, runnable tasks and idle CPUs; group_classify() calls a group
// overloaded when it has more tasks than CPUs and its utilization or
// runnable average is past imbalance_pct of its capacity, fully busy when
// it has no capacity to spare, else has_spare. find_busiest_group() picks
// the busiest other group (highest type; among overloaded ones, the highest
// avg_load = load per capacity) and gives up when the local group is
// busier, when both are overloaded and the busiest's avg_load is within
// imbalance_pct of the local one's or the local one is above the domain's
// average, and, for a busiest group that is not overloaded, when this CPU
// is busy or the idle CPUs are even. calculate_imbalance() then says what
// to move: utilization into a group with spare capacity above the LLC,
// half the difference in tasks (prefer_sibling, or single-CPU groups) or
// in idle CPUs inside it (NUMA: none while the destination stays within
// imb_numa_nr tasks), and load between two loaded groups: the smaller of
// the busiest group's excess over the domain average and the local
// group's shortfall. find_busiest_queue() takes the CPU with the most load
// per capacity, utilization or tasks for that kind; detach_tasks() walks
// its queued tasks from the least recently run, skipping cache-hot ones
// (ran within sched_migration_cost) until nr_balance_failed exceeds
// cache_nice_tries, and a task whose load, halved once per failure, is
// more than what is left of the imbalance; at most sched_nr_migrate (32)
// tasks are looked at. Left out: misfit, asym-packing and group_imbalanced
// (affinity) handling, active balance, RT and IRQ pressure on capacity,
// and runnable_avg, which is taken equal to load_avg (the same for nice-0
// tasks).

namespace {

enum GroupType { kHasSpare = 0, kFullyBusy = 1, kOverloaded = 2 };
enum MigrationType { kMigrateLoad, kMigrateUtil, kMigrateTask };

struct GroupStats {
  int64_t load = 0;  // group_load
  int64_t util = 0;  // group_util
  int64_t capacity = 0;
  int64_t avg_load = 0;
  int nr_running = 0;    // sum_nr_running
  int h_nr_running = 0;  // CFS tasks
  int idle_cpus = 0;
  int weight = 0;
  GroupType type = kHasSpare;
};

}  // namespace

int LoadBalancer::LoadBalance(int cpu, size_t level, bool idle, bool newidle) {
  const std::vector<int>& ids = domains_.stack_ids(cpu);
  const topology::SchedDomain& sd = domains_.domains()[ids[level]];
  const int64_t pct = sd.imbalance_pct;
  // update_sd_lb_stats().
  const int local = sd.LocalGroup(cpu);
  GroupStats local_s, busiest_s;
  int busiest = -1;
  int64_t total_load = 0, total_capacity = 0;
  for (size_t g = 0; g < sd.groups.size(); ++g) {
    GroupStats s;
    const topology::CpuSet& grp = sd.groups[g];
    for (int x = grp.First(); x >= 0; x = grp.Next(x)) {
      const Cpu& cx = s_.cpus_[x];
      s.load += CpuLoadAvg(x);
      s.util += CpuUtil(x);
      s.nr_running += cx.nr_running;
      s.h_nr_running += cx.nr_fair;
      // idle_cpu(): rq->curr is the idle task, nothing runnable, no
      // wake-up pending.
      if (cx.nr_running == 0 && cx.ttwu_pending == 0 &&
          !(newidle && x == cpu)) {
        ++s.idle_cpus;
      }
      s.capacity += topo_.capacity(x);  // capacity_of(), no RT/IRQ pressure
      ++s.weight;
    }
    // group_classify(); runnable_avg read as load_avg.
    const int64_t runnable = s.load;
    if (s.nr_running > s.weight && (s.capacity * 100 < s.util * pct ||
                                    s.capacity * pct < runnable * 100)) {
      s.type = kOverloaded;
    } else if (s.nr_running >= s.weight && (s.capacity * pct < runnable * 100 ||
                                            s.capacity * 100 <= s.util * pct)) {
      s.type = kFullyBusy;  // !group_has_capacity()
    }
    if (s.type == kOverloaded)
      s.avg_load = s.load * kSchedCapacityScale / s.capacity;
    total_load += s.load;
    total_capacity += s.capacity;
    if (static_cast<int>(g) == local) {
      local_s = s;
      continue;
    }
    // update_sd_pick_busiest().
    if (s.h_nr_running == 0) continue;
    if (busiest >= 0) {
      if (s.type < busiest_s.type) continue;
      if (s.type == busiest_s.type) {
        if (s.type == kHasSpare) {
          if (s.idle_cpus > busiest_s.idle_cpus) continue;
          if (s.idle_cpus == busiest_s.idle_cpus &&
              s.nr_running <= busiest_s.nr_running) {
            continue;
          }
        } else if (s.avg_load <= busiest_s.avg_load) {
          continue;
        }
      }
    }
    busiest = static_cast<int>(g);
    busiest_s = s;
  }
  if (busiest < 0 || local < 0) return -1;
  // find_busiest_group().
  const bool prefer_sibling =
      level > 0 &&
      domains_.domains()[ids[level - 1]].has(topology::kSdPreferSibling);
  int64_t sds_avg_load = 0;
  if (local_s.type > busiest_s.type) return -1;
  if (local_s.type == kOverloaded) {
    if (local_s.avg_load >= busiest_s.avg_load) return -1;
    sds_avg_load = kSchedCapacityScale * total_load / total_capacity;
    if (local_s.avg_load >= sds_avg_load) return -1;
    if (100 * busiest_s.avg_load <= pct * local_s.avg_load) return -1;
  }
  const bool force = prefer_sibling && local_s.type == kHasSpare &&
                     busiest_s.nr_running > local_s.nr_running + 1;
  if (!force && busiest_s.type != kOverloaded) {
    if (!idle) return -1;
    if (busiest_s.weight > 1 && local_s.idle_cpus <= busiest_s.idle_cpus + 1) {
      return -1;
    }
    if (busiest_s.h_nr_running == 1) return -1;
  }
  // calculate_imbalance().
  MigrationType type = kMigrateLoad;
  int64_t imbalance = 0;
  if (local_s.type == kHasSpare) {
    if (busiest_s.type > kFullyBusy &&
        !sd.has(topology::kSdSharePkgResources)) {
      type = kMigrateUtil;
      imbalance = std::max(local_s.capacity, local_s.util) - local_s.util;
      if (idle && imbalance == 0) {
        type = kMigrateTask;
        imbalance = 1;
      }
    } else {
      type = kMigrateTask;
      if (busiest_s.weight == 1 || prefer_sibling) {
        imbalance = std::max(0, busiest_s.nr_running - local_s.nr_running) >> 1;
      } else {
        imbalance = std::max(0, local_s.idle_cpus - busiest_s.idle_cpus) >> 1;
      }
      // adjust_numa_imbalance(): NUMA_IMBALANCE_MIN is 2.
      if (sd.has(topology::kSdNuma) &&
          local_s.nr_running + 1 <= ImbNumaNr(cpu, level) && imbalance <= 2) {
        imbalance = 0;
      }
    }
  } else {
    if (local_s.type < kOverloaded) {
      local_s.avg_load = local_s.load * kSchedCapacityScale / local_s.capacity;
      if (local_s.avg_load >= busiest_s.avg_load) return -1;
      sds_avg_load = kSchedCapacityScale * total_load / total_capacity;
    }
    imbalance =
        std::min((busiest_s.avg_load - sds_avg_load) * busiest_s.capacity,
                 (sds_avg_load - local_s.avg_load) * local_s.capacity) /
        kSchedCapacityScale;
  }
  if (imbalance <= 0) return -1;
  // find_busiest_queue().
  const topology::CpuSet& grp = sd.groups[busiest];
  int src = -1;
  int64_t best_load = 0, best_cap = 1, best_util = 0;
  int best_nr = 0;
  for (int x = grp.First(); x >= 0; x = grp.Next(x)) {
    const Cpu& cx = s_.cpus_[x];
    if (cx.nr_fair == 0 || x == cpu) continue;
    switch (type) {
      case kMigrateLoad: {
        const int64_t load = CpuLoadAvg(x);
        if (cx.nr_running == 1 && load > imbalance) break;
        // The most load per capacity: load * best_cap > best_load * cap.
        const int64_t cap = topo_.capacity(x);
        if (src < 0 || load * best_cap > best_load * cap) {
          best_load = load;
          best_cap = cap;
          src = x;
        }
        break;
      }
      case kMigrateUtil: {
        if (cx.nr_running <= 1) break;
        const int64_t util = CpuUtil(x);
        if (src < 0 || util > best_util) {
          best_util = util;
          src = x;
        }
        break;
      }
      case kMigrateTask:
        if (cx.nr_running > best_nr) {
          best_nr = cx.nr_running;
          src = x;
        }
        break;
    }
  }
  if (src < 0) return -1;
  if (s_.cpus_[src].nr_running <= 1) return 0;
  // detach_tasks(): from the least recently run (the tail of cfs_tasks).
  const uint32_t failed = s_.cpus_[cpu].balance[level].nr_balance_failed;
  const bool ignore_hot = IgnoreHot(sd, failed);
  std::vector<int32_t>& cand = balance_candidates_;
  cand = s_.cpus_[src].rq;
  std::sort(cand.begin(), cand.end(), [&](int32_t a, int32_t b) {
    const Task& ta = s_.tasks_[a];
    const Task& tb = s_.tasks_[b];
    return ta.last_ran_ns != tb.last_ran_ns ? ta.last_ran_ns < tb.last_ran_ns
                                            : a < b;
  });
  const size_t loop_max =
      std::min<size_t>(32, static_cast<size_t>(s_.cpus_[src].nr_running));
  int moved = 0;
  for (size_t k = 0; k < cand.size() && k < loop_max; ++k) {
    if (idle && s_.cpus_[src].nr_running <= 1) break;
    const int q = cand[k];
    if (!CanMigrate(q, cpu, ignore_hot)) continue;
    if (type == kMigrateLoad) {
      PeltSignal l = s_.task_load_[q];
      PeltUpdateLoad(l, now_ns_, s_.tasks_[q].weight);
      const int64_t load = std::max<int64_t>(l.util_avg, 1);
      if ((load >> std::min<uint32_t>(failed, 63)) > imbalance) continue;
      imbalance -= load;
    } else if (type == kMigrateUtil) {
      const int64_t util = s_.tasks_[q].pelt.util_avg;
      if (util > imbalance) continue;
      imbalance -= util;
    } else {
      --imbalance;
    }
    mover_.MigrateQueued(q, src, cpu);
    ++moved;
    if (imbalance <= 0) break;
  }
  return moved;
}

}  // namespace schedsim::sim
