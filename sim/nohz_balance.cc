// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// NO_HZ idle balancing (sim/balance.cc describes the models): an
// overloaded CPU's tick kicks an idle CPU to pull work, and the balance
// intervals (kernel/sched/fair.c nohz_balancer_kick(),
// nohz_idle_balance(), get_sd_balance_interval(), Linux 6.1).

#include <algorithm>
#include <cassert>

#include "sim/simulator_impl.h"

namespace schedsim::sim {

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
