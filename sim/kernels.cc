// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/kernels.h"

#include <cctype>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace schedsim::sim {

std::string KernelVersion::ToString() const {
  return absl::StrCat(major, ".", minor);
}

absl::StatusOr<KernelVersion> ParseKernelVersion(absl::string_view text) {
  absl::string_view t = text;
  if (!t.empty() && (t[0] == 'v' || t[0] == 'V')) t.remove_prefix(1);
  std::vector<absl::string_view> parts = absl::StrSplit(t, '.');
  KernelVersion v;
  const bool ok = (parts.size() == 2 || parts.size() == 3) &&
                  absl::SimpleAtoi(parts[0], &v.major) &&
                  absl::SimpleAtoi(parts[1], &v.minor) && v.major >= 2 &&
                  v.major <= 99 && v.minor >= 0 && v.minor <= 999;
  int patch = 0;
  if (!ok || (parts.size() == 3 && !absl::SimpleAtoi(parts[2], &patch))) {
    return absl::InvalidArgumentError(absl::StrCat(
        "expected a kernel version MAJOR.MINOR such as \"6.12\" or "
        "\"4.16\" (a patch level may follow), got \"",
        text, "\""));
  }
  return v;
}

namespace {
constexpr KernelVersion kAll{0, 0};
constexpr KernelVersion kNone{0, 0};
}  // namespace

