// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/params.h"

#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/names.h"
#include "base/status_macros.h"

namespace schedsim::sim {
namespace {
constexpr int64_t kMaxNs = 1000000000000;  // 1000 s
constexpr const char* kKb = "docs/kernel-behaviour.md";
constexpr const char* kNoise = "docs/model.md, Run-to-run variability";

// A value as a file's message shows it: `boolean true`, `number 5`,
// `string "abc"` (a long string shortened).
std::string ShowValue(const platform::ParamValue& v) {
  if (const bool* b = std::get_if<bool>(&v)) {
    return *b ? "boolean true" : "boolean false";
  }
  if (const int64_t* i = std::get_if<int64_t>(&v)) {
    return absl::StrCat("number ", *i);
  }
  if (const double* d = std::get_if<double>(&v)) {
    return absl::StrCat("number ", *d);
  }
  std::string text = absl::StrCat("\"", std::get<std::string>(v), "\"");
  if (text.size() > 40) text = absl::StrCat(text.substr(0, 37), "...");
  return absl::StrCat("string ", text);
}

}  // namespace

const std::vector<ConfigParam>& ConfigParams() {
  using C = SimConfig;
  static const auto* params = new std::vector<ConfigParam>{
      // --- Scheduler tunables.
      {"hz", &C::hz, 1, 10000, "Hz", "scheduler", "kernel",
       "kernel/Kconfig.hz (CONFIG_HZ=250)", "the scheduler tick's rate"},
      {"sched_latency_ns", &C::sched_latency_ns, 1, kMaxNs, "ns", "scheduler",
       "kernel", "kernel/sched/fair.c sysctl_sched_latency",
       "CFS's latency period before the 1 + ilog2(min(ncpus, 8)) scaling"},
      {"sched_min_granularity_ns", &C::sched_min_granularity_ns, 1, kMaxNs,
       "ns", "scheduler", "kernel",
       "kernel/sched/fair.c sysctl_sched_min_granularity",
       "CFS's minimum slice before the scaling"},
      {"sched_wakeup_granularity_ns", &C::sched_wakeup_granularity_ns, 0,
       kMaxNs, "ns", "scheduler", "kernel",
       "kernel/sched/fair.c sysctl_sched_wakeup_granularity",
       "CFS's wake-up preemption margin before the scaling"},
      {"sched_base_slice_ns", &C::sched_base_slice_ns, 100000, kMaxNs, "ns",
       "scheduler", "kernel",
       "kernel/sched/fair.c sysctl_sched_base_slice (v6.6)",
       "EEVDF's request size before the scaling"},
      {"sched_migration_cost_ns", &C::sched_migration_cost_ns, 0, kMaxNs, "ns",
       "scheduler", "kernel", "kernel/sched/fair.c sysctl_sched_migration_cost",
       "a task that ran this recently is cache-hot to load balancing"},
      // --- Costs.
      {"context_switch_ns", &C::context_switch_ns, 0, kMaxNs, "ns", "costs",
       "measured", kKb, "the direct cost of a context switch"},
      {"mm_switch_ns", &C::mm_switch_ns, 0, kMaxNs, "ns", "costs", "measured",
       "arch/x86/mm/tlb.c switch_mm_irqs_off() (v6.1); docs/"
       "kernel-behaviour.md, Costs of a context switch",
       "the address-space part of context_switch_ns, not charged between "
       "threads of one mm"},
      {"wakeup_cost_ns", &C::wakeup_cost_ns, 0, kMaxNs, "ns", "costs",
       "measured", kKb, "the waker's cost of try_to_wake_up()"},
      {"probe_cost_ns", &C::probe_cost_ns, 0, kMaxNs, "ns", "costs", "assumed",
       kKb, "probing one remote runqueue in the idle-CPU search"},
      {"ipi_latency_ns", &C::ipi_latency_ns, 0, kMaxNs, "ns", "costs",
       "assumed", kKb, "IPI delivery to a CPU that is not polling"},
      {"pipe_op_ns", &C::pipe_op_ns, 0, kMaxNs, "ns", "costs", "assumed",
       "fs/pipe.c pipe_write()/pipe_read()", "a pipe send or receive"},
      {"socket_op_ns", &C::socket_op_ns, 0, kMaxNs, "ns", "costs", "assumed",
       "net/unix", "a unix stream socket send or receive"},
      {"pipe_lock_lines", &C::pipe_lock_lines, 0, 1000, "lines", "costs",
       "assumed", "fs/pipe.c __pipe_lock() (v5.19)",
       "cache lines the pipe mutex's critical section misses; 0 = not "
       "modelled"},
      {"kernel_work_at_frequency", &C::kernel_work_at_frequency, 0, 0, "",
       "costs", "switch", "a CPU executes kernel code at its clock",
       "kernel work (switch, wake-up, uclamp, pipe/socket ops) takes longer "
       "at a lower frequency"},
      {"llc_migration_penalty_ns", &C::llc_migration_penalty_ns, 0, kMaxNs,
       "ns", "costs", "assumed", "docs/model.md, Execution",
       "refill after a move to another LLC, without a known working set"},
      {"smt_migration_penalty_ns", &C::smt_migration_penalty_ns, 0, kMaxNs,
       "ns", "costs", "assumed", "docs/model.md, Execution",
       "refill after a move to another core of the LLC"},
      {"smt_factor_pct", &C::smt_factor_pct, 1, 100, "%", "machine", "assumed",
       kKb, "each SMT sibling's throughput when both run"},
      // --- Idle.
      {"pm_qos_latency_ns", &C::pm_qos_latency_ns, -1, kMaxNs, "ns", "idle",
       "kernel", "include/linux/pm_qos.h, /dev/cpu_dma_latency",
       "the PM QoS CPU latency limit; -1 = none"},
      {"poll_time_limit", &C::poll_time_limit, 0, 0, "", "idle", "switch",
       "drivers/cpuidle/poll_state.c poll_idle() (v4.18)",
       "the POLL state gives up after the cpuidle core's limit"},
      // --- KVM guest.
      {"kvm_hlt_exit_ns", &C::kvm_hlt_exit_ns, 0, kMaxNs, "ns", "guest",
       "assumed", "docs/model.md, Guests",
       "a guest HLT's VM exit and re-entry, on its wake-up path"},
      {"kvm_halt_poll_ns", &C::kvm_halt_poll_ns, 0, 4294967295, "ns", "guest",
       "kernel",
       "virt/kvm/kvm_main.c halt_poll_ns (v6.1; x86 "
       "KVM_HALT_POLL_NS_DEFAULT)",
       "the host's largest halt-polling window per vCPU; 0 = no polling"},
      {"kvm_halt_poll_ns_grow", &C::kvm_halt_poll_ns_grow, 0, 4294967295, "x",
       "guest", "kernel", "virt/kvm/kvm_main.c halt_poll_ns_grow (v6.1)",
       "the window's multiplier on growth; 0 = no growth"},
      {"kvm_halt_poll_ns_grow_start", &C::kvm_halt_poll_ns_grow_start, 0,
       4294967295, "ns", "guest", "kernel",
       "virt/kvm/kvm_main.c halt_poll_ns_grow_start (v6.1)",
       "the window after the first growth"},
      {"kvm_halt_poll_ns_shrink", &C::kvm_halt_poll_ns_shrink, 0, 4294967295,
       "x", "guest", "kernel", "virt/kvm/kvm_main.c halt_poll_ns_shrink (v6.1)",
       "the window's divisor after a long halt; 0 = reset to 0"},
      {"kvm_poll_control", &C::kvm_poll_control, 0, 0, "", "guest", "kernel",
       "arch/x86/kernel/kvm.c arch_haltpoll_enable() (v5.4), "
       "MSR_KVM_POLL_CONTROL",
       "the guest's haltpoll driver turns the host's halt polling off"},
      // --- Frequency.
      {"turbo", &C::turbo, 0, 0, "", "frequency", "kernel",
       "intel_pstate no_turbo, cpufreq boost", "turbo frequencies allowed"},
      {"hwp", &C::hwp, 0, 0, "", "frequency", "kernel",
       "drivers/cpufreq/intel_pstate.c (intel_pstate=no_hwp)",
       "boot an HWP part with HWP"},
      {"frequency_invariance", &C::frequency_invariance, 0, 0, "", "frequency",
       "switch", "arch_scale_freq_invariant() (x86 v5.7)",
       "PELT scaled by the running frequency"},
      {"pl1_mw", &C::pl1_mw, 0, 100000000, "mW", "frequency", "kernel",
       "intel-rapl powercap", "the package power limit; 0 = off"},
      {"pmu_period_ns", &C::pmu_period_ns, 1000, kMaxNs, "ns", "frequency",
       "assumed", "docs/model-idle-frequency.md, Frequency",
       "period of the package power-management evaluation"},
      // --- uclamp.
      {"uclamp", &C::uclamp, 0, 0, "", "uclamp", "switch",
       "CONFIG_UCLAMP_TASK (v5.3)", "per-task clamps feed the governor"},
      {"uclamp_rt_default_min", &C::uclamp_rt_default_min, 0, 1024, "capacity",
       "uclamp", "kernel", "sysctl_sched_util_clamp_min_rt_default",
       "uclamp_min of RT tasks that set none"},
      {"uclamp_enqueue_cost_ns", &C::uclamp_enqueue_cost_ns, 0, kMaxNs, "ns",
       "costs", "assumed", "kernel/sched/core.c uclamp_rq_inc()",
       "the uclamp bucket update per enqueue and per dequeue"},
      {"uclamp_static_key", &C::uclamp_static_key, 0, 0, "", "uclamp", "switch",
       "46609ce22703 sched_uclamp_used (v5.9)",
       "the bucket updates cost nothing until a task sets a clamp"},
      {"util_est", &C::util_est, 0, 0, "", "kernel features", "switch",
       "kernel/sched/features.h UTIL_EST (v4.17)",
       "per-task utilization estimates from the last sleeps"},
      // --- Load balancing.
      {"load_balance", &C::load_balance, 0, 0, "", "load balancing", "kernel",
       "kernel/sched/fair.c rebalance_domains()", "periodic load balancing"},
      {"newidle_balance", &C::newidle_balance, 0, 0, "", "load balancing",
       "kernel", "kernel/sched/fair.c newidle_balance()",
       "a CPU going idle pulls a task"},
      {"newidle_load_balance", &C::newidle_load_balance, 0, 0, "",
       "kernel features", "switch",
       "kernel/sched/fair.c newidle_balance() (v3.11 cost walk)",
       "newidle balancing level by level with its cost"},
      {"newidle_migration_cost_gate", &C::newidle_migration_cost_gate, 0, 0, "",
       "kernel features", "switch", "removed by c5b0a7eefc70 (v5.16)",
       "newidle skipped while avg_idle < sched_migration_cost"},
      {"smt_ignores_cache_hot", &C::smt_ignores_cache_hot, 0, 0, "",
       "kernel features", "switch", "ec73240b1627 (v5.10)",
       "no task is cache-hot to an SMT balance"},
      {"sched_idle_fallback", &C::sched_idle_fallback, 0, 0, "",
       "kernel features", "switch",
       "3c29e651e16d kernel/sched/fair.c select_idle_sibling() (v5.4)",
       "a CPU running only SCHED_IDLE tasks is a wake-up target"},
      {"sis_cluster_scan", &C::sis_cluster_scan, 0, 0, "", "kernel features",
       "switch", "8881e1639f1f kernel/sched/fair.c select_idle_cpu() (v6.7)",
       "the idle-CPU search scans the cluster before the LLC"},
      {"nohz_idle_balance", &C::nohz_idle_balance, 0, 0, "", "kernel features",
       "switch",
       "kernel/sched/fair.c nohz_balancer_kick(), _nohz_idle_balance()",
       "NO_HZ idle balancing as the kernel's"},
      {"cfs_buddies", &C::cfs_buddies, 0, 0, "", "kernel features", "switch",
       "kernel/sched/features.h LAST_BUDDY, CACHE_HOT_BUDDY (to v6.5)",
       "CFS's next and last buddies"},
      {"eevdf", &C::eevdf, 0, 0, "", "kernel features", "switch",
       "147f3efaa241 (v6.6)", "the fair class is EEVDF, not CFS"},
      {"run_to_parity", &C::run_to_parity, 0, 0, "", "kernel features",
       "switch", "features.h RUN_TO_PARITY (v6.6)",
       "EEVDF: the running task keeps its slice while eligible"},
      {"place_lag", &C::place_lag, 0, 0, "", "kernel features", "switch",
       "features.h PLACE_LAG (v6.6)", "EEVDF: placement keeps the lag"},
      {"place_deadline_initial", &C::place_deadline_initial, 0, 0, "",
       "kernel features", "switch", "features.h PLACE_DEADLINE_INITIAL (v6.6)",
       "EEVDF: a new task's first deadline is half a slice"},
      {"preempt_short", &C::preempt_short, 0, 0, "", "kernel features",
       "switch", "features.h PREEMPT_SHORT (v6.12)",
       "EEVDF: a shorter-slice wakee may preempt"},
      {"delay_dequeue", &C::delay_dequeue, 0, 0, "", "kernel features",
       "switch", "features.h DELAY_DEQUEUE (v6.12)",
       "EEVDF: a non-eligible sleeper stays queued"},
      {"delay_zero", &C::delay_zero, 0, 0, "", "kernel features", "switch",
       "features.h DELAY_ZERO (v6.12)",
       "EEVDF: a delayed entity drops a positive lag"},
      {"task_slices", &C::task_slices, 0, 0, "", "kernel features", "switch",
       "857b158dc5e8 (v6.12)", "EEVDF: sched_attr.sched_runtime is the slice"},
      {"find_idlest_group_local", &C::find_idlest_group_local, 0, 0, "",
       "kernel features", "switch",
       "kernel/sched/fair.c find_idlest_group() (v6.1)",
       "fork and exec placement keep the local group as the kernel does"},
      {"balance_by_load", &C::balance_by_load, 0, 0, "", "kernel features",
       "switch", "kernel/sched/fair.c load_balance() (v6.1)",
       "periodic balancing on PELT load"},
      // --- Noise.
      {"noise_scale", &C::noise_scale, 0, 100, "x", "noise", "assumed", kNoise,
       "scales every run-to-run variability source; 0 = none"},
      {"vmstat_interval_ns", &C::vmstat_interval_ns, 1000000, kMaxNs, "ns",
       "noise", "kernel", "mm/vmstat.c sysctl_stat_interval",
       "vmstat_update period per CPU"},
      {"vmstat_cost_ns", &C::vmstat_cost_ns, 0, kMaxNs, "ns", "noise",
       "assumed", kNoise, "one vmstat_update"},
      {"watchdog_interval_ns", &C::watchdog_interval_ns, 1000000, kMaxNs, "ns",
       "noise", "kernel", "kernel/time/clocksource.c WATCHDOG_INTERVAL",
       "the clocksource watchdog's period"},
      {"watchdog_cost_ns", &C::watchdog_cost_ns, 0, kMaxNs, "ns", "noise",
       "assumed", kNoise, "one watchdog run"},
      {"writeback_interval_ns", &C::writeback_interval_ns, 1000000, kMaxNs,
       "ns", "noise", "kernel", "mm/page-writeback.c dirty_writeback_interval",
       "the flusher's period"},
      {"writeback_cost_ns", &C::writeback_cost_ns, 0, kMaxNs, "ns", "noise",
       "assumed", kNoise, "one flusher run"},
      {"kernel_timer_interval_ns", &C::kernel_timer_interval_ns, 1000000,
       kMaxNs, "ns", "noise", "assumed", kNoise,
       "other per-CPU kernel timers' period"},
      {"kernel_timer_cost_ns", &C::kernel_timer_cost_ns, 0, kMaxNs, "ns",
       "noise", "assumed", kNoise, "one such timer"},
      {"kworker_per_s", &C::kworker_per_s, 0, 100000, "per s", "noise",
       "assumed", kNoise, "kworker wake-ups per CPU (Poisson)"},
      {"kworker_run_ns", &C::kworker_run_ns, 0, kMaxNs, "ns", "noise",
       "assumed", kNoise, "one kworker run"},
      {"rcu_per_s", &C::rcu_per_s, 0, 100000, "per s", "noise", "assumed",
       kNoise, "RCU softirq runs per CPU (Poisson)"},
      {"rcu_run_ns", &C::rcu_run_ns, 0, kMaxNs, "ns", "noise", "assumed",
       kNoise, "one RCU softirq run"},
      {"device_irq_per_s", &C::device_irq_per_s, 0, 100000, "per s", "noise",
       "assumed", kNoise, "device interrupts per CPU (Poisson)"},
      {"device_irq_ns", &C::device_irq_ns, 0, kMaxNs, "ns", "noise", "assumed",
       kNoise, "one interrupt handler"},
      {"start_skew_max_ns", &C::start_skew_max_ns, 0, kMaxNs, "ns", "noise",
       "assumed", kNoise, "initial tasks' first wake-up spread"},
      {"layout_cv_pct", &C::layout_cv_pct, 0, 100, "%", "noise", "assumed",
       "Mytkowicz et al., ASPLOS 2009; Curtsinger and Berger, ASPLOS 2013",
       "CV of each task's per-run memory-layout speed factor"},
  };
  return *params;
}

const ConfigParam* FindConfigParam(const std::string& name) {
  for (const ConfigParam& p : ConfigParams()) {
    if (name == p.name) return &p;
  }
  return nullptr;
}

std::string ConfigValueText(const ConfigParam& p, const SimConfig& c) {
  if (auto* f = std::get_if<bool SimConfig::*>(&p.field)) {
    return c.*(*f) ? "true" : "false";
  }
  if (auto* f = std::get_if<int SimConfig::*>(&p.field)) {
    return absl::StrCat(c.*(*f));
  }
  if (auto* f = std::get_if<int64_t SimConfig::*>(&p.field)) {
    return absl::StrCat(c.*(*f));
  }
  return absl::StrCat(c.*std::get<double SimConfig::*>(p.field));
}

std::vector<std::string> ConfigParamNames() {
  std::vector<std::string> names;
  for (const ConfigParam& p : ConfigParams()) names.push_back(p.name);
  return names;
}

namespace {

// Sets one field from a value, checked against its type and range; errors
// "SOURCE: AT: expected ...".
absl::Status SetParam(const ConfigParam& field,
                      const platform::ParamValue& value,
                      const std::string& source, const std::string& at,
                      SimConfig* config, const std::string& shown = "") {
  auto error = [&](const std::string& message) {
    return absl::InvalidArgumentError(
        absl::StrCat(source, ": ", at, ": ", message));
  };
  auto Show = [&shown](const platform::ParamValue& v) {
    return shown.empty() ? ShowValue(v) : shown;
  };
  const int64_t* integer = std::get_if<int64_t>(&value);
  const double* real = std::get_if<double>(&value);
  if (auto* p = std::get_if<bool SimConfig::*>(&field.field)) {
    const bool* b = std::get_if<bool>(&value);
    if (b == nullptr) {
      return error(absl::StrCat("expected true or false, got ", Show(value)));
    }
    config->*(*p) = *b;
    return absl::OkStatus();
  }
  if (auto* p = std::get_if<double SimConfig::*>(&field.field)) {
    const double lo = static_cast<double>(field.min);
    const double hi = static_cast<double>(field.max);
    const double d = integer != nullptr ? static_cast<double>(*integer)
                     : real != nullptr  ? *real
                                        : std::nan("");
    if (!std::isfinite(d) || d < lo || d > hi) {
      return error(absl::StrCat("expected a number in ", lo, "..", hi, ", got ",
                                Show(value)));
    }
    config->*(*p) = d;
    return absl::OkStatus();
  }
  // An integer; a whole-valued double (1e6) is accepted, as in files.
  const std::string range =
      field.max == std::numeric_limits<int64_t>::max()
          ? absl::StrCat(" >= ", field.min)
          : absl::StrCat(" in ", field.min, "..", field.max);
  int64_t v = 0;
  if (integer != nullptr) {
    v = *integer;
  } else if (real != nullptr && std::isfinite(*real) &&
             *real == std::floor(*real) && std::fabs(*real) <= 9e15) {
    v = static_cast<int64_t>(*real);
  } else {
    return error(
        absl::StrCat("expected an integer", range, ", got ", Show(value)));
  }
  if (v < field.min || v > field.max) {
    return error(absl::StrCat("expected an integer", range, ", got ", v));
  }
  if (auto* p = std::get_if<int SimConfig::*>(&field.field)) {
    config->*(*p) = static_cast<int>(v);
  } else {
    config->*std::get<int64_t SimConfig::*>(field.field) = v;
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckConfigRanges(const SimConfig& config,
                               const std::string& source) {
  for (const ConfigParam& p : ConfigParams()) {
    platform::ParamValue v;
    if (auto* f = std::get_if<bool SimConfig::*>(&p.field)) {
      v = config.*(*f);
    } else if (auto* f = std::get_if<int SimConfig::*>(&p.field)) {
      v = int64_t{config.*(*f)};
    } else if (auto* f = std::get_if<int64_t SimConfig::*>(&p.field)) {
      v = config.*(*f);
    } else {
      v = config.*std::get<double SimConfig::*>(p.field);
    }
    SimConfig scratch;
    absl::Status s = SetParam(p, v, source, p.name, &scratch);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status SetConfigParams(
    const std::map<std::string, platform::ParamValue>& values,
    const std::string& source, SimConfig* config) {
  for (const auto& [key, value] : values) {
    SCHEDSIM_RETURN_IF_ERROR(
        SetConfigParam(key, value, source, "config", config));
  }
  return absl::OkStatus();
}

absl::Status SetConfigParam(const std::string& key,
                            const platform::ParamValue& value,
                            const std::string& source,
                            const std::string& object_path, SimConfig* config,
                            const std::string& shown) {
  const ConfigParam* field = FindConfigParam(key);
  if (field == nullptr) {
    const std::vector<std::string> names = ConfigParamNames();
    return absl::InvalidArgumentError(
        absl::StrCat(source, ": ", object_path, ": unknown key '", key, "'",
                     base::DidYouMean(key, names), "; the config keys are ",
                     absl::StrJoin(names, ", ")));
  }
  return SetParam(*field, value, source, absl::StrCat(object_path, ".", key),
                  config, shown);
}

}  // namespace schedsim::sim
