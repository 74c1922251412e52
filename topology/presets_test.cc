// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "topology/presets.h"

#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "topology/sched_domains.h"

namespace schedsim::topology {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string> StateNames(const Topology& t) {
  std::vector<std::string> names;
  for (const CState& s : t.cstates()) names.push_back(s.name);
  return names;
}

std::vector<std::string> Spans(const std::vector<CpuSet>& sets) {
  std::vector<std::string> out;
  for (const CpuSet& s : sets) out.push_back(s.ToList());
  return out;
}

TEST(PresetsTest, SkylakeE31240v5MatchesThePart) {
  absl::StatusOr<Topology> t = MakePreset("skylake-e3-1240v5");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->vendor(), Vendor::kIntel);
  EXPECT_EQ(t->num_cpus(), 8);
  EXPECT_EQ(t->num_cores(), 4);
  EXPECT_EQ(t->num_packages(), 1);
  EXPECT_EQ(t->num_nodes(), 1);
  EXPECT_THAT(Spans(t->cores()), ElementsAre("0,4", "1,5", "2,6", "3,7"));
  EXPECT_THAT(Spans(t->llcs()), ElementsAre("0-7"));
  EXPECT_EQ(t->caches().back().size_bytes, 8 << 20);
  EXPECT_EQ(t->frequency().base_khz, 3500000);
  EXPECT_EQ(t->frequency().max_turbo_khz, 3900000);
  EXPECT_TRUE(t->frequency().has_hwp);
  EXPECT_TRUE(t->frequency().has_epp);
  EXPECT_EQ(t->frequency().hwp.guaranteed, 35);
  EXPECT_EQ(t->frequency().hwp.highest, 39);
  EXPECT_THAT(StateNames(*t), ElementsAre("POLL", "C1", "C1E", "C3", "C6",
                                          "C7s", "C8", "C9", "C10"));
  // intel_idle skl_cstates: C1E 10/20 us, C6 85/200 us.
  EXPECT_EQ(t->cstates()[2].exit_latency_ns, 10000);
  EXPECT_EQ(t->cstates()[2].target_residency_ns, 20000);
  EXPECT_EQ(t->cstates()[4].exit_latency_ns, 85000);
  EXPECT_EQ(t->cstates()[4].target_residency_ns, 200000);
  EXPECT_TRUE(t->cstates()[0].polling());
  EXPECT_TRUE(t->warnings().empty());
}

TEST(PresetsTest, Zen3SocketsLlcsAndSiblings) {
  for (const char* name : {"zen3-2s-nps1", "zen3-2s-nps2", "zen3-2s-nps4"}) {
    SCOPED_TRACE(name);
    absl::StatusOr<Topology> t = MakePreset(name);
    ASSERT_TRUE(t.ok()) << t.status();
    EXPECT_EQ(t->vendor(), Vendor::kAmd);
    EXPECT_EQ(t->num_cpus(), 256);
    EXPECT_EQ(t->num_cores(), 128);
    EXPECT_EQ(t->num_packages(), 2);
    EXPECT_EQ(t->packages()[0].ToList(), "0-63,128-191");
    EXPECT_EQ(t->packages()[1].ToList(), "64-127,192-255");
    EXPECT_EQ(t->num_llcs(), 16);
    for (const CpuSet& llc : t->llcs()) EXPECT_EQ(llc.Count(), 16);
    EXPECT_EQ(t->llc_span(0).ToList(), "0-7,128-135");
    EXPECT_EQ(t->llc_span(200).ToList(), "72-79,200-207");
    for (int cpu = 0; cpu < 128; ++cpu) {
      EXPECT_EQ(t->smt_siblings(cpu).ToVector(),
                (std::vector<int>{cpu, cpu + 128}));
    }
    EXPECT_THAT(StateNames(*t), ElementsAre("POLL", "C1", "C2"));
    EXPECT_EQ(t->cstates()[2].exit_latency_ns, 400000);
    EXPECT_EQ(t->cstates()[2].target_residency_ns, 800000);
    EXPECT_EQ(t->frequency().base_khz, 2000000);
    EXPECT_EQ(t->frequency().max_turbo_khz, 3675000);
    EXPECT_FALSE(t->frequency().has_hwp);
    EXPECT_TRUE(t->warnings().empty());
  }
}

