// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/scenario.h"

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sim/program.h"
#include "topology/presets.h"

namespace schedsim::experiments {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kExamples[] = "experiments/examples/scenarios/";

// A valid scenario with `extra` spliced in after the required keys.
std::string Minimal(const std::string& extra = "") {
  return absl::StrCat(R"({"machine": "skylake-e3-1240v5", "duration_ms": 10)",
                      extra.empty() ? "" : ", ", extra, "}");
}

// The error message of parsing `text` as scenario.json ("" if it parsed).
std::string ErrorOf(const std::string& text) {
  absl::StatusOr<Scenario> s = ParseScenario(text, "scenario.json");
  if (s.ok()) return "";
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(s.status().message());
}

std::vector<sim::OpCode> Codes(const sim::Program& p) {
  std::vector<sim::OpCode> codes;
  for (const sim::Op& op : p.ops) codes.push_back(op.code);
  return codes;
}

TEST(ScenarioTest, ParsesThePipePingpongExample) {
  absl::StatusOr<Scenario> s =
      LoadScenarioFile(absl::StrCat(kExamples, "pipe_pingpong.json"));
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->machine.machine, "skylake-e3-1240v5");
  EXPECT_EQ(s->duration_ms, 200);
  EXPECT_EQ(s->seed, 1u);
  EXPECT_THAT(s->workload.metrics, ElementsAre("round_trip"));
  ASSERT_EQ(s->workload.channels.size(), 2u);
  EXPECT_EQ(s->workload.channels[1].name, "to_ping");
  ASSERT_EQ(s->workload.programs.size(), 2u);
  const sim::Program& ping = s->workload.programs[0];
  using sim::OpCode;
  EXPECT_THAT(Codes(ping),
              ElementsAre(OpCode::kLoop, OpCode::kStamp, OpCode::kSend,
                          OpCode::kRecv, OpCode::kMark, OpCode::kCompute,
                          OpCode::kEndLoop, OpCode::kExit));
  EXPECT_EQ(ping.ops[0].arg, 0);  // forever
  EXPECT_EQ(ping.ops[2].arg, 0);  // to_pong
  EXPECT_EQ(ping.ops[3].arg, 1);  // to_ping
  EXPECT_EQ(ping.ops[5].d1.a, 2000);
  ASSERT_EQ(s->workload.tasks.size(), 2u);
  EXPECT_EQ(s->workload.tasks[1].name, "pong");
  EXPECT_EQ(s->workload.tasks[1].program, 1);
}

TEST(ScenarioTest, ParsesTheHackbenchExample) {
  absl::StatusOr<Scenario> s =
      LoadScenarioFile(absl::StrCat(kExamples, "hackbench_small.json"));
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->warmup_ms, 10);
  EXPECT_EQ(s->workload.channels.size(), 8u);
  EXPECT_EQ(s->workload.programs.size(), 10u);
  int tasks = 0;
  for (const sim::TaskSpec& t : s->workload.tasks) tasks += t.count;
  EXPECT_EQ(tasks, 16);
  const sim::Op& compute = s->workload.programs[0].ops[5];
  EXPECT_EQ(compute.code, sim::OpCode::kCompute);
  EXPECT_EQ(compute.d1.kind, sim::Dist::Kind::kUniform);
}

TEST(ScenarioTest, DefaultsApply) {
  absl::StatusOr<Scenario> s = ParseScenario(Minimal(), "scenario.json");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->filename, "scenario.json");
  EXPECT_EQ(s->seed, 1u);
  EXPECT_EQ(s->warmup_ms, 0);
  EXPECT_EQ(s->config.hz, sim::SimConfig().hz);
  EXPECT_EQ(s->policies.cpufreq, "");  // the machine's default
  EXPECT_EQ(s->policies.cpuidle, "menu");
  EXPECT_EQ(s->policies.placement, "sis_util");
  EXPECT_TRUE(s->workload.tasks.empty());
}

TEST(ScenarioTest, SeedTakesTheFullUint64Range) {
  absl::StatusOr<Scenario> s = ParseScenario(
      Minimal(R"("seed": 18446744073709551615)"), "scenario.json");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->seed, 18446744073709551615u);
  EXPECT_EQ(ErrorOf(Minimal(R"("seed": -1)")),
            "scenario.json: seed: expected an integer in "
            "0..18446744073709551615, got number -1");
}

