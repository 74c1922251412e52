// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// A KVM guest ("guest": {"vcpus": N}; docs/experiments.md, "Guests"): the
// example runs and reports guest halt-poll successes and the host's HLT
// exits; without the guest's poll window the exits rise; with idle=halt in
// the guest the host's halt polling catches wake-ups; errors name the key.

#include <string>

#include "experiments/experiment.h"
#include "experiments/reports.h"
#include "experiments/runner.h"
#include "experiments/scenario.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedsim::experiments {
namespace {

using ::testing::HasSubstr;

constexpr char kExample[] =
    "experiments/examples/guest_haltpoll_netperf_skylake.json";

// The example's variants.
constexpr int kHaltpoll = 0;
constexpr int kGuestPollOff = 1;
constexpr int kMenu = 2;
constexpr int kHostPoll = 3;

TEST(GuestExperimentTest, TheExampleReportsGuestPollsAndHostExits) {
  absl::StatusOr<Experiment> e = LoadExperimentFile(kExample);
  ASSERT_TRUE(e.ok()) << e.status();
  e->iterations = 1;
  RunnerOptions options;
  options.jobs = 1;
  absl::StatusOr<ExperimentResult> r = RunExperiment(*e, options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->machine->num_cpus(), 4);
  ASSERT_NE(r->machine->guest(), nullptr);
  EXPECT_EQ(r->cstate_names,
            (std::vector<std::string>{"POLL", "haltpoll idle"}));
  auto halts = [&](int v) { return r->runs[0][v][0].report.halts; };

  // haltpoll: the guest polls and most polls end with the wake-up; the
  // halts that remain exit to the host, which does not poll (the driver
  // turned host polling off).
  const sim::GuestTotals hp = halts(kHaltpoll);
  EXPECT_GT(hp.polls, 100u);
  EXPECT_GT(hp.poll_successes, hp.polls / 2);
  EXPECT_GT(hp.halt_exits, 0u);
  EXPECT_EQ(hp.host_attempted_polls, 0u);
  EXPECT_EQ(hp.host_wakeups, hp.halt_exits);

  // guest_halt_poll_ns 0: no guest poll, every idle period a HLT exit.
  const sim::GuestTotals off = halts(kGuestPollOff);
  EXPECT_EQ(off.polls, 0u);
  EXPECT_GT(off.halt_exits, 4 * hp.halt_exits);
  EXPECT_GT(off.halt_wake_ns, 0);

  // menu over the same driver: POLL and HLT by its prediction.
  EXPECT_GT(halts(kMenu).polls + halts(kMenu).halt_exits, 0u);

  // idle=halt: no haltpoll driver, so the host polls and catches the
  // short halts of the ping-pong; a caught halt is cheaper to wake.
  const sim::GuestTotals host = halts(kHostPoll);
  EXPECT_EQ(host.polls, 0u);
  EXPECT_GT(host.host_attempted_polls, 0u);
  EXPECT_GT(host.host_successful_polls, host.host_attempted_polls / 2);
  const double off_wake = static_cast<double>(off.halt_wake_ns) /
                          static_cast<double>(off.halt_exits);
  const double host_wake = static_cast<double>(host.halt_wake_ns) /
                           static_cast<double>(host.halt_exits);
  EXPECT_LT(host_wake, off_wake);

  // The reports carry them.
  const VariantReport v = r->Report(0, kHaltpoll);
  EXPECT_TRUE(v.guest);
  EXPECT_GT(v.guest_poll_success_pct, 50.0);
  EXPECT_GT(v.halt_exits_per_run, 0.0);
  const OrderedJson j = VariantReportJson(v);
  ASSERT_TRUE(j.contains("guest"));
  EXPECT_GT(j["guest"]["halt_exits_per_run"].get<double>(), 0.0);
  const std::string text = ReportsText({"haltpoll", "guest_poll_off"},
                                       {v, r->Report(0, kGuestPollOff)});
  EXPECT_THAT(text, HasSubstr("Guest polls (per run), success %"));
  EXPECT_THAT(text, HasSubstr("HLT exits (per run)"));
  const OrderedJson run =
      RunReportJson(r->runs[0][kHaltpoll][0].report, r->cstate_names);
  EXPECT_GT(run["guest"]["guest_poll_successes"].get<uint64_t>(), 0u);
}

TEST(GuestExperimentTest, MachineWithoutGuestReportsNoGuest) {
  const std::string text = R"({
    "machine": "skylake-e3-1240v5",
    "workload": {"model": "netperf", "params": {"test": "TCP_RR"}},
    "duration_ms": 5, "iterations": 1, "variants": [{"name": "a"}]})";
  absl::StatusOr<Experiment> e = ParseExperiment(text, "x.json");
  ASSERT_TRUE(e.ok()) << e.status();
  RunnerOptions options;
  options.jobs = 1;
  absl::StatusOr<ExperimentResult> r = RunExperiment(*e, options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->machine->guest(), nullptr);
  const RunReport& run = r->runs[0][0][0].report;
  EXPECT_FALSE(run.guest);
  EXPECT_EQ(run.halts.halt_exits, 0u);
  EXPECT_FALSE(RunReportJson(run, r->cstate_names).contains("guest"));
  EXPECT_FALSE(VariantReportJson(r->Report(0, 0)).contains("guest"));
  EXPECT_THAT(ReportsText({"a"}, {r->Report(0, 0)}),
              ::testing::Not(HasSubstr("HLT exits")));
}