// NUMA nodes exactly as in the AMD test report (seed 001).
TEST(PresetsTest, Zen3NodesPerNpsMode) {
  absl::StatusOr<Topology> nps1 = MakePreset("zen3-2s-nps1");
  ASSERT_TRUE(nps1.ok());
  EXPECT_THAT(Spans(nps1->nodes()),
              ElementsAre("0-63,128-191", "64-127,192-255"));
  EXPECT_EQ(nps1->distance(0, 1), 32);

  absl::StatusOr<Topology> nps2 = MakePreset("zen3-2s-nps2");
  ASSERT_TRUE(nps2.ok());
  EXPECT_THAT(Spans(nps2->nodes()),
              ElementsAre("0-31,128-159", "32-63,160-191", "64-95,192-223",
                          "96-127,224-255"));
  EXPECT_THAT(nps2->distances()[0], ElementsAre(10, 12, 32, 32));

  absl::StatusOr<Topology> nps4 = MakePreset("zen3-2s-nps4");
  ASSERT_TRUE(nps4.ok());
  ASSERT_EQ(nps4->num_nodes(), 8);
  EXPECT_EQ(nps4->nodes()[0].ToList(), "0-15,128-143");
  EXPECT_EQ(nps4->nodes()[5].ToList(), "80-95,208-223");
  EXPECT_THAT(nps4->distances()[0],
              ElementsAre(10, 12, 12, 12, 32, 32, 32, 32));
  EXPECT_THAT(nps4->distances()[6],
              ElementsAre(32, 32, 32, 32, 12, 12, 10, 12));
}

TEST(PresetsTest, Zen3TurboCeilingFallsWithActiveCores) {
  absl::StatusOr<Topology> t = MakePreset("zen3-2s-nps1");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->frequency().TurboCeilingKhz(1), 3675000);
  EXPECT_LT(t->frequency().TurboCeilingKhz(64),
            t->frequency().TurboCeilingKhz(16));
  EXPECT_GE(t->frequency().TurboCeilingKhz(64), t->frequency().base_khz);
}

// The published facts of each added part: cores and threads, base and
// turbo frequency ([ARK]), the intel_idle table's state names and one
// state's exit latency / target residency (drivers/idle/intel_idle.c,
// Linux 6.1), no HWP, and the package power limit (TDP).
struct PartFacts {
  const char* name;
  int packages, cores, cpus, llcs;
  int64_t base_khz, max_turbo_khz;
  std::vector<std::string> states;
  int checked_state;  // index into states
  int64_t exit_us, residency_us;
  int64_t tdp_mw;
  int64_t l_last_bytes;  // the last-level cache
};

