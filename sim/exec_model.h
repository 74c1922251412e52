// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The execution model's arithmetic as a part of the engine: what a CPU
// executes per ns (its domain's frequency times the work one of its
// cycles does, times the SMT factor while another thread of its core is
// busy: the hardware's side of what the kernel sees through
// arch_scale_freq_capacity(), arch/x86/kernel/smpboot.c, Linux 6.1), a
// phase's progress settled by the time elapsed, and the time a phase's
// cycles take, memoised per CPU. The engine (phase.cc, the phase end's
// arming in interpreter_inline.h) keeps the phases' events and which CPU
// runs what. Inline: the phase paths call it at nearly every event.
// Private to sim/.

#ifndef SCHEDSIM_SIM_EXEC_MODEL_H_
#define SCHEDSIM_SIM_EXEC_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/base/optimization.h"
#include "sim/config.h"
#include "sim/exact_round.h"
#include "sim/freq_state.h"
#include "sim/sched_state.h"

namespace schedsim::sim {

class ExecModel {
 public:
  // Reads SimConfig::smt_factor_pct from `config`, which must outlive it.
  explicit ExecModel(const SimConfig& config) : config_(config) {}
  ExecModel(const ExecModel&) = delete;
  ExecModel& operator=(const ExecModel&) = delete;

  // `cpus` CPUs, no phase time memoised.
  void Init(int cpus) { memo_.assign(static_cast<size_t>(cpus), Memo()); }

  // What a CPU executes per ns at `khz` when one of its cycles does
  // `work_per_cycle` (FreqDomainState::work_per_cycle: 1 except on a CPU
  // smaller than the biggest), beside a busy SMT sibling or not.
  double Rate(int64_t khz, double work_per_cycle, bool sibling_busy) const {
    double rate = static_cast<double>(khz) * 1e-6 * work_per_cycle;
    if (sibling_busy) rate = rate * config_.smt_factor_pct / 100.0;
    return rate;
  }
  // ns per cycle at `rate` (0 when the CPU executes nothing).
  static double NsPerCycle(double rate) { return rate > 0 ? 1.0 / rate : 0; }
  // Sets domain `d`'s frequency and the ns per cycle that follow, alone on
  // a core ([0]) and beside a busy sibling ([1]): Rate's arithmetic, done
  // once per frequency change.
  void SetCurKhz(FreqDomainState& d, int64_t khz) const {
    d.cur_khz = khz;
    d.ns_per_cycle[0] = NsPerCycle(Rate(khz, d.work_per_cycle, false));
    d.ns_per_cycle[1] = NsPerCycle(Rate(khz, d.work_per_cycle, true));
  }

  // The progress of task `t`'s phase over `elapsed_ns` (> 0) at
  // `ns_per_cycle`: its cycles and stall shrink in proportion to the time
  // elapsed, to 0 once it covers them.
  static void Settle(Task& t, int64_t elapsed_ns, double ns_per_cycle) {
    const double remaining = static_cast<double>(t.rem_cycles) * ns_per_cycle +
                             static_cast<double>(t.rem_stall_ns);
    if (static_cast<double>(elapsed_ns) >= remaining) {
      t.rem_cycles = 0;
      t.rem_stall_ns = 0;
      return;
    }
    const double keep = 1.0 - static_cast<double>(elapsed_ns) / remaining;
    t.rem_cycles = RoundNonNegative(static_cast<double>(t.rem_cycles) * keep);
    t.rem_stall_ns =
        RoundNonNegative(static_cast<double>(t.rem_stall_ns) * keep);
  }

  // The ns `cycles` take on `cpu` at `ns_per_cycle`, rounded up. Memoised
  // per CPU: the same task usually goes on with a phase of the same cycles
  // at the same rate, and the load and compare then replace a chain of
  // conversions and a multiplication on the path from one event to the
  // next.
  int64_t PhaseNs(int cpu, int64_t cycles, double ns_per_cycle) {
    Memo& m = memo_[static_cast<size_t>(cpu)];
    if (ABSL_PREDICT_FALSE(cycles != m.cycles ||
                           ns_per_cycle != m.ns_per_cycle)) {
      m.cycles = cycles;
      m.ns_per_cycle = ns_per_cycle;
      m.ns = CeilNonNegative(static_cast<double>(cycles) * ns_per_cycle);
    }
    return m.ns;
  }

 private:
  const SimConfig& config_;
  // By CPU: PhaseNs's last cycles and rate, and the ns they take.
  struct Memo {
    int64_t cycles = -1;
    double ns_per_cycle = -1;
    int64_t ns = 0;
  };
  std::vector<Memo> memo_;
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_EXEC_MODEL_H_
