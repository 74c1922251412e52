// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The idle path without the engine, on a small machine's state built by
// hand: the physical exit of a core C-state with an SMT sibling busy or
// idle (kernel/sched/idle.c cpuidle_idle_call(), Linux 6.1), the counters
// of drivers/cpuidle/cpuidle.c cpuidle_enter_state() against the states'
// target residencies, the sleep length the governor sees
// (tick_nohz_get_sleep_length()), the POLL and latency limits, SIS_PROP's
// avg_idle, and a KVM guest's halt cost and halt-poll window
// (virt/kvm/kvm_main.c kvm_vcpu_halt(), v6.1).

#include "sim/idle_path.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <utility>

#include "gtest/gtest.h"
#include "platform/cpuidle.h"
#include "sim/config.h"
#include "sim/engine_state_testing.h"
#include "sim/sched_state.h"
#include "sim/stats.h"
#include "topology/sched_domains.h"
#include "topology/topology.h"

namespace schedsim::sim {
namespace {

using state_testing::kMs;
using state_testing::TestState;
using topology::CState;

constexpr int64_t kUs = 1000;
constexpr int64_t kTickNs = 4 * kMs;  // HZ=250

CState State(const char* name, int64_t target_ns, int64_t exit_ns,
             int64_t entry_ns, uint32_t flags, bool disabled = false) {
  CState s;
  s.name = name;
  s.target_residency_ns = target_ns;
  s.exit_latency_ns = exit_ns;
  s.physical_exit_ns = exit_ns;
  s.physical_entry_ns = entry_ns;
  s.flags = flags;
  s.disabled = disabled;
  return s;
}

enum { kPoll = 0, kC1 = 1, kC6 = 2 };

// Two cores of two SMT threads (CPUs 0-1 and 2-3), one LLC: POLL, C1
// (target 2 us, exit 1 us) and the core state C6 (target 300 us, exit
// 50 us, entry 20 us), disabled when `c6_disabled`.
topology::Topology Machine(bool c6_disabled = false) {
  topology::TopologyBuilder b("two-cores-smt");
  for (int cpu = 0; cpu < 4; ++cpu) b.AddCpu(cpu, 0, 0, 0, cpu / 2);
  b.set_distances({{10}});
  b.set_cstates({State("POLL", 0, 0, 0, CState::kPolling),
                 State("C1", 2 * kUs, 1 * kUs, 0, 0),
                 State("C6", 300 * kUs, 50 * kUs, 20 * kUs, CState::kCoreState,
                       c6_disabled)});
  return *b.Build();
}

// A KVM guest of two vCPUs with cpuidle-haltpoll's states (POLL, the
// halt); the host idles in C1 (target 2 us, exit 1 us) or C6 (target
// 600 us, exit 80 us, entry 30 us).
topology::Topology Guest() {
  topology::TopologyBuilder b("guest");
  for (int cpu = 0; cpu < 2; ++cpu) b.AddCpu(cpu, 0, 0, 0, cpu);
  b.set_distances({{10}});
  b.set_cstates({State("POLL", 0, 0, 0, CState::kPolling),
                 State("haltpoll idle", 1 * kUs, 1 * kUs, 0, 0)});
  topology::GuestSpec g;
  g.host = "host";
  g.host_cpus = {0, 1};
  g.host_cstates = {State("C1", 2 * kUs, 1 * kUs, 0, 0),
                    State("C6", 600 * kUs, 80 * kUs, 30 * kUs, 0)};
  b.set_guest(std::move(g));
  return *b.Build();
}

struct Rig {
  explicit Rig(SimConfig c = SimConfig(), topology::Topology t = Machine())
      : topo(std::move(t)),
        domains(*topology::BuildSchedDomains(topo)),
        config(c),
        state(topo, domains, 0),
        idle(state, topo, config, now_ns, stats_start_ns) {
    idle.Init(kTickNs);
    // Every CPU awake, outside any idle state.
    for (int cpu = 0; cpu < topo.num_cpus(); ++cpu) {
      Cpu& x = state.cpus_[cpu];
      x.stats.states.resize(topo.cstates().size());
      x.mode = CpuMode::kAwake;
      --state.llcs_[x.llc].nr_idle;
      state.RefreshProbe(cpu);
    }
  }
  Cpu& cpu(int id) { return state.cpus_[id]; }
  // `cpu` idles in `s` from now for `ns`, then leaves (returns the state).
  // `exit_ns`: the exit that follows (in the measured period).
  int Idle(int cpu, int s, int64_t ns, bool by_poll = false,
           int64_t exit_ns = 0) {
    idle.Enter(cpu, s, 0);
    now_ns += ns;
    return idle.Leave(cpu, by_poll, exit_ns);
  }