TEST(ScenarioTest, ConfigSetsFieldsByName) {
  absl::StatusOr<Scenario> s =
      ParseScenario(Minimal(R"("config": {"hz": 1000, "context_switch_ns": 2500,
                  "smt_factor_pct": 55, "pm_qos_latency_ns": 0,
                  "turbo": false, "pl1_mw": 65000, "load_balance": false,
                  "sched_latency_ns": 3e6, "noise_scale": 0.5,
                  "kworker_per_s": 10})"),
                    "scenario.json");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->config.hz, 1000);
  EXPECT_EQ(s->config.context_switch_ns, 2500);
  EXPECT_EQ(s->config.smt_factor_pct, 55);
  EXPECT_EQ(s->config.pm_qos_latency_ns, 0);
  EXPECT_FALSE(s->config.turbo);
  EXPECT_EQ(s->config.pl1_mw, 65000);
  EXPECT_FALSE(s->config.load_balance);
  EXPECT_TRUE(s->config.newidle_balance);
  EXPECT_EQ(s->config.sched_latency_ns, 3000000);
  EXPECT_EQ(s->config.noise_scale, 0.5);
  EXPECT_EQ(s->config.kworker_per_s, 10);
  // An integer is a number too.
  absl::StatusOr<Scenario> zero = ParseScenario(
      Minimal(R"("config": {"noise_scale": 0})"), "scenario.json");
  ASSERT_TRUE(zero.ok()) << zero.status();
  EXPECT_EQ(zero->config.noise_scale, 0.0);
}

// The config table must name every SimConfig field: read them from the
// header so that a new field without a table entry fails here.
TEST(ScenarioTest, ConfigKeysAreEverySimConfigField) {
  std::ifstream in("sim/config.h");
  ASSERT_TRUE(in) << "sim/config.h is a data dependency";
  std::stringstream text;
  text << in.rdbuf();
  std::string header = text.str();
  std::regex field(R"(\n\s+(?:int|int64_t|bool|double)\s+(\w+)\s*=)");
  std::vector<std::string> fields;
  for (auto it = std::sregex_iterator(header.begin(), header.end(), field);
       it != std::sregex_iterator(); ++it) {
    fields.push_back((*it)[1]);
  }
  ASSERT_GT(fields.size(), 15u);
  EXPECT_EQ(absl::StrJoin(SimConfigFieldNames(), " "),
            absl::StrJoin(fields, " "));
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// docs/cli-simulate.md documents every config key, and its example parses.
TEST(ScenarioTest, DocsStayTrue) {
  std::string docs = ReadFile("docs/cli-simulate.md");
  ASSERT_FALSE(docs.empty());
  for (const std::string& key : SimConfigFieldNames()) {
    EXPECT_THAT(docs, HasSubstr(absl::StrCat("`", key, "`"))) << key;
  }
  size_t section = docs.find("## `schedsim simulate`");
  ASSERT_NE(section, std::string::npos);
  size_t start = docs.find("```json\n", section);
  ASSERT_NE(start, std::string::npos);
  start += 8;
  size_t end = docs.find("```", start);
  absl::StatusOr<Scenario> s =
      ParseScenario(docs.substr(start, end - start), "docs/cli-simulate.md");
  EXPECT_TRUE(s.ok()) << s.status();
}

TEST(ScenarioTest, DistributionForms) {
  absl::StatusOr<Scenario> s = ParseScenario(Minimal(R"("programs": {"p": [
        {"sleep_ns": 5},
        {"sleep_ns": {"constant": 6}},
        {"sleep_ns": {"uniform": [10, 20]}},
        {"sleep_ns": {"exponential": 1000}},
        {"sleep_ns": {"normal": [1000, 100]}},
        {"sleep_ns": {"lognormal": [1000, 0.25]}},
        {"io_wait_ns": 1e6},
        {"compute": {"cycles": 100, "stall_ns": {"uniform": [0, 5]}}}]})"),
                                             "scenario.json");
  ASSERT_TRUE(s.ok()) << s.status();
  const std::vector<sim::Op>& ops = s->workload.programs[0].ops;
  using K = sim::Dist::Kind;
  EXPECT_EQ(ops[0].d1.kind, K::kConstant);
  EXPECT_EQ(ops[0].d1.a, 5);
  EXPECT_EQ(ops[1].d1.a, 6);
  EXPECT_EQ(ops[2].d1.kind, K::kUniform);
  EXPECT_EQ(ops[2].d1.b, 20);
  EXPECT_EQ(ops[3].d1.kind, K::kExponential);
  EXPECT_EQ(ops[4].d1.kind, K::kNormal);
  EXPECT_EQ(ops[4].d1.b, 100);
  EXPECT_EQ(ops[5].d1.kind, K::kLogNormal);
  EXPECT_EQ(ops[5].d1.b, 250);  // sigma in thousandths
  EXPECT_EQ(ops[6].code, sim::OpCode::kIoWait);
  EXPECT_EQ(ops[6].d1.a, 1000000);
  EXPECT_EQ(ops[7].d2.kind, K::kUniform);
}