const std::vector<KernelFeature>& KernelFeatures() {
  using C = SimConfig;
  static const auto* table = new std::vector<KernelFeature>{
      {"eevdf",
       "",
       {6, 6},
       kNone,
       "147f3efaa241 sched/fair: Implement an EEVDF-like scheduling policy",
       "",
       "the fair class is EEVDF (sim/eevdf.h: eligibility by lag, earliest "
       "eligible virtual deadline, lag-based placement); before 6.6 CFS "
       "(sim/cfs.h: leftmost vruntime, sleeper credit, wake-up granularity)",
       &C::eevdf},
      {"cfs_buddies",
       "LAST_BUDDY, CACHE_HOT_BUDDY",
       {2, 6},
       {6, 6},
       "4793241be408 sched: backward looking buddy (v2.6.29)",
       "5e963f2bd465 sched/fair: Commit to EEVDF",
       "CFS's next and last buddies of check_preempt_wakeup(), preferred by "
       "pick_next_entity() when not unfair, and CACHE_HOT_BUDDY in "
       "task_hot(); NEXT_BUDDY (off by default) is not modelled",
       &C::cfs_buddies},
      {"run_to_parity",
       "RUN_TO_PARITY",
       {6, 6},
       kNone,
       "63304558ba5d sched/eevdf: Curb wakeup-preemption",
       "",
       "the running entity keeps the CPU while eligible and inside the "
       "deadline it was picked with; the 6.17-era limit to the shortest "
       "queued slice is not modelled",
       &C::run_to_parity},
      {"place_lag",
       "PLACE_LAG",
       {6, 6},
       kNone,
       "86bfbb7ce4f6 sched/fair: Add lag based placement",
       "",
       "an enqueued entity is placed at V - lag, the lag scaled by "
       "(W + w) / W (place_entity())",
       &C::place_lag},
      {"place_deadline_initial",
       "PLACE_DEADLINE_INITIAL",
       {6, 6},
       kNone,
       "e0c2ff903c32 sched/fair: Remove sched_feat(START_DEBIT)",
       "",
       "a new task's first deadline is half a slice on; CFS's START_DEBIT "
       "(a new task placed a slice behind min_vruntime) is not modelled: "
       "the model's CFS places a new task as a waking one",
       &C::place_deadline_initial},
      {"preempt_short",
       "PREEMPT_SHORT",
       {6, 12},
       kNone,
       "85e511df3cec sched/eevdf: Allow shorter slices to wakeup-preempt",
       "",
       "an eligible waking entity with a shorter slice cancels the running "
       "one's protection (do_preempt_short(), did_preempt_short())",
       &C::preempt_short},
      {"delay_dequeue",
       "DELAY_DEQUEUE",
       {6, 12},
       kNone,
       "152e11f6df29 sched/fair: Implement delayed dequeue",
       "",
       "an entity that sleeps while not eligible stays queued until picked "
       "or woken; woken, it is requeued on its CPU without select_task_rq() "
       "(ttwu_runnable()); load balancing does not move it; 6.13's "
       "h_nr_delayed load fixes are not modelled (the 6.12 counts stand)",
       &C::delay_dequeue},
      {"delay_zero",
       "DELAY_ZERO",
       {6, 12},
       kNone,
       "54a58a787791 sched/fair: Implement DELAY_ZERO",
       "",
       "a delayed entity that leaves or is requeued drops a positive lag",
       &C::delay_zero},
      {"task_slices",
       "",
       {6, 12},
       kNone,
       "857b158dc5e8 sched/eevdf: Use sched_attr::sched_runtime to set "
       "request/slice suggestion",
       "",
       "a task's sched_attr.sched_runtime (a scenario task's slice_us, an "
       "rt-app task's dl-runtime) is its slice, clamped to 0.1-100 ms",
       &C::task_slices},
      {"util_est",
       "UTIL_EST",
       {4, 17},
       kNone,
       "7f65ea42eb00 sched/fair: Add util_est on top of PELT",
       "",
       "each task's estimate from its last sleeps, summed per runqueue; "
       "cpu_util_cfs() is the larger of util_avg and the sum",
       &C::util_est},
      {"uclamp",
       "",
       {5, 3},
       kNone,
       "69842cba9ace sched/uclamp: Add CPU's clamp buckets refcounting",
       "",
       "CONFIG_UCLAMP_TASK: per-task clamps feed the governor, and each "
       "enqueue and dequeue pays the bucket update",
       &C::uclamp},
      {"uclamp_static_key",
       "",
       {5, 9},
       kNone,
       "46609ce22703 sched/uclamp: Protect uclamp fast path code with "
       "static key",
       "",
       "uclamp_rq_inc() and uclamp_rq_dec() return at once while no task "
       "or group has set a clamp (sched_uclamp_used): a workload without "
       "clamps pays no bucket update",
       &C::uclamp_static_key},
      {"newidle_load_balance",
       "",
       {3, 11},
       kNone,
       "9bd721c55c8a sched/balancing: Consider max cost of idle balance",
       "",
       "newidle_balance() level by level, each level's scan taking time, "
       "stopping where avg_idle is below the cost so far plus the level's "
       "max_newidle_lb_cost; before 3.11 (no cost walk) the model's one "
       "free pull from the lowest level stands in",
       &C::newidle_load_balance},
      {"newidle_migration_cost_gate",
       "",
       {2, 6},
       {5, 16},
       "1b9508f6831e sched: Rate-limit newidle (v2.6.35)",
       "c5b0a7eefc70 sched/fair: Remove sysctl_sched_migration_cost "
       "condition",
       "newidle balancing is skipped while avg_idle is below "
       "sched_migration_cost",
       &C::newidle_migration_cost_gate},
      {"smt_ignores_cache_hot",
       "",
       {5, 10},
       kNone,
       "ec73240b1627 sched/fair: Ignore cache hotness for SMT migration",
       "",
       "no task is cache-hot to a balance of an SMT domain",
       &C::smt_ignores_cache_hot},
      {"sched_idle_fallback",
       "",
       {5, 4},
       kNone,
       "3c29e651e16d sched/fair: Fall back to sched-idle CPU if idle CPU "
       "isn't found",
       "",
       "sched_idle_cpu() (only SCHED_IDLE tasks runnable) counts as idle in "
       "select_idle_sibling() (target, prev, recent_used_cpu, the LLC scan) "
       "and find_idlest_group_cpu(); the latter came in 5.6 (17346452b25b) "
       "and is taken as 5.4's",
       &C::sched_idle_fallback},
      {"sis_cluster_scan",
       "",
       {6, 7},
       kNone,
       "8881e1639f1f sched/fair: Scan cluster before scanning LLC in "
       "wake-up path",
       "",
       "select_idle_cpu() scans the target's cluster (CLS level) first, "
       "then the rest of the LLC with the depth left; only machines with a "
       "cluster level are affected; 22165f61d0c4's prev/recent_used_cpu "
       "fallback for cluster wake-ups is not modelled",
       &C::sis_cluster_scan},
      {"nohz_idle_balance", "", kAll, kNone,
       "NO_HZ idle balancing (v2.6.21); modelled as v5.19/v6.1 have it", "",
       "an overloaded CPU's tick kicks one idle CPU once nohz.next_balance "
       "has come, which balances every idle CPU whose balance is due; "
       "older kernels' kick criteria are not modelled, 6.1's stand in",
       &C::nohz_idle_balance},
      {"find_idlest_group_local", "", kAll, kNone,
       "57abff067a08 sched/fair: Rework find_idlest_group() (v5.5); "
       "e496132ebedd imb_numa_nr (v5.18)",
       "",
       "fork, exec and initial placement keep the local group on spare "
       "capacity, equal idle CPUs and the NUMA imbalance allowance; before "
       "5.5 find_idlest_group() compared load with imbalance_pct, which is "
       "not modelled: 6.1's rule stands in",
       &C::find_idlest_group_local},
      {"balance_by_load", "", kAll, kNone,
       "0b0695f2b34a sched/fair: Rework load_balance() (v5.5)", "",
       "periodic balancing as load_balance() on PELT load with v6.1's group "
       "classification; before 5.5 the older classification is not "
       "modelled, 6.1's stands in",
       &C::balance_by_load},
      {"poll_time_limit",
       "",
       {4, 18},
       kNone,
       "a37b969a61c1 cpuidle: poll_state: Add time limit to poll_idle()",
       "",
       "the POLL state gives up after the cpuidle core's limit",
       &C::poll_time_limit},
      {"frequency_invariance",
       "",
       {5, 7},
       kNone,
       "1567c3e3467c x86, sched: Add support for frequency invariance",
       "",
       "PELT scaled by the running frequency (x86 from APERF/MPERF; on Arm "
       "from the cpufreq driver); schedutil's invariant formula",
       &C::frequency_invariance},
      {"kernel_work_at_frequency", "", kAll, kNone,
       "not a kernel feature: a CPU executes kernel code at its clock", "",
       "the context switch, the wake-up, uclamp updates and pipe/socket "
       "operations take longer on a slower CPU, as user work does",
       &C::kernel_work_at_frequency},
  };
  return *table;
}