// The guest's cpuidle-haltpoll driver asks for the haltpoll governor: the
// default in a guest, menu elsewhere.
TEST(GuestExperimentTest, HaltpollIsTheGuestsDefaultGovernor) {
  const std::string text = R"({
    "machine": "skylake-e3-1240v5", "guest": {"vcpus": 2},
    "workload": {"model": "netperf", "params": {"test": "TCP_RR"}},
    "duration_ms": 5, "iterations": 1,
    "variants": [{"name": "a"},
                 {"name": "b", "cpuidle": {"params":
                                           {"guest_halt_poll_ns": 0}}}]})";
  absl::StatusOr<Experiment> e = ParseExperiment(text, "x.json");
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->variants[0].cpuidle.name, "haltpoll");
  EXPECT_EQ(e->variants[1].cpuidle.name, "haltpoll");
  absl::StatusOr<Scenario> s = ParseScenario(
      R"({"machine": "skylake-e3-1240v5", "guest": {"vcpus": 2},
          "duration_ms": 5})",
      "s.json");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->policies.cpuidle, "haltpoll");
  absl::StatusOr<Scenario> plain = ParseScenario(
      R"({"machine": "skylake-e3-1240v5", "duration_ms": 5})", "s.json");
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_EQ(plain->policies.cpuidle, "menu");
}

TEST(GuestExperimentTest, ErrorsNameTheGuestKey) {
  auto error = [](const std::string& guest) {
    const std::string text = R"({
      "machine": "skylake-e3-1240v5", "guest": )" +
                             guest + R"(,
      "workload": {"model": "netperf", "params": {"test": "TCP_RR"}},
      "duration_ms": 5, "iterations": 1, "variants": [{"name": "a"}]})";
    absl::StatusOr<Experiment> e = ParseExperiment(text, "x.json");
    if (!e.ok()) return std::string(e.status().message());
    RunnerOptions options;
    options.jobs = 1;
    absl::StatusOr<ExperimentResult> r = RunExperiment(*e, options);
    return r.ok() ? std::string("ok") : std::string(r.status().message());
  };
  EXPECT_THAT(error(R"({"vcpus": 5})"),
              HasSubstr("guest.vcpus: a guest on 'skylake-e3-1240v5' has 1 "
                        "to 4 vCPUs"));
  EXPECT_THAT(error(R"({"vcpus": 0})"), HasSubstr("guest.vcpus: "));
  EXPECT_THAT(error(R"({})"), HasSubstr("guest: \"vcpus\""));
  EXPECT_THAT(error(R"({"vcpus": 2, "cpus": 2})"), HasSubstr("guest"));
  EXPECT_THAT(error("4"), HasSubstr("guest: expected an object"));
  EXPECT_EQ(error(R"({"vcpus": 2})"), "ok");
}

