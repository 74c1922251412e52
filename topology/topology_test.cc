// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "topology/topology.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "topology/graph.h"

namespace schedsim::topology {
namespace {

using ::testing::HasSubstr;

// 2 packages x 2 cores x 2 threads, SMT siblings (n, n+4), one LLC and one
// node per package.
TopologyBuilder SmallMachine() {
  TopologyBuilder b("small");
  for (int cpu = 0; cpu < 8; ++cpu) {
    int core = cpu % 4;
    int pkg = core / 2;
    b.AddCpu(cpu, /*package=*/pkg * 7, /*node=*/pkg, /*llc=*/100 + pkg,
             /*core=*/core * 3);
  }
  return b;
}

TEST(TopologyBuilderTest, FlattensHierarchyWithDenseIds) {
  absl::StatusOr<Topology> t = SmallMachine().Build();
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->num_cpus(), 8);
  EXPECT_EQ(t->num_cores(), 4);
  EXPECT_EQ(t->num_llcs(), 2);
  EXPECT_EQ(t->num_packages(), 2);
  EXPECT_EQ(t->threads_per_core(), 2);
  EXPECT_EQ(t->place(5).core, 1);
  EXPECT_EQ(t->place(5).thread, 1);
  EXPECT_EQ(t->place(6).package, 1);
  EXPECT_EQ(t->smt_siblings(1).ToList(), "1,5");
  EXPECT_EQ(t->llc_span(3).ToList(), "2-3,6-7");
  EXPECT_EQ(t->distance(0, 1), 20);
  EXPECT_EQ(t->distance(1, 1), 10);
  ASSERT_EQ(t->warnings().size(), 1u);
  EXPECT_THAT(t->warnings()[0], HasSubstr("no NUMA distances"));
  // machine + 2 packages + 2 nodes + 2 LLCs + 4 cores + 8 threads.
  EXPECT_EQ(boost::num_vertices(t->graph().g), 19u);
}

TEST(TopologyBuilderTest, CountsCpulessAndAssumedObjectsBesideTheGroups) {
  TopologyBuilder b = SmallMachine();
  MemoryOnlyNode nvm;
  nvm.os_index = 7;
  nvm.subtype = "NVM";
  b.AddMemoryOnlyNode(nvm, /*package=*/7);  // the second package
  b.AddMemoryOnlyNode(MemoryOnlyNode{}, /*package=*/-1);
  b.AddCpulessPackage(3);
  b.MarkAssumed(Level::kCore, 0).MarkAssumed(Level::kCore, 0);  // once
  b.MarkAssumed(Level::kPackage, 0);
  absl::StatusOr<Topology> t = b.Build();
  ASSERT_TRUE(t.ok()) << t.status();
  // The scheduler's groups are unchanged.
  EXPECT_EQ(t->num_nodes(), 2);
  EXPECT_EQ(t->num_packages(), 2);
  EXPECT_EQ(t->distances().size(), 2u);
  ASSERT_EQ(t->memory_only_nodes().size(), 2u);
  EXPECT_EQ(t->memory_only_nodes()[0].os_index, 7);
  EXPECT_EQ(t->memory_only_nodes()[0].subtype, "NVM");
  EXPECT_EQ(t->memory_only_nodes()[0].package, 1);
  EXPECT_EQ(t->memory_only_nodes()[1].package, -1);
  EXPECT_EQ(t->cpuless_packages(), std::vector<int>{3});
  EXPECT_EQ(t->num_assumed_cores(), 1);
  EXPECT_EQ(t->num_assumed_packages(), 1);
  EXPECT_TRUE(t->source_counts() ==
              (ObjectCounts{/*cpus=*/8, /*cores=*/3, /*packages=*/2,
                            /*nodes=*/4}));
  // A copy keeps them.
  const Topology copy(*t);
  EXPECT_TRUE(copy.source_counts() == t->source_counts());
}

TEST(TopologyBuilderTest, RejectsUnknownAssumedAndMemoryOnlyIds) {
  absl::StatusOr<Topology> t =
      SmallMachine().MarkAssumed(Level::kPackage, 99).Build();
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(t.status().message(), HasSubstr("assumed package 99"));
  t = SmallMachine().MarkAssumed(Level::kLlc, 100).Build();
  ASSERT_FALSE(t.ok());
  t = SmallMachine().AddMemoryOnlyNode(MemoryOnlyNode{}, 5).Build();
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(t.status().message(), HasSubstr("package 5, which holds no CPU"));
}

TEST(TopologyBuilderTest, NodeSpanningPartOfAnLlcIsAllowed) {
  // Sub-NUMA clustering: one LLC, two nodes.
  TopologyBuilder b("snc");
  for (int cpu = 0; cpu < 4; ++cpu) b.AddCpu(cpu, 0, cpu % 2, 0, cpu);
  b.set_distances({{10, 11}, {11, 10}});
  absl::StatusOr<Topology> t = b.Build();
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->num_nodes(), 2);
  EXPECT_EQ(t->node_span(1).ToList(), "1,3");
  EXPECT_EQ(t->llc_span(1).ToList(), "0-3");
  EXPECT_EQ(t->distance(0, 1), 11);
}

