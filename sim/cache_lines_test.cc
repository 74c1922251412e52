// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The cache-line and coherence model without the engine: a machine built
// by hand with coherence figures, and the costs the model gives a line
// that stays put, moves inside an LLC, bounces between LLCs, batches
// inside one (CoherenceSpec::llc_handoffs), the per-LLC lines a placement
// hook reads and writes, and a migrated task's refill.

#include "sim/cache_lines.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "sim/config.h"
#include "sim/shared_objects.h"
#include "sim/stats.h"
#include "sim/workload.h"
#include "topology/topology.h"

namespace schedsim::sim {
namespace {

using LlcLine = CacheLines::LlcLine;
using topology::Topology;
using topology::TopologyBuilder;

constexpr int64_t kSmtNs = 10, kLlcNs = 40, kPackageNs = 100, kRemoteNs = 200;

// Two packages (nodes 21 apart), each two LLCs of two cores of two
// threads: CPU c is on core c/2, LLC c/4, package c/8. An L3 of 1 MiB
// with 64-byte lines; 4 refills in flight.
Topology Machine(int llc_handoffs = 1, bool coherence = true) {
  TopologyBuilder b("lines");
  for (int cpu = 0; cpu < 16; ++cpu) {
    b.AddCpu(cpu, cpu / 8, cpu / 8, cpu / 4, cpu / 2);
  }
  b.set_distances({{10, 21}, {21, 10}});
  topology::CacheSpec l3;
  l3.level = 3;
  l3.type = "Unified";
  l3.size_bytes = 1 << 20;
  l3.line_bytes = 64;
  b.set_caches({l3});
  topology::CoherenceSpec c;
  if (coherence) {
    c.smt_ns = kSmtNs;
    c.llc_ns = kLlcNs;
    c.package_ns = kPackageNs;
    c.remote_ns = kRemoteNs;
  }
  c.refill_parallelism = 4;
  c.llc_handoffs = llc_handoffs;
  b.set_coherence(c);
  absl::StatusOr<Topology> t = b.Build();
  EXPECT_TRUE(t.ok()) << t.status();
  return *std::move(t);
}

// A machine, a config and the part over them, with `lines` shared lines.
struct Rig {
  explicit Rig(Topology t, int lines = 1, SimConfig c = SimConfig())
      : topo(std::move(t)), config(c), cache(topo, config) {
    std::vector<SharedLineSpec> specs(static_cast<size_t>(lines));
    for (int i = 0; i < lines; ++i) specs[i].name = "line" + std::to_string(i);
    cache.Init(specs);
  }
  Topology topo;
  SimConfig config;
  CacheLines cache;
};

TEST(CacheLinesTest, TransferCostIsThatOfTheNearestSharedLevel) {
  Rig rig(Machine());
  EXPECT_EQ(rig.cache.LineNs(3, 3), 0);
  EXPECT_EQ(rig.cache.LineNs(0, 1), kSmtNs);
  EXPECT_EQ(rig.cache.LineNs(0, 2), kLlcNs);
  EXPECT_EQ(rig.cache.LineNs(0, 4), kPackageNs);
  EXPECT_EQ(rig.cache.LineNs(0, 8), kRemoteNs);
  for (int a = 0; a < 16; ++a) {
    for (int b = 0; b < 16; ++b) {
      EXPECT_EQ(rig.cache.LineNs(a, b), rig.topo.LineTransferNs(a, b));
    }
  }
}

TEST(CacheLinesTest, UncontendedWritesCostNothingBeyondLocal) {
  Rig rig(Machine());
  // A line nobody holds, then the same CPU again: cache hits.
  EXPECT_EQ(rig.cache.SharedLineStall(0, 0, 3, 0, 0, 1000, 1.0), 0);
  EXPECT_EQ(rig.cache.SharedLineStall(0, 0, 3, 0, 5000, 1000, 1.0), 0);
  // A lock's critical section holds the line for each write, no more.
  EXPECT_EQ(rig.cache.SharedLineStall(0, 0, 3, 50, 10000, 1000, 1.0), 150);
  // Long after, another core of the LLC: only the first write moves it.
  EXPECT_EQ(rig.cache.SharedLineStall(2, 0, 4, 0, 1000000, 1000, 1.0), kLlcNs);
  const SharedLineStats& s = rig.cache.stats()[0];
  EXPECT_EQ(s.name, "line0");
  EXPECT_EQ(s.writes, 13u);
  EXPECT_EQ(s.transfers, 1u);
  EXPECT_EQ(s.stall_ns, 150 + kLlcNs);
  // No writes, no cost and no count.
  EXPECT_EQ(rig.cache.SharedLineStall(8, 0, 0, 0, 1000000, 1000, 1.0), 0);
  EXPECT_EQ(rig.cache.stats()[0].writes, 13u);
  rig.cache.ResetStats();
  EXPECT_EQ(rig.cache.stats()[0].name, "line0");
  EXPECT_EQ(rig.cache.stats()[0].writes, 0u);
  EXPECT_EQ(rig.cache.stats()[0].stall_ns, 0);
}

TEST(CacheLinesTest, LineBouncingBetweenLlcsPaysTheTransferPerWrite) {
  Rig rig(Machine());
  EXPECT_EQ(rig.cache.SharedLineStall(0, 0, 1, 0, 0, 1000, 1.0), 0);
  // CPU 4 (the other LLC) writes 4 times while CPU 0's write is within
  // its span: each write moves the line.
  EXPECT_EQ(rig.cache.SharedLineStall(4, 0, 4, 0, 500, 1000, 1.0),
            4 * kPackageNs);
  // CPU 0 again, while CPU 4's writes still hold the line (until 900):
  // it waits for them, then pays a transfer per write.
  EXPECT_EQ(rig.cache.SharedLineStall(0, 0, 2, 0, 600, 1000, 1.0),
            (900 - 600) + 2 * kPackageNs);
  // Across packages, the remote figure.
  EXPECT_EQ(rig.cache.SharedLineStall(8, 0, 1, 0, 1100, 1000, 1.0),
            (1100 - 1100) + kRemoteNs);
  const SharedLineStats& s = rig.cache.stats()[0];
  EXPECT_EQ(s.transfers, 4u + 2u + 1u);
  EXPECT_EQ(s.stall_ns, 4 * kPackageNs + 500 + kRemoteNs);
}

TEST(CacheLinesTest, WritesContendWithinTheirSpanAtTheCpuRate) {
  // CPU 4 writes 3 times, 1500 ns after CPU 0's write, over 1000 cycles.
  Rig fast(Machine());
  EXPECT_EQ(fast.cache.SharedLineStall(0, 0, 1, 0, 0, 1000, 1.0), 0);
  // At 1 ns a cycle they span 1000 ns: CPU 0's write is older, only the
  // first write moves the line.
  EXPECT_EQ(fast.cache.SharedLineStall(4, 0, 3, 0, 1500, 1000, 1.0),
            kPackageNs);
  // At 2 ns a cycle they span 2000 ns: contended, each write moves it.
  Rig slow(Machine());
  EXPECT_EQ(slow.cache.SharedLineStall(0, 0, 1, 0, 0, 1000, 1.0), 0);
  EXPECT_EQ(slow.cache.SharedLineStall(4, 0, 3, 0, 1500, 1000, 2.0),
            3 * kPackageNs);
}

// Two lines written the same way on machines that differ in llc_handoffs:
// CPU 2 writes, then CPU 4 (the other LLC) takes the line, then CPU 0
// (CPU 2's LLC) while CPU 2's write is recent.
int64_t ThirdWriteStall(int llc_handoffs, int64_t hold_ns) {
  Rig rig(Machine(llc_handoffs));
  EXPECT_EQ(rig.cache.SharedLineStall(2, 0, 1, hold_ns, 0, 1000, 1.0), hold_ns);
  const int64_t second =
      rig.cache.SharedLineStall(4, 0, 1, hold_ns, 10, 1000, 1.0);
  EXPECT_EQ(second, kPackageNs + hold_ns);  // (hold_ns <= 10)
  return rig.cache.SharedLineStall(0, 0, 1, hold_ns, 20, 1000, 1.0);
}

TEST(CacheLinesTest, LlcHandoffsBatchAtomicWritesInsideAnLlc) {
  // Without batching: the move from the other LLC, after CPU 4's write
  // (which ends at 110).
  EXPECT_EQ(ThirdWriteStall(1, 0), 110 - 20 + kPackageNs);
  // With it: CPU 0 and CPU 2 contend inside their LLC, so the line comes
  // from afar once per 2 writes and from the LLC for the other, each
  // write paying the average (rounded up).
  const int64_t batched = (kPackageNs + kLlcNs + 1) / 2;
  EXPECT_EQ(ThirdWriteStall(4, 0), 110 - 20 + batched);
  EXPECT_LT(batched, kPackageNs);
  // A lock hands over in its queue's order: no batching.
  EXPECT_EQ(ThirdWriteStall(4, 5), ThirdWriteStall(1, 5));
}

TEST(CacheLinesTest, LlcHandoffsCountOnlyRecentWritersOfTheLlc) {
  Rig rig(Machine(4));
  EXPECT_EQ(rig.cache.SharedLineStall(2, 0, 1, 0, 0, 1000, 1.0), 0);
  EXPECT_EQ(rig.cache.SharedLineStall(4, 0, 1, 0, 5000, 100000, 1.0),
            kPackageNs);
  // CPU 2's write ended long before this op's span: CPU 0 alone in its
  // LLC pays the whole move.
  EXPECT_EQ(rig.cache.SharedLineStall(0, 0, 1, 0, 5050, 1000, 1.0),
            5000 + kPackageNs - 5050 + kPackageNs);
}

TEST(CacheLinesTest, ChannelOperationMovesItsLinesFromTheLastCpu) {
  Rig rig(Machine());
  ChannelState ch;
  ch.lines = kPipeOpLines;
  EXPECT_EQ(rig.cache.ChannelLinesNs(ch, 0), 0);  // first operation
  EXPECT_EQ(ch.last_cpu, 0);
  EXPECT_EQ(rig.cache.ChannelLinesNs(ch, 0), 0);
  EXPECT_EQ(rig.cache.ChannelLinesNs(ch, 4), kPipeOpLines * kPackageNs);
  EXPECT_EQ(rig.cache.ChannelLinesNs(ch, 5), kPipeOpLines * kSmtNs);
  EXPECT_EQ(ch.last_cpu, 5);
}

TEST(CacheLinesTest, LlcLineReadsMoveItOnceAndWritesInvalidateReaders) {
  Rig rig(Machine());
  // Nobody wrote it yet: free.
  EXPECT_EQ(rig.cache.ReadLlcLine(0, 0, LlcLine::kSdLlcShared), 0);
  EXPECT_EQ(rig.cache.WriteLlcLine(0, 0, LlcLine::kSdLlcShared, 0), 0);
  // CPU 4 reads CPU 0's line: one transfer, then its copy is a hit.
  EXPECT_EQ(rig.cache.ReadLlcLine(4, 0, LlcLine::kSdLlcShared), kPackageNs);
  EXPECT_EQ(rig.cache.ReadLlcLine(4, 0, LlcLine::kSdLlcShared), 0);
  // The policy's line of the same LLC is another line.
  EXPECT_EQ(rig.cache.ReadLlcLine(4, 0, LlcLine::kPolicy), 0);
  // CPU 0, the owner, writes: it invalidates CPU 4's copy.
  EXPECT_EQ(rig.cache.WriteLlcLine(0, 0, LlcLine::kSdLlcShared, 100),
            kPackageNs);
  EXPECT_EQ(rig.cache.WriteLlcLine(0, 0, LlcLine::kSdLlcShared, 300), 0);
  EXPECT_EQ(rig.cache.ReadLlcLine(4, 0, LlcLine::kSdLlcShared), kPackageNs);
  // CPU 8 takes the line long after: one remote transfer.
  EXPECT_EQ(rig.cache.WriteLlcLine(8, 0, LlcLine::kSdLlcShared, 10000),
            kRemoteNs);
  EXPECT_EQ(rig.cache.ReadLlcLine(8, 0, LlcLine::kSdLlcShared), 0);
  EXPECT_EQ(rig.cache.ReadLlcLine(0, 0, LlcLine::kSdLlcShared), kRemoteNs);
  // Another LLC's line is untouched.
  EXPECT_EQ(rig.cache.ReadLlcLine(0, 1, LlcLine::kSdLlcShared), 0);
}

TEST(CacheLinesTest, MigrationRefillWithinAndAcrossLlcs) {
  SimConfig config;
  config.smt_migration_penalty_ns = 700;
  config.llc_migration_penalty_ns = 20000;
  Rig rig(Machine(), 0, config);
  // The same core, another core of the LLC.
  EXPECT_EQ(rig.cache.MigrationRefillNs(-1, 0, 1), 0);
  EXPECT_EQ(rig.cache.MigrationRefillNs(1 << 16, 0, 2), 700);
  // Across LLCs without a working set: the flat penalty, scaled by the
  // SLIT distance across nodes.
  EXPECT_EQ(rig.cache.MigrationRefillNs(-1, 0, 4), 20000);
  EXPECT_EQ(rig.cache.MigrationRefillNs(-1, 0, 8), 20000 * 21 / 10);
  // With one: its lines from where it ran, 4 in flight.
  EXPECT_EQ(rig.cache.MigrationRefillNs(1 << 16, 0, 4),
            (1 << 16) / 64 * kPackageNs / 4);
  EXPECT_EQ(rig.cache.MigrationRefillNs(1 << 16, 0, 8),
            (1 << 16) / 64 * kRemoteNs / 4);
  EXPECT_EQ(rig.cache.MigrationRefillNs(100, 0, 4), 2 * kPackageNs / 4);
  // No more than the LLC holds.
  EXPECT_EQ(rig.cache.MigrationRefillNs(int64_t{1} << 30, 0, 4),
            (1 << 20) / 64 * kPackageNs / 4);
  // A machine without coherence figures: the flat penalty.
  Rig flat(Machine(1, /*coherence=*/false), 0, config);
  EXPECT_EQ(flat.cache.MigrationRefillNs(1 << 16, 0, 4), 20000);
}

}  // namespace
}  // namespace schedsim::sim
