// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/simulator.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sim/builtin_policies.h"
#include "topology/presets.h"

namespace schedsim::sim {
namespace {

struct Fixture {
  PerformanceGovernor freq;
  FitIdleGovernor idle;
  PrevTargetPlacement placement;
  Policies policies() { return {&freq, &idle, &placement}; }
};

TEST(SimulatorTest, SmokeComputeTaskRuns) {
  absl::StatusOr<topology::Topology> topo =
      topology::MakePreset("skylake-e3-1240v5");
  ASSERT_TRUE(topo.ok());
  Workload w;
  ProgramBuilder b("spin");
  b.Loop(10)
      .Compute(Dist::Constant(3500000))
      .Sleep(Dist::Constant(1000000))
      .EndLoop();
  w.programs.push_back(*b.Build());
  TaskSpec t;
  t.name = "spin";
  w.tasks.push_back(t);
  Fixture f;
  absl::StatusOr<std::unique_ptr<Simulator>> sim =
      Simulator::Create(*topo, SimConfig(), w, f.policies(), 1);
  ASSERT_TRUE(sim.ok()) << sim.status();
  ASSERT_TRUE((*sim)->RunFor(Milliseconds(100)).ok());
  SimStats s = (*sim)->Stats();
  EXPECT_GT(s.events, 10u);
  EXPECT_TRUE(s.tasks[0].exited);
}

}  // namespace
}  // namespace schedsim::sim