  topology::Topology topo;
  topology::SchedDomains domains;
  SimConfig config;
  int64_t now_ns = 0;
  int64_t stats_start_ns = 0;
  TestState state;
  IdlePath idle;
};

TEST(IdlePathTest, CoreStateExitNeedsEverySmtSiblingIdle) {
  Rig r;
  r.now_ns = 10 * kMs;
  r.cpu(1).mode = CpuMode::kBusy;  // CPU 0's sibling runs a task
  r.idle.Enter(0, kC6, 0);
  // The core cannot power down: CPU 0 sits in C1, the deepest state below.
  EXPECT_EQ(r.idle.PhysicalExitNs(0), 1 * kUs);
  // The sibling idle in a thread state (C1): still C1.
  r.cpu(1).mode = CpuMode::kAwake;
  r.idle.Enter(1, kC1, 0);
  EXPECT_EQ(r.idle.PhysicalExitNs(0), 1 * kUs);
  r.idle.Leave(1, false, 0);
  // The sibling in C6 as well: the core state's exit.
  r.idle.Enter(1, kC6, 0);
  r.now_ns += 1 * kMs;
  EXPECT_EQ(r.idle.PhysicalExitNs(0), 50 * kUs);
  EXPECT_EQ(r.idle.PhysicalExitNs(1), 50 * kUs);
  // The other core's CPUs do not matter; an awake CPU has no exit.
  r.cpu(2).mode = CpuMode::kBusy;
  EXPECT_EQ(r.idle.PhysicalExitNs(0), 50 * kUs);
  EXPECT_EQ(r.idle.PhysicalExitNs(3), 0);
}

TEST(IdlePathTest, WokenDuringTheEntryFinishesEnteringFirst) {
  Rig r;
  r.now_ns = 1 * kMs;
  r.idle.Enter(1, kC6, 0);
  // 3 us of idle-entry work first: C6's 20 us entry starts after it.
  r.idle.Enter(0, kC6, 3 * kUs);
  EXPECT_EQ(r.cpu(0).idle_enter_ns, 1 * kMs + 3 * kUs);
  r.now_ns += 5 * kUs;
  // 50 us exit + (3 + 20 - 5) us of entry left.
  EXPECT_EQ(r.idle.PhysicalExitNs(0), 50 * kUs + 18 * kUs);
  r.now_ns += 1 * kMs;
  EXPECT_EQ(r.idle.PhysicalExitNs(0), 50 * kUs);
}

TEST(IdlePathTest, EnterAndLeaveKeepTheStateAndTheCounters) {
  Rig r;
  r.now_ns = 1 * kMs;
  r.idle.Enter(2, kPoll, 0);
  Cpu& c = r.cpu(2);
  EXPECT_EQ(c.mode, CpuMode::kIdle);
  EXPECT_TRUE(c.polling);
  EXPECT_TRUE(r.state.available_idle(2));
  EXPECT_EQ(r.state.llcs_[0].nr_idle, 1);
  EXPECT_EQ(c.stats.states[kPoll].usage, 1u);
  r.now_ns += 7 * kUs;
  EXPECT_EQ(r.idle.Leave(2, true, 0), kPoll);
  EXPECT_EQ(c.mode, CpuMode::kAwake);
  EXPECT_FALSE(c.polling);
  EXPECT_EQ(c.idle_state, -1);
  EXPECT_EQ(c.last_state, kPoll);
  EXPECT_EQ(c.last_residency_ns, 7 * kUs);
  EXPECT_EQ(r.state.llcs_[0].nr_idle, 0);
  EXPECT_EQ(c.stats.states[kPoll].time_ns, 7 * kUs);
  EXPECT_EQ(c.stats.idle_ns, 7 * kUs);
  // Time before the statistics began is not counted; the residency is.
  r.idle.Enter(2, kC1, 0);
  r.now_ns += 10 * kUs;
  r.stats_start_ns = r.now_ns;
  r.now_ns += 4 * kUs;
  r.idle.Leave(2, false, 0);
  EXPECT_EQ(c.stats.states[kC1].time_ns, 4 * kUs);
  EXPECT_EQ(c.stats.idle_ns, 11 * kUs);
  EXPECT_EQ(c.last_residency_ns, 14 * kUs);
}

TEST(IdlePathTest, AboveAndBelowAgainstTheTargetResidencies) {
  Rig r;
  const platform::IdleStateStats& c1 = r.cpu(0).stats.states[kC1];
  r.Idle(0, kC1, 1 * kUs);  // shorter than C1's 2 us: too deep
  EXPECT_EQ(c1.above, 1u);
  EXPECT_EQ(c1.below, 0u);
  r.Idle(0, kC1, 100 * kUs);  // C1 right: C6 needs 300 us
  EXPECT_EQ(c1.below, 0u);
  r.Idle(0, kC1, 500 * kUs);  // long enough for C6: too shallow
  EXPECT_EQ(c1.above, 1u);
  EXPECT_EQ(c1.below, 1u);
  EXPECT_EQ(c1.usage, 3u);    // counted at entry
  r.Idle(0, kC6, 100 * kUs);  // the deepest state: never below
  r.Idle(0, kC6, 10 * kMs);
  EXPECT_EQ(r.cpu(0).stats.states[kC6].above, 1u);
  EXPECT_EQ(r.cpu(0).stats.states[kC6].below, 0u);

  // A disabled next state does not count: no enabled state beyond C1.
  Rig d(SimConfig(), Machine(/*c6_disabled=*/true));
  d.Idle(0, kC1, 500 * kUs);
  EXPECT_EQ(d.cpu(0).stats.states[kC1].below, 0u);
  EXPECT_EQ(d.cpu(0).stats.states[kC1].above, 0u);
}

// cpuidle_enter_state() (drivers/cpuidle/cpuidle.c, v6.1) measures from
// before the enter callback to after it returned: the exit is in the
// period the governors read and the counters judge; the state's time is
// the time in it.
TEST(IdlePathTest, TheMeasuredPeriodIncludesTheExit) {
  Rig r;
  Cpu& c = r.cpu(0);
  r.Idle(0, kC6, 260 * kUs, false, 50 * kUs);
  EXPECT_EQ(c.last_residency_ns, 310 * kUs);
  EXPECT_EQ(c.stats.states[kC6].time_ns, 260 * kUs);
  EXPECT_EQ(c.stats.idle_ns, 260 * kUs);
  // 310 us reaches C6's 300 us target: not too deep. Without the exit it
  // would have been.
  EXPECT_EQ(c.stats.states[kC6].above, 0u);
  r.Idle(0, kC6, 240 * kUs, false, 50 * kUs);
  EXPECT_EQ(c.stats.states[kC6].above, 1u);
}

TEST(IdlePathTest, BelowSubtractsTheExitLatencyAboveNeedsAShallowerState) {
  // below: the period less C1's advertised exit (1 us) must reach C6's
  // target (300 us).
  Rig r;
  const platform::IdleStateStats& c1 = r.cpu(0).stats.states[kC1];
  r.Idle(0, kC1, 300 * kUs);  // 299 us: not below
  EXPECT_EQ(c1.below, 0u);
  r.Idle(0, kC1, 300 * kUs, false, 1 * kUs);  // 301 - 1 us: below
  EXPECT_EQ(c1.below, 1u);

  // above: counted only when an enabled shallower state exists.
  topology::TopologyBuilder b("no-poll");
  for (int cpu = 0; cpu < 2; ++cpu) b.AddCpu(cpu, 0, 0, 0, cpu);
  b.set_distances({{10}});
  b.set_cstates({State("POLL", 0, 0, 0, CState::kPolling, /*disabled=*/true),
                 State("C1", 2 * kUs, 1 * kUs, 0, 0),
                 State("C6", 300 * kUs, 50 * kUs, 20 * kUs, 0)});
  Rig n(SimConfig(), *b.Build());
  n.Idle(0, kC1, 1 * kUs);  // too short for C1, but POLL is disabled
  EXPECT_EQ(n.cpu(0).stats.states[kC1].above, 0u);
  n.Idle(0, kC6, 100 * kUs);  // too short for C6, C1 enabled
  EXPECT_EQ(n.cpu(0).stats.states[kC6].above, 1u);
}

TEST(IdlePathTest, SleepLengthToTheNextTimerAndTick) {
  Rig r;
  r.now_ns = 9 * kMs + 500 * kUs;
  Cpu& c = r.cpu(1);
  int64_t delta_tick = -1;
  EXPECT_EQ(r.idle.SleepLengthNs(1, &delta_tick), IdlePath::kNoTimerSleepNs);
  EXPECT_EQ(delta_tick, 12 * kMs - r.now_ns);  // the tick at 12 ms
  for (int64_t t : {30 * kMs, 11 * kMs, 20 * kMs}) {
    c.timers.push_back(t);
    std::push_heap(c.timers.begin(), c.timers.end(), std::greater<int64_t>());
  }
  EXPECT_EQ(r.idle.SleepLengthNs(1, nullptr), 1500 * kUs);
  // A timer already due: 0.
  r.now_ns = 11 * kMs + 1;
  EXPECT_EQ(r.idle.SleepLengthNs(1, &delta_tick), 0);
  EXPECT_EQ(delta_tick, kMs - 1);
  // The governor's view reads the same.
  std::unique_ptr<platform::IdleDevice> dev = r.idle.MakeDevice(1);
  r.now_ns = 10 * kMs;
  EXPECT_EQ(dev->sleep_length_ns(&delta_tick), 1 * kMs);
  EXPECT_EQ(delta_tick, 2 * kMs);
  EXPECT_EQ(dev->tick_period_ns(), kTickNs);
}

TEST(IdlePathTest, PollAndLatencyLimits) {
  SimConfig config;
  config.pm_qos_latency_ns = 40 * kUs;
  Rig r(config);
  std::unique_ptr<platform::IdleDevice> dev = r.idle.MakeDevice(0);
  EXPECT_EQ(dev->latency_limit_ns(), 40 * kUs);
  const int64_t core = r.idle.PollLimitNs(0);
  EXPECT_GT(core, 0);
  dev->set_poll_limit_ns(30 * kUs);  // haltpoll's window
  EXPECT_EQ(r.idle.PollLimitNs(0), 30 * kUs);
  EXPECT_EQ(r.idle.PollLimitNs(1), core);
  dev->set_poll_limit_ns(-5);
  EXPECT_EQ(r.idle.PollLimitNs(0), core);
  Rig none;
  EXPECT_EQ(none.idle.LatencyLimitNs(0), std::numeric_limits<int64_t>::max());
}

TEST(IdlePathTest, AvgIdleAtTheIdlePeriodsEnd) {
  Rig r;
  Cpu& c = r.cpu(0);
  c.idle_stamp_ns = 1 * kMs;
  r.now_ns = 1 * kMs + 200 * kUs;
  r.idle.NoteIdleEnd(0);
  // 1 ms + (200 us - 1 ms) / 8.
  EXPECT_EQ(c.avg_idle_ns, 900 * kUs);
  EXPECT_EQ(c.wake_avg_idle_ns, 450 * kUs);
  EXPECT_EQ(c.idle_stamp_ns, 0);
  r.idle.NoteIdleEnd(0);  // no period open: unchanged
  EXPECT_EQ(c.avg_idle_ns, 900 * kUs);
  // 2 ms: 1.0375 ms, clamped at 2 * sched_migration_cost (1 ms).
  c.idle_stamp_ns = r.now_ns;
  r.now_ns += 2 * kMs;
  r.idle.NoteIdleEnd(0);
  EXPECT_EQ(c.avg_idle_ns, 2 * r.config.sched_migration_cost_ns);
  EXPECT_EQ(c.wake_stamp_jiffies, r.now_ns / kTickNs);
}

TEST(IdlePathTest, OpenIdlePeriodClosedForTheStatistics) {
  Rig r;
  r.now_ns = 1 * kMs;
  r.idle.Enter(3, kC1, 0);
  r.stats_start_ns = 2 * kMs;
  r.now_ns = 5 * kMs;
  CpuStats cs = r.cpu(3).stats;
  r.idle.CloseOpenIdle(3, cs);
  EXPECT_EQ(cs.idle_ns, 3 * kMs);
  EXPECT_EQ(cs.states[kC1].time_ns, 3 * kMs);
  CpuStats awake = r.cpu(2).stats;
  r.idle.CloseOpenIdle(2, awake);
  EXPECT_EQ(awake.idle_ns, 0);
}

SimConfig GuestConfig(int64_t shrink) {
  SimConfig c;
  c.kvm_poll_control = false;  // the host polls whatever the guest does
  c.kvm_halt_poll_ns = 200 * kUs;
  c.kvm_halt_poll_ns_grow = 2;
  c.kvm_halt_poll_ns_grow_start = 10 * kUs;
  c.kvm_halt_poll_ns_shrink = shrink;
  return c;
}

constexpr int kHalt = topology::kGuestHaltState;

TEST(IdlePathTest, GuestHaltCostBeforeAndAfterTheWindow) {
  Rig r(GuestConfig(0), Guest());
  const SimConfig& k = r.config;
  const int64_t host_wake = k.wakeup_cost_ns + k.context_switch_ns;
  ASSERT_TRUE(r.idle.host_polls());
  EXPECT_EQ(r.idle.kvm_window_ns(0), 0);
  // No window yet: the exit, the host's C1 (5 us reach 2 us, not 600),
  // the host's wake-up of the vCPU thread.
  r.idle.Enter(0, kHalt, 0);
  r.now_ns += 5 * kUs;
  EXPECT_EQ(r.idle.PhysicalExitNs(0), k.kvm_hlt_exit_ns + 1 * kUs + host_wake);
  r.idle.Leave(0, false, 0);
  EXPECT_EQ(r.idle.kvm_window_ns(0), 10 * kUs);  // grown to grow_start
  // Within the window the host polled: the exit and re-entry only.
  r.idle.Enter(0, kHalt, 0);
  r.now_ns += 8 * kUs;
  EXPECT_EQ(r.idle.PhysicalExitNs(0), k.kvm_hlt_exit_ns);
  r.idle.Leave(0, false, 0);
  EXPECT_EQ(r.idle.kvm_window_ns(0), 10 * kUs);  // a success: unchanged
  // Past the window, the host CPU idled for the rest: 1 ms - 10 us reaches
  // C6, whose entry is done.
  r.idle.Enter(0, kHalt, 0);
  r.now_ns += 1 * kMs;
  EXPECT_EQ(r.idle.PhysicalExitNs(0), k.kvm_hlt_exit_ns + 80 * kUs + host_wake);
  r.idle.Leave(0, false, 0);
  const GuestTotals& g = r.idle.guest_totals();
  EXPECT_EQ(g.halt_exits, 3u);
  EXPECT_EQ(g.host_attempted_polls, 2u);
  EXPECT_EQ(g.host_successful_polls, 1u);
  EXPECT_EQ(g.host_wakeups, 2u);
  EXPECT_EQ(g.halt_wake_ns,
            3 * k.kvm_hlt_exit_ns + 1 * kUs + 80 * kUs + 2 * host_wake);
  // The other vCPU has its own window.
  EXPECT_EQ(r.idle.kvm_window_ns(1), 0);
  // A guest POLL is no halt: counted as a poll, no exit cost.
  r.idle.Enter(1, kPoll, 0);
  r.now_ns += 3 * kUs;
  EXPECT_EQ(r.idle.PhysicalExitNs(1), 0);
  r.idle.Leave(1, true, 0);
  EXPECT_EQ(g.polls, 1u);
  EXPECT_EQ(g.poll_successes, 1u);
  EXPECT_EQ(g.halt_exits, 3u);
  r.idle.ResetStats();
  EXPECT_EQ(g.halt_exits, 0u);
}

TEST(IdlePathTest, HaltPollWindowGrowsAndShrinks) {
  Rig r(GuestConfig(/*shrink=*/2), Guest());
  // Halts longer than the window but shorter than halt_poll_ns: x2 from
  // grow_start.
  r.Idle(0, kHalt, 5 * kUs);
  EXPECT_EQ(r.idle.kvm_window_ns(0), 10 * kUs);
  r.Idle(0, kHalt, 15 * kUs);
  EXPECT_EQ(r.idle.kvm_window_ns(0), 20 * kUs);
  r.Idle(0, kHalt, 150 * kUs);
  EXPECT_EQ(r.idle.kvm_window_ns(0), 40 * kUs);
  r.Idle(0, kHalt, 30 * kUs);  // within: unchanged
  EXPECT_EQ(r.idle.kvm_window_ns(0), 40 * kUs);
  for (int i = 0; i < 3; ++i) r.Idle(0, kHalt, 190 * kUs);
  EXPECT_EQ(r.idle.kvm_window_ns(0), 200 * kUs);  // capped at halt_poll_ns
  // Halts longer than halt_poll_ns shrink it: / 2, to 0 below grow_start.
  r.Idle(0, kHalt, 1 * kMs);
  EXPECT_EQ(r.idle.kvm_window_ns(0), 100 * kUs);
  r.Idle(0, kHalt, 1 * kMs);
  r.Idle(0, kHalt, 1 * kMs);
  r.Idle(0, kHalt, 1 * kMs);
  EXPECT_EQ(r.idle.kvm_window_ns(0), 12500);
  r.Idle(0, kHalt, 1 * kMs);
  EXPECT_EQ(r.idle.kvm_window_ns(0), 0);

  // shrink 0 (v6.1's default): one long halt resets it.
  Rig z(GuestConfig(0), Guest());
  z.Idle(0, kHalt, 5 * kUs);
  z.Idle(0, kHalt, 15 * kUs);
  EXPECT_EQ(z.idle.kvm_window_ns(0), 20 * kUs);
  z.Idle(0, kHalt, 1 * kMs);
  EXPECT_EQ(z.idle.kvm_window_ns(0), 0);
}

TEST(IdlePathTest, GuestWithoutHostPollingAlwaysPaysTheWakeUp) {
  SimConfig c = GuestConfig(0);
  c.kvm_poll_control = true;  // the haltpoll driver turns host polling off
  Rig r(c, Guest());
  EXPECT_FALSE(r.idle.host_polls());
  const int64_t host_wake = c.wakeup_cost_ns + c.context_switch_ns;
  for (int i = 0; i < 3; ++i) {
    r.idle.Enter(0, kHalt, 0);
    r.now_ns += 5 * kUs;
    EXPECT_EQ(r.idle.PhysicalExitNs(0),
              c.kvm_hlt_exit_ns + 1 * kUs + host_wake);
    r.idle.Leave(0, false, 0);
  }
  EXPECT_EQ(r.idle.kvm_window_ns(0), 0);
  EXPECT_EQ(r.idle.guest_totals().host_wakeups, 3u);
  EXPECT_EQ(r.idle.guest_totals().host_attempted_polls, 0u);
}

}  // namespace
}  // namespace schedsim::sim
