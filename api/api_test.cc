// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The public API (include/schedsim/), used as a user would: only
// "schedsim/..." headers.

#include <algorithm>
#include <chrono>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "schedsim/cli.h"
#include "schedsim/schedsim.h"

namespace {

using std::chrono::milliseconds;

// A placement policy of the kind a user writes: the target if idle, else
// the first idle CPU of the target's LLC, else the target. Counts calls.
class FirstIdleInLlc final : public schedsim::PlacementPolicy {
 public:
  FirstIdleInLlc() = default;
  explicit FirstIdleInLlc(const schedsim::Params& p)
      : max_probes_(p.GetInt("max_probes")) {}

  absl::string_view name() const override { return "api_test_first_idle"; }
  int SelectIdleSibling(schedsim::SchedView& view,
                        const schedsim::WakeupRequest& r) override {
    ++calls;
    if (view.available_idle(r.target)) return r.target;
    const schedsim::CpuSet& llc = view.topology().llc_span(r.target);
    int64_t probes = 0;
    for (int cpu = llc.First(); cpu >= 0 && probes < max_probes_;
         cpu = llc.Next(cpu), ++probes) {
      if (r.allowed->Test(cpu) && view.available_idle(cpu)) return cpu;
    }
    return r.target;
  }

  int64_t calls = 0;

