// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/replay.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "platform/registry.h"
#include "sim/program.h"
#include "sim/simulator.h"
#include "topology/presets.h"
#include "traces/ftrace.h"

namespace schedsim::workloads {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

// Test data, relative to the runfiles root (the test's working directory).
constexpr char kLisa[] = "tests/data/lisa_sched_load_trace.txt";
constexpr char kSurfaceflinger[] =
    "tests/data/trappy_trace_surfaceflinger_ftrace.txt";

const ReplayTask* FindTask(const Replay& r, int pid) {
  for (const ReplayTask& t : r.tasks) {
    if (t.pid == pid) return &t;
  }
  return nullptr;
}

std::string WriteTemp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

// Time each pid ran, computed from sched_switch alone: a CPU runs the next
// task of its last switch; the task running at a CPU's first switch has run
// since the CPU's first event. Independent of the replay's bookkeeping.
std::map<int, int64_t> RunTimeBySwitches(const std::string& path) {
  std::map<int, int64_t> run;
  std::map<int, int64_t> first_ns;                 // per CPU
  std::map<int, std::pair<int, int64_t>> running;  // CPU -> (pid, since)
  int64_t last = 0;
  absl::Status s =
      traces::ForEachFtraceEvent(path, [&](const traces::TraceEvent& e) {
        first_ns.emplace(e.cpu, e.timestamp_ns);
        last = e.timestamp_ns;
        if (e.type != traces::EventType::kSchedSwitch) {
          return absl::OkStatus();
        }
        auto it = running.find(e.cpu);
        const int64_t since =
            it == running.end() ? first_ns[e.cpu] : it->second.second;
        if (e.prev_pid > 0) run[e.prev_pid] += e.timestamp_ns - since;
        running[e.cpu] = {e.next_pid, e.timestamp_ns};
        return absl::OkStatus();
      });
  EXPECT_TRUE(s.ok()) << s;
  for (const auto& [cpu, r] : running) {
    if (r.first > 0) run[r.first] += last - r.second;
  }
  return run;
}

TEST(ReplayTest, SurfaceflingerTasksAndRunTimes) {
  absl::StatusOr<Replay> r = ReplayTrace(kSurfaceflinger, ReplayOptions());
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->workload.tasks.size(), r->tasks.size());
  ASSERT_EQ(r->workload.programs.size(), r->tasks.size());
  EXPECT_GT(r->tasks.size(), 20u);
  // The tracer (atrace, pid 7952) is left out; pid 0 is never a task.
  EXPECT_THAT(r->excluded_pids, Contains(7952));
  EXPECT_EQ(FindTask(*r, 7952), nullptr);
  EXPECT_EQ(FindTask(*r, 0), nullptr);
  // The trace spans 538.064659 .. 538.802729 s.
  EXPECT_EQ(r->start_ns, 538064659000);
  EXPECT_EQ(r->end_ns, 538802729000);

  const std::map<int, int64_t> expected = RunTimeBySwitches(kSurfaceflinger);
  for (size_t i = 0; i < r->tasks.size(); ++i) {
    const ReplayTask& t = r->tasks[i];
    SCOPED_TRACE(t.comm + "-" + std::to_string(t.pid));
    ASSERT_EQ(expected.count(t.pid), 1u);
    EXPECT_EQ(t.run_ns, expected.at(t.pid));
    EXPECT_GT(t.cycles, 0);
    EXPECT_GT(t.bursts, 0);
    // Straight-line: compute, sleep, IO wait, exit.
    const sim::Program& p = r->workload.programs[r->workload.tasks[i].program];
    ASSERT_FALSE(p.ops.empty());
    EXPECT_EQ(p.ops.back().code, sim::OpCode::kExit);
    int64_t cycles = 0;
    for (const sim::Op& op : p.ops) {
      EXPECT_THAT(op.code,
                  ::testing::AnyOf(sim::OpCode::kCompute, sim::OpCode::kSleep,
                                   sim::OpCode::kIoWait, sim::OpCode::kExit));
      if (op.code == sim::OpCode::kCompute) cycles += op.d1.a;
      if (op.code != sim::OpCode::kExit) {
        EXPECT_GT(op.d1.a, 0);
      }
    }
    EXPECT_EQ(cycles, t.cycles);
    EXPECT_EQ(r->workload.tasks[i].name, t.comm + "-" + std::to_string(t.pid));
  }
}

