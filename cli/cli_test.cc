// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "cli/cli.h"

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace schedsim::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

struct Result {
  int code;
  std::string out;
  std::string err;
};

Result RunSchedsim(std::vector<std::string> args) {
  std::ostringstream out, err;
  int code = RunCli(args, out, err);
  return {code, out.str(), err.str()};
}

TEST(CliTopologyTest, TextShowsSummaryDistancesAndDomains) {
  Result r = RunSchedsim({"topology", "--machine=zen3-2s-nps4"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("CPU(s):              256"));
  EXPECT_THAT(r.out, HasSubstr("NUMA node(s):        8"));
  EXPECT_THAT(r.out, HasSubstr("Node 0: CPUs 0-15,128-143"));
  EXPECT_THAT(r.out, HasSubstr("  0:  10  12  12  12  32  32  32  32"));
  EXPECT_THAT(r.out, HasSubstr("NODE  span 0-15,128-143"));
  EXPECT_THAT(r.out, HasSubstr("C2       ACPI IOPORT 0x814"));
}

// Every added preset loads as JSON with its published CPU count, base and
// turbo frequency, and intel_idle state names (topology/presets_test.cc
// checks more).
TEST(CliTopologyTest, AddedPresetsAsJson) {
  struct Want {
    const char* name;
    size_t cpus;
    int64_t base_khz, max_turbo_khz;
    const char* deepest;
    size_t states;
  };
  for (const Want& w : std::vector<Want>{
           {"sandybridge-2s-e5-2690", 32, 2900000, 3800000, "C6", 5},
           {"ivybridge-2s-e5-2690v2", 40, 3000000, 3600000, "C6", 5},
           {"sandybridge-i7-2600k", 8, 3400000, 3800000, "C7", 6},
           {"braswell-n3050", 2, 1600000, 2160000, "C7S", 6},
           {"apollolake-j3455", 4, 1500000, 2300000, "C10", 8},
           {"skylake-2s-8170m", 104, 2100000, 3700000, "C6", 4},
           {"zen3-2s-7543", 128, 2800000, 3739225, "C2", 3},
           {"zen2-2s-7742", 256, 2250000, 3414550, "C2", 3}}) {
    SCOPED_TRACE(w.name);
    Result r = RunSchedsim(
        {"topology", std::string("--machine=") + w.name, "--format=json"});
    ASSERT_EQ(r.code, 0) << r.err;
    nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["machine"], w.name);
    EXPECT_EQ(j["cpus"].size(), w.cpus);
    EXPECT_EQ(j["frequency"]["base_khz"], w.base_khz);
    EXPECT_EQ(j["frequency"]["max_turbo_khz"], w.max_turbo_khz);
    EXPECT_EQ(j["frequency"]["hwp"], std::string(w.name) == "skylake-2s-8170m");
    ASSERT_EQ(j["cstates"].size(), w.states);
    EXPECT_EQ(j["cstates"][0]["name"], "POLL");
    EXPECT_EQ(j["cstates"][w.states - 1]["name"], w.deepest);
    EXPECT_FALSE(j["domains"].empty());
  }
}

