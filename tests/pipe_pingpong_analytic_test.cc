// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The analytic scenario of the simulation core: a two-task pipe ping-pong
// on skylake-e3-1240v5 whose simulated round trip must equal the sum of the
// modelled costs within 1%.
//
// One round trip is two identical half trips. In each, the task that was
// woken is switched in (context switch), returns from read() (pipe op),
// does `work` cycles, writes (pipe op), wakes the other task (wake-up cost
// plus one runqueue probe by the prev/target placement; no uclamp bucket
// update: no task sets a clamp, so since v5.9 they cost nothing, and
// without the static key only the idle target's uclamp_rq_inc() is on the
// path, the sleeper's uclamp_rq_dec() delaying only its own idle entry),
// and the other
// task's CPU, idle since it blocked, takes the IPI and leaves its idle
// state (physical exit latency) unless it was polling. The cache lines
// move between the two cores (docs/model.md, "Shared cache lines"): the
// read and the write each find the pipe's lines (kPipeOpLines = 4) on the
// other CPU, where the other task's last operation on that pipe left
// them, and the wake-up moves the wakee's task and runqueue lines from the
// CPU it ran on (one line from prev, two from target, both the other
// CPU).

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "sim/builtin_policies.h"
#include "sim/simulator.h"
#include "topology/presets.h"

