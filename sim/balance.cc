// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Load balancing over the scheduling domains: newidle balancing when a CPU
// is about to idle, periodic balancing from the tick (rebalance_domains():
// per level, one balancing CPU per local group, should_we_balance(), with
// the interval doubling while balanced; the LLC level's balance also
// refreshes SIS_UTIL's nr_idle_scan, kernel/sched/fair.c
// update_idle_cpu_scan(), Linux 6.1), and
// NO_HZ idle balancing, where an overloaded CPU's tick kicks an idle CPU
// to pull work.
//
// The periodic balance has two models. The default
// (SimConfig::balance_by_load) is load_balance() on PELT load (below,
// before LoadBalance()). The other (CountBalance()) compares groups by
// runnable tasks against their CPU count and pulls one task into a local
// group with room; between groups that are all loaded it never moves
// anything. Newidle balancing, by default, and NO_HZ kicks are simpler:
// they pull one queued task from the busiest CPU (by runnable tasks) of the
// lowest level that has one; with SimConfig::newidle_load_balance the
// newidle balance is newidle_balance()'s walk (StartNewidleWalk(): each
// level an event, the CPU not idle to wake-ups until the walk ends).
// Both the count model and newidle balancing obey can_migrate_task()'s
// cache-hot rule (task_hot(): ran within sched_migration_cost): a hot task
// moves only once the level's nr_balance_failed, which periodic balances
// that found an imbalance and moved nothing count up, exceeds the domain's
// cache_nice_tries (kernel/sched/fair.c load_balance(), Linux 5.19 and
// 6.1). A NO_HZ kick still pulls a hot task.

#include <algorithm>
#include <cassert>

#include "sim/simulator_impl.h"