TEST(ScenarioTest, ExecNamesTheProgramTheTaskBecomes) {
  absl::StatusOr<Scenario> s = ParseScenario(
      Minimal(
          R"("programs": {"shell": [{"compute": {"cycles": 1000}}, {"exec": "image"}],
                            "image": [{"compute": {"cycles": 2000}}]},
                "tasks": [{"program": "shell"}])"),
      "scenario.json");
  ASSERT_TRUE(s.ok()) << s.status();
  const sim::Program& shell = s->workload.programs[0];
  ASSERT_EQ(shell.ops.size(), 3u);
  EXPECT_EQ(shell.ops[1].code, sim::OpCode::kExec);
  EXPECT_EQ(shell.ops[1].arg, 1);
  absl::StatusOr<Scenario> bad =
      ParseScenario(Minimal(R"("programs": {"p": [{"exec": "nowhere"}]},
                "tasks": [{"program": "p"}])"),
                    "scenario.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("nowhere"));
}

TEST(ScenarioTest, EveryOperationFormAndForwardForks) {
  absl::StatusOr<Scenario> s = ParseScenario(
      Minimal(R"("channels": [{"name": "c", "kind": "socket", "capacity": 4}],
        "barriers": [{"name": "b", "parties": 3}],
        "metrics": ["m"],
        "programs": {
          "parent": [{"fork": "child", "count": 3}, "yield",
                     {"loop": 2, "body": [{"loop": 3, "body": [
                        "stamp", {"send": "c"}, {"mark": "m"}]}]},
                     {"barrier": "b", "spin_ns": 100}, "exit"],
          "child": [{"recv": "c"}, {"barrier": "b"}]},
        "tasks": [{"program": "parent", "count": 2, "nice": -5,
                   "affinity": "0-3", "start_cpu": 2, "uclamp_min": 100,
                   "uclamp_max": 900, "mm": 7},
                  {"name": "rt", "program": "child", "policy": "fifo",
                   "rt_priority": 50}])"),
      "scenario.json");
  ASSERT_TRUE(s.ok()) << s.status();
  const sim::Workload& w = s->workload;
  EXPECT_EQ(w.channels[0].kind, sim::ChannelSpec::Kind::kSocket);
  EXPECT_EQ(w.channels[0].capacity, 4);
  EXPECT_EQ(w.barriers[0].parties, 3);
  const sim::Program& parent = w.programs[0];
  using sim::OpCode;
  EXPECT_THAT(Codes(parent),
              ElementsAre(OpCode::kFork, OpCode::kYield, OpCode::kLoop,
                          OpCode::kLoop, OpCode::kStamp, OpCode::kSend,
                          OpCode::kMark, OpCode::kEndLoop, OpCode::kEndLoop,
                          OpCode::kBarrier, OpCode::kExit));
  EXPECT_EQ(parent.ops[0].arg, 1);  // "child", defined after "parent"
  EXPECT_EQ(parent.ops[0].arg2, 3);
  EXPECT_EQ(parent.ops[3].arg, 3);
  EXPECT_EQ(parent.loop_depth, 2);
  EXPECT_EQ(parent.ops[9].d1.a, 100);
  const sim::TaskSpec& t = w.tasks[0];
  EXPECT_EQ(t.name, "parent");  // defaults to the program's name
  EXPECT_EQ(t.count, 2);
  EXPECT_EQ(t.nice, -5);
  EXPECT_EQ(t.affinity, "0-3");
  EXPECT_EQ(t.start_cpu, 2);
  EXPECT_EQ(t.uclamp_min, 100);
  EXPECT_EQ(t.uclamp_max, 900);
  EXPECT_EQ(t.mm, 7);
  EXPECT_EQ(w.tasks[1].mm, -1);  // not declared: a process of its own
  EXPECT_EQ(w.tasks[1].name, "rt");
  EXPECT_EQ(w.tasks[1].policy, sim::SchedPolicy::kFifo);
  EXPECT_EQ(w.tasks[1].rt_priority, 50);
}