// A tracefs-format trace with known answers (times in ms after 10 s):
//   app (pid 100): runs 1-3 on CPU 0 at 1 GHz then 2 GHz; sleeps (S) to
//   its wake-up at 4; runs 4.5-5.5 on CPU 1 (no cpu_frequency: nominal);
//   blocks in D until it is switched in at 7.5 (no wake-up recorded); runs
//   7.5-8, is preempted by `other`, runs 9-10 and exits.
//   other (pid 200, prio 100): runs 8-9 at 2 GHz, then sleeps.
//   trace-cmd (pid 300): runs 6-6.5 on CPU 1.
//   rt (pid 400, prio 49): runs 6.5-7 on CPU 1.
constexpr char kSynthetic[] =
    "# tracer: nop\n"
    "#P:2\n"
    "  <idle>-0 [000] d..2 10.000000: cpu_frequency: state=1000000 "
    "cpu_id=0\n"
    "  <idle>-0 [000] d..3 10.001000: sched_switch: prev_comm=swapper/0 "
    "prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=app next_pid=100 "
    "next_prio=120\n"
    "  app-100  [000] d..2 10.002000: cpu_frequency: state=2000000 "
    "cpu_id=0\n"
    "  app-100  [000] d..3 10.003000: sched_switch: prev_comm=app "
    "prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 "
    "next_pid=0 next_prio=120\n"
    "  <idle>-0 [001] d.h3 10.004000: sched_wakeup: comm=app pid=100 "
    "prio=120 target_cpu=001\n"
    "  <idle>-0 [001] d..3 10.004500: sched_switch: prev_comm=swapper/1 "
    "prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=app next_pid=100 "
    "next_prio=120\n"
    "  app-100  [001] d..3 10.005500: sched_switch: prev_comm=app "
    "prev_pid=100 prev_prio=120 prev_state=D ==> next_comm=swapper/1 "
    "next_pid=0 next_prio=120\n"
    "  <idle>-0 [001] d..3 10.006000: sched_switch: prev_comm=swapper/1 "
    "prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=trace-cmd "
    "next_pid=300 next_prio=120\n"
    "  trace-cmd-300 [001] d..3 10.006500: sched_switch: "
    "prev_comm=trace-cmd prev_pid=300 prev_prio=120 prev_state=S ==> "
    "next_comm=rt next_pid=400 next_prio=49\n"
    "  rt-400   [001] d..3 10.007000: sched_switch: prev_comm=rt prev_pid=400 "
    "prev_prio=49 prev_state=S ==> next_comm=swapper/1 next_pid=0 "
    "next_prio=120\n"
    "  <idle>-0 [000] d..3 10.007500: sched_switch: prev_comm=swapper/0 "
    "prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=app next_pid=100 "
    "next_prio=120\n"
    "  app-100  [000] d..3 10.008000: sched_switch: prev_comm=app "
    "prev_pid=100 prev_prio=120 prev_state=R+ ==> next_comm=other "
    "next_pid=200 next_prio=100\n"
    "  other-200 [000] d..3 10.009000: sched_switch: prev_comm=other "
    "prev_pid=200 prev_prio=100 prev_state=S ==> next_comm=app next_pid=100 "
    "next_prio=120\n"
    "  app-100  [000] d..3 10.010000: sched_switch: prev_comm=app "
    "prev_pid=100 prev_prio=120 prev_state=x ==> next_comm=swapper/0 "
    "next_pid=0 next_prio=120\n";