 private:
  int64_t max_probes_ = 64;
};

SCHEDSIM_REGISTER_POLICY(schedsim::DescribePolicy<FirstIdleInLlc>(
    "api_test_first_idle", "The first idle CPU of the target's LLC.",
    {{"max_probes", int64_t{64}, "runqueues probed at most"}}));

schedsim::Topology Skylake() {
  absl::StatusOr<schedsim::Topology> m =
      schedsim::PresetMachine("skylake-e3-1240v5");
  EXPECT_TRUE(m.ok()) << m.status();
  return *std::move(m);
}

// Two tasks bouncing a message over two pipes; "round_trip" counts.
schedsim::Workload PingPong() {
  schedsim::Workload w;
  const int ping = w.AddChannel("ping");
  const int pong = w.AddChannel("pong");
  const int rtt = w.AddMark("round_trip");
  schedsim::ProgramBuilder client("client");
  client.Loop(0)
      .Stamp()
      .Send(ping)
      .Recv(pong)
      .Mark(rtt)
      .Compute(schedsim::Dist::Constant(20000))
      .EndLoop();
  schedsim::ProgramBuilder server("server");
  server.Loop(0).Recv(ping).Send(pong).EndLoop();
  absl::StatusOr<schedsim::Program> c = client.Build();
  absl::StatusOr<schedsim::Program> s = server.Build();
  EXPECT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE(s.ok()) << s.status();
  w.AddTask("client", w.AddProgram(*c));
  schedsim::TaskSpec spec;
  spec.name = "server";
  spec.program = w.AddProgram(*s);
  spec.nice = -5;
  w.AddTask(spec);
  return w;
}

TEST(MachineTest, PresetsAndImports) {
  std::vector<std::string> names = schedsim::PresetMachineNames();
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(names[0], "skylake-e3-1240v5");
  EXPECT_EQ(Skylake().num_cpus(), 8);
  EXPECT_EQ(schedsim::PresetMachine("no-such-machine").status().code(),
            absl::StatusCode::kNotFound);

  absl::StatusOr<schedsim::Topology> x = schedsim::MachineFromHwlocXml(
      "tests/data/hwloc_Intel-Skylake-2xXeon6140.xml");
  ASSERT_TRUE(x.ok()) << x.status();
  EXPECT_EQ(x->num_packages(), 2);
  EXPECT_FALSE(schedsim::MachineFromSysfs("/no/such/sysfs").ok());
}

TEST(SimulationTest, ModelByNameIsReproducible) {
  schedsim::SimulationOptions options;
  options.seed = 3;
  const schedsim::WorkloadSpec hackbench =
      schedsim::WorkloadSpec::Model("hackbench", {{"groups", 1}});
  absl::StatusOr<schedsim::RunResult> a =
      schedsim::Simulate(Skylake(), hackbench, milliseconds(10), options);
  ASSERT_TRUE(a.ok()) << a.status();
  absl::StatusOr<schedsim::RunResult> b =
      schedsim::Simulate(Skylake(), hackbench, milliseconds(10), options);
  ASSERT_TRUE(b.ok()) << b.status();

  EXPECT_EQ(a->metrics.cpus.size(), 8u);
  EXPECT_GT(a->metrics.events, 0u);
  EXPECT_GT(a->metrics.context_switches, 0u);
  EXPECT_EQ(a->metrics.events, b->metrics.events);
  EXPECT_EQ(a->metrics.context_switches, b->metrics.context_switches);
  EXPECT_NEAR(a->metrics.duration_s(), 0.010, 1e-9);
  EXPECT_GT(a->metrics.energy_j(), 0);
  ASSERT_FALSE(a->model_metrics.empty());
  EXPECT_FALSE(a->model_metrics[0].unit.empty());
  // The defaults on a part with HWP.
  EXPECT_EQ(a->freq_governor, "intel_pstate_hwp");
  EXPECT_EQ(a->idle_governor, "menu");
  EXPECT_EQ(a->placement_policy, "sis_util");
  // Idle states are named after the machine's table.
  ASSERT_FALSE(a->metrics.cpus[0].idle_states.empty());
  EXPECT_EQ(a->metrics.cpus[0].idle_states[0].name, "POLL");
}

TEST(SimulationTest, ProgramsPoliciesByNameAndConfig) {
  schedsim::SimulationOptions options;
  options.cpufreq.name = "schedutil";
  options.cpuidle.name = "teo";
  options.placement.name = "sis_prop";
  options.config = {{"hz", 1000}, {"turbo", false}};
  absl::StatusOr<std::unique_ptr<schedsim::Simulation>> sim =
      schedsim::Simulation::Create(
          Skylake(), schedsim::WorkloadSpec::Programs(PingPong()), options);
  ASSERT_TRUE(sim.ok()) << sim.status();
  ASSERT_TRUE((*sim)->RunFor(milliseconds(10)).ok());
  EXPECT_EQ((*sim)->now_ns(), 10000000);
  schedsim::Metrics m = (*sim)->GetMetrics();
  const schedsim::MarkMetrics* rtt = m.FindMark("round_trip");
  ASSERT_NE(rtt, nullptr);
  EXPECT_GT(rtt->count, 100u);
  EXPECT_GT(rtt->latency.p50_ns, 0);
  EXPECT_EQ(m.tasks.size(), 2u);
  EXPECT_EQ((*sim)->task_names(),
            (std::vector<std::string>{"client", "server"}));
  EXPECT_EQ((*sim)->freq_governor(), "schedutil");
  EXPECT_TRUE((*sim)->ModelMetrics().empty());
  // 1000 Hz ticks on busy CPUs.
  uint64_t ticks = 0;
  for (const schedsim::CpuMetrics& c : m.cpus) ticks += c.ticks;
  EXPECT_GT(ticks, 0u);

  (*sim)->ResetStats();
  EXPECT_EQ((*sim)->GetMetrics().context_switches, 0u);
}

// The typed struct gives the same run as the same values by name, and a
// kernel's config is the start a user edits.
TEST(SimulationTest, TypedModelConfigEqualsConfigByName) {
  auto ticks_of = [](const schedsim::SimulationOptions& options) -> uint64_t {
    absl::StatusOr<schedsim::RunResult> r = schedsim::Simulate(
        Skylake(), schedsim::WorkloadSpec::Programs(PingPong()),
        milliseconds(20), options);
    EXPECT_TRUE(r.ok()) << r.status();
    if (!r.ok()) return 0;
    uint64_t ticks = 0;
    for (const schedsim::CpuMetrics& c : r->metrics.cpus) ticks += c.ticks;
    return ticks;
  };
  schedsim::SimulationOptions by_name;
  by_name.config = {{"hz", 1000}};
  schedsim::SimulationOptions typed;
  typed.model = schedsim::ModelConfig{};
  typed.model->hz = 1000;
  schedsim::SimulationOptions plain;
  EXPECT_EQ(ticks_of(by_name), ticks_of(typed));
  EXPECT_GT(ticks_of(typed), ticks_of(plain));  // 250 Hz by default

  absl::StatusOr<schedsim::ModelConfig> k = schedsim::KernelModelConfig("4.16");
  ASSERT_TRUE(k.ok()) << k.status();
  EXPECT_FALSE(k->sched_idle_fallback);  // 5.4+
  EXPECT_TRUE(schedsim::ModelConfig{}.sched_idle_fallback);
  EXPECT_FALSE(schedsim::KernelModelConfig("1.0").ok());

  typed.model->hz = 0;
  absl::StatusOr<std::unique_ptr<schedsim::Simulation>> bad =
      schedsim::Simulation::Create(
          Skylake(), schedsim::WorkloadSpec::Programs(PingPong()), typed);
  EXPECT_EQ(bad.status().message(),
            "SimulationOptions: model: hz: expected an integer in 1..10000, "
            "got 0");
}

TEST(SimulationTest, OwnPolicyObject) {
  auto mine = std::make_shared<FirstIdleInLlc>();
  schedsim::SimulationOptions options;
  options.placement.object = mine;
  absl::StatusOr<schedsim::RunResult> r = schedsim::Simulate(
      Skylake(), schedsim::WorkloadSpec::Programs(PingPong()), milliseconds(5),
      options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->placement_policy, "api_test_first_idle");
  EXPECT_GT(mine->calls, 0);
}

TEST(PolicyTest, RegisteredPolicyByName) {
  std::vector<std::string> names =
      schedsim::PolicyNames(schedsim::PolicyFamily::kPlacement);
  EXPECT_NE(std::find(names.begin(), names.end(), "api_test_first_idle"),
            names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "sis_util"), names.end());
  ASSERT_NE(schedsim::FindPolicy(schedsim::PolicyFamily::kPlacement,
                                 "api_test_first_idle"),
            nullptr);