TEST(PresetsTest, AddedPartsMatchTheirPublishedFacts) {
  const std::vector<PartFacts> parts = {
      {"sandybridge-2s-e5-2690",
       2,
       16,
       32,
       2,
       2900000,
       3800000,
       {"POLL", "C1", "C1E", "C3", "C6"},
       4,
       104,
       345,
       135000,
       20 << 20},
      {"ivybridge-2s-e5-2690v2",
       2,
       20,
       40,
       2,
       3000000,
       3600000,
       {"POLL", "C1", "C1E", "C3", "C6"},
       2,
       10,
       80,
       130000,
       25 << 20},
      {"sandybridge-i7-2600k",
       1,
       4,
       8,
       1,
       3400000,
       3800000,
       {"POLL", "C1", "C1E", "C3", "C6", "C7"},
       5,
       109,
       345,
       95000,
       8 << 20},
      {"braswell-n3050",
       1,
       2,
       2,
       1,
       1600000,
       2160000,
       {"POLL", "C1", "C6N", "C6S", "C7", "C7S"},
       2,
       80,
       275,
       6000,
       1 << 20},
      {"apollolake-j3455",
       1,
       4,
       4,
       2,
       1500000,
       2300000,
       {"POLL", "C1", "C1E", "C6", "C7s", "C8", "C9", "C10"},
       3,
       133,
       133,
       10000,
       1 << 20},
  };
  for (const PartFacts& part : parts) {
    SCOPED_TRACE(part.name);
    absl::StatusOr<Topology> t = MakePreset(part.name);
    ASSERT_TRUE(t.ok()) << t.status();
    EXPECT_EQ(t->name(), part.name);
    EXPECT_EQ(t->vendor(), Vendor::kIntel);
    EXPECT_EQ(t->num_packages(), part.packages);
    EXPECT_EQ(t->num_nodes(), part.packages);
    EXPECT_EQ(t->num_cores(), part.cores);
    EXPECT_EQ(t->num_cpus(), part.cpus);
    EXPECT_EQ(t->num_llcs(), part.llcs);
    EXPECT_EQ(t->threads_per_core(), part.cpus / part.cores);
    EXPECT_EQ(t->frequency().base_khz, part.base_khz);
    EXPECT_EQ(t->frequency().max_turbo_khz, part.max_turbo_khz);
    EXPECT_EQ(t->frequency().TurboCeilingKhz(1), part.max_turbo_khz);
    EXPECT_LT(t->frequency().min_khz, part.base_khz);
    EXPECT_FALSE(t->frequency().has_hwp);
    EXPECT_FALSE(t->frequency().has_epp);
    EXPECT_EQ(t->frequency().driver, "intel_pstate");
    EXPECT_EQ(StateNames(*t), part.states);
    EXPECT_TRUE(t->cstates()[0].polling());
    const CState& s = t->cstates()[part.checked_state];
    EXPECT_EQ(s.exit_latency_ns, part.exit_us * 1000);
    EXPECT_EQ(s.target_residency_ns, part.residency_us * 1000);
    EXPECT_LT(s.physical_exit_ns, s.exit_latency_ns);
    EXPECT_EQ(t->power().tdp_mw, part.tdp_mw);
    EXPECT_EQ(t->caches().back().size_bytes, part.l_last_bytes);
    EXPECT_TRUE(t->warnings().empty());
  }
}

TEST(PresetsTest, TwoSocketXeonsHaveSocketNodesAndSiblingsNPlusHalf) {
  absl::StatusOr<Topology> snb = MakePreset("sandybridge-2s-e5-2690");
  ASSERT_TRUE(snb.ok());
  EXPECT_THAT(Spans(snb->packages()), ElementsAre("0-7,16-23", "8-15,24-31"));
  EXPECT_THAT(Spans(snb->nodes()), ElementsAre("0-7,16-23", "8-15,24-31"));
  EXPECT_EQ(snb->smt_siblings(3).ToList(), "3,19");
  EXPECT_EQ(snb->distance(0, 1), 20);
  // 3.3 GHz with all 8 cores of a socket active.
  EXPECT_EQ(snb->frequency().TurboCeilingKhz(8), 3300000);

  absl::StatusOr<Topology> ivt = MakePreset("ivybridge-2s-e5-2690v2");
  ASSERT_TRUE(ivt.ok());
  EXPECT_THAT(Spans(ivt->packages()), ElementsAre("0-9,20-29", "10-19,30-39"));
  EXPECT_EQ(ivt->smt_siblings(12).ToList(), "12,32");
  EXPECT_EQ(ivt->frequency().TurboCeilingKhz(10), 3300000);
}

