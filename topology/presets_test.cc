// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "topology/presets.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

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

TEST(PresetsTest, UnknownNameListsTheKnownOnes) {
  absl::StatusOr<Topology> t = MakePreset("zen4");
  EXPECT_EQ(t.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(t.status().message(), HasSubstr("skylake-e3-1240v5"));
  EXPECT_THAT(t.status().message(), HasSubstr("zen3-2s-nps4"));
}

}  // namespace
}  // namespace schedsim::topology