const std::vector<KnownKernel>& KnownKernels() {
  static const auto* list = new std::vector<KnownKernel>{
      {{3, 10}, "seed 003's kernel (3.10-rc2)"},
      {{4, 16}, "seed 000's kernel"},
      {{4, 18}, "POLL time limit"},
      {{5, 4}, "LTS"},
      {{5, 10}, "LTS"},
      {{5, 15}, "LTS"},
      {{5, 19}, "seed 001's tip tree base"},
      {{6, 1}, "LTS; the model's reference for CFS"},
      {{6, 2}, ""},
      {{6, 5}, "the last CFS kernel"},
      {{6, 6}, "LTS; EEVDF"},
      {{6, 12}, "LTS; EEVDF with delayed dequeue and PREEMPT_SHORT"},
      {{7, 2},
       "the newest release the team can cite (Debian unstable's "
       "7.2.13, 2026-12-06); fair.c changes after 6.12 are not "
       "modelled"},
  };
  return *list;
}

const char* KernelPlacementPolicy(KernelVersion v) {
  return v < KernelVersion{6, 0} ? "sis_prop" : "sis_util";
}

void ApplyKernel(KernelVersion v, SimConfig* config) {
  for (const KernelFeature& f : KernelFeatures()) {
    config->*f.field = f.Has(v);
  }
}

}  // namespace schedsim::sim