TEST(PresetsTest, DesktopTurboFallsByActiveCores) {
  absl::StatusOr<Topology> t = MakePreset("sandybridge-i7-2600k");
  ASSERT_TRUE(t.ok());
  EXPECT_THAT(t->frequency().turbo_ceiling_khz,
              ElementsAre(3800000, 3700000, 3600000, 3500000));
  EXPECT_THAT(Spans(t->cores()), ElementsAre("0,4", "1,5", "2,6", "3,7"));
}

TEST(PresetsTest, AtomsShareL2PerModule) {
  absl::StatusOr<Topology> bsw = MakePreset("braswell-n3050");
  ASSERT_TRUE(bsw.ok());
  EXPECT_THAT(Spans(bsw->llcs()), ElementsAre("0-1"));
  absl::StatusOr<Topology> apl = MakePreset("apollolake-j3455");
  ASSERT_TRUE(apl.ok());
  EXPECT_THAT(Spans(apl->llcs()), ElementsAre("0-1", "2-3"));
}

// juno-r0 against its published facts: LISA's platform info for Juno
// (lisa_sched_load_plat_info.yml, ARM-software/lisa) and juno.dts.
TEST(PresetsTest, JunoR0MatchesLisaPlatformInfo) {
  absl::StatusOr<Topology> t = MakePreset("juno-r0");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->num_cpus(), 6);
  EXPECT_EQ(t->num_cores(), 6);
  EXPECT_EQ(t->num_packages(), 1);
  EXPECT_EQ(t->num_nodes(), 1);
  EXPECT_EQ(t->threads_per_core(), 1);
  // Two clusters, each with its own L2 (the LLC).
  EXPECT_THAT(Spans(t->llcs()), ElementsAre("0,3-5", "1-2"));
  // cpu-capacities orig.
  const int capacities[] = {446, 1024, 1024, 446, 446, 446};
  for (int cpu = 0; cpu < 6; ++cpu) {
    EXPECT_EQ(t->capacity(cpu), capacities[cpu]) << "CPU " << cpu;
  }
  EXPECT_TRUE(t->asym_capacity());
  // freq-domains [0, 3, 4, 5] and [1, 2], with the freqs of their CPUs.
  ASSERT_EQ(t->frequency_domains().size(), 2u);
  const FrequencyDomainSpec& little = t->frequency_domains()[0];
  const FrequencyDomainSpec& big = t->frequency_domains()[1];
  EXPECT_EQ(little.cpus.ToList(), "0,3-5");
  EXPECT_EQ(big.cpus.ToList(), "1-2");
  EXPECT_THAT(little.frequency.pstates_khz,
              ElementsAre(850000, 775000, 700000, 575000, 450000));
  EXPECT_THAT(big.frequency.pstates_khz,
              ElementsAre(1100000, 950000, 800000, 625000, 450000));
  EXPECT_EQ(little.frequency.min_khz, 450000);
  EXPECT_EQ(little.frequency.max_turbo_khz, 850000);
  EXPECT_EQ(big.frequency.min_khz, 450000);
  EXPECT_EQ(big.frequency.max_turbo_khz, 1100000);
  for (int cpu : {0, 3, 4, 5}) EXPECT_EQ(t->frequency_domain_of(cpu), 0);
  for (int cpu : {1, 2}) EXPECT_EQ(t->frequency_domain_of(cpu), 1);
  EXPECT_EQ(t->frequency_of(0).max_turbo_khz, 850000);
  EXPECT_EQ(t->frequency_of(1).max_turbo_khz, 1100000);
  // The machine-wide spec is the biggest CPU's domain's.
  EXPECT_EQ(t->frequency().max_turbo_khz, 1100000);
  EXPECT_FALSE(t->frequency().has_hwp);
  // The energy model's power at every OPP (nrg-model active_states, mW),
  // as the dynamic-power-coefficients and V/f curves give it (within the
  // EM's truncation).
  auto power_mw = [](const FrequencyDomainSpec& d, int64_t khz) {
    int64_t mv = 0;
    for (const OperatingPoint& p : d.frequency.vf_curve) {
      if (p.khz == khz) mv = p.mv;
    }
    return d.ceff_pf * static_cast<double>(mv * mv) * static_cast<double>(khz) *
           1e-12;
  };
  const std::pair<int64_t, int> little_em[] = {
      {450000, 42}, {575000, 58}, {700000, 79}, {775000, 97}, {850000, 119}};
  const std::pair<int64_t, int> big_em[] = {{450000, 160},
                                            {625000, 239},
                                            {800000, 343},
                                            {950000, 454},
                                            {1100000, 583}};
  for (const auto& [khz, mw] : little_em) {
    EXPECT_NEAR(power_mw(little, khz), mw, 1.0) << khz << " kHz";
  }
  for (const auto& [khz, mw] : big_em) {
    EXPECT_NEAR(power_mw(big, khz), mw, 1.0) << khz << " kHz";
  }
  // Idle states: WFI, then juno.dts's cpu-sleep-0 (300 + 1200 us, 2000 us)
  // and cluster-sleep-0 (400 + 1200 us, 2500 us), the last a cluster state.
  EXPECT_THAT(StateNames(*t),
              ElementsAre("WFI", "cpu-sleep-0", "cluster-sleep-0"));
  EXPECT_EQ(t->cstates()[0].exit_latency_ns, 1000);
  EXPECT_EQ(t->cstates()[1].exit_latency_ns, 1500000);
  EXPECT_EQ(t->cstates()[1].target_residency_ns, 2000000);
  EXPECT_EQ(t->cstates()[2].exit_latency_ns, 1600000);
  EXPECT_EQ(t->cstates()[2].target_residency_ns, 2500000);
  EXPECT_EQ(t->cstates()[1].flags & CState::kClusterState, 0u);
  EXPECT_NE(t->cstates()[2].flags & CState::kClusterState, 0u);
  EXPECT_TRUE(t->warnings().empty());
}

