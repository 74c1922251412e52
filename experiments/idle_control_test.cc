// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Idle-state control through a scenario: states disabled by name, the
// max_cstate cap, idle=halt, per-CPU resume latency limits, and their
// errors.

#include "experiments/idle_control.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "experiments/experiment.h"
#include "experiments/runner.h"
#include "experiments/scenario.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "topology/presets.h"

namespace schedsim::experiments {
namespace {

using ::testing::HasSubstr;

// skylake-e3-1240v5's states: POLL C1 C1E C3 C6 C7s C8 C9 C10 (0..8).
constexpr int kC3 = 3;
constexpr int kC6 = 4;
constexpr int kNumStates = 9;

// Eight tasks, one per CPU, each computing briefly and sleeping 3 ms: long
// idle periods that the governor spends in deep states. `extra` goes in
// the top level.
std::string Sleepers(const std::string& extra) {
  return absl::StrCat(
      R"({"machine": "skylake-e3-1240v5", "warmup_ms": 10, "duration_ms": 60,
          "policies": {"cpuidle": "menu", "cpufreq": "performance"},
          "programs": {"p": [{"loop": 0, "body": [
              {"compute": {"cycles": 20000}}, {"sleep_ns": 3000000}]}]},
          "tasks": [{"program": "p", "count": 8}])",
      extra.empty() ? "" : ", ", extra, "}");
}

absl::StatusOr<ScenarioRun> RunSleepers(const std::string& extra) {
  absl::StatusOr<Scenario> s = ParseScenario(Sleepers(extra), "idle.json");
  if (!s.ok()) return s.status();
  return RunScenario(*s);
}

// Time in states `from`..`to` (inclusive) on `cpu`.
int64_t TimeIn(const ScenarioRun& run, int cpu, int from, int to) {
  int64_t ns = 0;
  const auto& states = run.stats.cpus[cpu].states;
  for (int k = from; k <= to; ++k) ns += states[k].time_ns;
  return ns;
}

int64_t TimeInAll(const ScenarioRun& run, int from, int to) {
  int64_t ns = 0;
  for (size_t c = 0; c < run.stats.cpus.size(); ++c) {
    ns += TimeIn(run, static_cast<int>(c), from, to);
  }
  return ns;
}

TEST(IdleControlTest, TheDefaultUsesDeepStates) {
  absl::StatusOr<ScenarioRun> run = RunSleepers("");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_GT(TimeInAll(*run, kC6, kNumStates - 1), 0);
}

TEST(IdleControlTest, DisabledStatesAreUnused) {
  absl::StatusOr<ScenarioRun> run = RunSleepers(
      R"("idle_states_disabled": ["C6", "C7s", "C8", "C9", "C10"])");
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_EQ(run->stats.cpus[0].states.size(), size_t{kNumStates});
  for (size_t c = 0; c < run->stats.cpus.size(); ++c) {
    for (int k = kC6; k < kNumStates; ++k) {
      EXPECT_EQ(run->stats.cpus[c].states[k].time_ns, 0) << c << " " << k;
      EXPECT_EQ(run->stats.cpus[c].states[k].usage, 0u) << c << " " << k;
    }
  }
  // The deepest state left takes their place.
  EXPECT_GT(TimeInAll(*run, kC3, kC3), 0);
}

TEST(IdleControlTest, MaxCstateLeavesDeeperStatesUnregistered) {
  absl::StatusOr<ScenarioRun> run = RunSleepers(R"("max_cstate": 3)");
  ASSERT_TRUE(run.ok()) << run.status();
  // The table keeps the machine's states for the reports; the unregistered
  // ones count nothing.
  ASSERT_EQ(run->stats.cpus[0].states.size(), size_t{kNumStates});
  EXPECT_EQ(TimeInAll(*run, kC6, kNumStates - 1), 0);
  EXPECT_GT(TimeInAll(*run, kC3, kC3), 0);
}

TEST(IdleControlTest, ResumeLatencyLimitsOnlyItsCpus) {
  // C3 and deeper exit in 70 us or more on this machine.
  absl::StatusOr<ScenarioRun> run =
      RunSleepers(R"("pm_qos_resume_latency_us": {"0-3": 20})");
  ASSERT_TRUE(run.ok()) << run.status();
  for (int cpu = 0; cpu < 4; ++cpu) {
    EXPECT_EQ(TimeIn(*run, cpu, kC3, kNumStates - 1), 0) << cpu;
  }
  int64_t deep_on_others = 0;
  for (int cpu = 4; cpu < 8; ++cpu) {
    deep_on_others += TimeIn(*run, cpu, kC3, kNumStates - 1);
  }
  EXPECT_GT(deep_on_others, 0);
}

TEST(IdleControlTest, ResumeLatencyTakesTheSysfsValues) {
  // "n/a" is a limit of 0 us: POLL only. 0 is "no constraint".
  absl::StatusOr<ScenarioRun> na =
      RunSleepers(R"("pm_qos_resume_latency_us": {"0-7": "n/a"})");
  ASSERT_TRUE(na.ok()) << na.status();
  EXPECT_EQ(TimeInAll(*na, 1, kNumStates - 1), 0);
  EXPECT_GT(TimeInAll(*na, 0, 0), 0);
  absl::StatusOr<ScenarioRun> none =
      RunSleepers(R"("pm_qos_resume_latency_us": {"0-7": 0})");
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_GT(TimeInAll(*none, kC6, kNumStates - 1), 0);
}

TEST(IdleControlTest, TheGlobalLimitStillApplies) {
  // The smaller of the CPU's and cpu_dma_latency wins.
  absl::StatusOr<ScenarioRun> run =
      RunSleepers(R"("config": {"pm_qos_latency_ns": 0},
             "pm_qos_resume_latency_us": {"0-7": 1000})");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(TimeInAll(*run, 1, kNumStates - 1), 0);
}

// idle=halt: every idle period in C1 (HLT), whatever the governor would
// pick, and no governor state is consulted.
TEST(IdleControlTest, IdleHaltUsesOnlyC1) {
  absl::StatusOr<ScenarioRun> run = RunSleepers(R"("idle": "halt")");
  ASSERT_TRUE(run.ok()) << run.status();
  for (size_t c = 0; c < run->stats.cpus.size(); ++c) {
    const auto& states = run->stats.cpus[c].states;
    ASSERT_EQ(states.size(), size_t{kNumStates});
    EXPECT_GT(states[1].time_ns, 0) << c;
    for (int k = 0; k < kNumStates; ++k) {
      if (k != 1) {
        EXPECT_EQ(states[k].usage, 0u) << c << " " << k;
      }
    }
  }
  // No governor: C1 even when a governor would have to take POLL (a PM QoS
  // limit of 0).
  absl::StatusOr<ScenarioRun> limited =
      RunSleepers(R"("idle": "halt", "config": {"pm_qos_latency_ns": 0})");
  ASSERT_TRUE(limited.ok()) << limited.status();
  EXPECT_EQ(TimeInAll(*limited, 0, 0), 0);
  EXPECT_GT(TimeInAll(*limited, 1, 1), 0);
}

std::string ErrorOf(const std::string& extra) {
  absl::StatusOr<ScenarioRun> run = RunSleepers(extra);
  if (run.ok()) return "";
  EXPECT_EQ(run.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(run.status().message());
}

// acpi_c2_dummy_wait: false drops the ACPI PM timer read that
// acpi_idle_do_entry() runs after an I/O-port C-state before v6.0 (commit
// e400ad8b7e6a skips it on AMD): C2's exit on zen2-2s-7742 (ACPI IOPORT
// 0x814) loses kAcpiDummyWaitNs; C1 (FFH MWAIT) keeps its own.
TEST(IdleControlTest, AcpiDummyWaitIsPartOfTheIoPortExit) {
  absl::StatusOr<topology::Topology> zen2 =
      topology::MakePreset("zen2-2s-7742");
  ASSERT_TRUE(zen2.ok());
  IdleControl control;
  control.filename = "x.json";
  control.dummy_wait_path = "acpi_c2_dummy_wait";
  control.acpi_dummy_wait = true;
  absl::StatusOr<topology::Topology> with = ApplyIdleControl(*zen2, control);
  ASSERT_TRUE(with.ok()) << with.status();
  control.acpi_dummy_wait = false;
  absl::StatusOr<topology::Topology> without = ApplyIdleControl(*zen2, control);
  ASSERT_TRUE(without.ok()) << without.status();
  ASSERT_EQ(with->cstates()[2].desc, "ACPI IOPORT 0x814");
  EXPECT_EQ(with->cstates()[2].physical_exit_ns,
            zen2->cstates()[2].physical_exit_ns);
  EXPECT_EQ(without->cstates()[2].physical_exit_ns,
            zen2->cstates()[2].physical_exit_ns - kAcpiDummyWaitNs);
  EXPECT_EQ(without->cstates()[1].physical_exit_ns,
            zen2->cstates()[1].physical_exit_ns);
}

// The same through a scenario: one task on CPU 0 sleeping 3 ms wakes from
// C2, up to a dummy wait sooner without it.
TEST(IdleControlTest, WithoutTheDummyWaitWakeUpsFromC2AreFaster) {
  auto run = [](const std::string& extra) {
    absl::StatusOr<Scenario> s = ParseScenario(
        absl::StrCat(
            R"({"machine": "zen2-2s-7742", "warmup_ms": 10, "duration_ms": 60,
                "policies": {"cpuidle": "menu", "cpufreq": "performance"},
                "programs": {"p": [{"loop": 0, "body": [
                  {"compute": {"cycles": 20000}}, {"sleep_ns": 3000000}]}]},
                "tasks": [{"program": "p", "affinity": "0"}])",
            extra, "}"),
        "idle.json");
    EXPECT_TRUE(s.ok()) << s.status();
    absl::StatusOr<ScenarioRun> r = RunScenario(*s);
    EXPECT_TRUE(r.ok()) << r.status();
    return *std::move(r);
  };
  const ScenarioRun preset = run("");
  const ScenarioRun with = run(R"(, "acpi_c2_dummy_wait": true)");
  const ScenarioRun without = run(R"(, "acpi_c2_dummy_wait": false)");
  ASSERT_GT(preset.stats.cpus[0].states[2].usage, 10u);  // C2
  const double mean_preset = preset.stats.wakeup_latency_ns.mean();
  EXPECT_EQ(with.stats.wakeup_latency_ns.mean(), mean_preset);
  // Most wake-ups come from C2 (the histogram's buckets blur the rest).
  const double saved = mean_preset - without.stats.wakeup_latency_ns.mean();
  EXPECT_GT(saved, 0.5 * kAcpiDummyWaitNs);
  EXPECT_LT(saved, 1.1 * kAcpiDummyWaitNs);
  // Only machines with an I/O-port state, and not on Intel.
  EXPECT_THAT(ErrorOf(R"("acpi_c2_dummy_wait": false)"),
              HasSubstr("idle.json: acpi_c2_dummy_wait: machine "
                        "'skylake-e3-1240v5' has no idle state entered "
                        "through an I/O port"));
  EXPECT_THAT(
      ErrorOf(R"("acpi_c2_dummy_wait": 0)"),
      HasSubstr("idle.json: acpi_c2_dummy_wait: expected true or false"));
}

TEST(IdleControlErrorTest, UnknownStateNamesThePathAndTheStates) {
  EXPECT_EQ(
      ErrorOf(R"("idle_states_disabled": ["C6", "C11"])"),
      "idle.json: idle_states_disabled[1]: machine 'skylake-e3-1240v5' has "
      "no idle state \"C11\"; its states: \"POLL\", \"C1\", \"C1E\", \"C3\", "
      "\"C6\", \"C7s\", \"C8\", \"C9\", \"C10\"");
}

TEST(IdleControlErrorTest, BadValues) {
  EXPECT_THAT(ErrorOf(R"("idle_states_disabled": "C6")"),
              HasSubstr("idle.json: idle_states_disabled: expected an array (a "
                        "list of idle-state names"));
  EXPECT_THAT(ErrorOf(R"("idle_states_disabled": [6])"),
              HasSubstr("idle.json: idle_states_disabled[0]: "));
  EXPECT_THAT(ErrorOf(R"("max_cstate": 0)"),
              HasSubstr("idle.json: max_cstate: 0 leaves the idle driver "
                        "unloaded"));
  EXPECT_THAT(ErrorOf(R"("max_cstate": -1)"),
              HasSubstr("idle.json: max_cstate: "));
  EXPECT_THAT(ErrorOf(R"("idle_states_disabled": ["POLL", "C1", "C1E", "C3",
                          "C6", "C7s", "C8", "C9", "C10"])"),
              HasSubstr("leaves no idle state enabled"));
  EXPECT_THAT(ErrorOf(R"("pm_qos_resume_latency_us": {"0-9": 20})"),
              HasSubstr("idle.json: pm_qos_resume_latency_us.0-9: \"0-9\" is "
                        "not a CPU list of machine 'skylake-e3-1240v5' (CPUs "
                        "0-7)"));
  EXPECT_THAT(ErrorOf(R"("pm_qos_resume_latency_us": {"0-3": 20, "3": 5})"),
              HasSubstr("pm_qos_resume_latency_us.3: CPU 3 is given a resume "
                        "latency twice"));
  EXPECT_THAT(
      ErrorOf(R"("pm_qos_resume_latency_us": {"0": "none"})"),
      HasSubstr("pm_qos_resume_latency_us.0: expected a latency in us"));
  EXPECT_THAT(ErrorOf(R"("pm_qos_resume_latency_us": {"0": -5})"),
              HasSubstr("pm_qos_resume_latency_us.0: "));
  EXPECT_THAT(
      ErrorOf(R"("pm_qos_resume_latency_us": [20])"),
      HasSubstr("pm_qos_resume_latency_us: expected an object (CPU lists"));
}

}  // namespace
}  // namespace schedsim::experiments