  schedsim::SimulationOptions options;
  options.placement.name = "api_test_first_idle";
  options.placement.params = {{"max_probes", 2}};
  absl::StatusOr<schedsim::RunResult> r = schedsim::Simulate(
      Skylake(), schedsim::WorkloadSpec::Programs(PingPong()), milliseconds(5),
      options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->placement_policy, "api_test_first_idle");

  // A second registration of the name is refused.
  EXPECT_EQ(schedsim::RegisterPolicy(schedsim::DescribePolicy<FirstIdleInLlc>(
                                         "api_test_first_idle", "again"))
                .code(),
            absl::StatusCode::kAlreadyExists);
  // The command line sees it.
  std::ostringstream out, err;
  EXPECT_EQ(schedsim::RunCli({"policies"}, out, err), 0) << err.str();
  EXPECT_NE(out.str().find("api_test_first_idle"), std::string::npos);
}

TEST(SimulationTest, Errors) {
  const schedsim::WorkloadSpec w = schedsim::WorkloadSpec::Programs(PingPong());
  schedsim::SimulationOptions options;
  options.cpuidle.name = "no_such_governor";
  absl::StatusOr<std::unique_ptr<schedsim::Simulation>> s =
      schedsim::Simulation::Create(Skylake(), w, options);
  EXPECT_EQ(s.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(s.status().message().find("menu"), std::string::npos) << s.status();

  options = {};
  options.placement.name = "api_test_first_idle";
  options.placement.params = {{"max_probes", "many"}};
  EXPECT_EQ(schedsim::Simulation::Create(Skylake(), w, options).status().code(),
            absl::StatusCode::kInvalidArgument);

  options = {};
  options.config = {{"hzz", 100}};
  s = schedsim::Simulation::Create(Skylake(), w, options);
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.status().message().find("did you mean 'hz'"), std::string::npos)
      << s.status();

  EXPECT_FALSE(schedsim::Simulation::Create(
                   Skylake(), schedsim::WorkloadSpec::Model("no_such_model"))
                   .ok());

  schedsim::ProgramBuilder bad("bad");
  bad.EndLoop();
  EXPECT_EQ(bad.Build().status().code(), absl::StatusCode::kInvalidArgument);

  schedsim::Workload no_channel = PingPong();
  no_channel.channels.pop_back();
  EXPECT_FALSE(
      schedsim::Simulation::Create(
          Skylake(), schedsim::WorkloadSpec::Programs(std::move(no_channel)))
          .ok());

  const std::vector<std::string> keys = schedsim::ConfigKeys();
  EXPECT_NE(std::find(keys.begin(), keys.end(), "hz"), keys.end());
}

