// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/governor_loop.h"

#include <algorithm>
#include <csignal>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "platform/cpufreq.h"
#include "platform/linux/fake_tree.h"
#include "platform/linux/linux_cpufreq.h"
#include "platform/linux/settings_snapshot.h"
#include "platform/linux/stop_signals.h"
#include "topology/testing/pepc_tree.h"

namespace schedsim::platform::host {
namespace {

using ::testing::HasSubstr;

constexpr int64_t kMs = 1'000'000;

// A governor for the loop's tests: asks for max x 1.25 x the busiest CPU's
// util / capacity on every update (schedutil without its refinements).
class ProportionalGovernor final : public FreqGovernor {
 public:
  absl::string_view name() const override { return "proportional"; }
  void Start(FreqDomain& domain) override { ++starts; }
  void UpdateUtil(FreqDomain& domain, int cpu, uint32_t flags) override {
    ++updates;
    if (flags & kUtilIowait) ++iowait_updates;
    int64_t util = 0;
    for (int c = domain.cpus().First(); c >= 0; c = domain.cpus().Next(c)) {
      util = std::max(util, domain.util(c).util_cfs);
    }
    domain.SetTargetKhz(domain.spec().max_turbo_khz * (util + util / 4) /
                        kCapacityScale);
  }
  int starts = 0;
  int updates = 0;
  int iowait_updates = 0;
};

// Time moves only when the loop sleeps.
class FakeClock final : public LoopClock {
 public:
  int64_t NowNs() override { return now_ns; }
  void SleepUntilNs(int64_t deadline_ns) override {
    now_ns = std::max(now_ns, deadline_ns);
  }
  int64_t now_ns = 1'000'000'000;
};

CpuTimes Times(int cpu, uint64_t busy, uint64_t idle, uint64_t iowait = 0) {
  CpuTimes t;
  t.cpu = cpu;
  t.user = busy;
  t.idle = idle;
  t.iowait = iowait;
  return t;
}

class GovernorLoopTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> dir =
        topology::testing::MakeTestTempDir("loop");
    ASSERT_TRUE(dir.ok());
    testing::FakeMachine m;
    m.policies.push_back(testing::FakePolicy());
    absl::StatusOr<LinuxPaths> paths = testing::MakeFakeLinuxTree(*dir, m);
    ASSERT_TRUE(paths.ok()) << paths.status();
    options_.paths = *paths;
    options_.governor_name = "proportional";
    options_.util_half_life_ns = 0;
    loop_.period_ns = 10 * kMs;
    loop_.clock = &clock_;
    loop_.log = &log_;
    // From the first period on, CPU 0 is fully busy.
    loop_.after_period = [this](int64_t periods) {
      busy_ticks_ += 1;
      ASSERT_TRUE(
          testing::WriteProcStat(options_.paths,
                                 {Times(0, busy_ticks_, 1000),
                                  Times(1, 0, 1000 + busy_ticks_, busy_ticks_)})
              .ok());
      setspeed_seen_.push_back(testing::ReadTestFile(options_.paths.sysfs_root +
                                                     "/" + PolicyDir(0) +
                                                     "/scaling_setspeed"));
      if (periods == stop_at_period_) std::raise(SIGTERM);
    };
  }
  std::string Sys() const { return options_.paths.sysfs_root; }

  LinuxFreqOptions options_;
  GovernorLoopOptions loop_;
  FakeClock clock_;
  std::ostringstream log_;
  uint64_t busy_ticks_ = 0;
  int64_t stop_at_period_ = -1;
  std::vector<std::string> setspeed_seen_;
};

TEST_F(GovernorLoopTest, ApplyWritesTheGovernorsChoiceAndRestoreUndoesIt) {
  options_.apply = true;
  loop_.duration_ns = 50 * kMs;
  const auto before = testing::TreeState(Sys());
  ProportionalGovernor governor;
  {
    ScopedStopSignals signals;
    SettingsSnapshot snapshot(options_.paths);
    absl::StatusOr<std::unique_ptr<LinuxCpufreq>> c =
        LinuxCpufreq::Open(options_, &snapshot);
    ASSERT_TRUE(c.ok()) << c.status();
    absl::StatusOr<GovernorLoopResult> r =
        RunGovernorLoop(governor, **c, loop_);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->periods, 5);
    EXPECT_EQ(r->stop_signal, 0);
    EXPECT_EQ(governor.starts, 1);
    EXPECT_EQ(governor.updates, 10);        // 2 CPUs x 5 periods
    EXPECT_EQ(governor.iowait_updates, 4);  // CPU 1 from period 2 on
    // Period 1: all idle -> the minimum; then CPU 0 at 100 % of 1.5 GHz:
    // util 548, 1.25 x 2.8 GHz x 548 / 1024 = 1.873 GHz -> 2.1 GHz.
    ASSERT_EQ(setspeed_seen_.size(), 5u);
    EXPECT_EQ(setspeed_seen_[0], "1500000\n");
    EXPECT_EQ(setspeed_seen_[1], "2100000\n");
    EXPECT_EQ(
        testing::ReadTestFile(Sys() + "/" + PolicyDir(0) + "/scaling_governor"),
        "userspace\n");
    EXPECT_THAT(log_.str(), HasSubstr("policy0: target 2100000 kHz"));
    EXPECT_THAT(log_.str(), HasSubstr("wrote: "));
    EXPECT_THAT(log_.str(), HasSubstr("why: proportional; cpu0 busy 100.0%"));
    ASSERT_TRUE(snapshot.Restore().ok());
  }
  for (const auto& [path, state] : testing::TreeState(Sys())) {
    EXPECT_EQ(state.content, before.at(path).content) << path;
  }
}

