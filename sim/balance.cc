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
// Simplified from the kernel's find_busiest_group: groups are compared by
// runnable tasks against their CPU count; at SD_NUMA levels only an
// overloaded group (more tasks than CPUs) gives up tasks. Tasks that ran in
// the last sched_migration_cost are cache-hot and are skipped on a first
// pass.

#include <algorithm>
#include <cassert>

#include "sim/simulator_impl.h"

namespace schedsim::sim {

bool SimulatorImpl::CanMigrate(int task, int dst_cpu, bool ignore_hot) const {
  const Task& t = tasks_[task];
  if (!AllowedOf(t)->Test(dst_cpu)) return false;
  if (t.policy == SchedPolicy::kFifo) return false;
  if (!ignore_hot &&
      now_ns_ - t.last_ran_ns < config_.sched_migration_cost_ns) {
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
  // Skip when the CPU expects to idle only briefly (avg_idle below the
  // migration cost), as newidle_balance does.
  if (c.avg_idle_ns < config_.sched_migration_cost_ns) return;
  const std::vector<int>& ids = domains_.stack_ids(cpu);
  for (size_t i = 0; i < ids.size(); ++i) {
    const topology::SchedDomain& sd = domains_.domains()[ids[i]];
    if (!sd.has(topology::kSdBalanceNewidle)) continue;
    int busiest = FindOverloadedCpu(ids[i], cpu);
    if (busiest < 0) continue;
    for (int pass = 0; pass < 2; ++pass) {
      for (int q : cpus_[busiest].rq) {
        if (CanMigrate(q, cpu, pass == 1)) {
          MigrateQueued(q, busiest, cpu);
          return;
        }
      }
      if (cpus_[busiest].nr_running < 3) break;
    }
  }
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
  const bool busy = c.mode == CpuMode::kBusy;
  // max_load_balance_interval: HZ * num_online_cpus / 10 jiffies.
  const int64_t max_interval_ns = tick_ns_ * config_.hz * topo_.num_cpus() / 10;
  for (size_t i = 0; i < ids.size(); ++i) {
    const topology::SchedDomain& sd = domains_.domains()[ids[i]];
    // get_sd_balance_interval(): busy CPUs balance busy_factor times less
    // often; clamped to [1 jiffy, max_load_balance_interval].
    const int64_t interval_ns =
        std::clamp<int64_t>(int64_t{c.balance[i].interval_ms} *
                                (busy ? sd.busy_factor : 1) * 1000000,
                            tick_ns_, std::max(max_interval_ns, tick_ns_));
    if (now_ns_ < c.balance[i].last_ns + interval_ns) continue;
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
    bool any = false;
    for (int l : domain_llcs_[ids[i]]) any |= llcs_[l].nr_overloaded > 0;
    if (!any) {
      balanced();
      continue;
    }
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
      balanced();
      continue;
    }
    int src = FindBusiestCpu(sd.groups[busiest_group], cpu, 2);
    if (src < 0) {
      balanced();
      continue;
    }
    for (int pass = 0; pass < 2; ++pass) {
      for (int q : cpus_[src].rq) {
        if (CanMigrate(q, cpu, pass == 1)) {
          MigrateQueued(q, src, cpu);
          c.balance[i].interval_ms = sd.min_interval_ms;
          return;
        }
      }
    }
    balanced();  // every candidate pinned (LBF_ALL_PINNED)
  }
}

void SimulatorImpl::NohzKick(int cpu) {
  Cpu& c = cpus_[cpu];
  if (c.nr_running < 2 || c.rq.empty()) return;
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

}  // namespace schedsim::sim
