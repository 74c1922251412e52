// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// schedutil on an asymmetric machine, end to end (issue 15): on juno-r0 a
// CPU-bound task on a LITTLE CPU (capacity 446) must drive its cluster to
// the top OPP. get_next_freq (kernel/sched/cpufreq_schedutil.c) divides by
// arch_scale_cpu_capacity: util 446 of 446 asks for 1.25 x 850 MHz. Were
// it divided by 1024, the task would ask for 1.25 x 850 x 446 / 1024 =
// 463 MHz, run at 575 MHz, and with frequency-invariant PELT its util
// would settle lower still: the cluster would never reach its top.

#include <map>
#include <memory>

#include "governors/cpufreq/schedutil.h"
#include "gtest/gtest.h"
#include "sim/builtin_policies.h"
#include "sim/simulator.h"
#include "topology/presets.h"

namespace schedsim {
namespace {

// Forwards to schedutil and records each domain's frequency at its last
// update.
class SchedutilWatcher final : public platform::FreqGovernor {
 public:
  SchedutilWatcher() : sugov_(governors::SchedutilGovernor::Options{}) {}
  absl::string_view name() const override { return sugov_.name(); }
  void Start(platform::FreqDomain& d) override { sugov_.Start(d); }
  void UpdateUtil(platform::FreqDomain& d, int cpu, uint32_t flags) override {
    sugov_.UpdateUtil(d, cpu, flags);
    khz[d.id()] = d.current_khz();
    if (d.current_khz() == d.spec().max_turbo_khz &&
        reached_top_ns[d.id()] == 0) {
      reached_top_ns[d.id()] = d.now_ns();
    }
  }
  std::map<int, int64_t> khz;             // by domain id
  std::map<int, int64_t> reached_top_ns;  // by domain id, 0 = never

 private:
  governors::SchedutilGovernor sugov_;
};

TEST(JunoSchedutilTest, CpuBoundTaskOnLittleCpuReachesTheClusterTop) {
  absl::StatusOr<topology::Topology> topo = topology::MakePreset("juno-r0");
  ASSERT_TRUE(topo.ok()) << topo.status();
  sim::Workload w;
  sim::ProgramBuilder b("spin");
  b.Loop(0).Compute(sim::Dist::Constant(1000000)).EndLoop();
  absl::StatusOr<sim::Program> p = b.Build();
  ASSERT_TRUE(p.ok()) << p.status();
  w.programs.push_back(*p);
  sim::TaskSpec t;
  t.name = "spin";
  t.program = 0;
  t.affinity = "4";  // a LITTLE CPU
  t.start_cpu = 4;
  w.tasks.push_back(t);
  sim::SimConfig config;
  config.noise_scale = 0;
  SchedutilWatcher watcher;
  sim::FitIdleGovernor idle;
  sim::PrevTargetPlacement place;
  absl::StatusOr<std::unique_ptr<sim::Simulator>> s =
      sim::Simulator::Create(*topo, config, w, {&watcher, &idle, &place}, 1);
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_TRUE((*s)->RunFor(sim::Milliseconds(500)).ok());
  // Domain 0 is the LITTLE cluster (CPUs 0, 3-5).
  EXPECT_EQ(watcher.khz[0], 850000);
  EXPECT_GT(watcher.reached_top_ns[0], 0);
  // PELT from a new task's initial util: the top well within the run.
  EXPECT_LT(watcher.reached_top_ns[0], 300000000);
  const sim::SimStats stats = (*s)->Stats();
  EXPECT_GT(stats.tasks[0].run_ns, 490000000);
}

}  // namespace
}  // namespace schedsim
