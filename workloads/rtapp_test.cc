// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/rtapp.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sim/program.h"
#include "workloads/model_test_util.h"

namespace schedsim::workloads {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

const topology::Topology& Skylake() {
  static const topology::Topology* const t =
      new topology::Topology(Machine("skylake-e3-1240v5"));
  return *t;
}

// Two tasks in rt-app's format: a periodic SCHED_FIFO task pinned to two
// CPUs, and a phased SCHED_OTHER task (comments allowed, as json-c allows).
constexpr char kExample[] = R"({
  /* rt-app example */
  "tasks": {
    "video": {
      "instance": 2, "loop": -1, "policy": "SCHED_FIFO", "priority": 50,
      "cpus": [1, 3], "util_min": 512,
      "run0": 2000, "runtime": 500,
      "timer": { "ref": "tick", "period": 10000 }
    },
    "phased": {
      "priority": -5, "loop": 3, "delay": 100, "taskgroup": "/tg1",
      "phases": {
        "light": { "loop": 10, "sleep": 900, "run": 100 },
        "heavy": { "run": 5000, "yield": 0, "barrier": "sync" }
      }
    }
  },
  "global": { "duration": 10, "calibration": "CPU0",
              "default_policy": "SCHED_OTHER" }
})";

TEST(RtAppParseTest, Example) {
  absl::StatusOr<RtAppWorkload> r = ParseRtApp(kExample, "ex.json", Skylake());
  ASSERT_TRUE(r.ok()) << r.status();
  const sim::Workload& w = r->workload;
  EXPECT_THAT(w.metrics, ElementsAre("loop"));
  ASSERT_EQ(w.tasks.size(), 2u);
  ASSERT_EQ(w.programs.size(), 2u);

  const sim::TaskSpec& video = w.tasks[0];
  EXPECT_EQ(video.name, "video");
  EXPECT_EQ(video.count, 2);
  EXPECT_EQ(video.policy, sim::SchedPolicy::kFifo);
  EXPECT_EQ(video.rt_priority, 50);
  EXPECT_EQ(video.affinity, "1,3");
  EXPECT_EQ(video.uclamp_min, 512);
  EXPECT_EQ(video.uclamp_max, -1);
  using C = sim::OpCode;
  const sim::Program& vp = w.programs[video.program];
  EXPECT_THAT(OpCodes(vp),
              ElementsAre(C::kLoop, C::kStamp, C::kCompute, C::kCompute,
                          C::kSleep, C::kMark, C::kEndLoop, C::kExit));
  EXPECT_EQ(vp.ops[0].arg, 0);  // loop -1: forever
  // run: 2000 us at the highest frequency (3.9 GHz) in cycles.
  EXPECT_EQ(vp.ops[2].d1.a, 7800000);
  EXPECT_EQ(vp.ops[2].d2.a, 0);
  // runtime: 500 us of frequency-independent time.
  EXPECT_EQ(vp.ops[3].d1.a, 0);
  EXPECT_EQ(vp.ops[3].d2.a, 500000);
  // timer: the period less the work since the last timer.
  EXPECT_EQ(vp.ops[4].d1.a, (10000 - 2500) * 1000);

  const sim::TaskSpec& phased = w.tasks[1];
  EXPECT_EQ(phased.policy, sim::SchedPolicy::kNormal);
  EXPECT_EQ(phased.nice, -5);
  EXPECT_EQ(phased.count, 1);
  const sim::Program& pp = w.programs[phased.program];
  EXPECT_THAT(OpCodes(pp),
              ElementsAre(C::kSleep, C::kLoop, C::kStamp, C::kLoop, C::kSleep,
                          C::kCompute, C::kEndLoop, C::kCompute, C::kYield,
                          C::kBarrier, C::kMark, C::kEndLoop, C::kExit));
  EXPECT_EQ(pp.ops[0].d1.a, 100000);  // delay
  EXPECT_EQ(pp.ops[1].arg, 3);
  EXPECT_EQ(pp.ops[3].arg, 10);
  ASSERT_EQ(w.barriers.size(), 1u);
  EXPECT_EQ(w.barriers[0].name, "sync");
  EXPECT_EQ(w.barriers[0].parties, 1);

  EXPECT_THAT(r->warnings,
              ElementsAre(HasSubstr("ex.json: global.duration: ignored"),
                          HasSubstr("ex.json: tasks.phased.taskgroup")));
}