// The Arm big.LITTLE preset: capacities, a frequency domain per cluster
// with its OPPs, the cluster idle state and the asymmetric DIE domain.
TEST(CliTopologyTest, JunoShowsCapacitiesAndClusterDomains) {
  Result r = RunSchedsim({"topology", "--machine=juno-r0", "--format=json"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["cpus"].size(), 6u);
  const int capacities[] = {446, 1024, 1024, 446, 446, 446};
  for (int c = 0; c < 6; ++c)
    EXPECT_EQ(j["cpus"][c]["capacity"], capacities[c]);
  ASSERT_EQ(j["frequency_domains"].size(), 2u);
  EXPECT_EQ(j["frequency_domains"][0]["cpus"], "0,3-5");
  EXPECT_EQ(j["frequency_domains"][0]["frequency"]["pstates_khz"],
            nlohmann::json({850000, 775000, 700000, 575000, 450000}));
  EXPECT_EQ(j["frequency_domains"][0]["ceff_pf"], 140.0);
  EXPECT_EQ(j["frequency_domains"][1]["cpus"], "1-2");
  EXPECT_EQ(j["frequency_domains"][1]["frequency"]["max_turbo_khz"], 1100000);
  EXPECT_EQ(j["frequency"]["max_turbo_khz"], 1100000);
  ASSERT_EQ(j["cstates"].size(), 3u);
  EXPECT_EQ(j["cstates"][2]["name"], "cluster-sleep-0");
  EXPECT_EQ(j["cstates"][2]["flags"], nlohmann::json({"CLUSTER"}));
  ASSERT_EQ(j["domains"].size(), 2u);
  EXPECT_EQ(j["domains"][0]["name"], "MC");
  EXPECT_THAT(j["domains"][1]["flags"].dump(),
              HasSubstr("SD_ASYM_CPUCAPACITY_FULL"));
  // Symmetric machines do not grow the new keys.
  Result zen =
      RunSchedsim({"topology", "--machine=zen3-2s-nps1", "--format=json"});
  ASSERT_EQ(zen.code, 0) << zen.err;
  nlohmann::json z = nlohmann::json::parse(zen.out);
  EXPECT_FALSE(z.contains("frequency_domains"));
  EXPECT_FALSE(z["cpus"][0].contains("capacity"));

  Result text = RunSchedsim({"topology", "--machine=juno-r0"});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("CPU capacity:        0:446 1:1024 2:1024"));
  EXPECT_THAT(text.out, HasSubstr("Domain 1: CPUs 1-2, min 450 MHz, max 1100 "
                                  "MHz, OPPs 450/625/800/950/1100 MHz"));
  EXPECT_THAT(text.out, HasSubstr("  cluster-sleep-0 PSCI 0x1010000"));
}

// An hwloc import with CPU kinds shows its capacities (text and JSON).
TEST(CliTopologyTest, HwlocCpuKindsShowTheirCapacities) {
  Result text =
      RunSchedsim({"topology", "--hwloc=tests/data/hybrid_cpukinds.xml"});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("CPU capacity:        0:1024 1:1024 2:1024 "
                                  "3:1024 4:763 5:763 6:763 7:763"));
  Result json = RunSchedsim(
      {"topology", "--hwloc=tests/data/hybrid_cpukinds.xml", "--format=json"});
  ASSERT_EQ(json.code, 0) << json.err;
  nlohmann::json j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["cpus"][5]["capacity"], 763);
}

