// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The cache-line and coherence model as a part of the engine: what moving
// a line between caches costs (Topology::LineTransferNs, by the nearest
// level two CPUs share: the read-for-ownership of a line held modified in
// another cache), the workload's shared lines written by several CPUs (a
// FIFO server moving the line between caches, as a shared reference count
// such as fget()/fput() in fs/file.c or a global spinlock does, Linux
// 6.1), the lines a channel operation leaves in the previous operation's
// cache (kPipeOpLines: fs/pipe.c, net/unix/af_unix.c), the per-LLC lines
// of scheduler state the placement hooks touch (struct
// sched_domain_shared, kernel/sched/topology.c) and the cache refill a
// migrated task pays. It owns the lines' state and their statistics; the
// engine bills what they cost (a task's stall, a hook's kernel work).
// Private to sim/.

#ifndef SCHEDSIM_SIM_CACHE_LINES_H_
#define SCHEDSIM_SIM_CACHE_LINES_H_

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/base/attributes.h"
#include "sim/config.h"
#include "sim/engine_state.h"
#include "sim/shared_objects.h"
#include "sim/stats.h"
#include "sim/workload.h"
#include "topology/cpuset.h"
#include "topology/topology.h"

namespace schedsim::sim {

class CacheLines {
 public:
  using LlcLine = EngineState::LlcLine;
  static constexpr int kLlcLines = EngineState::kLlcLines;

  // Reads `topo` and `config`, which must outlive it.
  CacheLines(const topology::Topology& topo, const SimConfig& config)
      : topo_(topo), config_(config) {}
  CacheLines(const CacheLines&) = delete;
  CacheLines& operator=(const CacheLines&) = delete;

  // Sizes the state for the machine and the workload's shared lines (each
  // unowned, its statistics named after its spec).
  void Init(const std::vector<SharedLineSpec>& lines);

  // Topology::LineTransferNs(from, to), inline from a dense copy of each
  // CPU's core, LLC and package (a channel operation asks at every send
  // and receive).
  int64_t LineNs(int from, int to) const {
    if (from == to) return 0;
    const LinePlace& a = places_[static_cast<size_t>(from)];
    const LinePlace& b = places_[static_cast<size_t>(to)];
    const int level = a.core == b.core         ? 0
                      : a.llc == b.llc         ? 1
                      : a.package == b.package ? 2
                                               : 3;
    assert(line_ns_[level] == topo_.LineTransferNs(from, to));
    return line_ns_[level];
  }

  // The lines of a channel operation on `cpu` that the previous operation
  // left in another CPU's cache (ChannelState::lines, kPipeOpLines); the
  // channel's last CPU becomes `cpu`. Inlined into the interpreter: every
  // send and receive asks.
  ABSL_ATTRIBUTE_ALWAYS_INLINE int64_t ChannelLinesNs(ChannelState& ch,
                                                      int cpu) const {
    const int64_t ns =
        ch.last_cpu >= 0 ? ch.lines * LineNs(ch.last_cpu, cpu) : 0;
    ch.last_cpu = cpu;
    return ns;
  }

  // A kShared op: the stall of `writes` writes by `cpu` to workload line
  // `line`, each holding it `hold_ns` (a lock's critical section; 0 for an
  // atomic), starting at `start_ns` and spread over `cycles` of work at
  // `ns_per_cycle` (the CPU's rate, Cpu::ns_per_cycle).
  int64_t SharedLineStall(int cpu, int line, int writes, int64_t hold_ns,
                          int64_t start_ns, int64_t cycles,
                          double ns_per_cycle);

  // A placement hook on `cpu` reads or writes per-LLC line `which` of
  // `llc`: what the access costs (ns of kernel work). A write starts at
  // `start_ns` (the line stays the writer's until it ends).
  int64_t ReadLlcLine(int cpu, int llc, LlcLine which);
  int64_t WriteLlcLine(int cpu, int llc, LlcLine which, int64_t start_ns);

  // What a migration from `from` to `to` costs a task whose working set is
  // `working_set_bytes` (TaskSpec::working_set_bytes; < 0: not declared)
  // in cache refill.
  int64_t MigrationRefillNs(int64_t working_set_bytes, int from, int to) const;

  // The workload lines' counters (SimStats::lines), and their reset
  // (names kept).
  const std::vector<SharedLineStats>& stats() const { return stats_; }
  void ResetStats();

 private:
  struct LinePlace {
    int32_t core;
    int32_t llc;
    int32_t package;
  };
  // The stall of `writes` writes by `cpu` to `l` starting at `start_ns`,
  // spread over `span_ns` (the line model of SharedLineStall). Contended,
  // the line serves `local_batch` writes inside `cpu`'s LLC per move into
  // it (CoherenceSpec::llc_handoffs; 1: every write pays its transfer).
  int64_t LineWriteStall(LineState& l, SharedLineStats* stats, int cpu,
                         int writes, int64_t hold_ns, int64_t start_ns,
                         int64_t span_ns, int local_batch = 1);

  const topology::Topology& topo_;
  const SimConfig& config_;
  std::vector<LinePlace> places_;  // by CPU
  // CoherenceSpec's smt_ns, llc_ns, package_ns, remote_ns.
  std::array<int64_t, 4> line_ns_{};
  std::vector<LineState> lines_;  // the workload's (Workload::lines)
  std::vector<SharedLineStats> stats_;
  // With CoherenceSpec::llc_handoffs > 1: per workload line, when each
  // CPU's last write to it ended (dense by CPU); empty otherwise.
  std::vector<std::vector<int64_t>> write_end_;
  int llc_handoffs_ = 1;
  std::vector<LineState> llc_lines_;                // kLlcLines per LLC
  std::vector<topology::CpuSet> llc_line_readers_;  // CPUs holding a copy
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_CACHE_LINES_H_