TEST(RtAppParseTest, KeyOrderIsEventOrderAndDefaults) {
  absl::StatusOr<RtAppWorkload> r = ParseRtApp(
      R"({"tasks": {"t": {"sleep": 10, "run": 20, "sleep1": 30}},
          "global": {"default_policy": "SCHED_IDLE"}})",
      "x", Skylake());
  ASSERT_TRUE(r.ok()) << r.status();
  using C = sim::OpCode;
  EXPECT_THAT(OpCodes(r->workload.programs[0]),
              ElementsAre(C::kLoop, C::kStamp, C::kSleep, C::kCompute,
                          C::kSleep, C::kMark, C::kEndLoop, C::kExit));
  EXPECT_EQ(r->workload.tasks[0].policy, sim::SchedPolicy::kIdle);
  EXPECT_EQ(r->workload.tasks[0].count, 1);
  EXPECT_THAT(r->warnings, IsEmpty());
}

// rt-app's files as json-c reads them: trailing commas, and an event key
// repeated in one phase meaning the events in that order (rt-app's
// tutorial), numbered as workgen does.
TEST(RtAppParseTest, JsonCTrailingCommasAndRepeatedEvents) {
  absl::StatusOr<RtAppWorkload> r = ParseRtApp(
      R"({"tasks": {"t": {"run": 20, "sleep": 10, "run": 30, "sleep": 40,},
                   },
          "global": {"default_policy": "SCHED_OTHER",},})",
      "x", Skylake());
  ASSERT_TRUE(r.ok()) << r.status();
  using C = sim::OpCode;
  EXPECT_THAT(
      OpCodes(r->workload.programs[0]),
      ElementsAre(C::kLoop, C::kStamp, C::kCompute, C::kSleep, C::kCompute,
                  C::kSleep, C::kMark, C::kEndLoop, C::kExit));
  EXPECT_EQ(r->workload.programs[0].ops[5].d1.a, 40000);  // the second sleep
  EXPECT_THAT(r->warnings, IsEmpty());
}

std::string ErrorOf(const std::string& json) {
  absl::StatusOr<RtAppWorkload> r = ParseRtApp(json, "bad.json", Skylake());
  EXPECT_FALSE(r.ok()) << json;
  return r.ok() ? "" : std::string(r.status().message());
}

// Issue 49 #16: "expected an integer (us), got 1e+18" did not say that the
// form (an exponent) is what is refused, nor the range.
TEST(RtAppParseTest, ANonIntegerNumberIsToldItsRangeAndForm) {
  const std::string e = ErrorOf(R"({"tasks": {"t": {"run": 1e18}}})");
  EXPECT_THAT(e, HasSubstr("bad.json: tasks.t.run: expected an integer (us "
                           "of work at maximum capacity) in 0..1099511627776"));
  EXPECT_THAT(e, HasSubstr(", written without a fraction or an exponent, got "
                           "1e+18"));
}