constexpr int64_t kMs = 1000000;

struct OpValue {
  sim::OpCode code;
  int64_t value;
  bool operator==(const OpValue& o) const {
    return code == o.code && value == o.value;
  }
};
std::ostream& operator<<(std::ostream& os, const OpValue& v) {
  return os << sim::OpCodeName(v.code) << "(" << v.value << ")";
}

std::vector<OpValue> Ops(const sim::Program& p) {
  std::vector<OpValue> ops;
  for (const sim::Op& op : p.ops) {
    ops.push_back({op.code, op.code == sim::OpCode::kLoop ||
                                    op.code == sim::OpCode::kEndLoop
                                ? op.arg
                                : op.d1.a});
  }
  return ops;
}

const sim::Program& ProgramOf(const Replay& r, int pid) {
  for (size_t i = 0; i < r.tasks.size(); ++i) {
    if (r.tasks[i].pid == pid) {
      return r.workload.programs[r.workload.tasks[i].program];
    }
  }
  static const sim::Program empty;
  ADD_FAILURE() << "no task " << pid;
  return empty;
}

const sim::TaskSpec* SpecOf(const Replay& r, int pid) {
  for (size_t i = 0; i < r.tasks.size(); ++i) {
    if (r.tasks[i].pid == pid) return &r.workload.tasks[i];
  }
  return nullptr;
}

// `perf script` text of `perf sched record` replays: the benchmark's two
// sched-pipe processes (15444 and its child 15446) are tasks whose run time
// is their sched_switch time.
TEST(ReplayTest, PerfScriptCapture) {
  constexpr char kPerf[] = "tests/data/perf_sched_pipe.perf.txt";
  absl::StatusOr<Replay> r = ReplayTrace(kPerf, ReplayOptions());
  ASSERT_TRUE(r.ok()) << r.status();
  const std::map<int, int64_t> expected = RunTimeBySwitches(kPerf);
  for (int pid : {15444, 15446}) {
    const ReplayTask* t = FindTask(*r, pid);
    ASSERT_NE(t, nullptr) << pid;
    EXPECT_EQ(t->comm, "sched-pipe");
    EXPECT_GT(t->run_ns, 0);
    ASSERT_EQ(expected.count(pid), 1u);
    EXPECT_EQ(t->run_ns, expected.at(pid));
  }
}