TEST_F(GovernorLoopTest, DryRunWritesNothing) {
  loop_.duration_ns = 30 * kMs;
  const auto before = testing::TreeState(Sys());
  ProportionalGovernor governor;
  ScopedStopSignals signals;
  absl::StatusOr<std::unique_ptr<LinuxCpufreq>> c =
      LinuxCpufreq::Open(options_, nullptr);
  ASSERT_TRUE(c.ok()) << c.status();
  absl::StatusOr<GovernorLoopResult> r = RunGovernorLoop(governor, **c, loop_);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->periods, 3);
  EXPECT_GE(r->actions, 2);
  EXPECT_EQ(testing::TreeState(Sys()), before);  // contents and mtimes
  EXPECT_THAT(log_.str(), HasSubstr("dry run, would write: "));
  EXPECT_THAT(log_.str(), HasSubstr("scaling_setspeed <- 2100000"));
}

TEST_F(GovernorLoopTest, SigtermStopsTheLoop) {
  options_.apply = true;
  stop_at_period_ = 2;
  ProportionalGovernor governor;
  const auto before = testing::TreeState(Sys());
  {
    ScopedStopSignals signals;
    SettingsSnapshot snapshot(options_.paths);
    absl::StatusOr<std::unique_ptr<LinuxCpufreq>> c =
        LinuxCpufreq::Open(options_, &snapshot);
    ASSERT_TRUE(c.ok()) << c.status();
    absl::StatusOr<GovernorLoopResult> r =
        RunGovernorLoop(governor, **c, loop_);  // no duration
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->periods, 2);
    EXPECT_EQ(r->stop_signal, SIGTERM);
    EXPECT_TRUE(ScopedStopSignals::StopRequested());
    EXPECT_EQ(
        testing::ReadTestFile(Sys() + "/" + PolicyDir(0) + "/scaling_governor"),
        "userspace\n");
  }  // the snapshot restores on destruction
  for (const auto& [path, state] : testing::TreeState(Sys())) {
    EXPECT_EQ(state.content, before.at(path).content) << path;
  }
}

TEST_F(GovernorLoopTest, AFailedSampleEndsTheLoopWithTheFileNamed) {
  loop_.duration_ns = 30 * kMs;
  loop_.after_period = [this](int64_t) {
    ASSERT_TRUE(testing::WriteTestFile(options_.paths.proc_root + "/stat",
                                       "cpu0 1 x 3 4\n")
                    .ok());
  };
  ProportionalGovernor governor;
  ScopedStopSignals signals;
  absl::StatusOr<std::unique_ptr<LinuxCpufreq>> c =
      LinuxCpufreq::Open(options_, nullptr);
  ASSERT_TRUE(c.ok());
  absl::StatusOr<GovernorLoopResult> r = RunGovernorLoop(governor, **c, loop_);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status().message(),
              HasSubstr(options_.paths.proc_root + "/stat:1"));
}

TEST(ScopedStopSignalsTest, HandlersComeAndGo) {
  struct sigaction before;
  sigaction(SIGTERM, nullptr, &before);
  {
    ScopedStopSignals signals;
    EXPECT_FALSE(ScopedStopSignals::StopRequested());
    std::raise(SIGINT);
    EXPECT_TRUE(ScopedStopSignals::StopRequested());
    EXPECT_EQ(ScopedStopSignals::StopSignal(), SIGINT);
  }
  struct sigaction after;
  sigaction(SIGTERM, nullptr, &after);
  EXPECT_EQ(after.sa_handler, before.sa_handler);
}

}  // namespace
}  // namespace schedsim::platform::host
