// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Load balancing as a part of the engine: the decisions of
// kernel/sched/fair.c (Linux 6.1 unless a function says otherwise) over
// the shared state of sim/engine_state.h, as the kernel's read struct rq,
// struct sched_domain and sched_domain_shared: task_hot(),
// can_migrate_task(), should_we_balance(), get_sd_balance_interval(),
// rebalance_domains() with load_balance() (update_sd_lb_stats(),
// find_busiest_group(), calculate_imbalance(), find_busiest_queue(),
// detach_tasks()) or the count model, the newidle pull, the NO_HZ kick's
// choice of CPU, imb_numa_nr and update_newidle_cost(). sim/balance.cc
// describes the models. The part owns its private state (each level's
// newidle cost, the newidle walk's cost so far, nohz.next_balance); what
// it does to the engine (a task's migration) goes through BalanceMover.
// The engine (sim/simulator_impl.h) keeps the event-driven parts: the
// newidle walk's events, the NO_HZ kick's IPI and the kicked CPU's exit
// from idle (newidle_balance.cc, nohz_balance.cc). Private to sim/.

#ifndef SCHEDSIM_SIM_LOAD_BALANCER_H_
#define SCHEDSIM_SIM_LOAD_BALANCER_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/config.h"
#include "sim/engine_state.h"
#include "topology/cpuset.h"
#include "topology/sched_domains.h"
#include "topology/topology.h"

namespace schedsim::sim {

// What a balance does to the engine: moves queued task `task` from `src`'s
// runqueue to `dst`'s (detach_task() + attach_task()). The engine
// implements it with its dequeue and enqueue; a test moves the task in
// the state it built.
class BalanceMover {
 public:
  virtual void MigrateQueued(int task, int src, int dst) = 0;

 protected:
  ~BalanceMover() = default;
};

// sd->imb_numa_nr of `cpu`'s domain at `level` (build_sched_domains()):
// also read by the fork balance's find_idlest_group().
int ImbNumaNr(const topology::SchedDomains& domains, int cpu, size_t level);

class LoadBalancer {
 public:
  // nohz.next_balance while a kicked CPU has yet to balance.
  static constexpr int64_t kNoKick = INT64_MAX;

  // Reads and writes `state`; reads the others, which must outlive it
  // (`now_ns` is the engine's clock).
  LoadBalancer(EngineState& state, const topology::Topology& topo,
               const topology::SchedDomains& domains, const SimConfig& config,
               const int64_t& now_ns, BalanceMover& mover)
      : s_(state),
        topo_(topo),
        domains_(domains),
        config_(config),
        now_ns_(now_ns),
        mover_(mover) {}
  LoadBalancer(const LoadBalancer&) = delete;
  LoadBalancer& operator=(const LoadBalancer&) = delete;

  // Sizes the private state for the machine (domains built) and the
  // config; `tick_ns` is a jiffy.
  void Init(int64_t tick_ns);

  // --- Decisions ------------------------------------------------------
  // task_hot() for a balance towards `dst_cpu`: ran within
  // sched_migration_cost, or (SimConfig::cfs_buddies) a buddy of its
  // runqueue while `dst_cpu` runs tasks (CACHE_HOT_BUDDY).
  bool TaskHot(int task, int dst_cpu) const;
  // Whether a balance of `sd` may take a cache-hot task: after more than
  // cache_nice_tries failed balances, and at an SMT level always when
  // SimConfig::smt_ignores_cache_hot is on.
  bool IgnoreHot(const topology::SchedDomain& sd,
                 uint32_t nr_balance_failed) const;
  // can_migrate_task(): allowed on `dst_cpu`, not SCHED_FIFO, runnable, and
  // not cache-hot unless `ignore_hot`.
  bool CanMigrate(int task, int dst_cpu, bool ignore_hot) const;
  // The CPU of `span` other than `this_cpu` with the most runnable tasks,
  // at least `min_nr` (the first of equals), or -1.
  int FindBusiestCpu(const topology::CpuSet& span, int this_cpu,
                     int min_nr) const;
  // The busiest CPU (nr_running >= 2) of distinct domain `domain_id`,
  // visiting only its LLCs that have an overloaded CPU.
  int FindOverloadedCpu(int domain_id, int this_cpu) const;
  // should_we_balance(): only the first idle CPU of the local group, else
  // its first CPU, balances the domain periodically.
  bool ShouldWeBalance(int cpu, const topology::SchedDomain& sd) const;
  // get_sd_balance_interval(): `cpu`'s interval at `level`, busy_factor
  // times longer on a busy CPU, clamped to [1 jiffy,
  // max_load_balance_interval].
  int64_t BalanceIntervalNs(int cpu, size_t level, bool busy) const;
  // When `cpu`'s rebalance_domains() is next due (rq->next_balance).
  int64_t NextBalanceNs(int cpu) const;
  // cfs_rq->avg.load_avg of `cpu`, decayed (or accrued) up to now.
  int64_t CpuLoadAvg(int cpu) const;
  // sd->imb_numa_nr of `cpu`'s domain at `level` (build_sched_domains()).
  int ImbNumaNr(int cpu, size_t level) const {
    return sim::ImbNumaNr(domains_, cpu, level);
  }
  // rd->overload: some CPU has a task queued behind its running one.
  bool Overloaded() const;