TEST(ReplayTest, SyntheticProgramsExactly) {
  const std::string path = WriteTemp("synthetic.txt", kSynthetic);
  ReplayOptions options;
  options.nominal_khz = 500000;
  absl::StatusOr<Replay> r = ReplayTrace(path, options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->start_ns, 10000 * kMs);
  EXPECT_EQ(r->end_ns, 10010 * kMs);
  // trace-cmd is the tracer: left out.
  EXPECT_THAT(r->excluded_pids, ::testing::ElementsAre(300));
  ASSERT_EQ(r->tasks.size(), 3u);

  using C = sim::OpCode;
  // 1 ms at 1 GHz + 1 ms at 2 GHz; 1 ms at 0.5 GHz; 0.5 + 1 ms at 2 GHz
  // (one compute phase across the preemption).
  EXPECT_THAT(Ops(ProgramOf(*r, 100)),
              ::testing::ElementsAre(
                  OpValue{C::kSleep, 1 * kMs}, OpValue{C::kCompute, 3000000},
                  OpValue{C::kSleep, 1 * kMs}, OpValue{C::kCompute, 500000},
                  OpValue{C::kIoWait, 2 * kMs}, OpValue{C::kCompute, 3000000},
                  OpValue{C::kExit, 0}));
  const ReplayTask* app = FindTask(*r, 100);
  ASSERT_NE(app, nullptr);
  EXPECT_EQ(app->comm, "app");
  EXPECT_EQ(app->first_ns, 10001 * kMs);
  EXPECT_EQ(app->run_ns, 4500000);
  EXPECT_EQ(app->cycles, 6500000);
  EXPECT_EQ(app->sleep_ns, 1 * kMs);
  EXPECT_EQ(app->iowait_ns, 2 * kMs);
  EXPECT_EQ(app->bursts, 4);
  EXPECT_EQ(app->sleeps, 2);
  EXPECT_TRUE(app->exited);
  EXPECT_EQ(SpecOf(*r, 100)->nice, 0);
  EXPECT_EQ(SpecOf(*r, 100)->name, "app-100");

  EXPECT_THAT(Ops(ProgramOf(*r, 200)),
              ::testing::ElementsAre(OpValue{C::kSleep, 8 * kMs},
                                     OpValue{C::kCompute, 2000000},
                                     OpValue{C::kExit, 0}));
  EXPECT_EQ(SpecOf(*r, 200)->nice, -20);
  EXPECT_FALSE(FindTask(*r, 200)->exited);

  EXPECT_THAT(Ops(ProgramOf(*r, 400)),
              ::testing::ElementsAre(OpValue{C::kSleep, 6500000},
                                     OpValue{C::kCompute, 250000},
                                     OpValue{C::kExit, 0}));
  EXPECT_EQ(SpecOf(*r, 400)->policy, sim::SchedPolicy::kFifo);
  EXPECT_EQ(SpecOf(*r, 400)->rt_priority, 50);
  EXPECT_EQ(r->total_run_ns(), 4500000 + 1 * kMs + 500000);

  // ReplayWorkload gives the same workload.
  absl::StatusOr<sim::Workload> w = ReplayWorkload(path, options);
  ASSERT_TRUE(w.ok()) << w.status();
  EXPECT_EQ(w->tasks.size(), 3u);
}

// A task running when tracing began (its CPU's first event names it)
// counts from that event, at the frequencies of the time.
TEST(ReplayTest, TaskRunningAtTheStart) {
  const std::string path = WriteTemp(
      "leading.txt",
      "  busy-900 [002] d..2 20.000000: cpu_frequency: state=1000000 "
      "cpu_id=2\n"
      "  busy-900 [002] d..2 20.001000: cpu_frequency: state=3000000 "
      "cpu_id=2\n"
      "  busy-900 [002] d..3 20.002000: sched_switch: prev_comm=busy "
      "prev_pid=900 prev_prio=120 prev_state=S ==> next_comm=swapper/2 "
      "next_pid=0 next_prio=120\n");
  absl::StatusOr<Replay> r = ReplayTrace(path, ReplayOptions());
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->tasks.size(), 1u);
  EXPECT_EQ(r->tasks[0].comm, "busy");
  EXPECT_EQ(r->tasks[0].run_ns, 2 * kMs);
  EXPECT_EQ(r->tasks[0].cycles, 1000000 + 3000000);
  EXPECT_THAT(Ops(ProgramOf(*r, 900)),
              ::testing::ElementsAre(OpValue{sim::OpCode::kCompute, 4000000},
                                     OpValue{sim::OpCode::kExit, 0}));
}

TEST(ReplayTest, LoopRepeatsTheWholeTimeline) {
  const std::string path = WriteTemp("synthetic_loop.txt", kSynthetic);
  ReplayOptions options;
  options.nominal_khz = 500000;
  options.loop = true;
  absl::StatusOr<Replay> r = ReplayTrace(path, options);
  ASSERT_TRUE(r.ok()) << r.status();
  using C = sim::OpCode;
  // `other` sleeps from 9 ms to the end of the trace (10 ms) before the
  // next iteration.
  EXPECT_THAT(Ops(ProgramOf(*r, 200)),
              ::testing::ElementsAre(
                  OpValue{C::kLoop, 0}, OpValue{C::kSleep, 8 * kMs},
                  OpValue{C::kCompute, 2000000}, OpValue{C::kSleep, 1 * kMs},
                  OpValue{C::kEndLoop, 0}, OpValue{C::kExit, 0}));
  EXPECT_EQ(ProgramOf(*r, 200).loop_depth, 1);
}