TEST(ScenarioTest, DevicesIoAndBatchOperations) {
  absl::StatusOr<Scenario> s =
      ParseScenario(Minimal(R"("channels": [{"name": "req"}, {"name": "done",
                     "capacity": 4, "initial_messages": 2}],
        "devices": [{"name": "ssd", "request_ns": 20000, "mb_s": 300,
                     "max_request_kib": 512}, {"name": "hdd"}],
        "programs": {
          "journal": [{"recv_batch": "req"},
                      {"io": "ssd", "bytes": 16384, "flush_ns": 50000},
                      {"send_batch": "done"}],
          "client": [{"io": "hdd", "bytes": {"uniform": [4096, 8192]}},
                     {"send": "req"}, {"recv": "done"}]},
        "tasks": [{"program": "journal"}, {"program": "client", "count": 2}])"),
                    "scenario.json");
  ASSERT_TRUE(s.ok()) << s.status();
  const sim::Workload& w = s->workload;
  EXPECT_EQ(w.channels[1].initial_messages, 2);
  ASSERT_EQ(w.devices.size(), 2u);
  EXPECT_EQ(w.devices[0].request_ns, 20000);
  EXPECT_EQ(w.devices[0].bytes_per_us, 300);
  EXPECT_EQ(w.devices[0].max_request_bytes, 512 * 1024);
  EXPECT_EQ(w.devices[1].bytes_per_us, sim::DeviceSpec().bytes_per_us);
  const std::vector<sim::Op>& j = w.programs[0].ops;
  EXPECT_EQ(j[0].code, sim::OpCode::kRecv);
  EXPECT_EQ(j[0].arg2, sim::kChannelBatch);
  EXPECT_EQ(j[1].code, sim::OpCode::kIo);
  EXPECT_EQ(j[1].arg, 0);
  EXPECT_EQ(j[1].d1.a, 16384);
  EXPECT_EQ(j[1].d2.a, 50000);
  EXPECT_EQ(j[2].code, sim::OpCode::kSend);
  EXPECT_EQ(j[2].arg2, sim::kChannelBatch);
  EXPECT_EQ(w.programs[1].ops[0].arg, 1);  // "hdd"
  EXPECT_EQ(w.programs[1].ops[1].arg2, 0);

  absl::StatusOr<Scenario> bad =
      ParseScenario(Minimal(R"("devices": [{"name": "ssd"}],
        "programs": {"p": [{"io": "ssd"}]}, "tasks": [{"program": "p"}])"),
                    "scenario.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("programs.p[0]"));
  EXPECT_THAT(bad.status().message(), HasSubstr("missing \"bytes\""));
  bad = ParseScenario(Minimal(R"("devices": [{"name": "ssd", "mb_s": 0}],
        "programs": {"p": [{"io": "nvme", "bytes": 1}]},
        "tasks": [{"program": "p"}])"),
                      "scenario.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("devices[0].mb_s"));
}

TEST(ScenarioTest, RelativeMachinePathsAreTakenFromTheFilesDirectory) {
  absl::StatusOr<Scenario> s = ParseScenario(
      R"({"hwloc": "machines/box.xml", "duration_ms": 1})", "dir/s.json");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->machine.hwloc, "dir/machines/box.xml");
  s = ParseScenario(R"({"sysfs": "/sys", "duration_ms": 1})", "dir/s.json");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->machine.sysfs, "/sys");
}

TEST(ScenarioTest, PowerModelIsReadForAnImportedMachine) {
  absl::StatusOr<Scenario> s = ParseScenario(
      R"({"hwloc": "box.xml", "power_model": "skylake-e3-1240v5",
          "duration_ms": 1})",
      "s.json");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->machine.power_model, "skylake-e3-1240v5");
  s = ParseScenario(
      R"({"machine": "zen3-2s-nps1", "power_model": "skylake-e3-1240v5",
          "duration_ms": 1})",
      "s.json");
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.status().message()),
              HasSubstr("s.json: power_model: a power model is for an "
                        "imported machine"));
}

