// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The task programs' part: the programs' resume table, built once, and
// the metrics' reset.

#include "sim/task_programs.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace schedsim::sim {

void TaskPrograms::Init(const Workload& workload) {
  programs_ = workload.programs;
  program_ops_.clear();
  phase_resume_.clear();
  for (const Program& p : programs_) {
    program_ops_.push_back(p.ops.data());
    const size_t size = p.ops.size();
    // Whether every kEndLoop closes the innermost open kLoop (as
    // ProgramBuilder guarantees): then the loop an kEndLoop's counter belongs
    // to at run time is the one its arg names.
    bool nested = true;
    {
      std::vector<size_t> open;
      for (size_t pc = 0; pc < size && nested; ++pc) {
        if (p.ops[pc].code == OpCode::kLoop) open.push_back(pc);
        if (p.ops[pc].code == OpCode::kEndLoop) {
          nested = !open.empty() &&
                   open.back() == static_cast<size_t>(p.ops[pc].arg);
          if (nested) open.pop_back();
        }
      }
    }
    // A kEndLoop whose kLoop runs forever (arg 0): a plain jump.
    auto forever_end = [&](size_t pc) {
      const Op& op = p.ops[pc];
      return nested && op.code == OpCode::kEndLoop &&
             p.ops[static_cast<size_t>(op.arg)].arg == 0;
    };
    std::vector<PhaseResume> next(size, PhaseResume{0, -1});
    for (size_t pc = 0; pc < size; ++pc) {
      // The resume pc: follow forever kEndLoops while they lead somewhere
      // new (a chain that comes back leaves the pc as it is).
      size_t r = pc;
      for (int steps = 0; steps <= 8 && r < size && forever_end(r); ++steps) {
        const size_t to = static_cast<size_t>(p.ops[r].arg) + 1;
        if (steps == 8 || to == pc) {
          r = pc;
          break;
        }
        r = to;
      }
      if (r >= size) r = pc;
      next[pc].pc = static_cast<uint32_t>(r);
      size_t q = pc;
      for (int steps = 0; steps < 8 && q < size; ++steps) {
        const Op& op = p.ops[q];
        if (op.code == OpCode::kSend || op.code == OpCode::kRecv) {
          next[pc].channel = op.arg;
          break;
        }
        if (op.code == OpCode::kEndLoop) {
          q = static_cast<size_t>(op.arg) + 1;
        } else if (op.code == OpCode::kLoop || op.code == OpCode::kMark ||
                   op.code == OpCode::kStamp) {
          ++q;
        } else {
          break;
        }
      }
    }
    phase_resume_.push_back(std::move(next));
  }
  barriers_.assign(workload.barriers.size(), BarrierState());
  for (size_t i = 0; i < barriers_.size(); ++i) {
    barriers_[i].parties = workload.barriers[i].parties;
  }
  metric_stats_.assign(workload.metrics.size(), MetricStats());
  for (size_t i = 0; i < metric_stats_.size(); ++i) {
    metric_stats_[i].name = workload.metrics[i];
  }
}

void TaskPrograms::ResetStats() {
  for (MetricStats& m : metric_stats_) {
    std::string name = std::move(m.name);
    m = MetricStats();
    m.name = std::move(name);
  }
}

}  // namespace schedsim::sim