TEST(ReplayTest, TasksOptionSelectsByCommOrPid) {
  const std::string path = WriteTemp("synthetic_sel.txt", kSynthetic);
  ReplayOptions options;
  options.tasks = {"trace-cmd", "200"};
  absl::StatusOr<Replay> r = ReplayTrace(path, options);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->tasks.size(), 2u);
  EXPECT_EQ(r->tasks[0].pid, 200);
  EXPECT_EQ(r->tasks[1].pid, 300);  // named explicitly: kept
  EXPECT_THAT(r->excluded_pids, ::testing::ElementsAre(100, 400));

  options.tasks = {"no-such-task"};
  r = ReplayTrace(path, options);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("'no-such-task' matches no"));

  // Without the tracer list, the tracer is replayed too.
  options.tasks.clear();
  options.exclude_comms.clear();
  r = ReplayTrace(path, options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_NE(FindTask(*r, 300), nullptr);
}

// Arm Juno, trace-cmd report format, no wake-up events: sleeps end at the
// next switch in; kworker/2:1 blocks in D.
TEST(ReplayTest, LisaWithoutWakeups) {
  absl::StatusOr<Replay> r = ReplayTrace(kLisa, ReplayOptions());
  ASSERT_TRUE(r.ok()) << r.status();
  const std::map<int, int64_t> expected = RunTimeBySwitches(kLisa);
  int64_t expected_total = 0;
  for (const auto& [pid, ns] : expected) expected_total += ns;
  int64_t excluded_total = 0;
  for (int pid : r->excluded_pids) {
    if (expected.count(pid) > 0) excluded_total += expected.at(pid);
  }
  EXPECT_EQ(r->total_run_ns() + excluded_total, expected_total);
  const ReplayTask* kworker = FindTask(*r, 2923);
  ASSERT_NE(kworker, nullptr);
  EXPECT_EQ(kworker->comm, "kworker/2:1");
  EXPECT_GT(kworker->iowait_ns, 0);
  bool has_iowait = false;
  for (const sim::Op& op : ProgramOf(*r, 2923).ops) {
    has_iowait |= op.code == sim::OpCode::kIoWait;
  }
  EXPECT_TRUE(has_iowait);
  for (const ReplayTask& t : r->tasks) {
    EXPECT_THAT(t.comm, Not(::testing::AnyOf("trace-cmd", "perf")));
  }
}