TEST(RtAppParseTest, ErrorsNameTheFileAndTheJsonPath) {
  EXPECT_THAT(ErrorOf("{\"tasks\": "), HasSubstr("bad.json: invalid JSON"));
  EXPECT_THAT(ErrorOf("[]"), HasSubstr("bad.json: (top level)"));
  EXPECT_THAT(ErrorOf("{}"), HasSubstr("missing \"tasks\""));
  EXPECT_THAT(ErrorOf(R"({"tasks": {"t": {"run": "long"}}})"),
              HasSubstr("bad.json: tasks.t.run: expected an integer"));
  EXPECT_THAT(ErrorOf(R"({"tasks": {"t": {"run": -5}}})"),
              HasSubstr("tasks.t.run: "));
  EXPECT_THAT(ErrorOf(R"({"tasks": {"t": {"run": 10, "mem": 4096}}})"),
              HasSubstr("tasks.t.mem: rt-app event \"mem\" is not "
                        "supported"));
  EXPECT_THAT(
      ErrorOf(
          R"({"tasks": {"t": {"phases": {"p": {"run": 10, "iorun": 1}}}}})"),
      HasSubstr("tasks.t.phases.p.iorun: rt-app event \"iorun\" is not "
                "supported"));
  EXPECT_THAT(
      ErrorOf(R"({"tasks": {"t": {"run": 10, "wait": {"ref": "q"}}}})"),
      HasSubstr("tasks.t.wait: expected {\"ref\": a condition, \"mutex\""));
  EXPECT_THAT(ErrorOf(R"({"tasks": {"t": {"run": 10, "signal": 3}}})"),
              HasSubstr("tasks.t.signal: expected a string"));
  EXPECT_THAT(ErrorOf(R"({"tasks": {"t": {"phases": {"p": {"run": 1,
                                                   "policy": "SCHED_FIFO"}}}}})"),
              HasSubstr("tasks.t.phases.p.policy: per-phase task property "
                        "\"policy\" is not supported"));
  EXPECT_THAT(ErrorOf(R"({"tasks": {"t": {"run": 10, "bogus": 1}}})"),
              HasSubstr("tasks.t.bogus: unknown key"));
  EXPECT_THAT(ErrorOf(R"({"tasks": {"t": {"run": 10, "cpus": [0, 8]}}})"),
              HasSubstr("tasks.t.cpus[1]: "));
  EXPECT_THAT(
      ErrorOf(R"({"tasks": {"t": {"run": 10, "policy": "SCHED_DEADLINE"}}})"),
      HasSubstr("tasks.t.policy: SCHED_DEADLINE not modelled"));
  EXPECT_THAT(ErrorOf(R"({"tasks": {"t": {"run": 10, "loop": 0}}})"),
              HasSubstr("tasks.t.loop: "));
  EXPECT_THAT(
      ErrorOf(R"({"tasks": {"t": {"phases": {"p1": {"sleep": "x"}}}}})"),
      HasSubstr("tasks.t.phases.p1.sleep: expected an integer"));
  EXPECT_THAT(ErrorOf(R"({"tasks": {"t": {"yield": 0}}})"),
              HasSubstr("tasks.t: the task neither runs nor sleeps"));
  EXPECT_THAT(ErrorOf(R"({"tasks": {"t": {"run": 1, "timer": {"ref": "a"}}}})"),
              HasSubstr("tasks.t.timer: expected"));
  EXPECT_THAT(ErrorOf(R"({"tasks": {"t": {"policy": "SCHED_FIFO", "priority": 0,
                                  "run": 1}}})"),
              HasSubstr("tasks.t.priority: an RT priority must be in 1..99"));
  // Issue 14 #2: a number too large for a double ended in std::terminate.
  EXPECT_THAT(ErrorOf(R"({"tasks": {"t": {"run": 1e400}}})"),
              HasSubstr("bad.json: tasks.t.run: invalid JSON: a number out "
                        "of range"));
  EXPECT_THAT(ErrorOf(R"({"tasks": {"t": {"cpus": [0, -1e999]}}})"),
              HasSubstr("bad.json: tasks.t.cpus[1]: invalid JSON"));
}

TEST(RtAppParseTest, LoadsFilesAndNamesThem) {
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(dir ? dir : "/tmp") + "/rtapp_test.json";
  {
    std::ofstream out(path);
    out << R"({"tasks": {"t": {"run": 10, "sleep": "x"}}})";
  }
  absl::StatusOr<RtAppWorkload> r = LoadRtAppFile(path, Skylake());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr(path + ": tasks.t.sleep"));
  {
    std::ofstream out(path);
    out << R"({"tasks": {"t": {"run": 10, "sleep": 90}}})";
  }
  EXPECT_TRUE(LoadRtAppFile(path, Skylake()).ok());
  absl::StatusOr<RtAppWorkload> missing =
      LoadRtAppFile(path + ".missing", Skylake());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
}

double LoopUs(const std::string& json, const std::string& freq) {
  RunOptions o;
  o.freq = freq;
  o.warmup_ms = 20;
  o.duration_ms = 100;
  absl::StatusOr<ModelRun> r = RunModel("rtapp", {{"json", json}}, o);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? r->metrics.at("loop_us_mean") : 0.0;
}