// Two tasks on a guest of 2 vCPUs, each computing briefly and sleeping
// 30 us (a timer): short halts that a poll window of 40 us or more
// catches. `extra` goes in the top level; `cpuidle` is the policy choice.
absl::StatusOr<ScenarioRun> Sleepers(
    const std::string& extra, const std::string& cpuidle = "\"haltpoll\"") {
  const std::string text =
      R"({"machine": "skylake-e3-1240v5", "guest": {"vcpus": 2},
          "warmup_ms": 5, "duration_ms": 50,
          "policies": {"cpufreq": "performance", "cpuidle": )" +
      cpuidle + R"(},
          "programs": {"p": [{"loop": 0, "body": [
              {"compute": {"cycles": 20000}}, {"sleep_ns": 30000}]}]},
          "tasks": [{"program": "p", "count": 2}])" +
      extra + "}";
  absl::StatusOr<Scenario> s = ParseScenario(text, "guest.json");
  if (!s.ok()) return s.status();
  return RunScenario(*s);
}

TEST(GuestScenarioTest, HostPollsOnlyWithoutTheGuestsHaltpollDriver) {
  // haltpoll in the guest: its window grows to catch the 30 us sleeps;
  // the driver turned the host's polling off (MSR_KVM_POLL_CONTROL).
  absl::StatusOr<ScenarioRun> guest = Sleepers("");
  ASSERT_TRUE(guest.ok()) << guest.status();
  ASSERT_NE(guest->machine.guest(), nullptr);
  const sim::GuestTotals& g = guest->stats.guest;
  EXPECT_GT(g.poll_successes, g.polls * 9 / 10);
  EXPECT_EQ(g.host_attempted_polls, 0u);

  // idle=halt: no driver, every idle period a HLT, and the host's window
  // (grown from 10 us by doubling: 10, 20, 40) catches them.
  absl::StatusOr<ScenarioRun> halt = Sleepers(R"(, "idle": "halt")");
  ASSERT_TRUE(halt.ok()) << halt.status();
  const sim::GuestTotals& h = halt->stats.guest;
  EXPECT_EQ(h.polls, 0u);
  EXPECT_GT(h.halt_exits, 1000u);
  EXPECT_GT(h.host_successful_polls, h.halt_exits * 9 / 10);
  EXPECT_LT(h.host_wakeups, h.halt_exits / 10);

  // halt_poll_ns 0: the host never polls; every halt schedules out and
  // costs more to wake.
  absl::StatusOr<ScenarioRun> none =
      Sleepers(R"(, "idle": "halt", "config": {"kvm_halt_poll_ns": 0})");
  ASSERT_TRUE(none.ok()) << none.status();
  const sim::GuestTotals& n = none->stats.guest;
  EXPECT_EQ(n.host_attempted_polls, 0u);
  EXPECT_EQ(n.host_wakeups, n.halt_exits);
  EXPECT_GT(n.halt_wake_ns / static_cast<int64_t>(n.halt_exits),
            h.halt_wake_ns / static_cast<int64_t>(h.halt_exits));

  // A host without KVM_FEATURE_POLL_CONTROL polls whatever the guest
  // does: with guest_halt_poll_ns 0 every idle period is a HLT it catches.
  absl::StatusOr<ScenarioRun> no_control =
      Sleepers(R"(, "config": {"kvm_poll_control": false})",
               R"({"name": "haltpoll", "params": {"guest_halt_poll_ns": 0}})");
  ASSERT_TRUE(no_control.ok()) << no_control.status();
  EXPECT_GT(no_control->stats.guest.host_successful_polls, 1000u);
}

}  // namespace
}  // namespace schedsim::experiments