namespace schedsim::sim {

bool SimulatorImpl::TaskHot(int task, int dst_cpu) const {
  const Task& t = tasks_[task];
  // CACHE_HOT_BUDDY: a buddy of its runqueue is hot to a busy destination.
  if (config_.cfs_buddies && cpus_[dst_cpu].nr_running > 0 &&
      Fair([&](auto& f) { return f.IsBuddy(task); })) {
    return true;
  }
  return now_ns_ - t.last_ran_ns < config_.sched_migration_cost_ns;
}

bool SimulatorImpl::IgnoreHot(const topology::SchedDomain& sd,
                              uint32_t nr_balance_failed) const {
  // task_hot() (kernel/sched/fair.c, v5.10 to v6.1): SMT siblings share
  // their caches, so no task is cache-hot to a balance of an SMT domain
  // (SD_SHARE_CPUCAPACITY; commit ec73240b1627, SimConfig::
  // smt_ignores_cache_hot). can_migrate_task() takes a hot task once the
  // domain's balances have failed more than cache_nice_tries times.
  return (config_.smt_ignores_cache_hot &&
          sd.has(topology::kSdShareCpuCapacity)) ||
         static_cast<int>(nr_balance_failed) > sd.cache_nice_tries;
}

bool SimulatorImpl::CanMigrate(int task, int dst_cpu, bool ignore_hot) const {
  const Task& t = tasks_[task];
  if (!AllowedOf(t)->Test(dst_cpu)) return false;
  if (t.policy == SchedPolicy::kFifo) return false;
  // A delayed entity (EEVDF's DELAY_DEQUEUE) is asleep: not moved.
  if (t.state != TaskState::kRunnable) return false;
  if (!ignore_hot && TaskHot(task, dst_cpu)) {
    return false;
  }
  return true;
}

void SimulatorImpl::MigrateQueued(int task, int src, int dst) {
  DequeueTask(src, task);
  EnqueueTask(dst, task, /*wakeup=*/false, 0);
  ++lb_migrations_;
}

int SimulatorImpl::FindBusiestCpu(const topology::CpuSet& span, int this_cpu,
                                  int min_nr) const {
  int busiest = -1;
  int64_t best_nr = min_nr - 1;
  for (int cpu = span.First(); cpu >= 0; cpu = span.Next(cpu)) {
    if (cpu == this_cpu) continue;
    int nr = cpus_[cpu].nr_running;
    if (nr > best_nr) {
      best_nr = nr;
      busiest = cpu;
    }
  }
  return busiest;
}

int SimulatorImpl::FindOverloadedCpu(int domain_id, int this_cpu) const {
  const std::vector<uint64_t>& span =
      domains_.domains()[domain_id].span.words();
  int busiest = -1;
  int best_nr = 1;
  for (int l : domain_llcs_[domain_id]) {
    if (llcs_[l].nr_overloaded == 0) continue;
    // Only overloaded CPUs (nr_running >= 2) can beat best_nr: visit those
    // of the LLC in the span, in increasing order.
    const std::vector<uint64_t>& llc = topo_.llcs()[l].words();
    for (size_t w = 0; w < overloaded_.size(); ++w) {
      for (uint64_t bits = overloaded_[w] & llc[w] & span[w]; bits != 0;
           bits &= bits - 1) {
        const int cpu = static_cast<int>(w * 64) + __builtin_ctzll(bits);
        if (cpu == this_cpu) continue;
        assert(nr_running_[cpu] == cpus_[cpu].nr_running);
        if (nr_running_[cpu] > best_nr) {
          best_nr = nr_running_[cpu];
          busiest = cpu;
        }
      }
    }
  }
  return busiest;
}

void SimulatorImpl::NewidleBalance(int cpu) {
  Cpu& c = cpus_[cpu];
  // Before v5.16 newidle_balance() also skipped whenever avg_idle was below
  // sysctl_sched_migration_cost (removed by commit c5b0a7eefc70,
  // "sched/fair: Remove sysctl_sched_migration_cost condition").
  if (config_.newidle_migration_cost_gate &&
      c.avg_idle_ns < config_.sched_migration_cost_ns) {
    return;
  }
  // The default model: the lowest level that yields a task, at no cost.
  const std::vector<int>& ids = domains_.stack_ids(cpu);
  for (size_t i = 0; i < ids.size(); ++i) {
    if (!domains_.domains()[ids[i]].has(topology::kSdBalanceNewidle)) {
      continue;
    }
    if (NewidlePull(cpu, static_cast<int>(i))) return;
  }
}

bool SimulatorImpl::NewidlePull(int cpu, int level) {
  // With balance_by_load, find_busiest_group()'s rules as the periodic
  // balance (below), without counting a failure. Else the simple pull: one
  // task that is not cache-hot from the busiest CPU by runnable tasks;
  // can_migrate_task(): a cache-hot task moves only once this level's
  // periodic balances have failed more than cache_nice_tries times in a
  // row (a newidle balance never counts a failure).
  if (config_.newidle_load_balance && track_load_) {
    return LoadBalance(cpu, static_cast<size_t>(level), /*idle=*/true,
                       /*newidle=*/true) > 0;
  }
  const int id = domains_.stack_ids(cpu)[level];
  const topology::SchedDomain& sd = domains_.domains()[id];
  const int busiest = FindOverloadedCpu(id, cpu);
  if (busiest < 0) return false;
  return PullOne(busiest, cpu,
                 IgnoreHot(sd, cpus_[cpu].balance[level].nr_balance_failed)) >
         0;
}

// newidle_balance() (kernel/sched/fair.c, v5.19 and v6.1) runs inside
// schedule() once pick_next_task_fair() finds nothing: rq->curr is still
// the task that blocked, so idle_cpu() is false for the whole walk and no
// wake-up's search takes the CPU as idle. The walk drops the runqueue
// lock, so a task can be woken onto it meanwhile; the loop stops after the
// level under way when one has (nr_running or ttwu_pending). Each level's
// load_balance() scans its span (update_sg_lb_stats(), a remote probe per
// CPU) before it pulls, so the pull decides on the runqueues as they are
// at the end of the scan.
bool SimulatorImpl::StartNewidleWalk(int cpu) {
  Cpu& c = cpus_[cpu];
  if (config_.newidle_migration_cost_gate &&
      c.avg_idle_ns < config_.sched_migration_cost_ns) {
    return false;
  }
  // rd->overload: no CPU has a task queued behind its running one, so
  // there is nothing to pull anywhere; the kernel stops before any cost.
  bool overload = false;
  for (const LlcShared& l : llcs_) overload |= l.nr_overloaded > 0;
  if (!overload) return false;
  // this_rq->idle_stamp: the idle period (avg_idle) counts from here.
  c.idle_stamp_ns = now_ns_;
  newidle_walk_cost_ns_[cpu] = 0;
  return NewidleWalkFrom(cpu, 0);
}

bool SimulatorImpl::NewidleWalkFrom(int cpu, int level) {
  Cpu& c = cpus_[cpu];
  const std::vector<int>& ids = domains_.stack_ids(cpu);
  for (int i = level; i < static_cast<int>(ids.size()); ++i) {
    const topology::SchedDomain& sd = domains_.domains()[ids[i]];
    NewidleCost& cost = newidle_costs_[cpu][i];
    // for_each_domain(): stop where the balance so far plus this level's
    // dearest one would outlast the idle period the CPU expects.
    if (c.avg_idle_ns < newidle_walk_cost_ns_[cpu] + cost.max_ns) break;
    if (!sd.has(topology::kSdBalanceNewidle)) continue;
    const int64_t cost_ns = sd.span.Count() * config_.probe_cost_ns;
    UpdateNewidleCost(cost, cost_ns);
    newidle_walk_cost_ns_[cpu] += cost_ns;
    if (!c.newidle_walk) {
      c.newidle_walk = true;
      // Deliveries and interrupts wait for the level's end, as during a
      // C-state exit (whose POLL-level power the walk is charged at too:
      // a simplification).
      c.exiting = true;
      RefreshProbe(cpu);
    }
    QueuePush(SimTime::FromNanoseconds(now_ns_ + cost_ns), kBandSched,
              kEvNewidleStep, cpu, i);
    return true;
  }
  return false;
}

void SimulatorImpl::OnNewidleStep(int cpu, int level) {
  Cpu& c = cpus_[cpu];
  if (!c.newidle_walk) return;
  c.newidle_walk = false;
  c.exiting = false;
  RefreshProbe(cpu);
  // Tasks woken onto the runqueue during the scan (and interrupts it
  // held) are enqueued now; then this level's pull.
  DrainHeldWakeups(cpu);
  if (c.nr_running == 0 && c.ttwu_pending == 0 && NewidlePull(cpu, level)) {
    // pulled_task: no idle period after all.
    c.idle_stamp_ns = 0;
  }
  if (c.nr_running > 0) {
    NoteIdleEnd(c);  // a woken task ends the idle period (ttwu_do_wakeup)
    return Schedule(cpu);
  }
  if (c.ttwu_pending > 0) return;  // a delivery is coming: it schedules
  if (NewidleWalkFrom(cpu, level + 1)) return;
  return EnterIdleState(cpu);
}

void SimulatorImpl::UpdateNewidleCost(NewidleCost& level, int64_t cost_ns) {
  if (cost_ns > level.max_ns) {
    level.max_ns = cost_ns;
    level.last_decay_ns = now_ns_;
  } else if (now_ns_ > level.last_decay_ns + 1000000000) {
    level.max_ns = level.max_ns * 253 / 256;
    level.last_decay_ns = now_ns_;
  }
}

int SimulatorImpl::PullOne(int src, int dst, bool ignore_hot) {
  bool hot = false;
  for (int q : cpus_[src].rq) {
    if (!CanMigrate(q, dst, /*ignore_hot=*/true)) continue;  // pinned
    if (!ignore_hot && TaskHot(q, dst)) {
      hot = true;
      continue;
    }
    MigrateQueued(q, src, dst);
    return 1;
  }
  return hot ? 0 : -1;
}

void SimulatorImpl::UpdateIdleCpuScan(int cpu,
                                      const topology::SchedDomain& sd) {
  // SIS_UTIL: scan depth from the LLC's average utilization (integer
  // math as update_idle_cpu_scan).
  int64_t weight = sd.span.Count();
  int64_t sum = 0;
  for (int c = sd.span.First(); c >= 0; c = sd.span.Next(c)) sum += cpu_util(c);
  int64_t x = sum / weight;
  int64_t pct = sd.imbalance_pct;
  int64_t tmp = std::min<int64_t>(x * x * pct * pct / (10000 * 1024), 1024);
  int64_t y = 1024 - tmp;
  llcs_[cpus_[cpu].llc].nr_idle_scan = static_cast<int32_t>(y * weight / 1024);
}

bool SimulatorImpl::ShouldWeBalance(int cpu,
                                    const topology::SchedDomain& sd) const {
  // Linux 6.1 should_we_balance(): the first idle CPU of the local group
  // balances; with none idle, the group's first CPU.
  const topology::CpuSet& local = sd.groups[sd.LocalGroup(cpu)];
  for (int x = local.First(); x >= 0; x = local.Next(x)) {
    if (available_idle(x)) return x == cpu;
  }
  return local.First() == cpu;
}

void SimulatorImpl::PeriodicBalance(int cpu) {
  // rebalance_domains() from the tick's softirq, bottom level up.
  Cpu& c = cpus_[cpu];
  const std::vector<int>& ids = domains_.stack_ids(cpu);
  bool busy = c.mode == CpuMode::kBusy;
  // Every level's newidle cost decays here, the regular visit to all the
  // domains (update_newidle_cost(sd, 0)), whether or not it balances.
  if (!newidle_costs_.empty()) {
    for (NewidleCost& level : newidle_costs_[cpu]) UpdateNewidleCost(level, 0);
  }
  for (size_t i = 0; i < ids.size(); ++i) {
    const topology::SchedDomain& sd = domains_.domains()[ids[i]];
    if (now_ns_ < c.balance[i].last_ns + BalanceIntervalNs(cpu, i, busy)) {
      continue;
    }
    c.balance[i].last_ns = now_ns_;
    // load_balance(): a CPU that is not this group's balancer stops here,
    // and does not go on to the levels above (continue_balancing = 0).
    if (!ShouldWeBalance(cpu, sd)) break;
    ++c.balance[i].count;
    // From here on this level either moves a task (the interval goes back
    // to min_interval) or finds it balanced (the interval doubles, up to
    // max_interval).
    auto balanced = [&] {
      if (c.balance[i].interval_ms < sd.max_interval_ms) {
        c.balance[i].interval_ms *= 2;
      }
    };
    // update_sd_lb_stats() -> update_idle_cpu_scan(): SIS_UTIL's depth,
    // from the balance of the LLC domain (never a newidle one).
    if (sd.has(topology::kSdSharePkgResources) &&
        sd.span.Count() == domains_.llc_size(cpu)) {
      UpdateIdleCpuScan(cpu, sd);
    }
    // Nothing can move unless some CPU in the span has a task queued
    // behind its running one (detach_tasks() needs nr_running > 1).
    bool any = false;
    for (int l : domain_llcs_[ids[i]]) any |= llcs_[l].nr_overloaded > 0;
    if (!config_.balance_by_load) {
      // The count model: runnable tasks against CPUs.
      if (!any) {
        c.balance[i].nr_balance_failed = 0;
        balanced();
        continue;
      }
      const int moved = CountBalance(cpu, i);
      if (moved > 0) {
        c.balance[i].nr_balance_failed = 0;
        return;
      }
      if (moved < 0) {
        c.balance[i].nr_balance_failed = 0;
        balanced();
        continue;
      }
      // An imbalance, and only cache-hot tasks to move: load_balance()
      // counts the failure and goes back to min_interval.
      ++c.balance[i].nr_balance_failed;
      c.balance[i].interval_ms = sd.min_interval_ms;
      continue;
    }
    const int moved = any ? LoadBalance(cpu, i, !busy) : -1;
    if (moved < 0) {
      c.balance[i].nr_balance_failed = 0;
      balanced();
      continue;
    }
    if (moved == 0) {
      ++c.balance[i].nr_balance_failed;
    } else {
      c.balance[i].nr_balance_failed = 0;
      // The levels above see this CPU as it is now (rebalance_domains()).
      busy = c.nr_running > 0;
    }
    // Unbalanced: back to min_interval (no active balance is modelled, so
    // this holds whether or not a task moved).
    c.balance[i].interval_ms = sd.min_interval_ms;
  }
}

int SimulatorImpl::CountBalance(int cpu, size_t level) {
  Cpu& c = cpus_[cpu];
  const topology::SchedDomain& sd =
      domains_.domains()[domains_.stack_ids(cpu)[level]];
  // Local and busiest groups by runnable tasks against CPUs.
  int local = sd.LocalGroup(cpu);
  int64_t local_nr = 0, local_cpus = 0;
  int busiest_group = -1;
  int64_t busiest_excess = 0;
  for (size_t g = 0; g < sd.groups.size(); ++g) {
    int64_t nr = 0, n = 0;
    const topology::CpuSet& grp = sd.groups[g];
    for (int x = grp.First(); x >= 0; x = grp.Next(x)) {
      nr += cpus_[x].nr_running;
      ++n;
    }
    if (static_cast<int>(g) == local) {
      local_nr = nr;
      local_cpus = n;
      continue;
    }
    int64_t excess = nr - n;
    if (busiest_group < 0 || excess > busiest_excess) {
      busiest_group = static_cast<int>(g);
      busiest_excess = excess;
    }
  }
  if (busiest_group < 0 || busiest_excess <= 0 ||
      local_nr >= local_cpus) {  // none busier, or no spare capacity here
    return -1;
  }
  int src = FindBusiestCpu(sd.groups[busiest_group], cpu, 2);
  if (src < 0) return -1;
  // can_migrate_task(): cache-hot tasks stay until nr_balance_failed
  // exceeds cache_nice_tries.
  const int moved =
      PullOne(src, cpu, IgnoreHot(sd, c.balance[level].nr_balance_failed));
  if (moved > 0) c.balance[level].interval_ms = sd.min_interval_ms;
  return moved;  // -1: every candidate pinned (LBF_ALL_PINNED)
}

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

int64_t SimulatorImpl::CpuLoadAvg(int cpu) const {
  const Cpu& c = cpus_[cpu];
  PeltSignal l = rq_load_[cpu];
  PeltUpdateLoad(l, now_ns_, c.load_weight);
  return l.util_avg;
}

int SimulatorImpl::ImbNumaNr(int cpu, size_t level) const {
  // build_sched_domains(): at the first level above the LLC, the number of
  // LLCs it spans (an eighth of its CPUs when it spans one), scaled up by
  // span at the levels above that.
  const std::vector<int>& ids = domains_.stack_ids(cpu);
  const int llc = domains_.llc_size(cpu);
  int imb = 1, imb_span = 0;
  for (size_t i = 0; i <= level && i < ids.size(); ++i) {
    const topology::SchedDomain& sd = domains_.domains()[ids[i]];
    const int w = sd.weight();
    if (w <= llc) continue;
    if (imb_span == 0) {
      const int nr_llcs = w / std::max(llc, 1);
      imb = std::max(1, nr_llcs == 1 ? w >> 3 : nr_llcs);
      imb_span = w;
    } else if (i == level) {
      return imb * std::max(1, w / imb_span);
    }
  }
  return imb;
}

int SimulatorImpl::LoadBalance(int cpu, size_t level, bool idle, bool newidle) {
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
      const Cpu& cx = cpus_[x];
      s.load += CpuLoadAvg(x);
      s.util += cpu_util(x);
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
    const Cpu& cx = cpus_[x];
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
        const int64_t util = cpu_util(x);
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
  if (cpus_[src].nr_running <= 1) return 0;
  // detach_tasks(): from the least recently run (the tail of cfs_tasks).
  const uint32_t failed = cpus_[cpu].balance[level].nr_balance_failed;
  const bool ignore_hot = IgnoreHot(sd, failed);
  std::vector<int32_t>& cand = balance_candidates_;
  cand = cpus_[src].rq;
  std::sort(cand.begin(), cand.end(), [&](int32_t a, int32_t b) {
    const Task& ta = tasks_[a];
    const Task& tb = tasks_[b];
    return ta.last_ran_ns != tb.last_ran_ns ? ta.last_ran_ns < tb.last_ran_ns
                                            : a < b;
  });
  const size_t loop_max =
      std::min<size_t>(32, static_cast<size_t>(cpus_[src].nr_running));
  int moved = 0;
  for (size_t k = 0; k < cand.size() && k < loop_max; ++k) {
    if (idle && cpus_[src].nr_running <= 1) break;
    const int q = cand[k];
    if (!CanMigrate(q, cpu, ignore_hot)) continue;
    if (type == kMigrateLoad) {
      PeltSignal l = task_load_[q];
      PeltUpdateLoad(l, now_ns_, tasks_[q].weight);
      const int64_t load = std::max<int64_t>(l.util_avg, 1);
      if ((load >> std::min<uint32_t>(failed, 63)) > imbalance) continue;
      imbalance -= load;
    } else if (type == kMigrateUtil) {
      const int64_t util = tasks_[q].pelt.util_avg;
      if (util > imbalance) continue;
      imbalance -= util;
    } else {
      --imbalance;
    }
    MigrateQueued(q, src, cpu);
    ++moved;
    if (imbalance <= 0) break;
  }
  return moved;
}

void SimulatorImpl::NohzKick(int cpu) {
  Cpu& c = cpus_[cpu];
  if (c.nr_running < 2 || c.rq.empty()) return;
  if (config_.nohz_idle_balance) {
    // nohz_balancer_kick(): not before nohz.next_balance, nor while a
    // kicked CPU has yet to balance (NOHZ_KICK_MASK); kick_ilb() ->
    // find_new_ilb(): the first idle CPU.
    if (now_ns_ < nohz_next_balance_ns_) return;
    bool any = false;
    for (const LlcShared& l : llcs_) any |= l.nr_idle > 0;
    if (!any) return;
    for (int x = 0; x < topo_.num_cpus(); ++x) {
      if (cpus_[x].mode != CpuMode::kIdle || !available_idle(x)) continue;
      nohz_next_balance_ns_ = kNoKick;
      ++placement_stats_.ipis;
      ++cpus_[x].stats.ipis_received;
      QueuePush(SimTime::FromNanoseconds(now_ns_ + config_.ipi_latency_ns),
                kBandSched, kEvNohzBalance, x, -1);
      return;
    }
    return;
  }
  // The nearest idle CPU (by domain level) that may take a queued task.
  const std::vector<int>& ids = domains_.stack_ids(cpu);
  for (size_t i = 0; i < ids.size(); ++i) {
    bool any = false;
    for (int l : domain_llcs_[ids[i]]) any |= llcs_[l].nr_idle > 0;
    if (!any) continue;
    const topology::CpuSet& span = domains_.domains()[ids[i]].span;
    for (int dst = span.First(); dst >= 0; dst = span.Next(dst)) {
      if (dst == cpu || !available_idle(dst)) continue;
      for (int q : c.rq) {
        if (!CanMigrate(q, dst, /*ignore_hot=*/true)) continue;
        // The idle CPU is kicked by IPI and pulls the task.
        DequeueTask(cpu, q);
        Task& t = tasks_[q];
        t.state = TaskState::kWaking;
        ++cpus_[dst].ttwu_pending;
        RefreshProbe(dst);
        ++lb_migrations_;
        ++placement_stats_.ipis;
        PushDelivery(now_ns_ + config_.ipi_latency_ns, dst, q);
        return;
      }
    }
  }
}

int64_t SimulatorImpl::BalanceIntervalNs(int cpu, size_t level,
                                         bool busy) const {
  const topology::SchedDomain& sd =
      domains_.domains()[domains_.stack_ids(cpu)[level]];
  // max_load_balance_interval: HZ * num_online_cpus / 10 jiffies.
  const int64_t max_interval_ns = tick_ns_ * config_.hz * topo_.num_cpus() / 10;
  return std::clamp<int64_t>(int64_t{cpus_[cpu].balance[level].interval_ms} *
                                 (busy ? sd.busy_factor : 1) * 1000000,
                             tick_ns_, std::max(max_interval_ns, tick_ns_));
}

int64_t SimulatorImpl::NextBalanceNs(int cpu) const {
  // rq->next_balance of an idle CPU: the earliest level's last balance
  // plus its interval.
  const Cpu& c = cpus_[cpu];
  int64_t next = kNoKick;
  for (size_t i = 0; i < c.balance.size(); ++i) {
    next = std::min(
        next, c.balance[i].last_ns + BalanceIntervalNs(cpu, i, /*busy=*/false));
  }
  return next;
}

void SimulatorImpl::OnNohzBalance(int ilb) {
  // _nohz_idle_balance() (kernel/sched/fair.c, v6.1) in the kicked CPU's
  // softirq, which runs only while that CPU is still idle.
  const int n = topo_.num_cpus();
  int64_t next = kNoKick;
  if (cpus_[ilb].mode == CpuMode::kIdle && available_idle(ilb)) {
    // for_each_cpu_wrap() from the next CPU: the kicked one balances
    // itself last.
    for (int k = 1; k <= n; ++k) {
      const int x = (ilb + k) % n;
      Cpu& cx = cpus_[x];
      if (cx.mode != CpuMode::kIdle || !available_idle(x)) continue;
      if (now_ns_ >= NextBalanceNs(x)) {
        PeriodicBalance(x);  // rebalance_domains(rq, CPU_IDLE)
        if (cx.nr_running > 0) {
          // attach_tasks() -> resched_curr(): the CPU leaves idle, by IPI
          // unless it polls.
          if (cx.polling) {
            LeaveIdle(x, /*by_poll=*/true);
            Schedule(x);
            continue;
          }
          ++placement_stats_.ipis;
          ++cx.stats.ipis_received;
          const int64_t exit_ns = PhysicalExitNs(x);
          LeaveIdle(x, /*by_poll=*/false);
          cx.exiting = true;
          PushIdleExit(now_ns_ + config_.ipi_latency_ns + exit_ns, x);
          continue;
        }
      }
      next = std::min(next, NextBalanceNs(x));
    }
  }
  // nohz.next_balance: the earliest due balance of the CPUs still idle.
  nohz_next_balance_ns_ = next == kNoKick ? now_ns_ : next;
}

}  // namespace schedsim::sim
