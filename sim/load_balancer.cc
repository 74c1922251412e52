// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The load balancer's decisions (sim/load_balancer.h): which task may
// move, which CPU balances, when, from where, and the newidle and NO_HZ
// choices. The periodic balance is in balance.cc, load_balance() in
// load_balance.cc.

#include "sim/load_balancer.h"

#include <algorithm>
#include <cassert>

namespace schedsim::sim {

void LoadBalancer::Init(int64_t tick_ns) {
  tick_ns_ = tick_ns;
  const int n = topo_.num_cpus();
  newidle_costs_.clear();
  newidle_walk_cost_ns_.clear();
  if (config_.newidle_load_balance) {
    newidle_costs_.resize(n);
    newidle_walk_cost_ns_.assign(n, 0);
    for (int cpu = 0; cpu < n; ++cpu) {
      newidle_costs_[cpu].resize(domains_.depth(cpu));
    }
  }
  nohz_next_balance_ns_ = 0;
}

bool LoadBalancer::TaskHot(int task, int dst_cpu) const {
  const Task& t = s_.tasks_[task];
  // CACHE_HOT_BUDDY: a buddy of its runqueue is hot to a busy destination.
  if (config_.cfs_buddies && s_.cpus_[dst_cpu].nr_running > 0 &&
      s_.Fair([&](auto& f) { return f.IsBuddy(task); })) {
    return true;
  }
  return now_ns_ - t.last_ran_ns < config_.sched_migration_cost_ns;
}

bool LoadBalancer::IgnoreHot(const topology::SchedDomain& sd,
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

bool LoadBalancer::CanMigrate(int task, int dst_cpu, bool ignore_hot) const {
  const Task& t = s_.tasks_[task];
  if (!s_.AllowedOf(t)->Test(dst_cpu)) return false;
  if (t.policy == SchedPolicy::kFifo) return false;
  // A delayed entity (EEVDF's DELAY_DEQUEUE) is asleep: not moved.
  if (t.state != TaskState::kRunnable) return false;
  if (!ignore_hot && TaskHot(task, dst_cpu)) {
    return false;
  }
  return true;
}

int LoadBalancer::FindBusiestCpu(const topology::CpuSet& span, int this_cpu,
                                 int min_nr) const {
  int busiest = -1;
  int64_t best_nr = min_nr - 1;
  for (int cpu = span.First(); cpu >= 0; cpu = span.Next(cpu)) {
    if (cpu == this_cpu) continue;
    int nr = s_.cpus_[cpu].nr_running;
    if (nr > best_nr) {
      best_nr = nr;
      busiest = cpu;
    }
  }
  return busiest;
}

int LoadBalancer::FindOverloadedCpu(int domain_id, int this_cpu) const {
  const std::vector<uint64_t>& span =
      domains_.domains()[domain_id].span.words();
  int busiest = -1;
  int best_nr = 1;
  for (int l : s_.domain_llcs_[domain_id]) {
    if (s_.llcs_[l].nr_overloaded == 0) continue;
    // Only overloaded CPUs (nr_running >= 2) can beat best_nr: visit those
    // of the LLC in the span, in increasing order.
    const std::vector<uint64_t>& llc = topo_.llcs()[l].words();
    for (size_t w = 0; w < s_.overloaded_.size(); ++w) {
      for (uint64_t bits = s_.overloaded_[w] & llc[w] & span[w]; bits != 0;
           bits &= bits - 1) {
        const int cpu = static_cast<int>(w * 64) + __builtin_ctzll(bits);
        if (cpu == this_cpu) continue;
        assert(s_.nr_running_[cpu] == s_.cpus_[cpu].nr_running);
        if (s_.nr_running_[cpu] > best_nr) {
          best_nr = s_.nr_running_[cpu];
          busiest = cpu;
        }
      }
    }
  }
  return busiest;
}

int LoadBalancer::PullOne(int src, int dst, bool ignore_hot) {
  bool hot = false;
  for (int q : s_.cpus_[src].rq) {
    if (!CanMigrate(q, dst, /*ignore_hot=*/true)) continue;  // pinned
    if (!ignore_hot && TaskHot(q, dst)) {
      hot = true;
      continue;
    }
    mover_.MigrateQueued(q, src, dst);
    return 1;
  }
  return hot ? 0 : -1;
}

void LoadBalancer::UpdateIdleCpuScan(int cpu, const topology::SchedDomain& sd) {
  // SIS_UTIL: scan depth from the LLC's average utilization (integer
  // math as update_idle_cpu_scan).
  int64_t weight = sd.span.Count();
  int64_t sum = 0;
  for (int c = sd.span.First(); c >= 0; c = sd.span.Next(c)) sum += CpuUtil(c);
  int64_t x = sum / weight;
  int64_t pct = sd.imbalance_pct;
  int64_t tmp = std::min<int64_t>(x * x * pct * pct / (10000 * 1024), 1024);
  int64_t y = 1024 - tmp;
  s_.llcs_[s_.cpus_[cpu].llc].nr_idle_scan =
      static_cast<int32_t>(y * weight / 1024);
}

bool LoadBalancer::ShouldWeBalance(int cpu,
                                   const topology::SchedDomain& sd) const {
  // Linux 6.1 should_we_balance(): the first idle CPU of the local group
  // balances; with none idle, the group's first CPU.
  const topology::CpuSet& local = sd.groups[sd.LocalGroup(cpu)];
  for (int x = local.First(); x >= 0; x = local.Next(x)) {
    if (s_.available_idle(x)) return x == cpu;
  }
  return local.First() == cpu;
}

int64_t LoadBalancer::BalanceIntervalNs(int cpu, size_t level,
                                        bool busy) const {
  const topology::SchedDomain& sd =
      domains_.domains()[domains_.stack_ids(cpu)[level]];
  // max_load_balance_interval: HZ * num_online_cpus / 10 jiffies.
  const int64_t max_interval_ns = tick_ns_ * config_.hz * topo_.num_cpus() / 10;
  return std::clamp<int64_t>(int64_t{s_.cpus_[cpu].balance[level].interval_ms} *
                                 (busy ? sd.busy_factor : 1) * 1000000,
                             tick_ns_, std::max(max_interval_ns, tick_ns_));
}

int64_t LoadBalancer::NextBalanceNs(int cpu) const {
  // rq->next_balance of an idle CPU: the earliest level's last balance
  // plus its interval.
  const Cpu& c = s_.cpus_[cpu];
  int64_t next = kNoKick;
  for (size_t i = 0; i < c.balance.size(); ++i) {
    next = std::min(
        next, c.balance[i].last_ns + BalanceIntervalNs(cpu, i, /*busy=*/false));
  }
  return next;
}

int64_t LoadBalancer::CpuLoadAvg(int cpu) const {
  const Cpu& c = s_.cpus_[cpu];
  PeltSignal l = s_.rq_load_[cpu];
  PeltUpdateLoad(l, now_ns_, c.load_weight);
  return l.util_avg;
}

int ImbNumaNr(const topology::SchedDomains& domains, int cpu, size_t level) {
  // build_sched_domains() (kernel/sched/topology.c, v5.18+): at the first
  // level above the LLC, the number of LLCs it spans (an eighth of its CPUs
  // when it spans one); each level above gets that times its span over
  // imb_span, the span of the first SD_NUMA domain above that level (the
  // level's own when there is none). NODE is not SD_NUMA: on a package
  // split into nodes (Zen3 NPS2/4) or two sockets of one node each, the
  // first NUMA level's imb_numa_nr is the LLCs of the first level.
  const std::vector<int>& ids = domains.stack_ids(cpu);
  const int llc = domains.llc_size(cpu);
  int imb = 1, imb_span = 0;
  for (size_t i = 0; i <= level && i < ids.size(); ++i) {
    const topology::SchedDomain& sd = domains.domains()[ids[i]];
    const int w = sd.weight();
    if (w <= llc) continue;
    if (imb_span == 0) {
      const int nr_llcs = w / std::max(llc, 1);
      imb = std::max(1, nr_llcs == 1 ? w >> 3 : nr_llcs);
      imb_span = w;
      for (size_t j = i + 1; j < ids.size(); ++j) {
        const topology::SchedDomain& up = domains.domains()[ids[j]];
        if (up.flags & topology::kSdNuma) {
          imb_span = up.weight();
          break;
        }
      }
    } else if (i == level) {
      return imb * std::max(1, w / imb_span);
    }
  }
  return imb;
}

bool LoadBalancer::Overloaded() const {
  bool overload = false;
  for (const EngineState::LlcShared& l : s_.llcs_) {
    overload |= l.nr_overloaded > 0;
  }
  return overload;
}

void LoadBalancer::NewidleBalance(int cpu) {
  const Cpu& c = s_.cpus_[cpu];
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

bool LoadBalancer::NewidlePull(int cpu, int level) {
  // With balance_by_load, find_busiest_group()'s rules as the periodic
  // balance, without counting a failure. Else the simple pull: one task
  // that is not cache-hot from the busiest CPU by runnable tasks;
  // can_migrate_task(): a cache-hot task moves only once this level's
  // periodic balances have failed more than cache_nice_tries times in a
  // row (a newidle balance never counts a failure).
  if (config_.newidle_load_balance && s_.track_load_) {
    return LoadBalance(cpu, static_cast<size_t>(level), /*idle=*/true,
                       /*newidle=*/true) > 0;
  }
  const int id = domains_.stack_ids(cpu)[level];
  const topology::SchedDomain& sd = domains_.domains()[id];
  const int busiest = FindOverloadedCpu(id, cpu);
  if (busiest < 0) return false;
  return PullOne(
             busiest, cpu,
             IgnoreHot(sd, s_.cpus_[cpu].balance[level].nr_balance_failed)) > 0;
}

int LoadBalancer::NextNewidleLevel(int cpu, int level, int64_t* cost_ns) {
  const Cpu& c = s_.cpus_[cpu];
  const std::vector<int>& ids = domains_.stack_ids(cpu);
  for (int i = level; i < static_cast<int>(ids.size()); ++i) {
    const topology::SchedDomain& sd = domains_.domains()[ids[i]];
    NewidleCost& cost = newidle_costs_[cpu][i];
    // for_each_domain(): stop where the balance so far plus this level's
    // dearest one would outlast the idle period the CPU expects.
    if (c.avg_idle_ns < newidle_walk_cost_ns_[cpu] + cost.max_ns) break;
    if (!sd.has(topology::kSdBalanceNewidle)) continue;
    *cost_ns = sd.span.Count() * config_.probe_cost_ns;
    UpdateNewidleCost(cost, *cost_ns);
    newidle_walk_cost_ns_[cpu] += *cost_ns;
    return i;
  }
  return -1;
}

void LoadBalancer::UpdateNewidleCost(int cpu, size_t level, int64_t cost_ns) {
  UpdateNewidleCost(newidle_costs_[cpu][level], cost_ns);
}

void LoadBalancer::UpdateNewidleCost(NewidleCost& level, int64_t cost_ns) {
  if (cost_ns > level.max_ns) {
    level.max_ns = cost_ns;
    level.last_decay_ns = now_ns_;
  } else if (now_ns_ > level.last_decay_ns + 1000000000) {
    level.max_ns = level.max_ns * 253 / 256;
    level.last_decay_ns = now_ns_;
  }
}

int LoadBalancer::KickIlb() {
  // nohz_balancer_kick(): not before nohz.next_balance, nor while a
  // kicked CPU has yet to balance (NOHZ_KICK_MASK); kick_ilb() ->
  // find_new_ilb(): the first idle CPU.
  if (now_ns_ < nohz_next_balance_ns_) return -1;
  bool any = false;
  for (const EngineState::LlcShared& l : s_.llcs_) any |= l.nr_idle > 0;
  if (!any) return -1;
  for (int x = 0; x < topo_.num_cpus(); ++x) {
    if (s_.cpus_[x].mode != CpuMode::kIdle || !s_.available_idle(x)) continue;
    nohz_next_balance_ns_ = kNoKick;
    return x;
  }
  return -1;
}

int LoadBalancer::FindKickPull(int cpu, int* task) const {
  const std::vector<int>& ids = domains_.stack_ids(cpu);
  for (size_t i = 0; i < ids.size(); ++i) {
    bool any = false;
    for (int l : s_.domain_llcs_[ids[i]]) any |= s_.llcs_[l].nr_idle > 0;
    if (!any) continue;
    const topology::CpuSet& span = domains_.domains()[ids[i]].span;
    for (int dst = span.First(); dst >= 0; dst = span.Next(dst)) {
      if (dst == cpu || !s_.available_idle(dst)) continue;
      for (int q : s_.cpus_[cpu].rq) {
        if (!CanMigrate(q, dst, /*ignore_hot=*/true)) continue;
        *task = q;
        return dst;
      }
    }
  }
  return -1;
}

}  // namespace schedsim::sim
