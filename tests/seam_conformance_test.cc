// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Issue 43 item 4: one conformance suite per seam, run against every
// backend. Probe policies check each IdleDevice, FreqDomain and SchedView
// they are handed (platform/testing/conformance.h) and then let a real
// policy (menu, schedutil, sis_util) decide, so that each backend runs as a
// user runs it: the scripted fakes (platform/testing), the simulator (through
// the public API) and a recorded trace (shadow mode). Linux's FreqDomain
// (platform/linux, `govd`) needs root and real cpufreq, and its SchedView
// (the sched_ext agent, platform/linux/scx_agent.h) a sched_ext kernel:
// neither is run here (dev/test-vm runs the agent on a sched_ext guest).

#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "cli/cli.h"
#include "gtest/gtest.h"
#include "platform/registry.h"
#include "platform/testing/conformance.h"
#include "platform/testing/fake_freq.h"
#include "platform/testing/fake_idle.h"
#include "platform/testing/fake_sched.h"
#include "schedsim/schedsim.h"

namespace schedsim {
namespace {

using platform::testing::CheckFreqDomain;
using platform::testing::CheckIdleDevice;
using platform::testing::CheckSchedView;

// What the probes saw: how many views, and each broken promise once.
struct Seen {
  int views = 0;
  std::set<std::string> broken;
  void Add(const std::vector<std::string>& bad) {
    ++views;
    broken.insert(bad.begin(), bad.end());
  }
  std::string Broken() const { return absl::StrJoin(broken, "; "); }
};

class ProbeIdle : public platform::IdleGovernor {
 public:
  explicit ProbeIdle(Seen* seen)
      : seen_(seen),
        inner_(*platform::PolicyRegistry::Global().MakeIdle("menu")) {}
  absl::string_view name() const override { return "conformance_probe"; }
  void Enable(platform::IdleDevice& dev) override { inner_->Enable(dev); }
  int Select(platform::IdleDevice& dev, bool* stop_tick) override {
    seen_->Add(CheckIdleDevice(dev));
    return inner_->Select(dev, stop_tick);
  }
  void Reflect(platform::IdleDevice& dev, int index) override {
    inner_->Reflect(dev, index);
  }

 private:
  Seen* seen_;
  std::unique_ptr<platform::IdleGovernor> inner_;
};

class ProbeFreq : public platform::FreqGovernor {
 public:
  explicit ProbeFreq(Seen* seen)
      : seen_(seen),
        inner_(*platform::PolicyRegistry::Global().MakeFreq("schedutil")) {}
  absl::string_view name() const override { return "conformance_probe"; }
  void Start(platform::FreqDomain& d) override { inner_->Start(d); }
  void UpdateUtil(platform::FreqDomain& d, int cpu, uint32_t flags) override {
    seen_->Add(CheckFreqDomain(d, cpu));
    inner_->UpdateUtil(d, cpu, flags);
  }

 private:
  Seen* seen_;
  std::unique_ptr<platform::FreqGovernor> inner_;
};

class ProbePlacement : public platform::PlacementPolicy {
 public:
  explicit ProbePlacement(Seen* seen)
      : seen_(seen),
        inner_(*platform::PolicyRegistry::Global().MakePlacement("sis_util")) {}
  absl::string_view name() const override { return "conformance_probe"; }
  void Attach(const topology::Topology& t,
              const topology::SchedDomains& d) override {
    inner_->Attach(t, d);
  }
  int SelectIdleSibling(platform::SchedView& view,
                        const platform::WakeupRequest& request) override {
    seen_->Add(CheckSchedView(view, request));
    return inner_->SelectIdleSibling(view, request);
  }
  void OnCpuIdle(platform::SchedView& view, int cpu) override {
    inner_->OnCpuIdle(view, cpu);
  }

