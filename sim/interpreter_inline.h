// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The interpreter's inline helper: the phase end's arming (the phase's
// time is exec_'s, exec_model.h; where it resumes progs_',
// task_programs.h). ArmPhaseEnd is ABSL_ATTRIBUTE_ALWAYS_INLINE, so it
// must be defined in RunTask's translation unit (interpreter.cc); the
// execution model (phase.cc) includes this header too. Private to sim/:
// include it from no header.

#ifndef SCHEDSIM_SIM_INTERPRETER_INLINE_H_
#define SCHEDSIM_SIM_INTERPRETER_INLINE_H_

#include <cassert>
#include <cstdint>

#include "absl/base/attributes.h"
#include "sim/simulator_impl.h"

namespace schedsim::sim {

// ReschedulePhaseEnd's body, inlined into RunTask's phase start (most
// events end there).
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void SimulatorImpl::ArmPhaseEnd(int cpu) {
  Cpu& c = cpus_[cpu];
  Task& t = tasks_[c.curr];
  assert(c.ns_per_cycle == NsPerCycle(RateOf(cpu)) &&
         "Cpu::ns_per_cycle is stale");
  c.seg_ns_per_cycle = c.ns_per_cycle;
  // The cycles' time, memoised per CPU (the end time feeds the tree
  // replay).
  const int64_t end = now_ns_ + t.rem_stall_ns +
                      exec_.PhaseNs(cpu, t.rem_cycles, c.seg_ns_per_cycle);
  phase_ends_.Set(cpu, end, PackBandSeq(kBandSched, queue_.NextSeq()));
  phase_task_[cpu] = c.curr;
  const TaskPrograms::PhaseResume r = progs_.phase_resume(t.program, t.pc);
  t.pc = r.pc;  // past a forever loop's kEndLoop (PhaseResume)
  phase_op_[cpu] = progs_.ops(t.program) + r.pc;
  phase_channel_[cpu] = r.channel >= 0
                            ? &chan_.channel(r.channel + t.channel_base)
                            : &no_channel_;
}

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_INTERPRETER_INLINE_H_
