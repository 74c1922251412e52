// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Frequency and package power without the engine: a small machine's
// frequency domains and package built by hand, the frequency a request
// gets (acpi-cpufreq's table and boost, drivers/cpufreq/acpi-cpufreq.c,
// Linux 6.1), HWP requests merged, the PMU's turbo and PL1 ceiling, and
// the energy and busy-time accounting.

#include "sim/frequency.h"

#include <cstdint>
#include <utility>

#include "gtest/gtest.h"
#include "platform/cpufreq.h"
#include "sim/config.h"
#include "sim/engine_state_testing.h"
#include "sim/sched_state.h"
#include "topology/topology.h"

namespace schedsim::sim {
namespace {

using state_testing::kMs;
using state_testing::TestState;

constexpr int64_t kGhz = 1000000;

// One package of 2 cores x 2 threads, one LLC; P-states 2.0 (P0), 1.6,
// 1.2 and 0.8 GHz, turbo to 4.0 GHz with one core active, 3.6 with two.
topology::FrequencySpec Spec() {
  topology::FrequencySpec f;
  f.min_khz = 800000;
  f.base_khz = 2 * kGhz;
  f.max_turbo_khz = 4 * kGhz;
  f.turbo_ceiling_khz = {4 * kGhz, 3600000};
  f.pstates_khz = {2 * kGhz, 1600000, 1200000, 800000};
  return f;
}

topology::Topology Machine() {
  topology::TopologyBuilder b("two-cores");
  for (int cpu = 0; cpu < 4; ++cpu) b.AddCpu(cpu, 0, 0, 0, cpu / 2);
  b.set_distances({{10}});
  b.set_frequency(Spec());
  topology::CState poll;
  poll.name = "POLL";
  poll.power_mw = 900;
  topology::CState c6;
  c6.name = "C6";
  c6.power_mw = 100;
  c6.exit_latency_ns = 100000;
  b.set_cstates({poll, c6});
  return *b.Build();
}

struct Rig {
  explicit Rig(SimConfig c = SimConfig())
      : topo(Machine()),
        domains(*topology::BuildSchedDomains(topo)),
        config(c),
        state(topo, domains, now_ns),
        freq(state, topo, config, now_ns, stats_start_ns) {
    freq.InitPackages(800000, 4 * kGhz);
    // A domain per core, at base, the policy over the whole range.
    state.fdoms_.resize(2);
    for (int d = 0; d < 2; ++d) {
      FreqDomainState& fd = state.fdoms_[d];
      fd.cpus = topo.cores()[d];
      fd.first_cpu = fd.cpus.First();
      fd.spec = &topo.frequency();
      fd.max_khz = 4 * kGhz;
      fd.policy_min_khz = 800000;
      fd.policy_max_khz = 4 * kGhz;
      fd.ceiling_khz = 4 * kGhz;
      fd.cur_khz = 2 * kGhz;
      fd.requested_khz = 2 * kGhz;
      fd.active_power_mw = 5000;
      fd.hwp_req.assign(2, platform::HwpRequest());
      for (int cpu = fd.cpus.First(); cpu >= 0; cpu = fd.cpus.Next(cpu)) {
        state.cpus_[cpu].domain = d;
        state.cpus_[cpu].energy_since_ns = now_ns;
      }
    }
  }

