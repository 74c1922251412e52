// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The cache-line model: shared lines written by several CPUs (a FIFO
// server moving the line between caches, as a shared reference count such
// as fget()/fput() in fs/file.c or a global spinlock does, Linux 6.1), the
// per-LLC lines of scheduler state the placement hooks touch (struct
// sched_domain_shared, kernel/sched/topology.c), and the cache refill a
// migrated task pays.

#include "sim/cache_lines.h"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "sim/exact_round.h"

namespace schedsim::sim {

void CacheLines::Init(const std::vector<SharedLineSpec>& lines) {
  const int n = topo_.num_cpus();
  places_.resize(static_cast<size_t>(n));
  for (int cpu = 0; cpu < n; ++cpu) {
    const topology::CpuPlace& p = topo_.place(cpu);
    places_[static_cast<size_t>(cpu)] = {p.core, p.llc, p.package};
  }
  const topology::CoherenceSpec& coherence = topo_.coherence();
  line_ns_ = {coherence.smt_ns, coherence.llc_ns, coherence.package_ns,
              coherence.remote_ns};
  lines_.assign(lines.size(), LineState());
  llc_handoffs_ = std::max(1, coherence.llc_handoffs);
  write_end_.clear();
  if (llc_handoffs_ > 1 && !lines.empty()) {
    write_end_.assign(lines.size(), std::vector<int64_t>(
                                        static_cast<size_t>(n),
                                        std::numeric_limits<int64_t>::min()));
  }
  llc_lines_.assign(static_cast<size_t>(topo_.num_llcs()) * kLlcLines,
                    LineState());
  llc_line_readers_.assign(llc_lines_.size(), topology::CpuSet(n));
  stats_.assign(lines.size(), SharedLineStats());
  for (size_t i = 0; i < stats_.size(); ++i) stats_[i].name = lines[i].name;
}

void CacheLines::ResetStats() {
  for (SharedLineStats& l : stats_) {
    std::string name = std::move(l.name);
    l = SharedLineStats();
    l.name = std::move(name);
  }
}

// What `writes` writes to shared line `line` by `cpu` cost, in ns of stall,
// when they start at `start_ns` and are spread over `cycles` of work.
//
// The line is a FIFO server: one CPU at a time owns it. A write by a CPU
// that does not own it moves it from the owner's cache
// (Topology::LineTransferNs: the read-for-ownership of a line held
// modified elsewhere); a write by the owner is a cache hit (its cost is in
// the op's cycles). The op stands for `writes` writes spread over its
// span, so it is contended when another CPU wrote the line within that
// span (or still holds it): then each of the writes finds the line
// elsewhere, pays a transfer from the last other writer and waits its
// turn behind the writes already queued. Uncontended, only the first write
// moves the line. A lock's critical section (`hold_ns`) keeps the line for
// each write. This is how a shared reference count (the struct file of a
// shared descriptor: fget/fput in fs/file.c, v6.1) or a global spinlock
// serialises CPUs: the line's throughput, one transfer plus one hold per
// write, bounds every writer's together.
int64_t CacheLines::SharedLineStall(int cpu, int line, int writes,
                                    int64_t hold_ns, int64_t start_ns,
                                    int64_t cycles, double ns_per_cycle) {
  if (writes <= 0) return 0;
  const int64_t span_ns =
      CeilNonNegative(static_cast<double>(cycles) * ns_per_cycle);
  if (write_end_.empty()) {
    return LineWriteStall(lines_[line], &stats_[line], cpu, writes, hold_ns,
                          start_ns, span_ns);
  }
  // Atomic writes (no hold) batch inside an LLC: count the CPUs of this
  // CPU's LLC contending with it (a write of theirs ends within this op's
  // span or later), itself included, up to CoherenceSpec::llc_handoffs.
  // A lock (hold_ns > 0) hands over in its queue's order: no batching.
  std::vector<int64_t>& ends = write_end_[static_cast<size_t>(line)];
  int local = 1;
  if (hold_ns == 0) {
    const int64_t since = start_ns - span_ns;
    const topology::CpuSet& llc = topo_.llcs()[places_[cpu].llc];
    for (int o = llc.First(); o >= 0 && local < llc_handoffs_;
         o = llc.Next(o)) {
      if (o != cpu && ends[static_cast<size_t>(o)] > since) ++local;
    }
  }
  const int64_t stall = LineWriteStall(lines_[line], &stats_[line], cpu, writes,
                                       hold_ns, start_ns, span_ns, local);
  ends[static_cast<size_t>(cpu)] = start_ns + stall;
  return stall;
}

int64_t CacheLines::LineWriteStall(LineState& l, SharedLineStats* stats,
                                   int cpu, int writes, int64_t hold_ns,
                                   int64_t start_ns, int64_t span_ns,
                                   int local_batch) {
  // The counters add up here and go to `stats` at the end: no local
  // SharedLineStats (its name, a std::string, would cost a construction and
  // a stack canary on every per-LLC line write of the wake-up path).
  uint64_t transfers = 0;
  const bool owned = l.owner == cpu;
  const int32_t other = owned ? l.prev_owner : l.owner;
  const int64_t other_end = owned ? l.prev_end_ns : l.owner_end_ns;
  const int64_t busy_until = std::max(l.owner_end_ns, l.prev_end_ns);
  int64_t stall = 0;
  int64_t end = 0;
  if (other >= 0 && other_end > start_ns - span_ns) {
    // Contended: every write moves the line and queues behind the others.
    // With `local_batch` > 1 CPUs of this LLC contending, the line comes
    // from afar once per `local_batch` writes and from inside the LLC for
    // the rest (CoherenceSpec::llc_handoffs): each write pays the average.
    int64_t move = LineNs(other, cpu);
    const int64_t near = line_ns_[1];
    if (local_batch > 1 && move > near) {
      move = (move + (local_batch - 1) * near + local_batch - 1) / local_batch;
    }
    const int64_t per_write = move + hold_ns;
    const int64_t begin = std::max(start_ns, busy_until);
    end = begin + per_write * writes;
    stall = end - start_ns;
    transfers = static_cast<uint64_t>(writes);
  } else {
    const int64_t move = owned || l.owner < 0 ? 0 : LineNs(l.owner, cpu);
    if (move > 0) transfers = 1;
    stall = move + hold_ns * writes;
    end = start_ns + stall;
  }
  if (stats != nullptr) {
    stats->writes += static_cast<uint64_t>(writes);
    stats->transfers += transfers;
    stats->stall_ns += stall;
  }
  if (!owned) {
    l.prev_owner = l.owner;
    l.prev_end_ns = l.owner_end_ns;
    l.owner = cpu;
  }
  l.owner_end_ns = end;
  return stall;
}

// A policy hook's access to a per-LLC line (LlcLine) from `cpu`: the
// engine adds the cost to what it charges (the waker of a wake-up, the
// idle entry of update_idle_core). A read of a line another
// CPU wrote since this CPU last read it moves it here (shared); a write
// takes it from its owner (LineWriteStall) and invalidates every reader,
// which costs a transfer even when this CPU owned it while others read.
int64_t CacheLines::ReadLlcLine(int cpu, int llc, LlcLine which) {
  const size_t i =
      static_cast<size_t>(llc) * kLlcLines + static_cast<size_t>(which);
  LineState& l = llc_lines_[i];
  topology::CpuSet& readers = llc_line_readers_[i];
  if (l.owner < 0 || l.owner == cpu || readers.Test(cpu)) return 0;
  readers.Set(cpu);
  return LineNs(l.owner, cpu);
}

int64_t CacheLines::WriteLlcLine(int cpu, int llc, LlcLine which,
                                 int64_t start_ns) {
  const size_t i =
      static_cast<size_t>(llc) * kLlcLines + static_cast<size_t>(which);
  LineState& l = llc_lines_[i];
  topology::CpuSet& readers = llc_line_readers_[i];
  int64_t cost = 0;
  if (l.owner == cpu) {
    for (int r = readers.First(); r >= 0; r = readers.Next(r)) {
      if (r != cpu) {
        cost = LineNs(cpu, r);  // invalidate the copies
        break;
      }
    }
    l.owner_end_ns = start_ns + cost;
  } else {
    cost = LineWriteStall(l, nullptr, cpu, 1, 0, start_ns, 0);
  }
  readers.ClearAll();
  readers.Set(cpu);
  return cost;
}

// The cache refill a task pays when it resumes on `to` after running on
// `from`. Across LLCs: a task with a known working set (>= 0) refills
// min(working set, the LLC) from where it ran, one line per
// Topology::LineTransferNs(from, to), refill_parallelism fills at a time;
// without one (or on a machine without coherence figures), the flat
// llc_migration_penalty_ns scaled by SLIT distance / 10. Inside an LLC, on
// another core: smt_migration_penalty_ns (the private L2 refills from the
// shared L3).
int64_t CacheLines::MigrationRefillNs(int64_t working_set_bytes, int from,
                                      int to) const {
  const topology::CpuPlace& a = topo_.place(from);
  const topology::CpuPlace& b = topo_.place(to);
  if (a.llc == b.llc) {
    return a.core != b.core ? config_.smt_migration_penalty_ns : 0;
  }
  const int64_t ws = working_set_bytes;
  const int64_t line_ns = LineNs(from, to);
  if (ws < 0 || line_ns <= 0) {
    int64_t penalty = config_.llc_migration_penalty_ns;
    if (a.node != b.node)
      penalty = penalty * topo_.distance(a.node, b.node) / 10;
    return penalty;
  }
  int64_t bytes = ws;
  int line_bytes = 64;
  for (const topology::CacheSpec& c : topo_.caches()) {
    if (c.level == 3) {
      bytes = std::min(bytes, c.size_bytes);
      line_bytes = c.line_bytes > 0 ? c.line_bytes : 64;
    }
  }
  const int64_t lines = (bytes + line_bytes - 1) / line_bytes;
  const int par = std::max(1, topo_.coherence().refill_parallelism);
  return lines * line_ns / par;
}

}  // namespace schedsim::sim