TEST(ScenarioErrorTest, SyntaxErrorReportsLineColumnAndOffset) {
  std::string text =
      "{\n  \"machine\": \"skylake-e3-1240v5\",\n  \"duration_ms\": 10,,\n}\n";
  EXPECT_THAT(ErrorOf(text),
              StartsWith("scenario.json: line 3, column 21 (byte offset 56): "
                         "invalid JSON: syntax error"));
  EXPECT_THAT(ErrorOf(""), StartsWith("scenario.json: line 1, column 1 "
                                      "(byte offset 0): invalid JSON"));
}

// Issue 49 #16: the CPU-list phrase was printed twice, without the reason.
TEST(ScenarioErrorTest, ABadAffinitySaysWhyOnce) {
  EXPECT_EQ(ErrorOf(Minimal(R"("programs": {"p": []},
                         "tasks": [{"program": "p", "affinity": "4-2"}])")),
            "scenario.json: tasks[0].affinity: expected a CPU list like "
            "\"0-3,8\", got \"4-2\": the range \"4-2\" ends before it starts "
            "(\"\" = all CPUs)");
}

TEST(ScenarioErrorTest, UnknownKeysAreListed) {
  EXPECT_EQ(ErrorOf(Minimal(R"("sed": 3)")),
            "scenario.json: unknown key 'sed' (did you mean 'seed'?); a "
            "scenario has the keys description, machine, sysfs, hwloc, "
            "power_model, guest, seed, duration_ms, warmup_ms, kernel, "
            "config, "
            "policies, channels, barriers, devices, metrics, programs, tasks, "
            "idle_states_disabled, max_cstate, pm_qos_resume_latency_us, idle, "
            "acpi_c2_dummy_wait");
  EXPECT_EQ(
      ErrorOf(Minimal(R"("programs": {"p": []},
                         "tasks": [{"program": "p", "cont": 2}])")),
      "scenario.json: tasks[0]: unknown key 'cont' (did you mean 'count'?); "
      "a task has the keys name, program, count, nice, policy, rt_priority, "
      "affinity, start_cpu, uclamp_min, uclamp_max, slice_us, mm");
  EXPECT_THAT(ErrorOf(Minimal(R"("config": {"hzz": 100})")),
              StartsWith("scenario.json: config: unknown key 'hzz' (did you "
                         "mean 'hz'?); the config keys are hz, "));
  EXPECT_EQ(ErrorOf(Minimal(R"("programs": {"p": [{"sleep_ns": 5,
                                                  "count": 2}]})")),
            "scenario.json: programs.p[0]: unknown key 'count'; a "
            "\"sleep_ns\" operation has the keys sleep_ns");
}

