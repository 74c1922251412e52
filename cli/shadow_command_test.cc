// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "cli/shadow_command.h"

#include <sys/stat.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace schedsim::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Test data, relative to the runfiles root (the test's working directory).
constexpr char kLisa[] = "tests/data/lisa_sched_load_trace.txt";
constexpr char kSurfaceflinger[] =
    "tests/data/trappy_trace_surfaceflinger_ftrace.txt";

struct Result {
  int code;
  std::string out;
  std::string err;
};

Result Shadow(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int code = ShadowCommand(args, out, err);
  return {code, out.str(), err.str()};
}

std::string Arg(const std::string& flag, const std::string& value) {
  return "--" + flag + "=" + value;
}

std::string WriteTemp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(ShadowCommandTest, IdleText) {
  const Result r = Shadow({Arg("trace", kLisa), "--cpuidle=menu"});
  ASSERT_EQ(r.code, 0) << r.err;
  // The Juno trace (cpus=6) judged on the default 8-CPU Skylake.
  EXPECT_EQ(r.err,
            "schedsim shadow: warning: the trace was recorded on 6 CPUs and "
            "skylake-e3-1240v5 has 8: give the recording machine (--machine, "
            "--sysfs or --hwloc with --power-model)\n");
  EXPECT_THAT(r.out, HasSubstr("Shadow evaluation of cpuidle governor menu"));
  // The default machine.
  EXPECT_THAT(r.out, HasSubstr("Machine skylake-e3-1240v5, idle states: 0 "
                               "POLL"));
  EXPECT_THAT(r.out, HasSubstr("the time to the next tick boundary (HZ=250)"));
  EXPECT_THAT(r.out, HasSubstr("  all        237       7    3.0% |"));
  EXPECT_THAT(r.out, HasSubstr("Confusion matrix"));
}

TEST(ShadowCommandTest, TraceCmdDatIsReadByItsContent) {
  // The same recording as a trace-cmd .dat file and as `trace-cmd report`
  // text: the shadow evaluation must be the same, apart from the name.
  const std::string dat = "tests/data/tracecmd_vm_sched.dat";
  const std::string text = "tests/data/tracecmd_vm_sched_report.txt";
  for (const char* policy : {"--cpuidle=menu", "--placement=sis_util"}) {
    const Result from_dat = Shadow({Arg("trace", dat), policy});
    const Result from_text = Shadow({Arg("trace", text), policy});
    ASSERT_EQ(from_dat.code, 0) << from_dat.err;
    ASSERT_EQ(from_text.code, 0) << from_text.err;
    EXPECT_EQ(absl::StrReplaceAll(from_dat.out, {{dat, "TRACE"}}),
              absl::StrReplaceAll(from_text.out, {{text, "TRACE"}}))
        << policy;
  }
  const Result idle = Shadow({Arg("trace", dat), "--cpuidle=menu"});
  EXPECT_THAT(idle.out, HasSubstr("Idle periods: 25 over"));
}

// A trace with nothing the command can use says so (and in the JSON).
TEST(ShadowCommandTest, NothingToEvaluateIsAWarning) {
  const std::string path =
      WriteTemp("no_idle.txt",
                "cpus=8\n"
                "  sh-5 [001] 2.000000: sched_waking: comm=sh pid=6 prio=120 "
                "target_cpu=002\n");
  const Result r =
      Shadow({Arg("trace", path), "--cpuidle=menu", "--format=json"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("warning: the trace has no idle periods"));
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["warnings"].size(), 1u);  // 8 CPUs, as the machine
  const Result p = Shadow({Arg("trace", path), "--placement=sis_util"});
  ASSERT_EQ(p.code, 0) << p.err;
  EXPECT_THAT(p.err, HasSubstr("warning: the trace has no wake-ups"));
}