// The surfaceflinger trace's tasks, replayed on a Skylake desktop part
// with the registry's schedutil, menu and sis_util for the trace's
// duration.
TEST(ReplayTest, SurfaceflingerRunsOnSkylake) {
  absl::StatusOr<Replay> r = ReplayTrace(kSurfaceflinger, ReplayOptions());
  ASSERT_TRUE(r.ok()) << r.status();
  absl::StatusOr<topology::Topology> machine =
      topology::MakePreset("skylake-e3-1240v5");
  ASSERT_TRUE(machine.ok());
  const platform::PolicyRegistry& registry = platform::PolicyRegistry::Global();
  auto freq = registry.MakeFreq("schedutil");
  auto idle = registry.MakeIdle("menu");
  auto placement = registry.MakePlacement("sis_util");
  ASSERT_TRUE(freq.ok()) << freq.status();
  ASSERT_TRUE(idle.ok()) << idle.status();
  ASSERT_TRUE(placement.ok()) << placement.status();
  sim::Policies policies{freq->get(), idle->get(), placement->get()};
  absl::StatusOr<std::unique_ptr<sim::Simulator>> sim = sim::Simulator::Create(
      *machine, sim::SimConfig(), r->workload, policies, /*seed=*/1);
  ASSERT_TRUE(sim.ok()) << sim.status();
  absl::Status ran = (*sim)->RunFor(sim::Nanoseconds(r->duration_ns()));
  ASSERT_TRUE(ran.ok()) << ran;
  const sim::SimStats stats = (*sim)->Stats();
  ASSERT_EQ(stats.tasks.size(), r->tasks.size());
  int64_t replayed_ns = 0;
  int64_t cycles = 0;
  int ran_tasks = 0;
  for (size_t i = 0; i < r->tasks.size(); ++i) {
    replayed_ns += stats.tasks[i].run_ns;
    cycles += r->tasks[i].cycles;
    if (stats.tasks[i].run_ns > 0) ++ran_tasks;
  }
  EXPECT_EQ(ran_tasks, static_cast<int>(r->tasks.size()));
  // The phone ran these tasks for 137.861 ms at 0.33 GHz on average
  // (45.7 M cycles); the Skylake runs the same cycles at 0.8-3.9 GHz, 60%
  // of that when both SMT siblings run. So the replayed run time lies
  // between the cycles at the highest frequency and at 60% of the lowest
  // (plus 20% for switch costs), and within a factor 8 of the recorded.
  const int64_t recorded_ns = r->total_run_ns();
  EXPECT_EQ(recorded_ns, 137861000);
  const topology::FrequencySpec& f = machine->frequency();
  EXPECT_GE(replayed_ns, cycles * 1000000 / f.max_turbo_khz);
  EXPECT_LE(replayed_ns, cycles * 1000000 / (f.min_khz * 6 / 10) * 12 / 10);
  EXPECT_GT(replayed_ns, recorded_ns / 8);
  EXPECT_LT(replayed_ns, recorded_ns * 8);
}

TEST(ReplayTest, BadInputs) {
  absl::StatusOr<Replay> r =
      ReplayTrace("tests/data/no_such_trace.txt", ReplayOptions());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kNotFound);

  ReplayOptions bad;
  bad.nominal_khz = 0;
  r = ReplayTrace(kLisa, bad);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("nominal_khz"));

  // Only the idle tasks run, and no switch: nothing to replay.
  const std::string idle_only =
      WriteTemp("idle_only.txt",
                "  <idle>-0 [000] d..2 1.000000: cpu_idle: state=1 cpu_id=0\n"
                "  <idle>-0 [000] d..2 1.000500: cpu_idle: state=4294967295 "
                "cpu_id=0\n");
  r = ReplayTrace(idle_only, ReplayOptions());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("no sched_switch events"));
}

// A trace with events but no sched_switch (here only cpu_idle and
// cpu_frequency) is refused: replaying it would invent a task running from
// the trace's start to its end.
TEST(ReplayTest, NoSchedulingEventsIsRefused) {
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path =
      std::string(dir != nullptr ? dir : "/tmp") + "/idle_only.txt";
  std::ofstream(path)
      << "cpus=2\n"
         "  kworker/0:1-40 [000]  10.000000: cpu_idle: state=1 cpu_id=0\n"
         "  <idle>-0 [000]  10.100000: cpu_idle: state=4294967295 cpu_id=0\n"
         "  sugov:0-77 [001]  10.288000: cpu_frequency: state=1800000 "
         "cpu_id=1\n";
  absl::StatusOr<Replay> r = ReplayTrace(path, ReplayOptions());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(r.status().message()),
              HasSubstr(path + ": no sched_switch events: nothing to replay"));
}

TEST(ReplayTest, MalformedLine) {
  const std::string path = WriteTemp(
      "bad.txt",
      "cpus=1\n"
      "  a-1 [000] 1.000000: sched_switch: prev_comm=a prev_pid=1 "
      "prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120\n"
      "  b-2 [000] 1.000100: sched_switch: prev_comm=b prev_pid=2\n");
  absl::StatusOr<Replay> r = ReplayTrace(path, ReplayOptions());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status().message(), HasSubstr("bad.txt:3:"));
}

}  // namespace
}  // namespace schedsim::workloads