// `run` is work at maximum capacity: it lasts longer at a low frequency;
// `runtime` does not.
TEST(RtAppModelTest, RunScalesWithFrequencyRuntimeDoesNot) {
  const std::string run =
      R"({"tasks": {"t": {"run": 1000, "timer": {"ref": "a", "period": 4000}}}})";
  const std::string runtime =
      R"({"tasks": {"t": {"runtime": 1000, "sleep": 3000}}})";
  const double run_fast = LoopUs(run, "performance");
  const double run_slow = LoopUs(run, "powersave");
  EXPECT_NEAR(run_fast, 4000, 100);
  // Between 0.8 and 1.0 GHz (powersave on HWP: the hardware picks near the
  // lowest level).
  EXPECT_GT(run_slow, 3000 + 1000 * 3.9 / 1.0);
  EXPECT_LT(run_slow, 3000 + 1000 * 3.9 / 0.8 + 100);
  EXPECT_NEAR(LoopUs(runtime, "performance"), 4000, 100);
  EXPECT_NEAR(LoopUs(runtime, "powersave"), 4000, 100);
}

// suspend/resume: a task runs only when another resumes it, so the two
// alternate and the suspended one's loop lasts the resumer's period.
TEST(RtAppModelTest, SuspendWaitsForResume) {
  const std::string json = R"({"tasks": {
      "waker": {"run": 500, "resume": "w", "timer": {"ref": "t", "period": 5000}},
      "w": {"suspend": "w", "run": 200}}})";
  absl::StatusOr<RtAppWorkload> r = ParseRtApp(json, "x", Skylake());
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->workload.channels.size(), 1u);
  EXPECT_EQ(r->workload.channels[0].name, "cond:w");
  using C = sim::OpCode;
  EXPECT_THAT(OpCodes(r->workload.programs[1]),
              ElementsAre(C::kLoop, C::kStamp, C::kRecv, C::kCompute, C::kMark,
                          C::kEndLoop, C::kExit));
  RunOptions o;
  o.freq = "performance";
  o.warmup_ms = 20;
  o.duration_ms = 100;
  absl::StatusOr<ModelRun> run = RunModel("rtapp", {{"json", json}}, o);
  ASSERT_TRUE(run.ok()) << run.status();
  // Two tasks x one loop per 5 ms.
  EXPECT_NEAR(run->metrics.at("loops_per_s"), 400, 30);
}

// lock/unlock: a mutex held for 2 ms by each of two tasks on different
// CPUs: one critical section at a time, so at most 500 loops/s between
// them (1000 without the mutex; like a futex mutex, the one that unlocks
// may take it again before the woken waiter runs). sem_post/sem_wait and
// fork into an instance-0 task.
TEST(RtAppModelTest, MutexSemaphoreAndFork) {
  const std::string mutex = R"({"tasks": {
      "a": {"cpus": [0], "lock": "m", "runtime": 2000, "unlock": "m"},
      "b": {"cpus": [2], "lock": "m", "runtime": 2000, "unlock": "m"}}})";
  absl::StatusOr<RtAppWorkload> r = ParseRtApp(mutex, "x", Skylake());
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->workload.channels.size(), 1u);
  EXPECT_EQ(r->workload.channels[0].initial_messages, 1);
  RunOptions mo;
  mo.freq = "performance";
  mo.warmup_ms = 20;
  mo.duration_ms = 100;
  absl::StatusOr<ModelRun> m = RunModel("rtapp", {{"json", mutex}}, mo);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_LT(m->metrics.at("loops_per_s"), 520);
  EXPECT_GT(m->metrics.at("loops_per_s"), 450);

  const std::string forked = R"({"tasks": {
      "parent": {"loop": 1, "fork": "child", "sem_wait": "done", "run": 10},
      "child": {"instance": 0, "loop": 1, "run": 100, "sem_post": "done"}}})";
  r = ParseRtApp(forked, "x", Skylake());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->workload.tasks[1].count, 0);  // started by the fork only
  using C = sim::OpCode;
  const std::vector<C> parent = OpCodes(r->workload.programs[0]);
  ASSERT_GE(parent.size(), 3u);
  EXPECT_EQ(r->workload.programs[0].ops[2].code, C::kFork);
  EXPECT_EQ(r->workload.programs[0].ops[2].arg, 1);  // the child's program
  RunOptions o;
  o.warmup_ms = 0;
  o.duration_ms = 20;
  absl::StatusOr<ModelRun> run = RunModel("rtapp", {{"json", forked}}, o);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->stats.metrics[0].count, 2u);  // the parent's and the child's
  EXPECT_THAT(ParseRtApp(R"({"tasks": {"p": {"run": 1, "fork": "nobody"}}})",
                         "x", Skylake())
                  .status()
                  .message(),
              HasSubstr("tasks.p.fork: no task \"nobody\" to fork"));
}