namespace schedsim::sim {
namespace {

constexpr int64_t kWorkCycles = 35000;  // 10 us at 3.5 GHz

Workload PingPong() {
  Workload w;
  w.channels = {{"ping->pong", ChannelSpec::Kind::kPipe, 16},
                {"pong->ping", ChannelSpec::Kind::kPipe, 16}};
  w.metrics = {"round_trip"};
  ProgramBuilder ping("ping");
  ping.Loop(0)
      .Stamp()
      .Compute(Dist::Constant(kWorkCycles))
      .Send(0)
      .Recv(1)
      .Mark(0)
      .EndLoop();
  ProgramBuilder pong("pong");
  pong.Loop(0).Recv(0).Compute(Dist::Constant(kWorkCycles)).Send(1).EndLoop();
  w.programs = {*ping.Build(), *pong.Build()};
  TaskSpec a;
  a.name = "ping";
  a.program = 0;
  a.affinity = "0";
  TaskSpec b;
  b.name = "pong";
  b.program = 1;
  b.affinity = "1";
  w.tasks = {a, b};
  return w;
}

struct Result {
  double round_trip_ns;
  double expected_ns;
};

Result RunPingPong(int64_t pm_qos_latency_ns) {
  absl::StatusOr<topology::Topology> topo =
      topology::MakePreset("skylake-e3-1240v5");
  EXPECT_TRUE(topo.ok());
  SimConfig config;
  config.noise_scale = 0;  // exact: no run-to-run variability
  config.turbo = false;    // a fixed 3.5 GHz: the performance governor's pick
  config.pm_qos_latency_ns = pm_qos_latency_ns;
  PerformanceGovernor freq;
  FitIdleGovernor idle;
  PrevTargetPlacement place;
  absl::StatusOr<std::unique_ptr<Simulator>> sim =
      Simulator::Create(*topo, config, PingPong(), {&freq, &idle, &place}, 1);
  EXPECT_TRUE(sim.ok()) << sim.status();
  EXPECT_TRUE((*sim)->RunFor(Milliseconds(20)).ok());
  (*sim)->ResetStats();
  EXPECT_TRUE((*sim)->RunFor(Milliseconds(200)).ok());
  SimStats s = (*sim)->Stats();
  EXPECT_GT(s.metrics[0].count, 100u);

  // The state the fit governor picks: the deepest within the QoS limit
  // (no timers are pending, so every state's residency fits).
  int state = 0;
  for (int i = 0; i < static_cast<int>(topo->cstates().size()); ++i) {
    if (pm_qos_latency_ns < 0 ||
        topo->cstates()[i].exit_latency_ns <= pm_qos_latency_ns) {
      state = i;
    }
  }
  const topology::CState& cs = topo->cstates()[state];
  constexpr int kPipeOpLines = 4;  // sim/shared_objects.h
  const double line_ns = static_cast<double>(topo->LineTransferNs(0, 1));
  EXPECT_GT(line_ns, 0.0);
  double wake_side =
      cs.polling()
          ? 0.0
          : static_cast<double>(config.ipi_latency_ns + cs.physical_exit_ns);
  double half = static_cast<double>(config.context_switch_ns) +
                2.0 * static_cast<double>(config.pipe_op_ns) +
                kWorkCycles / 3.5 +  // ns at 3.5 GHz
                static_cast<double>(config.wakeup_cost_ns) +
                1.0 * static_cast<double>(config.probe_cost_ns) +
                (config.uclamp && !config.uclamp_static_key
                     ? 1.0 * config.uclamp_enqueue_cost_ns
                     : 0.0) +
                (2.0 * kPipeOpLines + 3.0) * line_ns + wake_side;
  return {s.metrics[0].latency_ns.mean(), 2 * half};
}

TEST(PipePingPongAnalyticTest, PollingRoundTripIsTheSumOfCosts) {
  Result r = RunPingPong(/*pm_qos_latency_ns=*/0);  // cpu_dma_latency = 0: POLL
  EXPECT_NEAR(r.round_trip_ns, r.expected_ns, 0.01 * r.expected_ns);
  EXPECT_NEAR(r.round_trip_ns, r.expected_ns, 1.0);  // in fact exact
}

TEST(PipePingPongAnalyticTest, DeepIdleRoundTripAddsIpiAndExitLatency) {
  Result r = RunPingPong(/*pm_qos_latency_ns=*/-1);  // no limit: C10
  EXPECT_NEAR(r.round_trip_ns, r.expected_ns, 0.01 * r.expected_ns);
  EXPECT_NEAR(r.round_trip_ns, r.expected_ns, 1.0);  // in fact exact
}

TEST(PipePingPongAnalyticTest, QosLimitBetweenStatesPicksC1E) {
  Result r = RunPingPong(/*pm_qos_latency_ns=*/10000);  // C1E: 10 us advertised
  EXPECT_NEAR(r.round_trip_ns, r.expected_ns, 0.01 * r.expected_ns);
  EXPECT_NEAR(r.round_trip_ns, r.expected_ns, 1.0);  // in fact exact
}

// Threads against processes (TaskSpec::mm): both tasks on CPU 0, so every
// switch goes from one to the other. Processes pay context_switch_ns per
// switch, threads of one mm that less mm_switch_ns (context_switch() calls
// switch_mm_irqs_off() only for another mm): the round trip, two switches,
// differs by exactly 2 x mm_switch_ns. Across two CPUs each CPU returns
// from idle to the task it ran last, whose mm is still loaded (lazy TLB),
// so even two processes with declared mms save it.
double RoundTripNs(const std::string& affinity_b, int mm_a, int mm_b,
                   uint64_t* avoided) {
  absl::StatusOr<topology::Topology> topo =
      topology::MakePreset("skylake-e3-1240v5");
  EXPECT_TRUE(topo.ok());
  SimConfig config;
  config.noise_scale = 0;
  config.turbo = false;
  config.pm_qos_latency_ns = 0;
  Workload w = PingPong();
  w.tasks[1].affinity = affinity_b;
  w.tasks[0].mm = mm_a;
  w.tasks[1].mm = mm_b;
  PerformanceGovernor freq;
  FitIdleGovernor idle;
  PrevTargetPlacement place;
  absl::StatusOr<std::unique_ptr<Simulator>> sim =
      Simulator::Create(*topo, config, w, {&freq, &idle, &place}, 1);
  EXPECT_TRUE(sim.ok()) << sim.status();
  EXPECT_TRUE((*sim)->RunFor(Milliseconds(20)).ok());
  (*sim)->ResetStats();
  EXPECT_TRUE((*sim)->RunFor(Milliseconds(200)).ok());
  SimStats s = (*sim)->Stats();
  EXPECT_GT(s.metrics[0].count, 100u);
  *avoided = s.mm_switches_avoided;
  return s.metrics[0].latency_ns.mean();
}

TEST(PipePingPongAnalyticTest, ThreadsSaveTheMmSwitchOnEachSwitch) {
  const SimConfig c;
  uint64_t avoided = 0;
  const double processes = RoundTripNs("0", -1, -1, &avoided);
  EXPECT_EQ(avoided, 0u);
  const double two_mms = RoundTripNs("0", 1, 2, &avoided);
  EXPECT_EQ(avoided, 0u);
  EXPECT_NEAR(two_mms, processes, 1.0);
  const double threads = RoundTripNs("0", 0, 0, &avoided);
  EXPECT_GT(avoided, 200u);
  EXPECT_NEAR(processes - threads, 2.0 * c.mm_switch_ns, 1.0);
  // Two CPUs: each returns from idle to the mm it left loaded.
  const double apart = RoundTripNs("1", -1, -1, &avoided);
  EXPECT_EQ(avoided, 0u);
  const double apart_mms = RoundTripNs("1", 1, 2, &avoided);
  EXPECT_GT(avoided, 200u);
  EXPECT_NEAR(apart - apart_mms, 2.0 * c.mm_switch_ns, 1.0);
}

}  // namespace
}  // namespace schedsim::sim
