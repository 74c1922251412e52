// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The interpreter's inline helper: the phase end's arming (the rounding
// it uses is exact_round.h). ArmPhaseEnd is ABSL_ATTRIBUTE_ALWAYS_INLINE,
// so it must be defined in RunTask's translation unit (interpreter.cc);
// the execution model (phase.cc) includes this header too. Private to
// sim/: include it from no header.

#ifndef SCHEDSIM_SIM_INTERPRETER_INLINE_H_
#define SCHEDSIM_SIM_INTERPRETER_INLINE_H_

#include <cassert>
#include <cstdint>

#include "absl/base/attributes.h"
#include "absl/base/optimization.h"
#include "sim/exact_round.h"
#include "sim/simulator_impl.h"

namespace schedsim::sim {

namespace {

// Inline ops a task may run without time passing before the run stops
// with an error (an endless loop that never blocks or computes).
constexpr int kMaxInlineOps = 1 << 20;

}  // namespace

// ReschedulePhaseEnd's body, inlined into RunTask's phase start (most
// events end there).
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void SimulatorImpl::ArmPhaseEnd(int cpu) {
  Cpu& c = cpus_[cpu];
  Task& t = tasks_[c.curr];
  assert(c.ns_per_cycle == NsPerCycle(RateOf(cpu)) &&
         "Cpu::ns_per_cycle is stale");
  c.seg_ns_per_cycle = c.ns_per_cycle;
  // The cycles' time, memoised per CPU: the same task usually goes on with
  // a phase of the same cycles at the same rate, and the load and compare
  // then replace a chain of conversions and a multiplication on the path
  // from this event to the next (the end time feeds the tree replay).
  PhaseNsMemo& m = phase_ns_memo_[static_cast<size_t>(cpu)];
  if (ABSL_PREDICT_FALSE(t.rem_cycles != m.cycles ||
                         c.seg_ns_per_cycle != m.ns_per_cycle)) {
    m.cycles = t.rem_cycles;
    m.ns_per_cycle = c.seg_ns_per_cycle;
    m.ns =
        CeilNonNegative(static_cast<double>(t.rem_cycles) * c.seg_ns_per_cycle);
  }
  const int64_t end = now_ns_ + t.rem_stall_ns + m.ns;
  phase_ends_.Set(cpu, end, PackBandSeq(kBandSched, queue_.NextSeq()));
  phase_task_[cpu] = c.curr;
  const PhaseResume r = phase_resume_[t.program][t.pc];
  t.pc = r.pc;  // past a forever loop's kEndLoop (PhaseResume)
  phase_op_[cpu] = program_ops_[t.program] + r.pc;
  phase_channel_[cpu] = r.channel >= 0
                            ? &chan_.channel(r.channel + t.channel_base)
                            : &no_channel_;
}

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_INTERPRETER_INLINE_H_