TEST(WorkloadTest, RtAppAndReplay) {
  absl::StatusOr<schedsim::RunResult> r =
      schedsim::Simulate(Skylake(), schedsim::WorkloadSpec::RtAppJson(R"({
        "tasks": { "thread0": { "instance": 2, "loop": -1, "run": 2000,
                                "timer": {"ref": "t0", "period": 10000} } },
        "global": { "default_policy": "SCHED_OTHER" } })"),
                         milliseconds(50));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_FALSE(r->model_metrics.empty());
  EXPECT_EQ(r->model_metrics[0].name, "loops_per_s");
  EXPECT_GT(r->model_metrics[0].value, 0);

  absl::StatusOr<schedsim::RunResult> replay = schedsim::Simulate(
      Skylake(),
      schedsim::WorkloadSpec::Replay(
          "tests/data/trappy_trace_surfaceflinger_ftrace.txt"),
      milliseconds(10));
  ASSERT_TRUE(replay.ok()) << replay.status();
  EXPECT_GT(replay->metrics.tasks.size(), 1u);

  std::vector<schedsim::WorkloadModelInfo> models = schedsim::WorkloadModels();
  bool hackbench = false;
  for (const schedsim::WorkloadModelInfo& m : models) {
    if (m.name == "hackbench") hackbench = !m.metrics.empty();
  }
  EXPECT_TRUE(hackbench);
}

class CountingSink final : public schedsim::TraceSink {
 public:
  void OnSwitch(int64_t, int, int, int) override { ++switches; }
  void OnIdle(int64_t, int, int) override { ++idles; }
  int64_t switches = 0;
  int64_t idles = 0;
};

TEST(TraceTest, SinksAndWriters) {
  absl::StatusOr<std::unique_ptr<schedsim::Simulation>> sim =
      schedsim::Simulation::Create(
          Skylake(), schedsim::WorkloadSpec::Programs(PingPong()));
  ASSERT_TRUE(sim.ok()) << sim.status();
  schedsim::Simulation& s = **sim;

  CountingSink counting;
  s.SetTraceSink(&counting);
  ASSERT_TRUE(s.RunFor(milliseconds(1)).ok());
  EXPECT_GT(counting.switches, 0);
  EXPECT_GT(counting.idles, 0);

  std::ostringstream json;
  std::unique_ptr<schedsim::TraceWriter> chrome =
      schedsim::TraceWriter::Create(schedsim::TraceFormat::kChromeJson, &json,
                                    s.task_names(), s.machine().num_cpus());
  s.SetTraceSink(chrome.get());
  ASSERT_TRUE(s.RunFor(milliseconds(1)).ok());
  s.SetTraceSink(nullptr);
  chrome->Finish(s.now_ns());
  nlohmann::json doc = nlohmann::json::parse(json.str());
  ASSERT_TRUE(doc.contains("traceEvents"));
  EXPECT_GT(doc["traceEvents"].size(), 10u);
  EXPECT_NE(json.str().find("\"client\""), std::string::npos);

  std::ostringstream csv;
  std::unique_ptr<schedsim::TraceWriter> rows = schedsim::TraceWriter::Create(
      schedsim::TraceFormat::kCsv, &csv, s.task_names());
  // Fed by hand, as any TraceSink can be.
  rows->OnSwitch(5, 0, -1, 0);
  rows->Finish(5);
  EXPECT_EQ(csv.str().substr(0, csv.str().find('\n')),
            "time_ns,event,cpu,task,arg1,arg2");
  EXPECT_NE(csv.str().find("5,switch,0,0,-1"), std::string::npos) << csv.str();
}

}  // namespace
