// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The execution model's engine side: a compute phase runs at its CPU's
// rate (the domain's frequency, the work per cycle, the SMT factor while
// a sibling is busy), and is settled and re-armed when the rate changes
// or the CPU is charged interrupt work. The arithmetic is exec_'s
// (sim/exec_model.h); the phase end's arming is shared with the
// interpreter (sim/interpreter_inline.h).

#include <cassert>
#include <cstdint>

#include "absl/base/optimization.h"
#include "sim/interpreter_inline.h"
#include "sim/simulator_impl.h"

namespace schedsim::sim {

// What `cpu` executes per ns now: its domain's frequency and work per
// cycle, with the SMT factor while another thread of its core is busy.
// Cached, inverted, in Cpu::ns_per_cycle.
double SimulatorImpl::RateOf(int cpu) const {
  const Cpu& c = cpus_[cpu];
  const FreqDomainState& d = fdoms_[c.domain];
  int busy = packages_[c.package].busy_threads_per_core[c.core];
  if (c.mode == CpuMode::kBusy) --busy;
  return exec_.Rate(d.cur_khz, d.work_per_cycle, busy > 0);
}

void SimulatorImpl::UpdateRate(int cpu) {
  Cpu& c = cpus_[cpu];
  int busy = packages_[c.package].busy_threads_per_core[c.core];
  if (c.mode == CpuMode::kBusy) --busy;
  c.ns_per_cycle = fdoms_[c.domain].ns_per_cycle[busy > 0 ? 1 : 0];
  assert(c.ns_per_cycle == NsPerCycle(RateOf(cpu)));
}

// Accounts the progress of `cpu`'s current phase since seg_start_ns at
// seg_ns_per_cycle (exec_.Settle).
void SimulatorImpl::SettlePhase(int cpu) {
  Cpu& c = cpus_[cpu];
  if (c.curr < 0) return;
  Task& t = tasks_[c.curr];
  int64_t elapsed = now_ns_ - c.seg_start_ns;
  c.seg_start_ns = now_ns_;
  if (!t.in_phase || elapsed <= 0) return;
  ExecModel::Settle(t, elapsed, c.seg_ns_per_cycle);
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