TEST(ScenarioErrorTest, DuplicateKeysAreErrors) {
  EXPECT_EQ(ErrorOf(Minimal(R"("programs": {"p": []},
      "tasks": [{"program": "p"}, {"program": "p", "count": 1, "count": 2}])")),
            "scenario.json: tasks[1]: key 'count' appears more than once");
  EXPECT_EQ(ErrorOf(Minimal(R"("seed": 1, "seed": 2)")),
            "scenario.json: key 'seed' appears more than once");
}

TEST(ScenarioErrorTest, UnknownNamesListTheDefinedOnes) {
  EXPECT_EQ(ErrorOf(Minimal(R"("programs": {"ping": [], "worker": []},
      "tasks": [{"program": "ping"}, {"program": "worker"},
                {"program": "pong"}])")),
            "scenario.json: tasks[2].program: unknown program 'pong' (did "
            "you mean 'ping'?); programs: ping, worker");
  EXPECT_EQ(ErrorOf(Minimal(R"("channels": [{"name": "a"}, {"name": "b"}],
      "programs": {"p": [{"loop": 0, "body": [{"send": "a"},
                                              {"recv": "zzz"}]}]})")),
            "scenario.json: programs.p[0].body[1].recv: unknown channel "
            "'zzz'; channels: a, b");
  EXPECT_EQ(ErrorOf(Minimal(R"("programs": {"p": [{"mark": "rtt"}]})")),
            "scenario.json: programs.p[0].mark: unknown metric 'rtt'; no "
            "metrics are defined (add them under \"metrics\")");
  EXPECT_EQ(ErrorOf(Minimal(R"("programs": {"p": [{"fork": "q"}]})")),
            "scenario.json: programs.p[0].fork: unknown program 'q'; "
            "programs: p");
  EXPECT_EQ(ErrorOf(Minimal(R"("channels": [{"name": "a"}, {"name": "a"}])")),
            "scenario.json: channels[1]: channel 'a' is already defined at "
            "channels[0]");
}

TEST(ScenarioErrorTest, WrongTypesNameTheExpectedType) {
  EXPECT_EQ(ErrorOf(R"({"machine": "skylake-e3-1240v5",
                        "duration_ms": "100"})"),
            "scenario.json: duration_ms: expected an integer in "
            "1..1000000000, got string \"100\"");
  EXPECT_EQ(ErrorOf(Minimal(R"("config": {"turbo": 1})")),
            "scenario.json: config.turbo: expected true or false, got number "
            "1");
  EXPECT_EQ(ErrorOf(Minimal(R"("tasks": {"program": "p"})")),
            "scenario.json: tasks: expected an array (task objects), got an "
            "object {\"program\":\"p\"}");
  EXPECT_EQ(ErrorOf(Minimal(R"("programs": {"p": [{"sleep_ns": 2.5}]})")),
            "scenario.json: programs.p[0].sleep_ns: expected an integer in "
            "0..1000000000000000, got number 2.5");
  EXPECT_THAT(ErrorOf(Minimal(R"("programs": {"p": [{"sleep_ns": "1ms"}]})")),
              StartsWith("scenario.json: programs.p[0].sleep_ns: expected a "
                         "distribution: a non-negative integer, or "));
  EXPECT_EQ(ErrorOf("[1, 2]"),
            "scenario.json: expected an object of scenario keys at the top "
            "level, got an array [1,2]");
}

TEST(ScenarioErrorTest, DeeplyNestedValuesAreShownShortened) {
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_EQ(ErrorOf(Minimal(absl::StrCat(R"("description": )", deep))),
            "scenario.json: description: expected a string, got an array "
            "[[[[...]]]]");
}

TEST(ScenarioErrorTest, OutOfRangeValues) {
  EXPECT_EQ(ErrorOf(R"({"machine": "skylake-e3-1240v5", "duration_ms": -5})"),
            "scenario.json: duration_ms: expected an integer in "
            "1..1000000000, got -5");
  EXPECT_EQ(ErrorOf(R"({"machine": "skylake-e3-1240v5"})"),
            "scenario.json: missing \"duration_ms\" (the simulated time to "
            "measure, in milliseconds)");
  EXPECT_EQ(ErrorOf(Minimal(R"("config": {"hz": 0})")),
            "scenario.json: config.hz: expected an integer in 1..10000, got 0");
  EXPECT_EQ(ErrorOf(Minimal(R"("config": {"noise_scale": -0.5})")),
            "scenario.json: config.noise_scale: expected a number in 0..100, "
            "got number -0.5");
  EXPECT_EQ(ErrorOf(Minimal(R"("config": {"noise_scale": "none"})")),
            "scenario.json: config.noise_scale: expected a number in 0..100, "
            "got string \"none\"");
  EXPECT_EQ(ErrorOf(Minimal(R"("programs": {"p": [
                {"sleep_ns": {"uniform": [20, 10]}}]})")),
            "scenario.json: programs.p[0].sleep_ns.uniform[1]: expected an "
            "integer in 20..1000000000000000, got 10");
  EXPECT_EQ(ErrorOf(Minimal(R"("programs": {"p": [
                {"compute": {"cycles": {"uniform": [0, 0]}}}]})")),
            "scenario.json: programs.p[0].compute: a compute of 0 cycles and "
            "0 ns of stall does nothing");
  EXPECT_EQ(ErrorOf(Minimal(R"("programs": {"p": []},
      "tasks": [{"program": "p", "policy": "fifo"}])")),
            "scenario.json: tasks[0]: policy \"fifo\" needs an rt_priority "
            "(1..99)");
  EXPECT_EQ(ErrorOf(Minimal(R"("programs": {"p": []},
      "tasks": [{"program": "p", "uclamp_min": 900, "uclamp_max": 100}])")),
            "scenario.json: tasks[0]: uclamp_min 900 is above uclamp_max 100");
}

TEST(ScenarioErrorTest, BadOperations) {
  EXPECT_THAT(ErrorOf(Minimal(R"("programs": {"p": ["yeild"]})")),
              StartsWith("scenario.json: programs.p[0]: unknown operation "
                         "'yeild' (did you mean 'yield'?); expected an "
                         "operation: one of the strings 'yield', 'exit', "
                         "'stamp', or an object keyed by one of 'compute', "));
  EXPECT_EQ(ErrorOf(Minimal(R"("channels": [{"name": "c"}],
      "programs": {"p": [{"send": "c", "recv": "c"}]})")),
            "scenario.json: programs.p[0]: one operation per object; this "
            "one has 'send', 'recv'");
  EXPECT_EQ(ErrorOf(Minimal(R"("programs": {"p": [{"loop": 3}]})")),
            "scenario.json: programs.p[0]: missing \"body\" (the operations "
            "to repeat)");
  EXPECT_EQ(ErrorOf(Minimal(R"("programs": {"p": [{"loop": 0, "body": []}]})")),
            "scenario.json: programs.p[0].body: a loop body must not be "
            "empty");
  EXPECT_EQ(ErrorOf(Minimal(R"("programs": {"p": [
      {"loop": 1, "body": [{"loop": 1, "body": [{"loop": 1, "body": [
        {"loop": 1, "body": [{"loop": 1, "body": ["yield"]}]}]}]}]}]})")),
            "scenario.json: programs.p[0].body[0].body[0].body[0].body[0]."
            "loop: loops nest more than 4 deep");
  EXPECT_THAT(ErrorOf(Minimal(R"("programs": {"p": [
      {"sleep_ns": {"poisson": 5}}]})")),
              StartsWith("scenario.json: programs.p[0].sleep_ns: unknown "
                         "distribution 'poisson'; expected a distribution"));
  EXPECT_EQ(ErrorOf(Minimal(R"("programs": {"p": [
      {"sleep_ns": {"lognormal": [1000, "wide"]}}]})")),
            "scenario.json: programs.p[0].sleep_ns.lognormal[1]: expected "
            "sigma, a number in 0..10, got string \"wide\"");
}