TEST(TopologyBuilderTest, RejectsGapsDuplicatesAndNonNesting) {
  TopologyBuilder gap("gap");
  gap.AddCpu(0, 0, 0, 0, 0).AddCpu(2, 0, 0, 0, 1);
  EXPECT_THAT(gap.Build().status().message(), HasSubstr("CPU ids must be"));

  TopologyBuilder dup("dup");
  dup.AddCpu(0, 0, 0, 0, 0).AddCpu(0, 0, 0, 0, 1);
  EXPECT_THAT(dup.Build().status().message(), HasSubstr("added twice"));

  TopologyBuilder split("split");
  split.AddCpu(0, 0, 0, 0, 0).AddCpu(1, 0, 0, 1, 0);
  EXPECT_THAT(split.Build().status().message(), HasSubstr("must nest"));
}

// Two packages of 2 cores sharing one memory (one NUMA node), and two
// nodes of 2 packages each: the packages nest in the nodes.
TEST(TopologyBuilderTest, NodesMaySpanPackages) {
  TopologyBuilder uma("uma");
  for (int cpu = 0; cpu < 4; ++cpu) uma.AddCpu(cpu, cpu / 2, 0, cpu / 2, cpu);
  absl::StatusOr<Topology> t = uma.Build();
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->num_packages(), 2);
  EXPECT_EQ(t->num_nodes(), 1);
  EXPECT_EQ(t->node_span(3).ToList(), "0-3");
  EXPECT_EQ(t->package_span(3).ToList(), "2-3");
  EXPECT_TRUE(t->warnings().empty());

  TopologyBuilder two("two");
  for (int cpu = 0; cpu < 8; ++cpu)
    two.AddCpu(cpu, cpu / 2, cpu / 4, cpu / 2, cpu);
  two.set_distances({{10, 20}, {20, 10}});
  t = two.Build();
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->num_packages(), 4);
  EXPECT_EQ(t->node_span(5).ToList(), "4-7");
  EXPECT_EQ(t->place(5).package, 2);
  EXPECT_EQ(t->place(5).node, 1);

  // A node over two packages while a package holds two nodes: no nesting.
  TopologyBuilder bad("bad");
  bad.AddCpu(0, 0, 0, 0, 0).AddCpu(1, 1, 0, 1, 1).AddCpu(2, 1, 1, 1, 2);
  EXPECT_THAT(bad.Build().status().message(),
              HasSubstr("nodes must lie in packages or packages in nodes"));
}

TEST(TopologyBuilderTest, RejectsBadDistanceMatrix) {
  TopologyBuilder b = SmallMachine();
  b.set_distances({{10, 20}});
  EXPECT_THAT(b.Build().status().message(), HasSubstr("1 rows for 2"));
  TopologyBuilder c = SmallMachine();
  c.set_distances({{10, 0}, {20, 10}});
  EXPECT_THAT(c.Build().status().message(), HasSubstr("must be positive"));
}