// kunpeng920-2s-4826: 4 dies of 24 cores (a NUMA node and an LLC each),
// clusters of 4 cores; its CPU 5 has CLS 4-7 under MC 0-23 (no SMT level:
// one CPU per core), then NUMA levels over the SLIT distances.
TEST(PresetsTest, Kunpeng920HasAClusterLevel) {
  absl::StatusOr<Topology> t = MakePreset("kunpeng920-2s-4826");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->num_cpus(), 96);
  EXPECT_EQ(t->num_nodes(), 4);
  EXPECT_EQ(t->num_packages(), 2);
  EXPECT_EQ(t->threads_per_core(), 1);
  EXPECT_TRUE(t->has_clusters());
  EXPECT_EQ(t->cluster_span(5).ToList(), "4-7");
  EXPECT_EQ(t->llc_span(5).ToList(), "0-23");
  absl::StatusOr<SchedDomains> d = BuildSchedDomains(*t);
  ASSERT_TRUE(d.ok()) << d.status();
  ASSERT_GE(d->depth(5), 3);
  EXPECT_EQ(d->domain(5, 0).name, "CLS");
  EXPECT_EQ(d->domain(5, 0).span.ToList(), "4-7");
  EXPECT_EQ(d->domain(5, 1).name, "MC");
  EXPECT_EQ(d->domain(5, 1).span.ToList(), "0-23");
  EXPECT_EQ(d->domain(5, 1).groups.size(), 6u);  // the die's clusters
  EXPECT_EQ(d->llc_span(5).ToList(), "0-23");
  // An x86 preset states no clusters: no CLS domain.
  absl::StatusOr<Topology> sky = MakePreset("skylake-e3-1240v5");
  ASSERT_TRUE(sky.ok());
  EXPECT_FALSE(sky->has_clusters());
  absl::StatusOr<SchedDomains> sd = BuildSchedDomains(*sky);
  ASSERT_TRUE(sd.ok());
  for (const SchedDomain* dom : sd->Stack(0)) EXPECT_NE(dom->name, "CLS");
}