TEST(ShadowCommandTest, IdleJson) {
  const Result r =
      Shadow({Arg("trace", kSurfaceflinger), "--cpuidle=teo",
              "--machine=zen3-2s-nps1", "--format=json", "--hz=1000",
              "--assume-timer-us=2000", "--latency-limit-us=100"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["command"], "shadow");
  EXPECT_EQ(j["family"], "cpuidle");
  EXPECT_EQ(j["policy"], "teo");
  EXPECT_EQ(j["machine"], "zen3-2s-nps1");
  EXPECT_EQ(j["states"].size(), 3u);
  EXPECT_EQ(j["options"]["hz"], 1000);
  EXPECT_EQ(j["options"]["sleep_length"], "assumed_timer");
  EXPECT_EQ(j["options"]["assume_timer_in_ns"], 2000000);
  EXPECT_EQ(j["options"]["latency_limit_ns"], 100000);
  EXPECT_EQ(j["total"]["periods"], 310);
  EXPECT_EQ(j["cpus"].size(), 8u);
  int64_t periods = 0;
  int64_t agreements = 0;
  for (const auto& c : j["cpus"]) {
    periods += c["periods"].get<int64_t>();
    agreements += c["agreements"].get<int64_t>();
    EXPECT_EQ(c["confusion"].size(), 3u);
  }
  EXPECT_EQ(periods, 310);
  EXPECT_EQ(agreements, j["total"]["agreements"].get<int64_t>());
  const double pct = j["total"]["agreement_pct"];
  EXPECT_GE(pct, 0.0);
  EXPECT_LE(pct, 100.0);
}

TEST(ShadowCommandTest, IdleParams) {
  const Result r = Shadow({Arg("trace", kLisa), "--cpuidle=menu", "--param",
                           "repeat_mode_timer=true", "--format=json",
                           "--machine=zen3-2s-nps1"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["params"]["repeat_mode_timer"], true);
  EXPECT_EQ(j["total"]["periods"], 237);

  Result bad = Shadow({Arg("trace", kLisa), "--cpuidle=menu",
                       "--param=repeat_mode_timer=maybe"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_THAT(bad.err, HasSubstr("expects true or false"));
  bad = Shadow({Arg("trace", kLisa), "--cpuidle=menu", "--param=no_such=1"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_THAT(bad.err, HasSubstr("no_such"));
}

// `perf script` text of `perf sched record` (a real capture; its wake-ups
// are sched_waking) is a trace like any other.
TEST(ShadowCommandTest, PerfScriptCapture) {
  const std::string perf = "tests/data/perf_sched_pipe.perf.txt";
  const Result r =
      Shadow({Arg("trace", perf), "--placement=sis_util", "--format=json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["trace"], perf);
  EXPECT_EQ(j["trace_cpus"], 2);
  EXPECT_GT(j["evaluated"].get<int>(), 50);
  EXPECT_GT(j["wakings_from_next_run"].get<int>(), 50);
  const Result idle = Shadow({Arg("trace", perf), "--cpuidle=menu"});
  ASSERT_EQ(idle.code, 0) << idle.err;
  // The capture has no cpu_idle events (tests/data/README.md).
  EXPECT_THAT(idle.err, HasSubstr("warning: the trace has no idle periods"));
}

// The warning about the machine suggests --hwloc: shadow takes it.
TEST(ShadowCommandTest, HwlocMachineAsTheWarningSuggests) {
  const Result r =
      Shadow({Arg("trace", kLisa), "--placement=sis_util",
              "--hwloc=tests/data/hybrid_cpukinds.xml", "--format=json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["machine"], "hybrid_cpukinds");
  EXPECT_THAT(r.err, HasSubstr("give the recording machine (--machine, "
                               "--sysfs or --hwloc with --power-model)"));
  const Result both = Shadow({Arg("trace", kLisa), "--placement=sis_util",
                              "--machine=juno-r0", "--hwloc=x.xml"});
  EXPECT_EQ(both.code, 2);
  EXPECT_THAT(both.err,
              HasSubstr("give only one of --machine, --sysfs and --hwloc"));
}

TEST(ShadowCommandTest, PlacementTextAndJson) {
  Result r = Shadow({Arg("trace", kSurfaceflinger), "--placement=sis_util"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out,
              HasSubstr("Shadow evaluation of placement policy sis_util"));
  EXPECT_THAT(r.out, HasSubstr("Agreement with the kernel's target_cpu: "
                               "129 / 232 (55.6%)"));
  EXPECT_THAT(r.out, HasSubstr("Kernel's CPU (rows)"));

  r = Shadow({Arg("trace", kSurfaceflinger), "--placement=sis_util",
              "--format=json", "--wake-target=prev"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["family"], "placement");
  EXPECT_EQ(j["options"]["wake_target"], "prev");
  EXPECT_EQ(j["trace_cpus"], 8);
  EXPECT_EQ(j["evaluated"], 232);
  EXPECT_EQ(j["waker_targets"], 0);
  EXPECT_EQ(j["confusion"].size(), 8u);
  EXPECT_EQ(j["skipped"]["rt"], 77);
}

TEST(ShadowCommandTest, UsageErrors) {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"--cpuidle=menu"}, "--trace=FILE (or --live=SECONDS) is required"},
      {{Arg("trace", kLisa), "--live=1", "--cpuidle=menu"},
       "only one of --trace and --live"},
      {{"--live=-1", "--cpuidle=menu"}, "--live must be in (0, 3600]"},
      {{Arg("trace", kLisa), "--save-trace=x", "--cpuidle=menu"},
       "--save-trace is for --live"},
      {{Arg("trace", kLisa)}, "--cpuidle=NAME or --placement=NAME"},
      {{Arg("trace", kLisa), "--cpuidle=menu", "--placement=sis_util"},
       "only one of --cpuidle and --placement"},
      {{Arg("trace", kLisa), "--cpuidle=nosuch"},
       "unknown cpuidle policy 'nosuch'; known: "},
      {{Arg("trace", kLisa), "--placement=nosuch"},
       "unknown placement policy 'nosuch'; known: "},
      {{Arg("trace", kLisa), "--cpuidle=menu", "--format=xml"},
       "--format must be text or json"},
      {{Arg("trace", kLisa), "--cpuidle=menu", "--hz=0"}, "--hz"},
      {{Arg("trace", kLisa), "--cpuidle=menu", "--wake-target=x"},
       "--wake-target"},
      {{Arg("trace", kLisa), "--cpuidle=menu", "--machine=zen3-2s-nps1",
        "--sysfs=/sys"},
       "only one of --machine, --sysfs and --hwloc"},
      {{Arg("trace", kLisa), "--cpuidle=menu", "extra"},
       "unexpected argument 'extra'"},
      {{Arg("trace", kLisa), "--cpuidle=menu", "--nosuchflag"}, "nosuchflag"},
      {{Arg("trace", kLisa), "--cpuidle=menu", "--param"}, "--param"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    const Result r = Shadow(c.args);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_THAT(r.err, HasSubstr(c.message));
    EXPECT_THAT(r.err, HasSubstr("Usage: schedsim shadow"));
  }
  // Unknown policies list the known ones.
  Result r = Shadow({Arg("trace", kLisa), "--cpuidle=nosuch"});
  EXPECT_THAT(r.err, HasSubstr("menu"));
  EXPECT_THAT(r.err, HasSubstr("teo"));
  r = Shadow({Arg("trace", kLisa), "--placement=nosuch"});
  EXPECT_THAT(r.err, HasSubstr("sis_util"));
}

TEST(ShadowCommandTest, RunErrors) {
  // A malformed trace: the file and line.
  const std::string bad =
      WriteTemp("bad.txt",
                "cpus=1\n"
                "  <idle>-0 [000] 0.002000: cpu_idle: state=1 cpu_id=0\n"
                "  <idle>-0 [000] 0.003000: cpu_idle: state=x cpu_id=0\n");
  Result r = Shadow({Arg("trace", bad), "--cpuidle=menu"});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("bad.txt:3: cpu_idle"));
  r = Shadow({Arg("trace", bad), "--placement=sis_util"});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("bad.txt:3: cpu_idle"));
  // A state beyond the machine's table.
  const std::string deep = WriteTemp(
      "deep.txt", "  <idle>-0 [000] 0.002000: cpu_idle: state=5 cpu_id=0\n");
  r = Shadow({Arg("trace", deep), "--cpuidle=teo", "--machine=zen3-2s-nps1"});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("deep.txt:1: cpu_idle state 5"));
  // Missing trace, unknown machine.
  r = Shadow({"--trace=no/such/file.txt", "--cpuidle=menu"});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, Not(HasSubstr("Usage")));
  r = Shadow({Arg("trace", kLisa), "--cpuidle=menu", "--machine=nosuch"});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("nosuch"));
}

// --live records from tracefs (here a fake one: its buffer is empty, so
// nothing to evaluate) and puts every setting back; without tracefs it
// says how to mount it.
TEST(ShadowCommandTest, LiveRecordsFromTracefs) {
  const std::string root = ::testing::TempDir() + "/fake_tracefs";
  for (const char* dir :
       {"", "/events", "/events/power", "/events/power/cpu_idle",
        "/events/sched", "/events/sched/sched_switch",
        "/events/sched/sched_wakeup"}) {
    mkdir((root + dir).c_str(), 0755);
  }
  std::ofstream(root + "/tracing_on") << "0\n";
  std::ofstream(root + "/trace") << "# old\n";
  std::ofstream(root + "/buffer_size_kb") << "1408\n";
  for (const char* e :
       {"power/cpu_idle", "sched/sched_switch", "sched/sched_wakeup"}) {
    std::ofstream(root + "/events/" + e + "/enable") << "0\n";
  }
  const std::string saved = ::testing::TempDir() + "/live.txt";
  Result r = Shadow({"--live=0.01", Arg("tracefs", root), "--cpuidle=menu",
                     "--machine=skylake-e3-1240v5", Arg("save-trace", saved)});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("recording 0.01 s of power/cpu_idle"));
  std::ifstream on(root + "/tracing_on");
  std::string value;
  on >> value;
  EXPECT_EQ(value, "0");
  std::ifstream kept(saved);
  EXPECT_TRUE(kept.good());

  r = Shadow({"--live=0.01", "--tracefs=/no/such/tracing", "--cpuidle=menu",
              "--machine=skylake-e3-1240v5"});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("no tracefs at /no/such/tracing"));
}

// Several cpuidle governors (or `all`) are shown the same trace, each
// with its own report; --param needs a single one.
TEST(ShadowCommandTest, SeveralCpuidleGovernors) {
  Result r = Shadow({Arg("trace", kLisa), "--cpuidle=menu,teo"});
  EXPECT_EQ(r.code, 0) << r.err;
  Result menu = Shadow({Arg("trace", kLisa), "--cpuidle=menu"});
  Result teo = Shadow({Arg("trace", kLisa), "--cpuidle=teo"});
  EXPECT_EQ(r.out, menu.out + "\n" + teo.out);
  r = Shadow({Arg("trace", kLisa), "--cpuidle=all", "--format=json"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.is_array());
  EXPECT_EQ(j.size(), 4u);
  EXPECT_EQ(j[0]["policy"], "haltpoll");
  r = Shadow({Arg("trace", kLisa), "--cpuidle=menu,nosuch"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown cpuidle policy 'nosuch'"));
  r = Shadow({Arg("trace", kLisa), "--cpuidle=menu,teo", "--param=a=1"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("--param needs a single --cpuidle governor"));
}

TEST(ShadowCommandTest, Help) {
  const Result r = Shadow({"--help"});
  EXPECT_EQ(r.code, 0);
  EXPECT_THAT(r.out, HasSubstr("Usage: schedsim shadow"));
  EXPECT_THAT(r.out, HasSubstr("--cpuidle"));
}

// docs/cli-shadow.md documents the command, every flag and every JSON key.
TEST(ShadowCommandTest, Documented) {
  std::ifstream in("docs/cli-shadow.md");
  ASSERT_TRUE(in.good()) << "docs/cli-shadow.md is a data dependency";
  std::stringstream docs;
  docs << in.rdbuf();
  const std::string text = docs.str();
  EXPECT_THAT(text, HasSubstr("## `schedsim shadow`"));
  for (const char* flag :
       {"--trace", "--cpuidle", "--placement", "--param", "--machine",
        "--sysfs", "--format", "--hz", "--assume-timer-us",
        "--latency-limit-us", "--wake-target", "--sync-window-us",
        "--include-wakeup-new", "--live", "--tracefs", "--save-trace"}) {
    EXPECT_THAT(text, HasSubstr(std::string("`") + flag)) << flag;
  }
  const auto documented = [&](const nlohmann::json& object) {
    for (const auto& item : object.items()) {
      EXPECT_THAT(text, HasSubstr("`" + item.key() + "`")) << item.key();
    }
  };
  Result r = Shadow({Arg("trace", kLisa), "--cpuidle=menu", "--format=json"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  documented(j);
  documented(j["options"]);
  documented(j["states"][0]);
  documented(j["cpus"][0]);
  documented(j["cpus"][0]["governor"]);
  r = Shadow(
      {Arg("trace", kSurfaceflinger), "--placement=sis_util", "--format=json"});
  ASSERT_EQ(r.code, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  documented(j);
  documented(j["options"]);
  documented(j["skipped"]);
  documented(j["idle"]);
  documented(j["policy_chose"]);
}

}  // namespace
}  // namespace schedsim::cli