FrequencySpec Range(int64_t min_khz, int64_t max_khz) {
  FrequencySpec f;
  f.min_khz = min_khz;
  f.base_khz = max_khz;
  f.max_turbo_khz = max_khz;
  return f;
}

TEST(TopologyBuilderTest, CapacitiesAndFrequencyDomains) {
  // Two clusters of one package: CPUs 0-1 big, 2-3 LITTLE.
  TopologyBuilder b("bl");
  for (int cpu = 0; cpu < 4; ++cpu) b.AddCpu(cpu, 0, 0, cpu / 2, cpu);
  b.set_capacity(2, 512).set_capacity(3, 512).set_capacity(0, 1024);
  b.AddFrequencyDomain({3, 2}, Range(500000, 1000000), 100.0);
  b.AddFrequencyDomain({0, 1}, Range(500000, 2000000));
  absl::StatusOr<Topology> t = b.Build();
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_TRUE(t->asym_capacity());
  EXPECT_EQ(t->capacity(1), 1024);  // not given: 1024
  EXPECT_EQ(t->capacity(2), 512);
  // Domains in order of their lowest CPU.
  ASSERT_EQ(t->frequency_domains().size(), 2u);
  EXPECT_EQ(t->frequency_domains()[0].cpus.ToList(), "0-1");
  EXPECT_EQ(t->frequency_domains()[1].cpus.ToList(), "2-3");
  EXPECT_EQ(t->frequency_domains()[1].ceff_pf, 100.0);
  EXPECT_EQ(t->frequency_domain_of(3), 1);
  EXPECT_EQ(t->frequency_of(3).max_turbo_khz, 1000000);
  // No set_frequency: the biggest CPU's domain's.
  EXPECT_EQ(t->frequency().max_turbo_khz, 2000000);
  // Copies keep them.
  Topology copy(*t);
  EXPECT_EQ(copy.capacity(2), 512);
  EXPECT_EQ(copy.frequency_domain_of(3), 1);
  EXPECT_EQ(copy.WithoutHwp().frequency_domains().size(), 2u);
}

TEST(TopologyBuilderTest, SymmetricMachineHasNoDomains) {
  absl::StatusOr<Topology> t = SmallMachine().Build();
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_FALSE(t->asym_capacity());
  EXPECT_TRUE(t->frequency_domains().empty());
  EXPECT_EQ(t->capacity(5), 1024);
  EXPECT_EQ(t->frequency_domain_of(5), -1);
}

TEST(TopologyBuilderTest, RejectsBadCapacitiesAndDomains) {
  auto machine = [] {
    TopologyBuilder b("bl");
    for (int cpu = 0; cpu < 4; ++cpu) b.AddCpu(cpu, cpu / 2, cpu / 2, cpu, cpu);
    return b;
  };
  auto error = [](const TopologyBuilder& b) {
    absl::StatusOr<Topology> t = b.Build();
    EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
    return std::string(t.status().message());
  };
  EXPECT_THAT(error(machine().set_capacity(1, 2000)),
              HasSubstr("capacities are 1..1024"));
  EXPECT_THAT(error(machine().set_capacity(1, 0)),
              HasSubstr("capacities are 1..1024"));
  EXPECT_THAT(error(machine().set_capacity(9, 512)),
              HasSubstr("not one of its CPUs"));
  EXPECT_THAT(error(machine().set_capacity(1, 512)),
              HasSubstr("the biggest CPU must have 1024"));
  EXPECT_THAT(error(machine().AddFrequencyDomain({0, 1}, Range(1, 2))),
              HasSubstr("CPU 2 is in no frequency domain"));
  EXPECT_THAT(error(machine()
                        .AddFrequencyDomain({0, 1}, Range(1, 2))
                        .AddFrequencyDomain({1, 2, 3}, Range(1, 2))),
              HasSubstr("CPU 1 is in frequency domains 0 and 1"));
  EXPECT_THAT(error(machine()
                        .AddFrequencyDomain({0, 1, 2}, Range(1, 2))
                        .AddFrequencyDomain({3}, Range(1, 2))),
              HasSubstr("different packages"));
  EXPECT_THAT(error(machine()
                        .AddFrequencyDomain({0, 1}, Range(0, 2))
                        .AddFrequencyDomain({2, 3}, Range(1, 2))),
              HasSubstr("needs 0 < min_khz <= max_turbo_khz"));
  EXPECT_THAT(error(machine().AddFrequencyDomain({}, Range(1, 2))),
              HasSubstr("has no CPUs"));
  EXPECT_THAT(error(machine()
                        .set_capacity(0, 512)
                        .set_capacity(1, 1024)
                        .AddFrequencyDomain({0, 1}, Range(1, 2))
                        .AddFrequencyDomain({2, 3}, Range(1, 2))),
              HasSubstr("the CPUs of a domain share one capacity"));
}

