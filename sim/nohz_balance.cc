// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The engine's side of NO_HZ idle balancing (sim/balance.cc describes the
// models, sim/load_balancer.h decides): an overloaded CPU's tick kicks an
// idle CPU by IPI to pull work, and the kicked CPU balances the idle CPUs
// that are due (kernel/sched/fair.c nohz_balancer_kick(),
// nohz_idle_balance(), Linux 6.1).

#include <algorithm>
#include <cassert>

#include "sim/simulator_impl.h"

namespace schedsim::sim {

void SimulatorImpl::NohzKick(int cpu) {
  Cpu& c = cpus_[cpu];
  if (c.nr_running < 2 || c.rq.empty()) return;
  if (config_.nohz_idle_balance) {
    const int x = lb_.KickIlb();
    if (x < 0) return;
    ++placement_stats_.ipis;
    ++cpus_[x].stats.ipis_received;
    QueuePush(SimTime::FromNanoseconds(now_ns_ + config_.ipi_latency_ns),
              kBandSched, kEvNohzBalance, x, -1);
    return;
  }
  int q = -1;
  const int dst = lb_.FindKickPull(cpu, &q);
  if (dst < 0) return;
  // The idle CPU is kicked by IPI and pulls the task.
  DequeueTask(cpu, q);
  Task& t = tasks_[q];
  t.state = TaskState::kWaking;
  ++cpus_[dst].ttwu_pending;
  RefreshProbe(dst);
  ++lb_migrations_;
  ++placement_stats_.ipis;
  PushDelivery(now_ns_ + config_.ipi_latency_ns, dst, q);
}

void SimulatorImpl::OnNohzBalance(int ilb) {
  // _nohz_idle_balance() (kernel/sched/fair.c, v6.1) in the kicked CPU's
  // softirq, which runs only while that CPU is still idle.
  const int n = topo_.num_cpus();
  int64_t next = LoadBalancer::kNoKick;
  if (cpus_[ilb].mode == CpuMode::kIdle && available_idle(ilb)) {
    // for_each_cpu_wrap() from the next CPU: the kicked one balances
    // itself last.
    for (int k = 1; k <= n; ++k) {
      const int x = (ilb + k) % n;
      Cpu& cx = cpus_[x];
      if (cx.mode != CpuMode::kIdle || !available_idle(x)) continue;
      if (now_ns_ >= lb_.NextBalanceNs(x)) {
        lb_.PeriodicBalance(x);  // rebalance_domains(rq, CPU_IDLE)
        if (cx.nr_running > 0) {
          // attach_tasks() -> resched_curr(): the CPU leaves idle, by IPI
          // unless it polls.
          if (cx.polling) {
            LeaveIdle(x, /*by_poll=*/true, /*exit_ns=*/0);
            Schedule(x);
            continue;
          }
          ++placement_stats_.ipis;
          ++cx.stats.ipis_received;
          const int64_t exit_ns =
              config_.ipi_latency_ns + idle_.PhysicalExitNs(x);
          LeaveIdleWithExit(x, exit_ns, now_ns_ + exit_ns);
          continue;
        }
      }
      next = std::min(next, lb_.NextBalanceNs(x));
    }
  }
  // nohz.next_balance: the earliest due balance of the CPUs still idle.
  lb_.SetNohzNextBalance(next);
}

}  // namespace schedsim::sim