 private:
  Seen* seen_;
  std::unique_ptr<platform::PlacementPolicy> inner_;
};

// The checks themselves catch a broken view: a state table out of order,
// a policy limit above the part's top frequency.
TEST(SeamConformanceTest, TheChecksCatchABrokenView) {
  absl::StatusOr<Topology> m = PresetMachine("skylake-e3-1240v5");
  ASSERT_TRUE(m.ok()) << m.status();
  std::vector<topology::CState> states = m->cstates();
  ASSERT_GE(states.size(), 3u);
  std::swap(states[1], states[2]);
  platform::testing::FakeIdleDevice dev(0, states);
  const std::vector<std::string> bad = CheckIdleDevice(dev);
  ASSERT_EQ(bad.size(), 1u) << absl::StrJoin(bad, "; ");
  EXPECT_NE(bad[0].find("is shallower than state 1"), std::string::npos)
      << bad[0];
  platform::testing::FakeFreqDomain domain =
      platform::testing::FakeFreqDomain::ForPreset("skylake-e3-1240v5");
  EXPECT_TRUE(CheckFreqDomain(domain, domain.cpus().First()).empty());
  domain.set_policy_limits(domain.spec().min_khz,
                           domain.spec().max_turbo_khz + 100000);
  EXPECT_FALSE(CheckFreqDomain(domain, domain.cpus().First()).empty());
  EXPECT_FALSE(CheckFreqDomain(domain, 1000).empty());  // not its CPU

  platform::testing::FakeSchedView view =
      platform::testing::FakeSchedView::ForPreset("skylake-e3-1240v5");
  platform::WakeupRequest request = view.Request(0, 0, 1, 1);
  EXPECT_TRUE(CheckSchedView(view, request).empty());
  view.set_util(2, 5000);  // above the CPU's capacity of 1024
  std::vector<std::string> sbad = CheckSchedView(view, request);
  ASSERT_EQ(sbad.size(), 1u) << absl::StrJoin(sbad, "; ");
  EXPECT_NE(sbad[0].find("CPU 2: cpu_util() 5000"), std::string::npos)
      << sbad[0];
  view.set_util(2, 0);
  view.SetBusy(3);
  view.set_ttwu_pending(4, true);  // idle, but a wake-up is queued on it
  request.target = 99;
  sbad = CheckSchedView(view, request);
  EXPECT_EQ(sbad.size(), 1u) << absl::StrJoin(sbad, "; ");  // the target
}

TEST(SeamConformanceTest, TheFakes) {
  Seen idle, freq, place;
  for (const char* machine : {"skylake-e3-1240v5", "zen3-2s-nps1", "juno-r0"}) {
    SCOPED_TRACE(machine);
    platform::testing::FakeIdleDevice dev =
        platform::testing::FakeIdleDevice::ForPreset(machine);
    ProbeIdle probe(&idle);
    probe.Enable(dev);
    bool stop_tick = true;
    probe.Select(dev, &stop_tick);
    platform::testing::FakeFreqDomain domain =
        platform::testing::FakeFreqDomain::ForPreset(machine);
    ProbeFreq fprobe(&freq);
    fprobe.Start(domain);
    fprobe.UpdateUtil(domain, domain.cpus().First(), 0);
    platform::testing::FakeSchedView view =
        platform::testing::FakeSchedView::ForPreset(machine);
    view.SetBusy(0);
    view.SetBusy(1, 3);
    view.set_util(1, 800);
    ProbePlacement pprobe(&place);
    pprobe.Attach(view.topology(), view.domains());
    pprobe.SelectIdleSibling(view, view.Request(0, 0, 1, 1));
  }
  EXPECT_EQ(idle.views, 3);
  EXPECT_EQ(freq.views, 3);
  EXPECT_EQ(place.views, 3);
  EXPECT_EQ(idle.Broken(), "");
  EXPECT_EQ(freq.Broken(), "");
  EXPECT_EQ(place.Broken(), "");
}

TEST(SeamConformanceTest, TheSimulator) {
  for (const char* machine : {"skylake-e3-1240v5", "zen3-2s-nps1"}) {
    SCOPED_TRACE(machine);
    Seen idle, freq, place;
    SimulationOptions options;
    options.cpuidle.object = std::make_shared<ProbeIdle>(&idle);
    options.cpufreq.object = std::make_shared<ProbeFreq>(&freq);
    options.placement.object = std::make_shared<ProbePlacement>(&place);
    absl::StatusOr<Topology> m = PresetMachine(machine);
    ASSERT_TRUE(m.ok()) << m.status();
    absl::StatusOr<RunResult> r =
        Simulate(*m, WorkloadSpec::Model("hackbench", {{"groups", int64_t{2}}}),
                 std::chrono::milliseconds(50), options);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_GT(idle.views, 100);
    EXPECT_GT(freq.views, 100);
    EXPECT_GT(place.views, 100);
    EXPECT_EQ(idle.Broken(), "");
    EXPECT_EQ(freq.Broken(), "");
    EXPECT_EQ(place.Broken(), "");
  }
}

// The trace backend: shadow mode hands a registered governor the idle
// periods of a recorded ftrace trace (shadow/trace_idle_device.h).
Seen* g_trace_idle = nullptr;

TEST(SeamConformanceTest, ARecordedTrace) {
  Seen seen;
  g_trace_idle = &seen;
  platform::PolicyInfo info;
  info.family = platform::PolicyFamily::kCpuidle;
  info.name = "conformance_probe";
  info.description = "menu, checking each IdleDevice view (tests only)";
  info.make_idle = [](const platform::Params&)
      -> absl::StatusOr<std::unique_ptr<platform::IdleGovernor>> {
    return std::unique_ptr<platform::IdleGovernor>(
        std::make_unique<ProbeIdle>(g_trace_idle));
  };
  ASSERT_TRUE(platform::PolicyRegistry::Global().Register(info).ok());
  std::ostringstream out, err;
  const int code =
      cli::RunCli({"shadow", "--trace=tests/data/lisa_sched_load_trace.txt",
                   "--machine=juno-r0", "--cpuidle=conformance_probe"},
                  out, err);
  ASSERT_EQ(code, 0) << err.str();
  EXPECT_GT(seen.views, 10);
  EXPECT_EQ(seen.Broken(), "");
}

// The trace backend of placement: shadow mode shows a registered placement
// policy the wake-ups of a recorded trace over the scheduler state rebuilt
// from it (shadow/trace_sched_view.h).
Seen* g_trace_place = nullptr;

TEST(SeamConformanceTest, ARecordedTracesWakeUps) {
  Seen seen;
  g_trace_place = &seen;
  platform::PolicyInfo info;
  info.family = platform::PolicyFamily::kPlacement;
  info.name = "conformance_probe_placement";
  info.description = "sis_util, checking each SchedView (tests only)";
  info.make_placement = [](const platform::Params&)
      -> absl::StatusOr<std::unique_ptr<platform::PlacementPolicy>> {
    return std::unique_ptr<platform::PlacementPolicy>(
        std::make_unique<ProbePlacement>(g_trace_place));
  };
  ASSERT_TRUE(platform::PolicyRegistry::Global().Register(info).ok());
  std::ostringstream out, err;
  const int code = cli::RunCli(
      {"shadow", "--trace=tests/data/trappy_trace_surfaceflinger_ftrace.txt",
       "--placement=conformance_probe_placement"},
      out, err);
  ASSERT_EQ(code, 0) << err.str();
  EXPECT_GT(seen.views, 200);  // 232 wake-ups evaluated
  EXPECT_EQ(seen.Broken(), "");
}

}  // namespace
}  // namespace schedsim
