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

}  // namespace schedsim::sim