// wait/signal/broad/sync: condition variables on a mutex. A broad wakes
// every waiting instance, a signal one; a task does not take its own
// signal (a signal nobody else waits for wakes no one).
TEST(RtAppModelTest, ConditionVariables) {
  auto json = [](const std::string& wake) {
    return absl::StrCat(R"({"tasks": {
      "w": {"instance": 3, "lock": "m", "wait": {"ref": "q", "mutex": "m"},
            "unlock": "m", "run": 100},
      "b": {"run": 100, "lock": "m", ")",
                        wake, R"(": "q", "unlock": "m",
            "timer": {"ref": "t", "period": 10000}}}})");
  };
  absl::StatusOr<RtAppWorkload> r = ParseRtApp(json("broad"), "x", Skylake());
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->workload.channels.size(), 2u);
  EXPECT_EQ(r->workload.channels[0].name, "mutex:m");
  EXPECT_EQ(r->workload.channels[1].name, "condvar:q@w");
  using C = sim::OpCode;
  // The wait: unlock (send), wait on its own channel, lock again.
  EXPECT_THAT(
      OpCodes(r->workload.programs[0]),
      ElementsAre(C::kLoop, C::kStamp, C::kRecv, C::kSend, C::kRecv, C::kRecv,
                  C::kSend, C::kCompute, C::kMark, C::kEndLoop, C::kExit));
  // The broad: a message per waiting instance.
  EXPECT_THAT(OpCodes(r->workload.programs[1]),
              ElementsAre(C::kLoop, C::kStamp, C::kCompute, C::kRecv, C::kSend,
                          C::kSend, C::kSend, C::kSend, C::kSleep, C::kMark,
                          C::kEndLoop, C::kExit));
  RunOptions o;
  o.freq = "performance";
  o.warmup_ms = 20;
  o.duration_ms = 200;
  absl::StatusOr<ModelRun> broad =
      RunModel("rtapp", {{"json", json("broad")}}, o);
  ASSERT_TRUE(broad.ok()) << broad.status();
  // 100 loops/s of b, and of each of w's 3 instances.
  EXPECT_NEAR(broad->metrics.at("loops_per_s"), 400, 30);
  absl::StatusOr<ModelRun> signal =
      RunModel("rtapp", {{"json", json("signal")}}, o);
  ASSERT_TRUE(signal.ok()) << signal.status();
  EXPECT_NEAR(signal->metrics.at("loops_per_s"), 200, 30);

  // sync = signal, then wait: a handshake between two tasks, which
  // alternate (one loop each per 2 x 1 ms).
  const std::string sync = R"({"tasks": {
      "a": {"cpus": [0], "lock": "m", "sync": {"ref": "q", "mutex": "m"},
            "unlock": "m", "runtime": 1000},
      "b": {"cpus": [2], "lock": "m", "wait": {"ref": "q", "mutex": "m"},
            "unlock": "m", "runtime": 1000, "lock": "m", "signal": "q",
            "unlock": "m"}}})";
  absl::StatusOr<ModelRun> handshake = RunModel("rtapp", {{"json", sync}}, o);
  ASSERT_TRUE(handshake.ok()) << handshake.status();
  EXPECT_GT(handshake->metrics.at("loops_per_s"), 600);
  EXPECT_LT(handshake->metrics.at("loops_per_s"), 1050);

  // Alone on its condition: the signal wakes no one (a warning), and the
  // task then waits for good, as in rt-app.
  r = ParseRtApp(R"({"tasks": {"solo": {"run": 10, "lock": "m",
      "signal": "q", "wait": {"ref": "q", "mutex": "m"}, "unlock": "m"}}})",
                 "x", Skylake());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(r->warnings, ElementsAre(HasSubstr(
                               "x: tasks.solo.signal: no other task waits on "
                               "\"q\": this wakes no one")));
  // A signal to one of several waiting tasks cannot pick the first.
  EXPECT_THAT(ErrorOf(R"({"tasks": {
      "w1": {"lock": "m", "wait": {"ref": "q", "mutex": "m"}, "unlock": "m"},
      "w2": {"lock": "m", "wait": {"ref": "q", "mutex": "m"}, "unlock": "m"},
      "s": {"run": 10, "signal": "q"}}})"),
              HasSubstr("tasks.s.signal: signal of \"q\", which several "
                        "tasks wait on (w1, w2), is not supported"));
}