  topology::Topology topo;
  topology::SchedDomains domains;
  SimConfig config;
  int64_t now_ns = 1000 * kMs;
  int64_t stats_start_ns = 0;
  TestState state;
  Frequency freq;
};

TEST(FrequencyTest, ARequestGetsThePolicyRangeBoostAboveP0AndTheCeiling) {
  Rig r;
  FreqDomainState& d = r.state.fdoms_[0];
  EXPECT_EQ(r.freq.EffectiveKhz(d, 1600000), 1600000);
  EXPECT_EQ(r.freq.EffectiveKhz(d, 100000), 800000);  // policy minimum
  // acpi-cpufreq with boost: P0 lets the hardware run up to the maximum,
  // under the turbo ceiling.
  EXPECT_EQ(r.freq.EffectiveKhz(d, 2 * kGhz), 4 * kGhz);
  d.ceiling_khz = 3 * kGhz;
  EXPECT_EQ(r.freq.EffectiveKhz(d, 2 * kGhz), 3 * kGhz);
  d.ceiling_khz = 500000;  // below the policy minimum: the minimum
  EXPECT_EQ(r.freq.EffectiveKhz(d, 1600000), 800000);
  SimConfig no_turbo;
  no_turbo.turbo = false;
  Rig base(no_turbo);
  EXPECT_EQ(base.freq.EffectiveKhz(base.state.fdoms_[0], 2 * kGhz), 2 * kGhz);
}

TEST(FrequencyTest, ATargetResolvesToTheLowestEntryAtOrAboveIt) {
  // CPUFREQ_RELATION_L over acpi-cpufreq's table.
  Rig r;
  FreqDomainState& d = r.state.fdoms_[1];
  EXPECT_EQ(r.freq.RequestKhz(1, 1500000), 1600000);
  EXPECT_EQ(d.requested_khz, 1600000);
  EXPECT_EQ(d.pending_khz, 1600000);
  EXPECT_EQ(r.freq.RequestKhz(1, 3 * kGhz), 4 * kGhz);  // boost range
  EXPECT_EQ(d.requested_khz, 3 * kGhz);
  EXPECT_EQ(d.pending_khz, 4 * kGhz);
}

TEST(FrequencyTest, HwpRequestsMergeToTheHighestLimitsAndLowestEpp) {
  FreqDomainState d;
  platform::HwpRequest a, b;
  a.min_perf = 10;
  a.max_perf = 30;
  a.desired_perf = 0;
  a.epp = 128;
  b.min_perf = 20;
  b.max_perf = 25;
  b.desired_perf = 15;
  b.epp = 64;
  d.hwp_req = {a, b};
  const platform::HwpRequest m = Frequency::MergedHwpRequest(d);
  EXPECT_EQ(m.min_perf, 20);
  EXPECT_EQ(m.max_perf, 30);
  EXPECT_EQ(m.desired_perf, 15);
  EXPECT_EQ(m.epp, 64);
}

TEST(FrequencyTest, EnergyIsChargedByStateAndCountersRunInC0) {
  Rig r;
  Cpu& busy = r.state.cpus_[0];
  busy.mode = CpuMode::kBusy;
  Cpu& idle = r.state.cpus_[2];
  idle.mode = CpuMode::kIdle;
  idle.idle_state = 1;  // C6
  r.now_ns += 10 * kMs;
  r.freq.AccountEnergy(0);
  r.freq.AccountEnergy(2);
  // mW x ns x 1e-6 = uJ.
  EXPECT_DOUBLE_EQ(busy.energy_uj, 5000.0 * 10 * kMs * 1e-6);
  EXPECT_DOUBLE_EQ(idle.energy_uj, 100.0 * 10 * kMs * 1e-6);
  // APERF at the current, MPERF at the base frequency, only in C0.
  EXPECT_DOUBLE_EQ(busy.aperf, 2.0 * kGhz * 10 * kMs * 1e-6);
  EXPECT_DOUBLE_EQ(busy.mperf, 2.0 * kGhz * 10 * kMs * 1e-6);
  EXPECT_EQ(busy.c0_total_ns, 10 * kMs);
  EXPECT_EQ(idle.aperf, 0);
  EXPECT_EQ(idle.c0_total_ns, 0);
  // Energy before the statistics began is not counted (the counters are).
  r.stats_start_ns = r.now_ns + 5 * kMs;
  r.now_ns += 10 * kMs;
  r.freq.AccountEnergy(0);
  EXPECT_DOUBLE_EQ(busy.energy_uj, 5000.0 * 15 * kMs * 1e-6);
  EXPECT_EQ(busy.c0_total_ns, 20 * kMs);
}

TEST(FrequencyTest, BusyTimeIsKeptByFrequency) {
  Rig r;
  r.state.cpus_[1].mode = CpuMode::kBusy;
  r.freq.AccountBusyStart(1);
  r.now_ns += 3 * kMs;
  r.freq.AccountBusyEnd(1);
  r.state.fdoms_[0].cur_khz = 4 * kGhz;
  r.freq.AccountBusyStart(1);
  r.now_ns += 1 * kMs;
  r.freq.AccountBusyEnd(1);
  r.state.fdoms_[0].cur_khz = 2 * kGhz;
  r.freq.AccountBusyStart(1);
  r.now_ns += 2 * kMs;
  r.freq.AccountBusyEnd(1);
  const CpuStats& s = r.state.cpus_[1].stats;
  EXPECT_EQ(s.busy_ns, 6 * kMs);
  ASSERT_EQ(s.busy_ns_at_khz.size(), 2u);
  EXPECT_EQ(s.busy_ns_at_khz[0].first, 2 * kGhz);
  EXPECT_EQ(s.busy_ns_at_khz[0].second, 5 * kMs);
  EXPECT_EQ(s.busy_ns_at_khz[1].second, 1 * kMs);
}

TEST(FrequencyTest, ThePmuCeilingFollowsTheActiveCores) {
  // The turbo ceiling by active cores (turbo_ceiling_khz), then the
  // frequency the domain's request gets under it.
  Rig r;
  EXPECT_TRUE(r.freq.PackageBusyChanged(0, true));   // the package wakes
  EXPECT_FALSE(r.freq.PackageBusyChanged(1, true));  // same core
  EXPECT_EQ(r.state.packages_[0].active_cores, 1);
  r.state.fdoms_[0].requested_khz = 2 * kGhz;  // P0: boost
  EXPECT_EQ(r.freq.PmuDomainKhz(0, 4 * kMs, /*pending=*/false), 4 * kGhz);
  EXPECT_EQ(r.freq.PackageBusyChanged(2, true), false);
  EXPECT_EQ(r.state.packages_[0].active_cores, 2);
  EXPECT_EQ(r.freq.PmuDomainKhz(0, 4 * kMs, /*pending=*/false), 3600000);
  EXPECT_EQ(r.state.fdoms_[0].ceiling_khz, 3600000);
  // A transition under way keeps its frequency; the ceiling still moves.
  r.freq.PackageBusyChanged(2, false);
  EXPECT_EQ(r.freq.PmuDomainKhz(0, 4 * kMs, /*pending=*/true), -1);
  EXPECT_EQ(r.state.fdoms_[0].ceiling_khz, 4 * kGhz);
  // The last busy thread of a core leaves it inactive.
  r.freq.PackageBusyChanged(0, false);
  r.freq.PackageBusyChanged(1, false);
  EXPECT_EQ(r.state.packages_[0].active_cores, 0);
  EXPECT_EQ(r.state.packages_[0].busy_cpus, 0);
}

}  // namespace
}  // namespace schedsim::sim
