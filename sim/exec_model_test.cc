// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The execution model's arithmetic without the engine: a CPU's rate (the
// frequency, the work per cycle, the SMT factor), a domain's ns per cycle,
// a phase settled by the time elapsed, and a phase's time with its memo.

#include "sim/exec_model.h"

#include <cstdint>

#include "gtest/gtest.h"
#include "sim/config.h"
#include "sim/freq_state.h"
#include "sim/sched_state.h"

namespace schedsim::sim {
namespace {

SimConfig Smt(int pct) {
  SimConfig c;
  c.smt_factor_pct = pct;
  return c;
}

TEST(ExecModelTest, RateIsFrequencyTimesWorkPerCycleTimesTheSmtFactor) {
  const SimConfig config = Smt(60);
  ExecModel m(config);
  EXPECT_DOUBLE_EQ(m.Rate(2000000, 1.0, false), 2.0);  // 2 GHz: 2 per ns
  EXPECT_DOUBLE_EQ(m.Rate(2000000, 1.0, true), 1.2);
  EXPECT_DOUBLE_EQ(m.Rate(2000000, 0.5, false), 1.0);  // a smaller CPU
  EXPECT_DOUBLE_EQ(m.Rate(2000000, 0.5, true), 0.6);
  EXPECT_EQ(m.Rate(0, 1.0, false), 0.0);
  EXPECT_EQ(ExecModel::NsPerCycle(0), 0.0);  // executes nothing
  EXPECT_EQ(ExecModel::NsPerCycle(2.0), 0.5);
}

TEST(ExecModelTest, SetCurKhzCachesExactlyWhatRateGives) {
  const SimConfig config = Smt(70);
  ExecModel m(config);
  FreqDomainState d;
  d.work_per_cycle = 0.73;
  for (int64_t khz : {800000, 1234567, 3900000, 0}) {
    m.SetCurKhz(d, khz);
    EXPECT_EQ(d.cur_khz, khz);
    // Bit for bit: the engine asserts Cpu::ns_per_cycle against it.
    EXPECT_EQ(d.ns_per_cycle[0],
              ExecModel::NsPerCycle(m.Rate(khz, 0.73, false)));
    EXPECT_EQ(d.ns_per_cycle[1],
              ExecModel::NsPerCycle(m.Rate(khz, 0.73, true)));
  }
  m.SetCurKhz(d, 1000000);
  EXPECT_DOUBLE_EQ(d.ns_per_cycle[0], 1 / 0.73);
  EXPECT_DOUBLE_EQ(d.ns_per_cycle[1], 1 / (0.73 * 0.7));
}

TEST(ExecModelTest, SettleShrinksCyclesAndStallInProportion) {
  Task t;
  t.rem_cycles = 1000;
  t.rem_stall_ns = 1000;
  // At 2 ns a cycle: 3000 ns left; a third elapsed keeps two thirds.
  ExecModel::Settle(t, 1000, 2.0);
  EXPECT_EQ(t.rem_cycles, 667);  // 666.67 rounded
  EXPECT_EQ(t.rem_stall_ns, 667);
  // Halves round away from zero.
  t.rem_cycles = 1;
  t.rem_stall_ns = 1;
  ExecModel::Settle(t, 1, 1.0);
  EXPECT_EQ(t.rem_cycles, 1);
  EXPECT_EQ(t.rem_stall_ns, 1);
  // At 0 ns a cycle (a stopped CPU) only the stall progresses.
  t.rem_cycles = 500;
  t.rem_stall_ns = 400;
  ExecModel::Settle(t, 100, 0.0);
  EXPECT_EQ(t.rem_cycles, 375);
  EXPECT_EQ(t.rem_stall_ns, 300);
  // Once the time covers what is left, nothing is.
  ExecModel::Settle(t, 300, 0.0);
  EXPECT_EQ(t.rem_cycles, 0);
  EXPECT_EQ(t.rem_stall_ns, 0);
  t.rem_cycles = 10;
  ExecModel::Settle(t, 1000, 1.0);
  EXPECT_EQ(t.rem_cycles, 0);
}

TEST(ExecModelTest, PhaseNsRoundsUpAndIsMemoisedPerCpuByCyclesAndRate) {
  const SimConfig config;
  ExecModel m(config);
  m.Init(2);
  EXPECT_EQ(m.PhaseNs(0, 3, 0.5), 2);  // 1.5 rounded up
  EXPECT_EQ(m.PhaseNs(1, 4, 0.5), 2);
  EXPECT_EQ(m.PhaseNs(0, 3, 0.5), 2);   // the memo
  EXPECT_EQ(m.PhaseNs(0, 3, 0.25), 1);  // same cycles, new rate
  EXPECT_EQ(m.PhaseNs(0, 5, 0.25), 2);  // new cycles, same rate
  EXPECT_EQ(m.PhaseNs(1, 4, 0.5), 2);   // CPU 1's own
  EXPECT_EQ(m.PhaseNs(1, 4, 2.5), 10);
  EXPECT_EQ(m.PhaseNs(1, 0, 2.5), 0);
  EXPECT_EQ(m.PhaseNs(0, 1000000007, 1.0), 1000000007);
  m.Init(2);  // forgotten
  EXPECT_EQ(m.PhaseNs(0, 3, 0.5), 2);
}

}  // namespace
}  // namespace schedsim::sim