TEST(FrequencySpecTest, TurboCeilingFallsWithActiveCores) {
  FrequencySpec f;
  f.max_turbo_khz = 3900000;
  f.turbo_ceiling_khz = {3900000, 3800000, 3700000};
  EXPECT_EQ(f.TurboCeilingKhz(1), 3900000);
  EXPECT_EQ(f.TurboCeilingKhz(2), 3800000);
  EXPECT_EQ(f.TurboCeilingKhz(8), 3700000);
}

// A model machine: one package of 4 cores x `threads` threads, with a
// C-state, frequency and power table.
Topology PowerModel(int threads) {
  TopologyBuilder b("model");
  b.set_model_name("Model CPU");
  for (int cpu = 0; cpu < 4 * threads; ++cpu) b.AddCpu(cpu, 0, 0, 0, cpu % 4);
  CState c1;
  c1.name = "C1";
  b.set_cstates({c1});
  FrequencySpec f;
  f.min_khz = 800000;
  f.base_khz = 2000000;
  f.max_turbo_khz = 3000000;
  b.set_frequency(f);
  PowerSpec p;
  p.tdp_mw = 40000;
  b.set_power(p);
  return *b.Build();
}

TEST(TopologyPowerModelTest, TakesTheModelsTablesAndKeepsTheMachine) {
  absl::StatusOr<Topology> t = SmallMachine().Build();
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_FALSE(t->has_frequency_table());
  EXPECT_FALSE(t->has_idle_table());
  absl::StatusOr<Topology> m = t->WithPowerModel(PowerModel(2));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->name(), "small");
  EXPECT_EQ(m->num_cpus(), 8);
  EXPECT_EQ(m->num_packages(), 2);
  EXPECT_TRUE(m->has_frequency_table());
  EXPECT_TRUE(m->has_idle_table());
  EXPECT_EQ(m->cstates()[0].name, "C1");
  EXPECT_EQ(m->frequency().max_turbo_khz, 3000000);
  // 2 cores per package against the model's 4: half the package limit.
  EXPECT_EQ(m->power().tdp_mw, 20000);
  EXPECT_THAT(m->warnings().back(),
              HasSubstr("power model: C-state, frequency and power tables "
                        "of 'model' (Model CPU); package power limit scaled "
                        "by cores per package, 2/4: 40000 -> 20000 mW"));
}

TEST(TopologyPowerModelTest, RefusesADifferentSmtWidth) {
  absl::StatusOr<Topology> t = SmallMachine().Build();
  ASSERT_TRUE(t.ok()) << t.status();
  absl::StatusOr<Topology> m = t->WithPowerModel(PowerModel(1));
  EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(m.status().message(),
            "power model 'model' has 1 CPU(s) per core but machine 'small' "
            "has 2; choose a built-in machine with 2 CPU(s) per core");
}

}  // namespace
}  // namespace schedsim::topology