TEST(ScenarioErrorTest, MachineAndPolicies) {
  EXPECT_EQ(ErrorOf(R"({"machine": "zen9", "duration_ms": 10})"),
            absl::StrCat("scenario.json: machine: unknown machine 'zen9'; "
                         "built-in machines: ",
                         absl::StrJoin(topology::PresetNames(), ", ")));
  EXPECT_THAT(ErrorOf(R"({"duration_ms": 10})"),
              StartsWith("scenario.json: no machine: give exactly one of "
                         "\"machine\""));
  EXPECT_THAT(ErrorOf(Minimal(R"("sysfs": "/sys")")),
              StartsWith("scenario.json: more than one machine"));
  EXPECT_THAT(ErrorOf(Minimal(R"("policies": {"cpufreq": "schedutl"})")),
              StartsWith("scenario.json: policies.cpufreq: unknown cpufreq "
                         "policy 'schedutl' (did you mean 'schedutil'?); "
                         "known: conservative, intel_pstate"));
  EXPECT_THAT(ErrorOf(Minimal(R"("policies": {"cpuidle": "mneu"})")),
              StartsWith("scenario.json: policies.cpuidle: unknown cpuidle "
                         "policy 'mneu'"));
  EXPECT_THAT(ErrorOf(Minimal(R"("policies": {"placement": "prev2"})")),
              StartsWith("scenario.json: policies.placement: unknown "
                         "placement policy 'prev2' (did you mean 'prev'?)"));
  EXPECT_THAT(
      ErrorOf(Minimal(
          R"("policies": {"cpuidle": {"name": "menu", "params": {"repeat": true}}})")),
      StartsWith("scenario.json: policies.cpuidle.params: unknown parameter "
                 "'repeat'"));
  EXPECT_THAT(
      ErrorOf(Minimal(
          R"("policies": {"cpufreq": {"name": "schedutil", "params": {"rate_limit_us": "fast"}}})")),
      HasSubstr("policies.cpufreq.params.rate_limit_us: expected an integer "
                "(cpufreq policy 'schedutil' parameter 'rate_limit_us')"));
}