namespace schedsim::experiments {
namespace {

constexpr char kExample[] =
    "experiments/examples/idle_c6_disabled_netperf_skylake.json";

// The mean residency % of state `k` over the CPUs of run (variant, 0).
double Residency(const ExperimentResult& r, int variant, int k) {
  const RunReport& report = r.runs[0][variant][0].report;
  double sum = 0;
  for (const std::vector<double>& cpu : report.cstate_pct) sum += cpu[k];
  return sum / static_cast<double>(report.cstate_pct.size());
}

TEST(IdleControlExperimentTest, TheExampleShowsTheStatesUnused) {
  absl::StatusOr<Experiment> e = LoadExperimentFile(kExample);
  ASSERT_TRUE(e.ok()) << e.status();
  e->iterations = 1;
  RunnerOptions options;
  options.jobs = 1;
  absl::StatusOr<ExperimentResult> r = RunExperiment(*e, options);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->cstate_names.size(), size_t{kNumStates});
  // default, c6_disabled, max_cstate_2, resume_latency_20us, idle_halt.
  double deep_default = 0;
  for (int k = kC6; k < kNumStates; ++k) deep_default += Residency(*r, 0, k);
  EXPECT_GT(deep_default, 1.0);
  for (int k = kC6; k < kNumStates; ++k) {
    EXPECT_EQ(Residency(*r, 1, k), 0.0) << r->cstate_names[k];
  }
  for (int k = kC3; k < kNumStates; ++k) {
    EXPECT_EQ(Residency(*r, 2, k), 0.0) << r->cstate_names[k];
    EXPECT_EQ(Residency(*r, 3, k), 0.0) << r->cstate_names[k];
  }
  for (int k = 0; k < kNumStates; ++k) {
    if (k == 1) {
      EXPECT_GT(Residency(*r, 4, k), 1.0) << r->cstate_names[k];
    } else {
      EXPECT_EQ(Residency(*r, 4, k), 0.0) << r->cstate_names[k];
    }
  }
}

TEST(IdleControlExperimentTest, VariantKeysReplaceTheFilesAndErrorsNameThem) {
  const std::string text = R"({
    "machine": "skylake-e3-1240v5",
    "workload": {"model": "netperf", "params": {"test": "TCP_RR"}},
    "duration_ms": 10, "iterations": 1,
    "idle_states_disabled": ["C10"], "max_cstate": 5,
    "variants": [{"name": "a"},
                 {"name": "b", "idle_states_disabled": ["C9"],
                  "pm_qos_resume_latency_us": {"1": 5}},
                 {"name": "c", "idle_states_disabled": ["C6", "C6E"]}]})";
  absl::StatusOr<Experiment> e = ParseExperiment(text, "x.json");
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->variants[0].idle.disabled, std::vector<std::string>{"C10"});
  EXPECT_EQ(e->variants[0].idle.max_cstate, 5);
  EXPECT_FALSE(e->variants[0].idle.has_resume_latency);
  EXPECT_EQ(e->variants[1].idle.disabled, std::vector<std::string>{"C9"});
  EXPECT_EQ(e->variants[1].idle.max_cstate, 5);
  ASSERT_EQ(e->variants[1].idle.resume_latency.size(), 1u);
  EXPECT_EQ(e->variants[1].idle.resume_latency[0].ns, 5000);
  // The unknown name fails before any run, with its path.
  RunnerOptions options;
  options.jobs = 1;
  absl::StatusOr<ExperimentResult> r = RunExperiment(*e, options);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()),
              HasSubstr("x.json: variants[2].idle_states_disabled[1]: machine "
                        "'skylake-e3-1240v5' has no idle state \"C6E\"; its "
                        "states: \"POLL\", \"C1\""));
}

}  // namespace
}  // namespace schedsim::experiments