  // --- Balances (they move tasks through the mover) -------------------
  // rebalance_domains() from `cpu`'s tick, bottom level up.
  void PeriodicBalance(int cpu);
  // load_balance() at level `level` of `cpu`'s domain stack, for a CPU that
  // is idle (`idle`) or busy at its tick. `newidle`: the CPU_NEWLY_IDLE
  // balance of a CPU still in schedule(), whose rq->curr is the task that
  // just left, so idle_cpu() does not count it. Returns the tasks moved,
  // or -1 when the domain is balanced.
  int LoadBalance(int cpu, size_t level, bool idle, bool newidle = false);
  // The count-based periodic balance at `level` (balance_by_load false):
  // pulls one task when another group has more runnable tasks than CPUs
  // and the local group has room. 1: pulled a task; 0: an imbalance, but
  // only cache-hot tasks to move; -1: balanced, or every candidate pinned.
  int CountBalance(int cpu, size_t level);
  // Pulls the first queued task of `src` that may move to `dst`: 1 when
  // one moved, 0 when only cache-hot ones could have, -1 when none may.
  int PullOne(int src, int dst, bool ignore_hot);
  // Newidle balancing without SimConfig::newidle_load_balance: the lowest
  // level that yields a task pulls one, at no cost.
  void NewidleBalance(int cpu);
  // load_balance(CPU_NEWLY_IDLE) at `level` of `cpu`'s domains: whether a
  // task moved to `cpu`.
  bool NewidlePull(int cpu, int level);
  // update_sd_lb_stats() -> update_idle_cpu_scan(): SIS_UTIL's scan depth
  // of `cpu`'s LLC from the utilization of `sd` (its LLC domain).
  void UpdateIdleCpuScan(int cpu, const topology::SchedDomain& sd);

  // --- newidle_balance()'s walk (SimConfig::newidle_load_balance) -----
  // The walk's cost so far (curr_cost) starts at 0.
  void StartNewidleWalk(int cpu) { newidle_walk_cost_ns_[cpu] = 0; }
  // The next level from `level` up that `cpu`'s walk balances, with its
  // scan's cost in `*cost_ns` (added to the walk's and to the level's max
  // cost, update_newidle_cost()), or -1 where the walk stops: the cost so
  // far plus a level's dearest balance would outlast avg_idle.
  int NextNewidleLevel(int cpu, int level, int64_t* cost_ns);
  // update_newidle_cost() (Linux 5.19): raise `cpu`'s max cost at
  // `level`, or decay it by 253/256 when a second has passed since the
  // last raise or decay.
  void UpdateNewidleCost(int cpu, size_t level, int64_t cost_ns);
  int64_t newidle_max_cost_ns(int cpu, size_t level) const {
    return newidle_costs_[cpu][level].max_ns;
  }

  // --- NO_HZ idle balancing -------------------------------------------
  // nohz_balancer_kick() -> find_new_ilb() (SimConfig::nohz_idle_balance):
  // the idle CPU to kick now, or -1 (not before nohz.next_balance, nor
  // while a kicked CPU has yet to balance, nor with no CPU idle). Kicking
  // one sets nohz.next_balance to kNoKick.
  int KickIlb();
  // Without SimConfig::nohz_idle_balance: the nearest idle CPU (by domain
  // level) to `cpu` that may take one of its queued tasks, and that task
  // in `*task`; -1 when none.
  int FindKickPull(int cpu, int* task) const;
  // nohz.next_balance after a kicked CPU's _nohz_idle_balance(): `next`,
  // or now when no idle CPU is due (kNoKick).
  void SetNohzNextBalance(int64_t next) {
    nohz_next_balance_ns_ = next == kNoKick ? now_ns_ : next;
  }
  int64_t nohz_next_balance_ns() const { return nohz_next_balance_ns_; }

 private:
  // sd->max_newidle_lb_cost and sd->last_decay_max_lb_cost of one CPU's
  // domain level: the dearest newidle balance of the level so far.
  struct NewidleCost {
    int64_t max_ns = 0;
    int64_t last_decay_ns = 0;
  };
  void UpdateNewidleCost(NewidleCost& level, int64_t cost_ns);
  // cpu_util_cfs() of `cpu` (EngineState::CpuUtil at its capacity).
  int64_t CpuUtil(int cpu) const {
    return s_.CpuUtil(cpu, topo_.capacity(cpu));
  }

  EngineState& s_;
  const topology::Topology& topo_;
  const topology::SchedDomains& domains_;
  const SimConfig& config_;
  const int64_t& now_ns_;
  BalanceMover& mover_;
  int64_t tick_ns_ = 4000000;
  // Per CPU, per domain level; only with SimConfig::newidle_load_balance
  // (empty otherwise).
  std::vector<std::vector<NewidleCost>> newidle_costs_;
  // Per CPU: the time its newidle walk has taken so far (curr_cost).
  std::vector<int64_t> newidle_walk_cost_ns_;
  // nohz.next_balance (SimConfig::nohz_idle_balance): no kick before it;
  // kNoKick while a kicked CPU has yet to balance.
  int64_t nohz_next_balance_ns_ = 0;
  // LoadBalance()'s scratch list of a runqueue's tasks.
  std::vector<int32_t> balance_candidates_;
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_LOAD_BALANCER_H_