// Accepted with a warning: a per-phase taskgroup (no cgroups) and a key
// without a value (video-short.json's "suspend",). SCHED_OTHER's custom
// slice (dl-runtime) is the task's requested slice (EEVDF, 6.12).
TEST(RtAppParseTest, IgnoredWithAWarning) {
  absl::StatusOr<RtAppWorkload> r = ParseRtApp(R"({"tasks": {
      "t": {"dl-runtime": 100000, "phases": {
              "p0": {"run": 10, "sleep": 90, "taskgroup": "/tg1"},
              "p1": {"suspend",
                     "run": 10}}},
      "u": {"run": 5, "resume": "t", "sleep": 100}}})",
                                               "x.json", Skylake());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(
      r->warnings,
      ElementsAre(
          HasSubstr("x.json: line 4: suspend: a key without a value, read as "
                    "the empty string"),
          HasSubstr("x.json: tasks.t.phases.p0.taskgroup: ignored: the "
                    "simulator has no task groups")));
  ASSERT_FALSE(r->workload.tasks.empty());
  EXPECT_EQ(r->workload.tasks[0].slice_ns, 100000000);
}

TEST(RtAppModelTest, NeedsExactlyOneSource) {
  RunOptions o;
  absl::StatusOr<ModelRun> r = RunModel("rtapp", {}, o);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("exactly one of"));
}

// LISA-style templates: unquoted placeholders are not JSON until defined.
TEST(RtAppTest, TemplateDefines) {
  constexpr char kTemplate[] = R"({
    "global": {"duration": __DURATION__, "logdir": "__LOGDIR__"},
    "tasks": {"t": {"loop": __LOOPS__, "run": __RUN_US__, "sleep": 1000}}})";
  absl::StatusOr<RtAppWorkload> missing =
      ParseRtApp(kTemplate, "tmpl.json", Skylake(), {{"__RUN_US__", "500"}});
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(std::string(missing.status().message()),
              HasSubstr("tmpl.json: template placeholders __DURATION__, "
                        "__LOGDIR__, __LOOPS__ without a value (give each "
                        "with --define=NAME=VALUE"));
  absl::StatusOr<RtAppWorkload> r = ParseRtApp(
      kTemplate, "tmpl.json", Skylake(),
      {{"__DURATION__", "2"}, {"__LOOPS__", "5"}, {"__RUN_US__", "500"}});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->workload.tasks.size(), 1u);
  // __LOGDIR__ is inside a string: the file parses, with a warning.
  EXPECT_THAT(r->warnings,
              Contains(HasSubstr("template placeholder __LOGDIR__ left as "
                                 "text")));
  // Without any placeholder, a syntax error is reported as before.
  absl::StatusOr<RtAppWorkload> bad =
      ParseRtApp("{\"tasks\": [}", "bad.json", Skylake(), {});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()),
              ::testing::Not(HasSubstr("placeholder")));
}

TEST(RtAppTest, DefinesParameterText) {
  absl::StatusOr<RtAppDefines> d = ParseRtAppDefines("__A__=1,__B__=x=y");
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->at("__A__"), "1");
  EXPECT_EQ(d->at("__B__"), "x=y");
  EXPECT_TRUE(ParseRtAppDefines("").ok());
  EXPECT_FALSE(ParseRtAppDefines("__A__").ok());
  EXPECT_FALSE(ParseRtAppDefines("=1").ok());
}

}  // namespace
}  // namespace schedsim::workloads