TEST(ScenarioTest, PolicyObjectsCarryParameters) {
  absl::StatusOr<Scenario> s = ParseScenario(
      Minimal(R"("policies": {"cpuidle": {"name": "menu", "params": )"
              R"({"repeat_mode_timer": true}}, "placement": "sis_abel_wu"})"),
      "scenario.json");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->policies.cpuidle, "menu");
  EXPECT_EQ(std::get<bool>(s->policies.cpuidle_params.at("repeat_mode_timer")),
            true);
  EXPECT_EQ(s->policies.placement, "sis_abel_wu");
}

TEST(ScenarioErrorTest, MachineChecks) {
  absl::StatusOr<topology::Topology> skylake =
      topology::MakePreset("skylake-e3-1240v5");
  ASSERT_TRUE(skylake.ok());
  auto check = [&](const std::string& task) {
    absl::StatusOr<Scenario> s =
        ParseScenario(Minimal(absl::StrCat(
                          R"("programs": {"p": []}, "tasks": [)", task, "]")),
                      "scenario.json");
    EXPECT_TRUE(s.ok()) << s.status();
    if (!s.ok()) return std::string();
    absl::Status status = CheckScenarioMachine(*s, *skylake);
    return std::string(status.message());
  };
  EXPECT_EQ(check(R"({"program": "p", "affinity": "0-3"})"), "");
  EXPECT_EQ(check(R"({"program": "p", "affinity": "4-15"})"),
            "scenario.json: tasks[0].affinity: '4-15' is not a CPU list of "
            "skylake-e3-1240v5 (CPUs 0-7)");
  EXPECT_EQ(check(R"({"program": "p", "start_cpu": 8})"),
            "scenario.json: tasks[0].start_cpu: CPU 8 is beyond the 8 CPUs "
            "of skylake-e3-1240v5");
  EXPECT_EQ(check(R"({"program": "p", "affinity": "0-1", "start_cpu": 3})"),
            "scenario.json: tasks[0].start_cpu: CPU 3 is not in the task's "
            "affinity 0-1");
}

TEST(ScenarioErrorTest, MissingFileIsNamed) {
  absl::StatusOr<Scenario> s = LoadScenarioFile("/nonexistent/s.json");
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.status().message()),
              StartsWith("/nonexistent/s.json: cannot open: "));
}

TEST(ScenarioRunTest, RunsAndResetsAfterWarmup) {
  absl::StatusOr<Scenario> s = ParseScenario(
      R"({"machine": "skylake-e3-1240v5", "warmup_ms": 5, "duration_ms": 20,
          "metrics": ["ticks"],
          "programs": {"p": [{"loop": 0, "body": [
              {"compute": {"cycles": 40000}}, {"sleep_ns": 1000000},
              {"mark": "ticks"}]}]},
          "tasks": [{"program": "p", "count": 2}]})",
      "scenario.json");
  ASSERT_TRUE(s.ok()) << s.status();
  absl::StatusOr<ScenarioRun> run = RunScenario(*s);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->machine.name(), "skylake-e3-1240v5");
  EXPECT_EQ(run->stats.start_ns, 5000000);
  EXPECT_EQ(run->stats.end_ns, 25000000);
  ASSERT_EQ(run->stats.metrics.size(), 1u);
  // About one mark per task per millisecond.
  EXPECT_GT(run->stats.metrics[0].count, 30u);
  EXPECT_LT(run->stats.metrics[0].count, 42u);
}

TEST(ScenarioRunTest, SimulatorErrorsNameTheFile) {
  absl::StatusOr<Scenario> s = ParseScenario(Minimal(R"("metrics": ["m"],
                 "programs": {"p": [{"loop": 0, "body": [{"mark": "m"}]}]},
                 "tasks": [{"program": "p"}])"),
                                             "scenario.json");
  ASSERT_TRUE(s.ok()) << s.status();
  absl::StatusOr<ScenarioRun> run = RunScenario(*s);
  ASSERT_FALSE(run.ok());
  EXPECT_THAT(std::string(run.status().message()),
              StartsWith("scenario.json: "));
  EXPECT_THAT(std::string(run.status().message()), HasSubstr("endless loop"));
}

}  // namespace
}  // namespace schedsim::experiments
