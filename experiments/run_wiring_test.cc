// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// WireRun: HWP as a property of how the machine boots, and the cpufreq
// policies that cannot run on it refused.

#include "experiments/run_wiring.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sim/program.h"
#include "topology/presets.h"

namespace schedsim::experiments {
namespace {

using ::testing::HasSubstr;

sim::Workload OneTask() {
  sim::ProgramBuilder b("work");
  b.Loop(0)
      .Compute(sim::Dist::Constant(200000))
      .Sleep(sim::Dist::Constant(1000000))
      .EndLoop();
  sim::Workload w;
  w.programs.push_back(*b.Build());
  sim::TaskSpec t;
  t.name = "work";
  t.program = 0;
  w.tasks.push_back(t);
  return w;
}

absl::StatusOr<RunOutput> RunOn(const char* machine, const char* cpufreq,
                                bool hwp) {
  absl::StatusOr<topology::Topology> topo = topology::MakePreset(machine);
  EXPECT_TRUE(topo.ok());
  const sim::Workload w = OneTask();
  RunSpec spec;
  spec.machine = &*topo;
  spec.workload = &w;
  spec.config.hwp = hwp;
  spec.cpufreq.name = cpufreq;
  spec.duration = sim::Milliseconds(20);
  return RunOnce(spec);
}

TEST(RunWiringTest, NonHwpIntelPstateNeedsHwpOff) {
  absl::StatusOr<RunOutput> on =
      RunOn("skylake-e3-1240v5", "intel_pstate", true);
  ASSERT_FALSE(on.ok());
  EXPECT_THAT(on.status().message(), HasSubstr("intel_pstate=no_hwp"));
  EXPECT_THAT(on.status().message(), HasSubstr("\"hwp\": false"));
  absl::StatusOr<RunOutput> off =
      RunOn("skylake-e3-1240v5", "intel_pstate", false);
  EXPECT_TRUE(off.ok()) << off.status();
}

TEST(RunWiringTest, HwpPolicyNeedsHwp) {
  absl::StatusOr<RunOutput> off =
      RunOn("skylake-e3-1240v5", "intel_pstate_hwp", false);
  ASSERT_FALSE(off.ok());
  EXPECT_THAT(off.status().message(), HasSubstr("boots with HWP off"));
  absl::StatusOr<RunOutput> amd =
      RunOn("zen3-2s-nps1", "intel_pstate_hwp", true);
  ASSERT_FALSE(amd.ok());
  EXPECT_THAT(amd.status().message(), HasSubstr("has no HWP"));
  EXPECT_TRUE(RunOn("skylake-e3-1240v5", "intel_pstate_hwp", true).ok());
}

TEST(RunWiringTest, HwpOffDefaultsToThePstateAlgorithm) {
  absl::StatusOr<RunOutput> off = RunOn("skylake-e3-1240v5", "", false);
  ASSERT_TRUE(off.ok()) << off.status();
  EXPECT_EQ(off->cpufreq, "intel_pstate");
  absl::StatusOr<RunOutput> on = RunOn("skylake-e3-1240v5", "", true);
  ASSERT_TRUE(on.ok()) << on.status();
  EXPECT_EQ(on->cpufreq, "intel_pstate_hwp");
}

}  // namespace
}  // namespace schedsim::experiments
