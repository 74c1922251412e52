// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "topology/sched_domains.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "topology/presets.h"

namespace schedsim::topology {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

SchedDomains BuildPreset(const std::string& name,
                         const SchedDomainOptions& options = {}) {
  absl::StatusOr<Topology> t = MakePreset(name);
  EXPECT_TRUE(t.ok()) << t.status();
  absl::StatusOr<SchedDomains> sd = BuildSchedDomains(*t, options);
  EXPECT_TRUE(sd.ok()) << sd.status();
  return *std::move(sd);
}

Topology BuildOrDie(const TopologyBuilder& b) {
  absl::StatusOr<Topology> t = b.Build();
  EXPECT_TRUE(t.ok()) << t.status();
  return *std::move(t);
}

std::vector<std::string> Names(const SchedDomains& sd, int cpu) {
  std::vector<std::string> out;
  for (const SchedDomain* d : sd.Stack(cpu)) out.push_back(d->name);
  return out;
}

std::vector<std::string> Spans(const SchedDomains& sd, int cpu) {
  std::vector<std::string> out;
  for (const SchedDomain* d : sd.Stack(cpu)) out.push_back(d->span.ToList());
  return out;
}

std::vector<int> Imbalance(const SchedDomains& sd, int cpu) {
  std::vector<int> out;
  for (const SchedDomain* d : sd.Stack(cpu)) out.push_back(d->imbalance_pct);
  return out;
}

std::vector<int> CacheNiceTries(const SchedDomains& sd, int cpu) {
  std::vector<int> out;
  for (const SchedDomain* d : sd.Stack(cpu)) {
    out.push_back(d->cache_nice_tries);
  }
  return out;
}

std::vector<std::string> Groups(const SchedDomain& d) {
  std::vector<std::string> out;
  for (const CpuSet& g : d.groups) out.push_back(g.ToList());
  return out;
}

constexpr uint32_t kSmtFlags =
    kSdBalanceNewidle | kSdBalanceExec | kSdBalanceFork | kSdWakeAffine |
    kSdPreferSibling | kSdShareCpuCapacity | kSdSharePkgResources;
constexpr uint32_t kMcFlags = kSdBalanceNewidle | kSdBalanceExec |
                              kSdBalanceFork | kSdWakeAffine |
                              kSdPreferSibling | kSdSharePkgResources;
constexpr uint32_t kPlainFlags = kSdBalanceNewidle | kSdBalanceExec |
                                 kSdBalanceFork | kSdWakeAffine |
                                 kSdPreferSibling;
constexpr uint32_t kNearNumaFlags = kSdBalanceNewidle | kSdBalanceExec |
                                    kSdBalanceFork | kSdWakeAffine |
                                    kSdSerialize | kSdOverlap | kSdNuma;
constexpr uint32_t kFarNumaFlags =
    kSdBalanceNewidle | kSdSerialize | kSdOverlap | kSdNuma;

TEST(SchedDomainsTest, Zen3Nps1FromCpu0) {
  SchedDomains sd = BuildPreset("zen3-2s-nps1");
  EXPECT_EQ(sd.node_reclaim_distance(), 32);
  EXPECT_THAT(Names(sd, 0), ElementsAre("SMT", "MC", "DIE", "NUMA"));
  EXPECT_THAT(Spans(sd, 0),
              ElementsAre("0,128", "0-7,128-135", "0-63,128-191", "0-255"));
  EXPECT_THAT(Imbalance(sd, 0), ElementsAre(110, 117, 117, 117));
  EXPECT_THAT(CacheNiceTries(sd, 0), ElementsAre(0, 1, 1, 2));

  const SchedDomain& smt = sd.domain(0, 0);
  EXPECT_EQ(smt.level, 0);
  EXPECT_EQ(smt.flags, kSmtFlags);
  EXPECT_EQ(smt.min_interval_ms, 2);
  EXPECT_EQ(smt.max_interval_ms, 4);
  EXPECT_EQ(smt.busy_factor, 16);
  EXPECT_EQ(smt.numa_distance, 0);
  EXPECT_THAT(Groups(smt), ElementsAre("0", "128"));

  const SchedDomain& mc = sd.domain(0, 1);
  EXPECT_EQ(mc.level, 2);  // CLS (level 1) was removed
  EXPECT_EQ(mc.flags, kMcFlags);
  EXPECT_EQ(mc.groups.size(), 8u);

  const SchedDomain& die = sd.domain(0, 2);
  EXPECT_EQ(die.level, 3);
  EXPECT_EQ(die.flags, kPlainFlags);
  EXPECT_EQ(die.groups.size(), 8u);
  EXPECT_EQ(die.groups[1].ToList(), "8-15,136-143");

  // NODE (level 4, same span as DIE) was removed; the cross-socket level
  // keeps WAKE_AFFINE because 32 is not above Zen's reclaim distance 32.
  const SchedDomain& numa = sd.domain(0, 3);
  EXPECT_EQ(numa.level, 5);
  EXPECT_EQ(numa.numa_distance, 32);
  EXPECT_EQ(numa.flags, kNearNumaFlags);
  EXPECT_TRUE(numa.has(kSdWakeAffine));
  EXPECT_FALSE(numa.has(kSdPreferSibling));
  EXPECT_EQ(numa.min_interval_ms, 256);
  EXPECT_EQ(numa.max_interval_ms, 512);
  EXPECT_THAT(Groups(numa), ElementsAre("0-63,128-191", "64-127,192-255"));

  EXPECT_EQ(sd.llc_size(0), 16);
  EXPECT_EQ(sd.llc_span(0).ToList(), "0-7,128-135");
  EXPECT_EQ(sd.llc_id(135), 0);
  EXPECT_TRUE(sd.SharesCache(0, 135));
  EXPECT_FALSE(sd.SharesCache(0, 8));
  EXPECT_THAT(sd.warnings(), IsEmpty());
}

TEST(SchedDomainsTest, Zen3Nps1FromCpu200) {
  SchedDomains sd = BuildPreset("zen3-2s-nps1");
  EXPECT_THAT(Names(sd, 200), ElementsAre("SMT", "MC", "DIE", "NUMA"));
  EXPECT_THAT(Spans(sd, 200), ElementsAre("72,200", "72-79,200-207",
                                          "64-127,192-255", "0-255"));
  EXPECT_EQ(sd.llc_size(200), 16);
  EXPECT_EQ(sd.llc_id(200), 72);
  EXPECT_EQ(sd.domain(200, 3).LocalGroup(200), 1);
  // The top domain is one object shared by every CPU.
  EXPECT_EQ(&sd.domain(200, 3), &sd.domain(0, 3));
  // 128 SMT + 16 MC + 2 DIE + 1 NUMA.
  EXPECT_EQ(sd.domains().size(), 147u);
}

TEST(SchedDomainsTest, Zen3Nps2) {
  SchedDomains sd = BuildPreset("zen3-2s-nps2");
  EXPECT_THAT(Names(sd, 0), ElementsAre("SMT", "MC", "NODE", "NUMA", "NUMA"));
  EXPECT_THAT(Spans(sd, 0), ElementsAre("0,128", "0-7,128-135", "0-31,128-159",
                                        "0-63,128-191", "0-255"));
  EXPECT_THAT(Imbalance(sd, 0), ElementsAre(110, 117, 117, 117, 117));
  EXPECT_THAT(CacheNiceTries(sd, 0), ElementsAre(0, 1, 1, 2, 2));

  // Numa-in-package: no DIE level, so NODE is level 3.
  const SchedDomain& node = sd.domain(0, 2);
  EXPECT_EQ(node.level, 3);
  EXPECT_EQ(node.flags, kPlainFlags);
  EXPECT_EQ(node.numa_distance, 10);
  EXPECT_EQ(node.groups.size(), 4u);

  const SchedDomain& near = sd.domain(0, 3);
  EXPECT_EQ(near.numa_distance, 12);
  EXPECT_EQ(near.flags, kNearNumaFlags);
  EXPECT_THAT(Groups(near), ElementsAre("0-31,128-159", "32-63,160-191"));
  const SchedDomain& far = sd.domain(0, 4);
  EXPECT_EQ(far.numa_distance, 32);
  EXPECT_EQ(far.flags, kNearNumaFlags);
  EXPECT_THAT(Groups(far), ElementsAre("0-63,128-191", "64-127,192-255"));

  EXPECT_THAT(Names(sd, 200), ElementsAre("SMT", "MC", "NODE", "NUMA", "NUMA"));
  EXPECT_THAT(Spans(sd, 200),
              ElementsAre("72,200", "72-79,200-207", "64-95,192-223",
                          "64-127,192-255", "0-255"));
  EXPECT_EQ(sd.llc_size(200), 16);
}

TEST(SchedDomainsTest, Zen3Nps4) {
  SchedDomains sd = BuildPreset("zen3-2s-nps4");
  EXPECT_THAT(Names(sd, 0), ElementsAre("SMT", "MC", "NODE", "NUMA", "NUMA"));
  EXPECT_THAT(Spans(sd, 0), ElementsAre("0,128", "0-7,128-135", "0-15,128-143",
                                        "0-63,128-191", "0-255"));
  EXPECT_THAT(CacheNiceTries(sd, 0), ElementsAre(0, 1, 1, 2, 2));
  EXPECT_THAT(Groups(sd.domain(0, 2)),
              ElementsAre("0-7,128-135", "8-15,136-143"));
  EXPECT_THAT(Groups(sd.domain(0, 3)),
              ElementsAre("0-15,128-143", "16-31,144-159", "32-47,160-175",
                          "48-63,176-191"));
  EXPECT_TRUE(sd.domain(0, 3).has(kSdNuma));
  EXPECT_TRUE(sd.domain(0, 4).has(kSdWakeAffine));

  EXPECT_THAT(Spans(sd, 200),
              ElementsAre("72,200", "72-79,200-207", "64-79,192-207",
                          "64-127,192-255", "0-255"));
  EXPECT_THAT(Imbalance(sd, 200), ElementsAre(110, 117, 117, 117, 117));
  EXPECT_EQ(sd.llc_size(200), 16);
  EXPECT_EQ(sd.LowestFlagDomain(200, kSdNuma), &sd.domain(200, 3));
}

TEST(SchedDomainsTest, SkylakeE3) {
  SchedDomains sd = BuildPreset("skylake-e3-1240v5");
  EXPECT_EQ(sd.node_reclaim_distance(), 30);
  // MC already spans the machine, so DIE is never built; no NUMA levels.
  EXPECT_THAT(Names(sd, 1), ElementsAre("SMT", "MC"));
  EXPECT_THAT(Spans(sd, 1), ElementsAre("1,5", "0-7"));
  EXPECT_THAT(Imbalance(sd, 1), ElementsAre(110, 117));
  EXPECT_THAT(CacheNiceTries(sd, 1), ElementsAre(0, 1));
  EXPECT_EQ(sd.domain(1, 0).flags, kSmtFlags);
  EXPECT_EQ(sd.domain(1, 1).flags, kMcFlags);
  EXPECT_THAT(Groups(sd.domain(1, 1)), ElementsAre("0,4", "1,5", "2,6", "3,7"));
  EXPECT_EQ(sd.llc_size(1), 8);
  EXPECT_EQ(sd.llc_id(1), 0);
  EXPECT_EQ(sd.HighestFlagDomain(1, kSdSharePkgResources), &sd.domain(1, 1));
  EXPECT_EQ(sd.HighestFlagDomain(1, kSdShareCpuCapacity), &sd.domain(1, 0));
  EXPECT_EQ(sd.LowestFlagDomain(1, kSdNuma), nullptr);
}

// Juno r0 (arm64, Linux 6.1): MC per cluster, DIE over both with
// SD_ASYM_CPUCAPACITY(_FULL) (asym_cpu_capacity_classify); MC loses
// SD_PREFER_SIBLING under the asymmetric DIE.
TEST(SchedDomainsTest, JunoAsymmetricDie) {
  SchedDomains sd = BuildPreset("juno-r0");
  EXPECT_THAT(Names(sd, 0), ElementsAre("MC", "DIE"));
  EXPECT_THAT(Spans(sd, 0), ElementsAre("0,3-5", "0-5"));
  EXPECT_THAT(Spans(sd, 1), ElementsAre("1-2", "0-5"));
  EXPECT_EQ(sd.domain(0, 0).flags, kMcFlags & ~kSdPreferSibling);
  EXPECT_EQ(sd.domain(0, 1).flags,
            kPlainFlags | kSdAsymCpuCapacity | kSdAsymCpuCapacityFull);
  EXPECT_THAT(Groups(sd.domain(0, 1)), ElementsAre("0,3-5", "1-2"));
  EXPECT_EQ(sd.llc_size(0), 4);
  EXPECT_EQ(sd.llc_size(1), 2);
  EXPECT_FALSE(sd.SharesCache(0, 1));
}

TEST(SchedDomainsTest, Version612NamesDieAsPkg) {
  SchedDomainOptions options;
  options.use_6_12_names = true;
  SchedDomains sd = BuildPreset("zen3-2s-nps1", options);
  EXPECT_THAT(Names(sd, 0), ElementsAre("SMT", "MC", "PKG", "NUMA"));
}

// 2 sockets x 4 cores x 2 threads, SMT (n, n+8), one LLC and one node per
// socket, SLIT 32 between the sockets.
TopologyBuilder TwoSocketMachine(Vendor vendor) {
  TopologyBuilder b("two-socket");
  b.set_vendor(vendor);
  for (int cpu = 0; cpu < 16; ++cpu) {
    int core = cpu % 8;
    int socket = core / 4;
    b.AddCpu(cpu, socket, socket, socket, core);
  }
  b.set_distances({{10, 32}, {32, 10}});
  return b;
}

TEST(SchedDomainsTest, IntelFarNumaLevelLosesWakeAffine) {
  Topology t = BuildOrDie(TwoSocketMachine(Vendor::kIntel));
  absl::StatusOr<SchedDomains> sd = BuildSchedDomains(t);
  ASSERT_TRUE(sd.ok()) << sd.status();
  EXPECT_EQ(sd->node_reclaim_distance(), 30);
  // DIE and NODE equal the LLC and are removed.
  EXPECT_THAT(Names(*sd, 0), ElementsAre("SMT", "MC", "NUMA"));
  EXPECT_THAT(Spans(*sd, 0), ElementsAre("0,8", "0-3,8-11", "0-15"));
  const SchedDomain& numa = sd->domain(0, 2);
  EXPECT_EQ(numa.numa_distance, 32);
  EXPECT_EQ(numa.flags, kFarNumaFlags);
  EXPECT_FALSE(numa.has(kSdWakeAffine));
  EXPECT_FALSE(numa.has(kSdBalanceFork));
  EXPECT_FALSE(numa.has(kSdBalanceExec));
  EXPECT_EQ(sd->llc_size(0), 8);

  // The same machine from AMD, or with the distance raised, keeps it.
  Topology amd = BuildOrDie(TwoSocketMachine(Vendor::kAmd));
  absl::StatusOr<SchedDomains> amd_sd = BuildSchedDomains(amd);
  ASSERT_TRUE(amd_sd.ok()) << amd_sd.status();
  EXPECT_EQ(amd_sd->domain(0, 2).flags, kNearNumaFlags);
  SchedDomainOptions options;
  options.node_reclaim_distance = 32;
  absl::StatusOr<SchedDomains> raised = BuildSchedDomains(t, options);
  ASSERT_TRUE(raised.ok()) << raised.status();
  EXPECT_TRUE(raised->domain(0, 2).has(kSdWakeAffine));
}

TEST(SchedDomainsTest, NoSmtStartsAtMc) {
  // One package, 8 single-thread cores, two 4-core LLCs.
  TopologyBuilder b("no-smt");
  for (int cpu = 0; cpu < 8; ++cpu) b.AddCpu(cpu, 0, 0, cpu / 4, cpu);
  b.set_distances({{10}});
  Topology t = BuildOrDie(b);
  absl::StatusOr<SchedDomains> sd = BuildSchedDomains(t);
  ASSERT_TRUE(sd.ok()) << sd.status();
  EXPECT_THAT(Names(*sd, 5), ElementsAre("MC", "DIE"));
  EXPECT_THAT(Spans(*sd, 5), ElementsAre("4-7", "0-7"));
  EXPECT_THAT(Groups(sd->domain(5, 0)), ElementsAre("4", "5", "6", "7"));
  EXPECT_THAT(Groups(sd->domain(5, 1)), ElementsAre("0-3", "4-7"));
  EXPECT_EQ(sd->llc_size(5), 4);
  EXPECT_EQ(sd->llc_id(5), 4);
  EXPECT_FALSE(sd->SharesCache(3, 4));
}

TEST(SchedDomainsTest, SingleCpuHasNoDomains) {
  TopologyBuilder b("uniprocessor");
  b.AddCpu(0, 0, 0, 0, 0);
  b.set_distances({{10}});
  Topology t = BuildOrDie(b);
  absl::StatusOr<SchedDomains> sd = BuildSchedDomains(t);
  ASSERT_TRUE(sd.ok()) << sd.status();
  EXPECT_EQ(sd->num_cpus(), 1);
  EXPECT_EQ(sd->depth(0), 0);
  EXPECT_THAT(sd->Stack(0), IsEmpty());
  EXPECT_THAT(sd->domains(), IsEmpty());
  EXPECT_EQ(sd->llc_size(0), 1);
  EXPECT_EQ(sd->llc_id(0), 0);
  EXPECT_EQ(sd->llc_span(0).ToList(), "0");
  EXPECT_EQ(sd->HighestFlagDomain(0, kSdSharePkgResources), nullptr);
  EXPECT_EQ(sd->Describe(0), "");
}

TEST(SchedDomainsTest, LlcSharedByTwoNodesIsCutToTheNode) {
  // Sub-NUMA clustering: one LLC, two nodes (even and odd CPUs).
  TopologyBuilder b("snc");
  for (int cpu = 0; cpu < 4; ++cpu) b.AddCpu(cpu, 0, cpu % 2, 0, cpu);
  b.set_distances({{10, 11}, {11, 10}});
  Topology t = BuildOrDie(b);
  absl::StatusOr<SchedDomains> sd = BuildSchedDomains(t);
  ASSERT_TRUE(sd.ok()) << sd.status();
  EXPECT_THAT(Names(*sd, 1), ElementsAre("MC", "NUMA"));
  EXPECT_THAT(Spans(*sd, 1), ElementsAre("1,3", "0-3"));
  EXPECT_EQ(sd->domain(1, 1).numa_distance, 11);
  EXPECT_TRUE(sd->domain(1, 1).has(kSdWakeAffine));
  EXPECT_THAT(Groups(sd->domain(1, 1)), ElementsAre("0,2", "1,3"));
  EXPECT_EQ(sd->llc_size(1), 2);
  EXPECT_FALSE(sd->SharesCache(0, 1));
  ASSERT_EQ(sd->warnings().size(), 1u);
  EXPECT_THAT(sd->warnings()[0], HasSubstr("more than one NUMA node"));
}

TEST(SchedDomainsTest, RejectsBadReclaimDistance) {
  Topology t = BuildOrDie(TwoSocketMachine(Vendor::kIntel));
  SchedDomainOptions options;
  options.node_reclaim_distance = -5;
  EXPECT_EQ(BuildSchedDomains(t, options).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(SchedDomainsTest, FlagNamesAndDescribe) {
  EXPECT_THAT(SdFlagNames(kSdWakeAffine | kSdNuma),
              ElementsAre("SD_WAKE_AFFINE", "SD_NUMA"));
  EXPECT_EQ(SdFlagsString(kSdBalanceNewidle | kSdSerialize),
            "SD_BALANCE_NEWIDLE|SD_SERIALIZE");
  EXPECT_EQ(SdFlagsString(0), "");
  EXPECT_THAT(SdFlagNames(1u << 20), ElementsAre("0x100000"));

  SchedDomains sd = BuildPreset("skylake-e3-1240v5");
  EXPECT_THAT(sd.Describe(1),
              HasSubstr("domain0 SMT level=0 span=1,5 weight=2 imb=110 cnt=0 "
                        "interval=2-4ms groups={1},{5} flags="
                        "SD_BALANCE_NEWIDLE|"));
  EXPECT_THAT(sd.Describe(1), HasSubstr("domain1 MC level=2 span=0-7"));
}

// One memory for two packages (a UMA two-socket machine): DIE is
// cpu_cpu_mask, the node, so it spans both packages; one node, so no NUMA
// level.
TEST(SchedDomainsTest, UmaTwoSocketDieSpansTheNode) {
  TopologyBuilder b("uma");
  for (int cpu = 0; cpu < 8; ++cpu) {
    b.AddCpu(cpu, /*package=*/cpu / 4, /*node=*/0, /*llc=*/cpu / 4,
             /*core=*/cpu);
  }
  Topology t = BuildOrDie(b);
  absl::StatusOr<SchedDomains> sd = BuildSchedDomains(t);
  ASSERT_TRUE(sd.ok()) << sd.status();
  EXPECT_THAT(Names(*sd, 0), ElementsAre("MC", "DIE"));
  EXPECT_THAT(Spans(*sd, 0), ElementsAre("0-3", "0-7"));
}

}  // namespace
}  // namespace schedsim::topology