TEST(CliTopologyTest, JsonHasTheDocumentedKeys) {
  Result r =
      RunSchedsim({"topology", "--machine=zen3-2s-nps2", "--format=json"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["cpus"].size(), 256u);
  EXPECT_EQ(j["cpus"][130]["core"], 2);
  EXPECT_EQ(j["cpus"][130]["llc"], 0);
  EXPECT_EQ(j["cpus"][130]["node"], 0);
  EXPECT_EQ(j["cpus"][130]["package"], 0);
  EXPECT_EQ(j["cpus"][130]["siblings"], nlohmann::json({2, 130}));
  ASSERT_EQ(j["nodes"].size(), 4u);
  EXPECT_EQ(j["nodes"][1]["cpus"], "32-63,160-191");
  EXPECT_EQ(j["nodes"][1]["distances"], nlohmann::json({12, 10, 32, 32}));
  EXPECT_EQ(j["llcs"].size(), 16u);
  ASSERT_EQ(j["domains"].size(), 5u);
  EXPECT_EQ(j["domains"][2]["name"], "NODE");
  EXPECT_EQ(j["domains"][4]["span"], "0-255");
  EXPECT_THAT(j["domains"][4]["flags"].dump(), HasSubstr("SD_WAKE_AFFINE"));
  EXPECT_EQ(j["cstates"].size(), 3u);
  EXPECT_EQ(j["frequency"]["base_khz"], 2000000);
}

TEST(CliTopologyTest, CpuFlagPicksTheDomainStack) {
  Result r = RunSchedsim(
      {"topology", "--machine=skylake-e3-1240v5", "--format=json", "--cpu=3"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["domains"].size(), 2u);
  EXPECT_EQ(j["domains"][0]["span"], "3,7");
  EXPECT_EQ(j["domains"][1]["span"], "0-7");
}

TEST(CliTopologyTest, HwlocFileIsImported) {
  Result r =
      RunSchedsim({"topology", "--hwloc=tests/data/mpibind_eas-tioga.xml",
                   "--format=json"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["cpus"].size(), 128u);
  EXPECT_EQ(j["nodes"].size(), 4u);
}

TEST(CliTopologyTest, PowerModelGivesAnImportedMachineTables) {
  Result r =
      RunSchedsim({"topology", "--hwloc=tests/data/mpibind_eas-tioga.xml",
                   "--power-model=skylake-e3-1240v5", "--format=json"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["cpus"].size(), 128u);
  EXPECT_EQ(j["cstates"].size(), 9u);
  EXPECT_EQ(j["frequency"]["base_khz"], 3500000);
  EXPECT_THAT(j["warnings"].dump(),
              HasSubstr("power model: C-state, frequency and power tables of "
                        "'skylake-e3-1240v5'"));

  // The 7763 XML has SMT off: one CPU per core against the model's two.
  Result smt = RunSchedsim(
      {"topology", "--hwloc=tests/data/hwloc_AMD-19h-Zen3-2xEpyc-7763.xml",
       "--power-model=skylake-e3-1240v5"});
  EXPECT_EQ(smt.code, 1);
  EXPECT_THAT(smt.err, HasSubstr("has 2 CPU(s) per core but machine "
                                 "'hwloc_AMD-19h-Zen3-2xEpyc-7763' has 1"));

  Result preset = RunSchedsim({"topology", "--machine=zen3-2s-nps1",
                               "--power-model=skylake-e3-1240v5"});
  EXPECT_EQ(preset.code, 1);
  EXPECT_THAT(preset.err, HasSubstr("a power model is for an imported "
                                    "machine"));

  Result unknown =
      RunSchedsim({"topology", "--hwloc=tests/data/mpibind_eas-tioga.xml",
                   "--power-model=zen9"});
  EXPECT_EQ(unknown.code, 1);
  EXPECT_THAT(unknown.err, HasSubstr("power model: unknown machine 'zen9'"));
}

TEST(CliTopologyTest, BadInputsGiveClearErrorsAndNonZeroExit) {
  Result none = RunSchedsim({"topology"});
  EXPECT_EQ(none.code, 2);
  EXPECT_THAT(none.err, HasSubstr("name exactly one machine"));

  Result unknown = RunSchedsim({"topology", "--machine=zen9"});
  EXPECT_EQ(unknown.code, 1);
  EXPECT_THAT(unknown.err, HasSubstr("unknown machine 'zen9'"));

  Result bad_flag = RunSchedsim({"topology", "--machin=zen3-2s-nps1"});
  EXPECT_EQ(bad_flag.code, 2);
  EXPECT_THAT(bad_flag.err, HasSubstr("unknown flag --machin"));

  Result bad_format =
      RunSchedsim({"topology", "--machine=zen3-2s-nps1", "--format=yaml"});
  EXPECT_EQ(bad_format.code, 2);
  EXPECT_THAT(bad_format.err, HasSubstr("--format must be text or json"));

  Result bad_cpu =
      RunSchedsim({"topology", "--machine=zen3-2s-nps1", "--cpu=256"});
  EXPECT_EQ(bad_cpu.code, 2);
  EXPECT_THAT(bad_cpu.err, HasSubstr("not a CPU"));

  Result missing = RunSchedsim({"topology", "--sysfs=/nonexistent/sys"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_THAT(missing.err, HasSubstr("/nonexistent/sys"));

  Result bad_command = RunSchedsim({"topolgy"});
  EXPECT_EQ(bad_command.code, 2);
  EXPECT_THAT(bad_command.err, HasSubstr("unknown command 'topolgy'"));
}

constexpr char kPingpong[] =
    "experiments/examples/scenarios/pipe_pingpong.json";
constexpr char kHackbench[] =
    "experiments/examples/scenarios/hackbench_small.json";

// Writes `text` to a file in the test's scratch directory.
std::string WriteFile(const std::string& name, const std::string& text) {
  const char* dir = std::getenv("TEST_TMPDIR");
  std::string path = std::string(dir ? dir : "/tmp") + "/" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(CliSimulateTest, JsonHasTheDocumentedKeys) {
  Result r = RunSchedsim(
      {"simulate", kPingpong, "--format=json", "--duration-ms=100"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  for (const char* key : {"scenario",
                          "machine",
                          "num_cpus",
                          "seed",
                          "policies",
                          "warmup_s",
                          "duration_s",
                          "events",
                          "events_per_s",
                          "metrics",
                          "wakeup_latency_ns",
                          "task_count",
                          "tasks",
                          "context_switches",
                          "migrations",
                          "load_balance_migrations",
                          "background_events",
                          "placement",
                          "busy_pct",
                          "idle_pct",
                          "cpus",
                          "idle_states",
                          "avg_busy_khz",
                          "busy_ns_at_khz",
                          "energy_j",
                          "avg_power_w",
                          "pl1_capped_ns"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["scenario"], kPingpong);
  EXPECT_EQ(j["machine"], "skylake-e3-1240v5");
  EXPECT_DOUBLE_EQ(j["duration_s"].get<double>(), 0.1);
  EXPECT_GT(j["events"].get<int64_t>(), 0);
  ASSERT_EQ(j["metrics"].size(), 1u);
  const nlohmann::json& rtt = j["metrics"][0];
  EXPECT_EQ(rtt["name"], "round_trip");
  EXPECT_GT(rtt["count"].get<int64_t>(), 0);
  EXPECT_GT(rtt["rate_per_s"].get<double>(), 0);
  for (const char* key :
       {"count", "mean", "p50", "p90", "p99", "p999", "max"}) {
    EXPECT_TRUE(rtt["latency_ns"].contains(key)) << key;
  }
  EXPECT_GT(rtt["latency_ns"]["p50"].get<int64_t>(), 0);
  EXPECT_LE(rtt["latency_ns"]["p50"].get<int64_t>(),
            rtt["latency_ns"]["max"].get<int64_t>());
  ASSERT_EQ(j["tasks"].size(), 2u);
  EXPECT_EQ(j["tasks"][0]["name"], "ping");
  EXPECT_GT(j["tasks"][0]["run_ns"].get<int64_t>(), 0);
  EXPECT_GT(j["tasks"][1]["wakeups"].get<int64_t>(), 0);
  EXPECT_TRUE(j["placement"].contains("probes_per_search"));
  EXPECT_TRUE(j["placement"].contains("chosen_idle_pct"));
  ASSERT_EQ(j["cpus"].size(), 8u);
  const nlohmann::json& cpu = j["cpus"][0];
  EXPECT_EQ(cpu["cpu"], 0);
  for (const char* key : {"busy_pct", "idle_states", "avg_busy_khz"}) {
    EXPECT_TRUE(cpu.contains(key)) << key;
  }
  ASSERT_EQ(cpu["idle_states"].size(), j["idle_states"].size());
  for (const char* key : {"name", "residency_pct", "usage", "above", "below"}) {
    EXPECT_TRUE(cpu["idle_states"][0].contains(key)) << key;
  }
  // Two CPUs ping-pong, six idle all the time.
  EXPECT_GT(j["idle_pct"]["avg"].get<double>(), 75);
  EXPECT_LE(j["busy_pct"]["min"].get<double>(),
            j["busy_pct"]["avg"].get<double>());
  EXPECT_GT(j["busy_pct"]["max"].get<double>(), 0);
  EXPECT_GT(j["energy_j"].get<double>(), 0);
  EXPECT_GT(j["avg_power_w"].get<double>(), 0);

  // docs/cli-simulate.md names every key.
  std::ifstream in("docs/cli-simulate.md");
  ASSERT_TRUE(in.good()) << "docs/cli-simulate.md is a data dependency";
  std::stringstream docs;
  docs << in.rdbuf();
  auto documented = [&](const nlohmann::json& object) {
    for (const auto& item : object.items()) {
      EXPECT_THAT(docs.str(), HasSubstr("`" + item.key() + "`")) << item.key();
    }
  };
  documented(j);
  documented(j["metrics"][0]);
  documented(j["metrics"][0]["latency_ns"]);
  documented(j["tasks"][0]);
  documented(j["placement"]);
  documented(j["cpus"][0]);
  documented(j["cpus"][0]["idle_states"][0]);
  documented(j["busy_ns_at_khz"][0]);
}

TEST(CliSimulateTest, SameSeedGivesByteIdenticalOutput) {
  std::vector<std::string> args = {"simulate", kHackbench, "--format=json",
                                   "--duration-ms=30", "--seed=7"};
  Result first = RunSchedsim(args);
  Result second = RunSchedsim(args);
  ASSERT_EQ(first.code, 0) << first.err;
  EXPECT_EQ(first.out, second.out);
  nlohmann::json j = nlohmann::json::parse(first.out);
  EXPECT_EQ(j["seed"], 7);
  EXPECT_EQ(j["task_count"], 16);
  EXPECT_GT(j["metrics"][0]["count"].get<int64_t>(), 0);
  EXPECT_DOUBLE_EQ(j["warmup_s"].get<double>(), 0.01);
}

// Issue 49 #8: juno-r0's cache list is the big cluster's; CPU 0 is a
// LITTLE CPU with a 1 MiB L2, so the list is not labelled per CPU.
TEST(CliTopologyTest, AsymmetricMachinesLabelTheCacheListAsTheMachines) {
  Result juno = RunSchedsim({"topology", "--machine=juno-r0"});
  ASSERT_EQ(juno.code, 0) << juno.err;
  EXPECT_THAT(juno.out, Not(HasSubstr("Caches (per CPU)")));
  EXPECT_THAT(juno.out,
              HasSubstr("Caches (machine-wide): L1d 32 KiB 2-way, L1i 48 "
                        "KiB 3-way, L2 2 MiB 16-way (one list for the "
                        "machine; its CPUs of other capacities may have "
                        "other caches)"));
  Result skylake = RunSchedsim({"topology", "--machine=skylake-e3-1240v5"});
  ASSERT_EQ(skylake.code, 0) << skylake.err;
  EXPECT_THAT(skylake.out, HasSubstr("Caches (per CPU):"));
}

// Issue 49 #12: simulate estimates its cost as run does; a valid
// 10^9 ms scenario ran until killed.
TEST(CliSimulateTest, AnEstimateAboveTheLimitIsRefusedWithoutYes) {
  Result r = RunSchedsim({"simulate", kPingpong, "--duration-ms=1000000000"});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("schedsim simulate: refused: "));
  EXPECT_THAT(r.err, HasSubstr("1 runs, 1e+06 simulated s"));
  EXPECT_THAT(r.err,
              HasSubstr("more than the limit of 24 hours of estimated wall "
                        "time; pass --yes to run it anyway"));
  EXPECT_EQ(r.out, "");
}

TEST(CliSimulateTest, TextShowsEverySection) {
  Result r = RunSchedsim({"simulate", kPingpong, "--duration-ms=20"});
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* text :
       {"Machine:     skylake-e3-1240v5 (8 CPUs)", "Simulated:   20.00 ms",
        "per simulated second", "round_trip", "Wake-up latency (all tasks)",
        "Tasks (2 of 2)", "context switches", "probes per search",
        "CPU busy:", "per CPU:   0: ", "Idle states (summed over CPUs)", "C10",
        "Frequency:   average while busy", "J package"}) {
    EXPECT_THAT(r.out, HasSubstr(text));
  }
}

// A KVM guest (docs/model-idle-frequency.md, "Guests"): the ping-pong in a
// guest of 2 vCPUs with haltpoll; text and JSON report its halts.
TEST(CliSimulateTest, GuestReportsItsHalts) {
  std::ifstream in(kPingpong);
  nlohmann::ordered_json scenario = nlohmann::ordered_json::parse(in);
  scenario["guest"] = {{"vcpus", 2}};
  scenario["policies"]["cpuidle"] = "haltpoll";
  const std::string file = WriteFile("guest.json", scenario.dump());
  Result text = RunSchedsim({"simulate", file, "--duration-ms=20"});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_THAT(text.out,
              HasSubstr("Machine:     skylake-e3-1240v5-guest-2vcpu (2 CPUs)"));
  EXPECT_THAT(text.out, HasSubstr("Guest:       2 vCPUs on skylake-e3-1240v5"));
  Result json =
      RunSchedsim({"simulate", file, "--duration-ms=20", "--format=json"});
  ASSERT_EQ(json.code, 0) << json.err;
  nlohmann::json j = nlohmann::json::parse(json.out);
  ASSERT_TRUE(j.contains("guest"));
  EXPECT_GT(j["guest"]["guest_polls"].get<int64_t>(), 0);
  EXPECT_GT(j["guest"]["guest_poll_successes"].get<int64_t>(), 0);
  // Without a guest: no "guest" key, no line.
  Result plain =
      RunSchedsim({"simulate", kPingpong, "--duration-ms=20", "--format=json"});
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_FALSE(nlohmann::json::parse(plain.out).contains("guest"));
}

TEST(CliSimulateTest, HelpListsTheCommand) {
  Result r = RunSchedsim({"help"});
  EXPECT_THAT(r.out, HasSubstr("simulate"));
  Result h = RunSchedsim({"simulate", "--help"});
  EXPECT_EQ(h.code, 0);
  EXPECT_THAT(h.out, HasSubstr("--duration-ms"));
}

TEST(CliTest, VersionNamesTheVersionAndTheCommit) {
  for (const char* flag : {"--version", "version"}) {
    Result r = RunSchedsim({flag});
    EXPECT_EQ(r.code, 0) << flag;
    EXPECT_THAT(r.out, HasSubstr("schedsim 0."));
    EXPECT_THAT(r.out, HasSubstr("(commit "));
  }
}

TEST(CliSimulateTest, BadInputsGiveClearErrorsAndExitCodes) {
  Result none = RunSchedsim({"simulate"});
  EXPECT_EQ(none.code, 2);
  EXPECT_THAT(none.err, HasSubstr("expected a scenario FILE"));

  Result two = RunSchedsim({"simulate", kPingpong, kHackbench});
  EXPECT_EQ(two.code, 2);

  Result bad_flag = RunSchedsim({"simulate", kPingpong, "--sed=3"});
  EXPECT_EQ(bad_flag.code, 2);
  EXPECT_THAT(bad_flag.err, HasSubstr("unknown flag --sed"));

  Result bad_format = RunSchedsim({"simulate", kPingpong, "--format=xml"});
  EXPECT_EQ(bad_format.code, 2);

  Result bad_seed = RunSchedsim({"simulate", kPingpong, "--seed=-1"});
  EXPECT_EQ(bad_seed.code, 2);
  EXPECT_THAT(bad_seed.err, HasSubstr("--seed expects an integer"));

  Result bad_duration =
      RunSchedsim({"simulate", kPingpong, "--duration-ms=-5"});
  EXPECT_EQ(bad_duration.code, 2);
  EXPECT_THAT(bad_duration.err, HasSubstr("--duration-ms must be in 0.."));

  Result missing = RunSchedsim({"simulate", "/nonexistent/x.json"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_THAT(missing.err,
              HasSubstr("schedsim simulate: /nonexistent/x.json: cannot "
                        "open"));

  std::string broken = WriteFile("broken.json", "{\n  \"seed\": 1\n  }}");
  Result syntax = RunSchedsim({"simulate", broken});
  EXPECT_EQ(syntax.code, 1);
  EXPECT_THAT(syntax.err,
              HasSubstr(broken + ": line 3, column 4 (byte offset 17)"));

  std::string bad_task =
      WriteFile("bad_task.json",
                R"({"machine": "skylake-e3-1240v5", "duration_ms": 5,
          "programs": {"p": [{"sleep_ns": 1000}]},
          "tasks": [{"program": "p", "start_cpu": 9}]})");
  Result beyond = RunSchedsim({"simulate", bad_task});
  EXPECT_EQ(beyond.code, 1);
  EXPECT_THAT(beyond.err,
              HasSubstr(bad_task + ": tasks[0].start_cpu: CPU 9 is beyond "
                                   "the 8 CPUs of skylake-e3-1240v5"));

  std::string spin = WriteFile(
      "spin.json",
      R"({"machine": "skylake-e3-1240v5", "duration_ms": 5, "metrics": ["m"],
          "programs": {"p": [{"loop": 0, "body": [{"mark": "m"}]}]},
          "tasks": [{"program": "p"}]})");
  Result failed = RunSchedsim({"simulate", spin});
  EXPECT_EQ(failed.code, 1);
  EXPECT_THAT(failed.err, HasSubstr(spin + ": task 0"));
}

// Every result JSON starts with schema_version (base/version.h); run's
// is checked by run_command_test, shadow's and validate's by theirs.
TEST(CliJsonTest, EveryResultJsonHasTheSchemaVersion) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{
           {"topology", "--machine=juno-r0", "--format=json"},
           {"simulate", std::string(kPingpong), "--duration-ms=5",
            "--format=json"}}) {
    Result r = RunSchedsim(args);
    ASSERT_EQ(r.code, 0) << args[0] << ": " << r.err;
    const nlohmann::ordered_json j = nlohmann::ordered_json::parse(r.out);
    ASSERT_TRUE(j.contains("schema_version")) << args[0];
    EXPECT_EQ(j["schema_version"], 1) << args[0];
    if (args[0] != "topology") {  // topology's JSON sorts its keys
      EXPECT_EQ(j.begin().key(), "schema_version") << args[0];
    }
  }
}

}  // namespace
}  // namespace schedsim::cli

namespace schedsim::cli {
namespace {

TEST(CliPoliciesTest, ListsEveryFamilyWithParametersAndDefaults) {
  std::ostringstream out, err;
  ASSERT_EQ(RunCli({"policies", "--format=json"}, out, err), 0) << err.str();
  nlohmann::json j = nlohmann::json::parse(out.str());
  auto names = [&](const char* family) {
    std::vector<std::string> n;
    for (const auto& p : j[family]) n.push_back(p["name"]);
    return n;
  };
  EXPECT_THAT(
      names("cpufreq"),
      ::testing::IsSupersetOf({"performance", "powersave", "ondemand",
                               "conservative", "userspace", "schedutil",
                               "intel_pstate", "intel_pstate_hwp", "io_util"}));
  EXPECT_THAT(names("cpuidle"),
              ::testing::IsSupersetOf({"menu", "teo", "ladder", "haltpoll"}));
  EXPECT_THAT(
      names("placement"),
      ::testing::IsSupersetOf({"sis_util", "sis_prop", "sis_abel_wu", "prev"}));
  bool found = false;
  for (const auto& p : j["cpufreq"]) {
    if (p["name"] != "intel_pstate_hwp") continue;
    for (const auto& param : p["params"]) {
      if (param["name"] == "hwp_boost") {
        found = true;
        EXPECT_EQ(param["type"], "bool");
        EXPECT_EQ(param["default"], false);
      }
    }
  }
  EXPECT_TRUE(found);

  std::ostringstream text, err2;
  ASSERT_EQ(RunCli({"policies"}, text, err2), 0);
  EXPECT_THAT(text.str(), HasSubstr("cpuidle:\n  haltpoll"));
  std::ostringstream o3, e3;
  EXPECT_EQ(RunCli({"policies", "--format=xml"}, o3, e3), 2);
}

}  // namespace
}  // namespace schedsim::cli

namespace schedsim::cli {
namespace {

// Issue 44: the kernel versions and what each has, as JSON.
TEST(CliKernelsTest, ListsTheVersionsWithTheirFeatures) {
  Result r = RunSchedsim({"kernels", "--format=json"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_GE(j["versions"].size(), 8u);
  std::map<std::string, nlohmann::json> by_version;
  for (const auto& v : j["versions"]) by_version[v["version"]] = v;
  for (const char* v : {"3.10", "4.16", "5.19", "6.1", "6.2", "6.6", "6.12"}) {
    EXPECT_EQ(by_version.count(v), 1u) << v;
  }
  EXPECT_EQ(by_version["6.5"]["fair_class"], "cfs");
  EXPECT_EQ(by_version["6.6"]["fair_class"], "eevdf");
  EXPECT_THAT(by_version["6.12"]["features"].dump(),
              HasSubstr("delay_dequeue"));
  EXPECT_THAT(by_version["6.6"]["features"].dump(),
              Not(HasSubstr("delay_dequeue")));
  bool eevdf = false;
  for (const auto& f : j["features"]) {
    if (f["name"] == "eevdf") {
      eevdf = true;
      EXPECT_EQ(f["since"], "6.6");
      EXPECT_THAT(f["since_commit"].get<std::string>(),
                  HasSubstr("147f3efaa241"));
    }
  }
  EXPECT_TRUE(eevdf);
  Result bad = RunSchedsim({"kernels", "--kernel=six"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_THAT(bad.err, HasSubstr("MAJOR.MINOR"));
}

// Issue 43 and 44: `config --kernel=6.12` shows the knobs that version sets.
TEST(CliConfigTest, AKernelShowsTheKnobsItSets) {
  Result r = RunSchedsim({"config", "--kernel=6.12", "--format=json"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["kernel"], "6.12");
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& p : j["params"]) by_name[p["name"]] = p;
  EXPECT_EQ(by_name["eevdf"]["value"], true);
  EXPECT_EQ(by_name["eevdf"]["default"], false);
  EXPECT_EQ(by_name["eevdf"]["set_by_kernel"], true);
  EXPECT_EQ(by_name["hz"]["set_by_kernel"], false);
  EXPECT_EQ(by_name["probe_cost_ns"]["unit"], "ns");
  EXPECT_EQ(by_name["probe_cost_ns"]["status"], "assumed");
  Result text = RunSchedsim({"config"});
  ASSERT_EQ(text.code, 0);
  EXPECT_THAT(text.out, HasSubstr("sched_base_slice_ns"));
  EXPECT_EQ(RunSchedsim({"config", "--kernel=x"}).code, 2);
}

}  // namespace
}  // namespace schedsim::cli
