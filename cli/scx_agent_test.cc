// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The agent of `schedsim scx` over an in-memory copy of the BPF side's
// global data. skylake-e3-1240v5: one 8-CPU LLC, SMT siblings (n, n+4).

#include "platform/linux/scx_agent.h"

#include <memory>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "platform/registry.h"
#include "topology/presets.h"
#include "topology/sched_domains.h"

namespace schedsim::platform::host {
namespace {

using ::testing::AnyOf;
using ::testing::HasSubstr;

struct Machine {
  topology::Topology topology;
  topology::SchedDomains domains;
  std::unique_ptr<schedsim_scx_bss> shared =
      std::make_unique<schedsim_scx_bss>();
  int64_t now_ns = 1000000000;

  explicit Machine(const char* preset)
      : topology(*topology::MakePreset(preset)),
        domains(*topology::BuildSchedDomains(topology)) {}

  std::function<int64_t()> Clock() {
    return [this] { return now_ns; };
  }
  void SetBusy(int cpu, int pid) {
    shared->cpus[cpu].idle = 0;
    shared->cpus[cpu].curr_pid = static_cast<uint32_t>(pid);
    shared->cpus[cpu].run_start_ns = static_cast<uint64_t>(now_ns);
  }
  void SetIdle(int cpu) {
    shared->cpus[cpu].idle = 1;
    shared->cpus[cpu].curr_pid = 0;
  }
};

schedsim_scx_event Wakeup(int pid, int this_cpu, int prev_cpu) {
  schedsim_scx_event e = {};
  e.kind = SCHEDSIM_SCX_EV_WAKEUP;
  e.pid = static_cast<uint32_t>(pid);
  e.this_cpu = this_cpu;
  e.prev_cpu = prev_cpu;
  e.wake_flags = kWfTtwu;
  e.all_allowed = 1;
  e.enq_ns = 123;
  return e;
}

std::unique_ptr<PlacementPolicy> Policy(const char* name) {
  return std::move(*PolicyRegistry::Global().MakePlacement(name));
}

// The registry's sis_util, through the live view, finds the one idle core
// when prev and the waker are busy: the decision the BPF side dispatches.
TEST(ScxAgentTest, SisUtilPlacesOnTheIdleCore) {
  Machine m("skylake-e3-1240v5");
  for (int c = 0; c < 8; ++c) m.SetBusy(c, 100 + c);
  m.SetIdle(2);
  m.SetIdle(6);
  std::unique_ptr<PlacementPolicy> sis = Policy("sis_util");
  ScxAgent agent(*sis, m.topology, m.domains, m.shared.get(), m.Clock());
  const schedsim_scx_decision d = agent.OnWakeup(Wakeup(500, 0, 1));
  EXPECT_EQ(d.pid, 500u);
  EXPECT_EQ(d.enq_ns, 123u);
  EXPECT_THAT(d.cpu, AnyOf(2, 6));
  EXPECT_EQ(agent.stats().wakeups, 1);
  EXPECT_EQ(agent.stats().chosen_idle, 1);
  EXPECT_EQ(agent.stats().chose_other, 1);
  EXPECT_GT(agent.stats().probes, 2);
}

// With everything busy the search ends on the target, which wake_affine
// leaves at prev_cpu: a queued CPU counts as busy too.
TEST(ScxAgentTest, AllBusyStaysOnPrev) {
  Machine m("skylake-e3-1240v5");
  for (int c = 0; c < 8; ++c) m.SetBusy(c, 100 + c);
  m.SetIdle(5);
  m.shared->cpus[5].nr_queued = 1;  // placed there, not yet running
  std::unique_ptr<PlacementPolicy> sis = Policy("sis_util");
  ScxAgent agent(*sis, m.topology, m.domains, m.shared.get(), m.Clock());
  EXPECT_EQ(agent.OnWakeup(Wakeup(7, 0, 3)).cpu, 3);
  EXPECT_EQ(agent.stats().chosen_idle, 0);
  EXPECT_EQ(agent.stats().chose_target, 1);
}

// A policy that always answers CPU 0.
class CpuZero : public PlacementPolicy {
 public:
  absl::string_view name() const override { return "cpu0"; }
  int SelectIdleSibling(SchedView&, const WakeupRequest&) override { return 0; }
};

// The task's CPU mask reaches the policy; a choice outside it is replaced
// by one inside (and counted).
TEST(ScxAgentTest, ChoiceOutsideTheMaskIsReplaced) {
  Machine m("skylake-e3-1240v5");
  for (int c = 0; c < 8; ++c) m.SetIdle(c);
  schedsim_scx_event e = Wakeup(9, 1, 1);
  e.all_allowed = 0;
  e.allowed[0] = uint64_t{1} << 6;  // CPU 6 only
  std::unique_ptr<PlacementPolicy> sis = Policy("sis_util");
  ScxAgent agent(*sis, m.topology, m.domains, m.shared.get(), m.Clock());
  EXPECT_EQ(agent.OnWakeup(e).cpu, 6);
  EXPECT_EQ(agent.stats().outside_mask, 0);
  CpuZero zero;
  ScxAgent bad(zero, m.topology, m.domains, m.shared.get(), m.Clock());
  EXPECT_EQ(bad.OnWakeup(e).cpu, 6);
  EXPECT_EQ(bad.stats().outside_mask, 1);
}

TEST(ScxAgentTest, BadCpuIsLeftToTheBpfSide) {
  Machine m("skylake-e3-1240v5");
  std::unique_ptr<PlacementPolicy> sis = Policy("sis_util");
  ScxAgent agent(*sis, m.topology, m.domains, m.shared.get(), m.Clock());
  EXPECT_EQ(agent.OnWakeup(Wakeup(9, 0, 99)).cpu, -1);
  EXPECT_EQ(agent.stats().bad_events, 1);
  agent.OnIdle(-3);
  EXPECT_EQ(agent.stats().bad_events, 2);
  EXPECT_EQ(agent.stats().wakeups, 0);
}

// update_idle_core through the policy's OnCpuIdle: the LLC hint is set when
// the CPU going idle has an idle sibling, and the search then clears it
// when it finds no idle core.
TEST(ScxAgentTest, IdleEntrySetsTheIdleCoreHint) {
  Machine m("skylake-e3-1240v5");
  for (int c = 0; c < 8; ++c) m.SetBusy(c, 100 + c);
  std::unique_ptr<PlacementPolicy> sis = Policy("sis_util");
  ScxAgent agent(*sis, m.topology, m.domains, m.shared.get(), m.Clock());
  agent.OnWakeup(Wakeup(1, 0, 0));  // finds no idle core: clears the hint
  EXPECT_FALSE(agent.view().has_idle_cores(0));
  m.SetIdle(3);
  agent.OnIdle(3);  // sibling 7 busy: no idle core
  EXPECT_FALSE(agent.view().has_idle_cores(0));
  m.SetIdle(7);
  agent.OnIdle(7);
  EXPECT_TRUE(agent.view().has_idle_cores(0));
  EXPECT_EQ(agent.stats().idle_events, 2);
}

// Utilization follows the busy time the BPF side accounts, with the
// running task's current stretch, and SIS_UTIL's scan depth shrinks.
TEST(ScxAgentTest, UtilizationFollowsBusyTime) {
  Machine m("skylake-e3-1240v5");
  std::unique_ptr<PlacementPolicy> sis = Policy("sis_util");
  ScxAgent agent(*sis, m.topology, m.domains, m.shared.get(), m.Clock());
  EXPECT_EQ(agent.view().nr_idle_scan(0), 8);
  for (int c = 0; c < 8; ++c) m.SetBusy(c, 100 + c);
  for (int i = 0; i < 50; ++i) {
    m.now_ns += 10000000;  // 10 ms, all busy
    agent.Tick();
  }
  EXPECT_GT(agent.view().cpu_util(0), 1000);
  EXPECT_EQ(agent.view().nr_idle_scan(0), 0);
  // The task stops: its stretch moves into busy_ns (no double count), and
  // the CPU idles from then on.
  for (int c = 0; c < 8; ++c) {
    m.shared->cpus[c].busy_ns +=
        static_cast<uint64_t>(m.now_ns) - m.shared->cpus[c].run_start_ns;
    m.SetIdle(c);
  }
  for (int i = 0; i < 50; ++i) {
    m.now_ns += 10000000;
    agent.Tick();
  }
  EXPECT_LT(agent.view().cpu_util(0), 30);
  EXPECT_EQ(agent.view().nr_idle_scan(0), 8);
}

TEST(ScxAgentTest, ReportCountsAndLatencyPercentile) {
  auto shared = std::make_unique<schedsim_scx_bss>();
  for (int i = 0; i < 100; ++i) {
    shared->lat_ns[i] = static_cast<uint64_t>((i + 1) * 1000);
  }
  shared->counters.lat_count = 100;
  shared->counters.lat_sum_ns = 5050 * 1000;
  shared->counters.lat_max_ns = 100000;
  shared->counters.policy_placed = 90;
  shared->counters.fallback_placed = 10;
  shared->counters.wakeups_sent = 95;
  ScxReport report;
  report.policy = "sis_util";
  report.agent.wakeups = 90;
  report.agent.chosen_idle = 45;
  report.agent.probes = 180;
  CollectBpfCounters(*shared, &report);
  EXPECT_DOUBLE_EQ(report.latency_mean_ns, 50500);
  EXPECT_DOUBLE_EQ(report.latency_p99_ns, 99000);
  EXPECT_DOUBLE_EQ(report.idle_found_pct(), 50);
  EXPECT_DOUBLE_EQ(report.probes_per_search(), 2);
  const std::string text = report.Text();
  EXPECT_THAT(text, HasSubstr("2.00 probes per search, chosen CPU idle 50.0%"));
  EXPECT_THAT(text, HasSubstr("90 by the policy (90.0%), 10 by the fallback"));
  EXPECT_THAT(text, HasSubstr("mean 50.5 us, p99 99.0 us"));
  nlohmann::json j = nlohmann::json::parse(report.Json());
  EXPECT_EQ(j["policy_placements"], 90);
  EXPECT_EQ(j["fallback_placements"], 10);
  EXPECT_EQ(j["latency_p99_ns"], 99000.0);
  EXPECT_EQ(j["idle_found_pct"], 50.0);
}

}  // namespace
}  // namespace schedsim::platform::host
