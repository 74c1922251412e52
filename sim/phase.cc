// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The execution model: a compute phase runs at its CPU's rate (the
// domain's frequency, the work per cycle, the SMT factor while a sibling
// is busy), and is settled and re-armed when the rate changes or the CPU
// is charged interrupt work. The hardware's side of what the kernel sees
// through arch_scale_freq_capacity() (arch/x86/kernel/smpboot.c, Linux
// 6.1); the phase end's arming is shared with the interpreter
// (sim/interpreter_inline.h).

#include <cassert>
#include <cstdint>

#include "absl/base/optimization.h"
#include "sim/interpreter_inline.h"
#include "sim/simulator_impl.h"

namespace schedsim::sim {

// What `cpu` executes per ns now: its domain's frequency times the work
// one of its cycles does (FreqDomainState::work_per_cycle: 1 except on a
// CPU smaller than the biggest), times the SMT factor while another thread
// of its core is busy. Cached, inverted, in Cpu::ns_per_cycle.
double SimulatorImpl::RateOf(int cpu) const {
  const Cpu& c = cpus_[cpu];
  const FreqDomainState& d = fdoms_[c.domain];
  double rate = static_cast<double>(d.cur_khz) * 1e-6 * d.work_per_cycle;
  int busy = packages_[c.package].busy_threads_per_core[c.core];
  if (c.mode == CpuMode::kBusy) --busy;
  if (busy > 0) rate = rate * config_.smt_factor_pct / 100.0;
  return rate;
}

void SimulatorImpl::UpdateRate(int cpu) {
  Cpu& c = cpus_[cpu];
  int busy = packages_[c.package].busy_threads_per_core[c.core];
  if (c.mode == CpuMode::kBusy) --busy;
  c.ns_per_cycle = fdoms_[c.domain].ns_per_cycle[busy > 0 ? 1 : 0];
  assert(c.ns_per_cycle == NsPerCycle(RateOf(cpu)));
}

// The same arithmetic as RateOf, done once per frequency change.
void SimulatorImpl::SetCurKhz(FreqDomainState& d, int64_t khz) {
  d.cur_khz = khz;
  const double rate = static_cast<double>(khz) * 1e-6 * d.work_per_cycle;
  d.ns_per_cycle[0] = NsPerCycle(rate);
  d.ns_per_cycle[1] = NsPerCycle(rate * config_.smt_factor_pct / 100.0);
}

// Accounts the progress of `cpu`'s current phase since seg_start_ns at
// seg_ns_per_cycle: cycles and stall shrink in proportion to the time elapsed.
void SimulatorImpl::SettlePhase(int cpu) {
  Cpu& c = cpus_[cpu];
  if (c.curr < 0) return;
  Task& t = tasks_[c.curr];
  int64_t elapsed = now_ns_ - c.seg_start_ns;
  c.seg_start_ns = now_ns_;
  if (!t.in_phase || elapsed <= 0) return;
  double remaining = static_cast<double>(t.rem_cycles) * c.seg_ns_per_cycle +
                     static_cast<double>(t.rem_stall_ns);
  if (static_cast<double>(elapsed) >= remaining) {
    t.rem_cycles = 0;
    t.rem_stall_ns = 0;
    return;
  }
  double keep = 1.0 - static_cast<double>(elapsed) / remaining;
  t.rem_cycles = RoundNonNegative(static_cast<double>(t.rem_cycles) * keep);
  t.rem_stall_ns = RoundNonNegative(static_cast<double>(t.rem_stall_ns) * keep);
}

void SimulatorImpl::ReschedulePhaseEnd(int cpu) { ArmPhaseEnd(cpu); }

// The SMT sibling of `cpu` started or stopped running: the throughput of a
// task running on the sibling changes.
void SimulatorImpl::SiblingChanged(int cpu) {
  for (int32_t s : cpus_[cpu].siblings) {
    Cpu& sc = cpus_[s];
    if (sc.mode != CpuMode::kBusy || sc.curr < 0 || !tasks_[sc.curr].in_phase)
      continue;
    assert(sc.ns_per_cycle == NsPerCycle(RateOf(s)) &&
           "Cpu::ns_per_cycle is stale");
    if (sc.ns_per_cycle == sc.seg_ns_per_cycle) continue;
    SettlePhase(s);
    ReschedulePhaseEnd(s);
  }
}

// Steals `cost_ns` from whatever `cpu` runs (interrupt work): a running
// phase ends later.
void SimulatorImpl::ChargeCpu(int cpu, int64_t cost_ns) {
  Cpu& c = cpus_[cpu];
  if (cost_ns <= 0 || c.curr < 0 || c.mode != CpuMode::kBusy) return;
  Task& t = tasks_[c.curr];
  if (t.in_phase) {
    SettlePhase(cpu);
    t.rem_stall_ns += cost_ns;
    ReschedulePhaseEnd(cpu);
  } else {
    t.pending_cost_ns += cost_ns;
  }
}

}  // namespace schedsim::sim