TEST(PresetsTest, SymmetricPresetsHaveFullCapacityAndPerCoreDomains) {
  for (const std::string& name : PresetNames()) {
    if (name == "juno-r0") continue;
    SCOPED_TRACE(name);
    absl::StatusOr<Topology> t = MakePreset(name);
    ASSERT_TRUE(t.ok()) << t.status();
    EXPECT_FALSE(t->asym_capacity());
    EXPECT_TRUE(t->frequency_domains().empty());
    for (int cpu = 0; cpu < t->num_cpus(); ++cpu) {
      ASSERT_EQ(t->capacity(cpu), 1024);
      ASSERT_EQ(t->frequency_domain_of(cpu), -1);
    }
  }
}

TEST(PresetsTest, EveryNameBuilds) {
  for (const std::string& name : PresetNames()) {
    SCOPED_TRACE(name);
    absl::StatusOr<Topology> t = MakePreset(name);
    ASSERT_TRUE(t.ok()) << t.status();
    EXPECT_EQ(t->name(), name);
  }
}

TEST(PresetsTest, UnknownNameListsTheKnownOnes) {
  absl::StatusOr<Topology> t = MakePreset("zen4");
  EXPECT_EQ(t.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(t.status().message(), HasSubstr("skylake-e3-1240v5"));
  EXPECT_THAT(t.status().message(), HasSubstr("zen3-2s-nps4"));
}

}  // namespace
}  // namespace schedsim::topology

namespace schedsim::topology {
namespace {

// A KVM guest (MakeGuest): vCPUs pinned one per core of the host's first
// LLC, the cpuidle-haltpoll driver's states (drivers/cpuidle/
// cpuidle-haltpoll.c, v6.1: POLL, "haltpoll idle" 1/1 us), the host's
// frequency and idle table kept for the simulator.
TEST(PresetsTest, GuestOnSkylakeHasHaltpollStatesAndPinnedVcpus) {
  absl::StatusOr<Topology> host = MakePreset("skylake-e3-1240v5");
  ASSERT_TRUE(host.ok());
  absl::StatusOr<Topology> g = MakeGuest(*host, 4);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(g->num_cpus(), 4);
  EXPECT_EQ(g->num_cores(), 4);
  EXPECT_EQ(g->num_llcs(), 1);
  EXPECT_EQ(g->threads_per_core(), 1);
  ASSERT_EQ(g->cstates().size(), 2u);
  EXPECT_TRUE(g->cstates()[0].polling());
  EXPECT_EQ(g->cstates()[1].name, "haltpoll idle");
  EXPECT_EQ(g->cstates()[kGuestHaltState].exit_latency_ns, 1000);
  EXPECT_EQ(g->cstates()[1].target_residency_ns, 1000);
  EXPECT_EQ(g->frequency().max_turbo_khz, host->frequency().max_turbo_khz);
  ASSERT_NE(g->guest(), nullptr);
  EXPECT_EQ(host->guest(), nullptr);
  EXPECT_EQ(g->guest()->host, "skylake-e3-1240v5");
  EXPECT_EQ(g->guest()->host_cstates.size(), host->cstates().size());
  std::vector<int> cores;
  for (int cpu : g->guest()->host_cpus) cores.push_back(host->place(cpu).core);
  EXPECT_THAT(cores, ElementsAre(0, 1, 2, 3));
  // A copy keeps it.
  Topology copy = *g;
  EXPECT_NE(copy.guest(), nullptr);

  absl::StatusOr<Topology> big = MakeGuest(*host, 5);
  ASSERT_FALSE(big.ok());
  EXPECT_THAT(std::string(big.status().message()), HasSubstr("1 to 4 vCPUs"));
  EXPECT_FALSE(MakeGuest(*host, 0).ok());
}

}  // namespace
}  // namespace schedsim::topology
