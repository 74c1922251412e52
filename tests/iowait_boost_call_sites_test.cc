// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The scheduler's cpufreq call sites and intel_pstate's IO-wait boost
// together (issue: "doubling boost reaches 100% after 4 IO wake-ups within
// a tick"). In doubling mode (drivers/cpufreq/intel_pstate.c,
// intel_pstate_update_util(), since v4.18) each SCHED_CPUFREQ_IOWAIT call
// within a tick of the last call doubles the boost from 1/8 up to 1, and
// each other call halves it. The kernel makes those other calls only when
// the runqueue's utilization changes (cfs_rq_util_change(), at most once
// per 1024 us PELT period), so a task that waits 40 us for IO between
// 10 us bursts reaches the full boost; a call on every dequeue would halve
// it back before each doubling and hold it at 1/8.

#include <algorithm>
#include <memory>

#include "governors/cpufreq/intel_pstate.h"
#include "gtest/gtest.h"
#include "sim/builtin_policies.h"
#include "sim/simulator.h"
#include "topology/presets.h"

namespace schedsim {
namespace {

// Forwards to intel_pstate and records the largest boost of CPU 0.
class BoostWatcher final : public platform::FreqGovernor {
 public:
  BoostWatcher() : pstate_(governors::IntelPstateGovernor::Options{}) {}
  absl::string_view name() const override { return pstate_.name(); }
  void Start(platform::FreqDomain& d) override { pstate_.Start(d); }
  void UpdateUtil(platform::FreqDomain& d, int cpu, uint32_t flags) override {
    pstate_.UpdateUtil(d, cpu, flags);
    if (cpu != 0) return;
    const double boost = pstate_.iowait_boost(0);
    max_boost = std::max(max_boost, boost);
    if (flags & platform::kUtilIowait) {
      ++iowait_calls;
      if (boost >= 1.0 && first_full_at == 0) first_full_at = iowait_calls;
    }
  }
  double max_boost = 0;
  int iowait_calls = 0;
  int first_full_at = 0;  // the IO-wait call that first reached 1

 private:
  governors::IntelPstateGovernor pstate_;
};

TEST(IowaitBoostCallSitesTest, DoublingBoostReachesFullAfterFourIoWakeups) {
  absl::StatusOr<topology::Topology> topo =
      topology::MakePreset("skylake-e3-1240v5");
  ASSERT_TRUE(topo.ok()) << topo.status();
  sim::Workload w;
  sim::ProgramBuilder b("io");
  b.Loop(0)
      .Compute(sim::Dist::Constant(35000))  // ~10 us
      .IoWait(sim::Dist::Constant(40000))
      .EndLoop();
  absl::StatusOr<sim::Program> p = b.Build();
  ASSERT_TRUE(p.ok()) << p.status();
  w.programs.push_back(*p);
  sim::TaskSpec t;
  t.name = "io";
  t.program = 0;
  t.affinity = "0";
  t.start_cpu = 0;
  w.tasks.push_back(t);
  sim::SimConfig config;
  config.noise_scale = 0;
  config.hwp = false;  // intel_pstate=no_hwp: the non-HWP algorithm
  BoostWatcher watcher;
  sim::FitIdleGovernor idle;
  sim::PrevTargetPlacement place;
  absl::StatusOr<std::unique_ptr<sim::Simulator>> s =
      sim::Simulator::Create(*topo, config, w, {&watcher, &idle, &place}, 1);
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_TRUE((*s)->RunFor(sim::Milliseconds(50)).ok());
  EXPECT_GT(watcher.iowait_calls, 100);
  EXPECT_EQ(watcher.max_boost, 1.0);
  // 1/8 on the first IO wake-up, then 1/4, 1/2, 1; a PELT period that
  // ends in between halves it once more.
  EXPECT_GE(watcher.first_full_at, 4);
  EXPECT_LE(watcher.first_full_at, 6);
}

}  // namespace
}  // namespace schedsim
