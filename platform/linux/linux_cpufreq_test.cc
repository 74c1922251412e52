// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/linux_cpufreq.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "platform/cpufreq.h"
#include "platform/linux/fake_tree.h"
#include "platform/linux/msr.h"
#include "platform/linux/settings_snapshot.h"
#include "topology/testing/pepc_tree.h"

namespace schedsim::platform::host {
namespace {

using ::testing::ElementsAre;
using testing::FakeMachine;
using testing::FakePolicy;
using ::testing::HasSubstr;

constexpr int64_t kMs = 1'000'000;

CpuTimes Times(int cpu, uint64_t busy, uint64_t idle, uint64_t iowait = 0) {
  CpuTimes t;
  t.cpu = cpu;
  t.user = busy;
  t.idle = idle;
  t.iowait = iowait;
  return t;
}

class LinuxCpufreqTest : public ::testing::Test {
 protected:
  void MakeTree(const FakeMachine& m) {
    absl::StatusOr<std::string> dir =
        topology::testing::MakeTestTempDir("cpufreq");
    ASSERT_TRUE(dir.ok());
    dir_ = *dir;
    absl::StatusOr<LinuxPaths> paths = testing::MakeFakeLinuxTree(dir_, m);
    ASSERT_TRUE(paths.ok()) << paths.status();
    options_.paths = *paths;
  }
  void MakeDefaultTree() {
    FakeMachine m;
    m.policies.push_back(FakePolicy());
    MakeTree(m);
  }
  std::unique_ptr<LinuxCpufreq> Open(SettingsSnapshot* snapshot = nullptr) {
    absl::StatusOr<std::unique_ptr<LinuxCpufreq>> c =
        LinuxCpufreq::Open(options_, snapshot);
    EXPECT_TRUE(c.ok()) << c.status();
    return c.ok() ? *std::move(c) : nullptr;
  }
  std::string PolicyFile(int policy, const std::string& name) const {
    return options_.paths.sysfs_root + "/" + PolicyDir(policy) + "/" + name;
  }
  std::string SysDir() const { return options_.paths.sysfs_root; }

  std::string dir_;
  LinuxFreqOptions options_;
};

TEST_F(LinuxCpufreqTest, ReadsThePolicyFacts) {
  MakeDefaultTree();
  std::unique_ptr<LinuxCpufreq> c = Open();
  ASSERT_NE(c, nullptr);
  ASSERT_EQ(c->domains().size(), 1u);
  const LinuxFreqDomain& d = *c->domains()[0];
  EXPECT_EQ(d.id(), 0);
  EXPECT_EQ(d.cpus().ToList(), "0-1");
  EXPECT_EQ(d.spec().min_khz, 1500000);
  EXPECT_EQ(d.spec().max_turbo_khz, 2800000);
  EXPECT_EQ(d.spec().base_khz, 2800000);  // the highest available (ACPI P0)
  EXPECT_THAT(d.spec().pstates_khz, ElementsAre(2800000, 2100000, 1500000));
  EXPECT_EQ(d.spec().driver, "acpi-cpufreq");
  EXPECT_FALSE(d.spec().has_hwp);
  EXPECT_EQ(d.original_governor(), "schedutil");
  EXPECT_TRUE(d.userspace_available());
  EXPECT_EQ(d.policy_min_khz(), 1500000);
  EXPECT_EQ(d.policy_max_khz(), 2800000);
  EXPECT_EQ(d.requested_khz(), 1500000);
  EXPECT_FALSE(c->msr_counters());
  EXPECT_THAT(c->notes().front(), HasSubstr("derived from /proc/stat"));
}

TEST_F(LinuxCpufreqTest, NoCpufreqIsNotFound) {
  MakeTree(FakeMachine());
  absl::StatusOr<std::unique_ptr<LinuxCpufreq>> c =
      LinuxCpufreq::Open(options_, nullptr);
  EXPECT_EQ(c.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(c.status().message(),
              HasSubstr(SysDir() + "/devices/system/cpu/cpufreq"));
}

// Issue 49 #13: without a readable scaling_cur_freq (or cpuinfo_cur_freq)
// the log said "running at 2800000 kHz (scaling_cur_freq)"; it now says
// the frequency is assumed, and why.
TEST_F(LinuxCpufreqTest, AnUnreadableCurrentFrequencyIsSaidToBeAssumed) {
  MakeDefaultTree();
  ASSERT_EQ(std::remove(PolicyFile(0, "scaling_cur_freq").c_str()), 0);
  std::unique_ptr<LinuxCpufreq> c = Open();
  ASSERT_NE(c, nullptr);
  ASSERT_TRUE(c->Sample(0).ok());
  const std::string text = c->DescribeInputs(*c->domains()[0]);
  EXPECT_THAT(text, HasSubstr("running at 2800000 kHz (assumed: the base "
                              "frequency; "));
  EXPECT_THAT(text, HasSubstr(PolicyFile(0, "scaling_cur_freq")));
  EXPECT_THAT(text, ::testing::Not(HasSubstr("kHz (scaling_cur_freq)")));
  // With the file back, it is read again.
  ASSERT_TRUE(
      testing::WriteTestFile(PolicyFile(0, "scaling_cur_freq"), "1500000\n")
          .ok());
  ASSERT_TRUE(c->Sample(10 * kMs).ok());
  EXPECT_THAT(c->DescribeInputs(*c->domains()[0]),
              HasSubstr("running at 1500000 kHz (scaling_cur_freq)"));
}

// Issue 49 #13: scaling_min_freq above scaling_max_freq was taken silently.
TEST_F(LinuxCpufreqTest, MinimumAboveMaximumIsRefusedNamingTheFiles) {
  FakeMachine m;
  FakePolicy p;
  p.scaling_min_khz = 2800000;
  p.scaling_max_khz = 1500000;
  m.policies.push_back(p);
  MakeTree(m);
  absl::StatusOr<std::unique_ptr<LinuxCpufreq>> c =
      LinuxCpufreq::Open(options_, nullptr);
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(c.status().message(),
              HasSubstr("scaling_min_freq 2800000 kHz is above "
                        "scaling_max_freq 1500000 kHz in " +
                        SysDir() + "/" + PolicyDir(0)));
}

TEST_F(LinuxCpufreqTest, UtilIsTheFrequencyScaledBusyFraction) {
  MakeDefaultTree();
  options_.util_half_life_ns = 0;  // no smoothing
  std::unique_ptr<LinuxCpufreq> c = Open();
  ASSERT_NE(c, nullptr);
  ASSERT_TRUE(testing::WriteProcStat(options_.paths,
                                     {Times(0, 0, 100), Times(1, 0, 100)})
                  .ok());
  ASSERT_TRUE(c->Sample(0).ok());
  // cpu0 50% busy, cpu1 100% busy with iowait, at 1.5 of 2.8 GHz.
  ASSERT_TRUE(testing::WriteProcStat(options_.paths,
                                     {Times(0, 50, 150), Times(1, 100, 100, 5)})
                  .ok());
  ASSERT_TRUE(c->Sample(10 * kMs).ok());
  const LinuxFreqDomain& d = *c->domains()[0];
  EXPECT_EQ(d.now_ns(), 10 * kMs);
  EXPECT_EQ(d.util(0).util_cfs, 1024 * 1500 / 2800 / 2);  // 274
  EXPECT_EQ(d.util(0).capacity, 1024);
  EXPECT_NEAR(d.util(1).util_cfs, 1024.0 * 100 / 105 * 1500 / 2800, 1.0);
  EXPECT_TRUE(c->observation(1).iowait);
  EXPECT_FALSE(c->observation(0).iowait);
  // Derived counters: TSC at base (2.8 GHz) over 10 ms, MPERF x busy,
  // APERF x f / base.
  const CpuCounters k = d.counters(0);
  EXPECT_EQ(k.tsc, 28'000'000u);
  EXPECT_EQ(k.mperf, 14'000'000u);
  EXPECT_EQ(k.aperf, 7'500'000u);
  EXPECT_EQ(d.current_khz(), 1500000);
}

TEST_F(LinuxCpufreqTest, UtilIsSmoothedWithTheHalfLife) {
  MakeDefaultTree();
  options_.util_half_life_ns = 10 * kMs;
  std::unique_ptr<LinuxCpufreq> c = Open();
  ASSERT_NE(c, nullptr);
  ASSERT_TRUE(c->Sample(0).ok());
  ASSERT_TRUE(testing::WriteProcStat(options_.paths,
                                     {Times(0, 100, 1000), Times(1, 0, 1100)})
                  .ok());
  ASSERT_TRUE(c->Sample(10 * kMs).ok());
  // One half-life: half way from 0 to the sample.
  EXPECT_NEAR(c->observation(0).util, 0.5 * 1024 * 1500 / 2800, 0.01);
}

TEST_F(LinuxCpufreqTest, APeriodWithoutNewTicksKeepsTheEstimate) {
  MakeDefaultTree();
  options_.util_half_life_ns = 0;
  std::unique_ptr<LinuxCpufreq> c = Open();
  ASSERT_NE(c, nullptr);
  ASSERT_TRUE(c->Sample(0).ok());
  ASSERT_TRUE(testing::WriteProcStat(options_.paths,
                                     {Times(0, 1, 1000), Times(1, 0, 1001)})
                  .ok());
  ASSERT_TRUE(c->Sample(10 * kMs).ok());
  const int64_t busy_util = c->domains()[0]->util(0).util_cfs;
  EXPECT_EQ(busy_util, 549);  // one tick, busy
  // The next period sees no tick at USER_HZ: not idle, just no news.
  ASSERT_TRUE(c->Sample(15 * kMs).ok());
  EXPECT_EQ(c->domains()[0]->util(0).util_cfs, busy_util);
  EXPECT_DOUBLE_EQ(c->observation(0).busy_fraction, 1.0);
}

TEST_F(LinuxCpufreqTest, MsrCountersGiveTheAverageFrequency) {
  MakeDefaultTree();
  testing::FakeMsrAccess msr;
  for (int cpu = 0; cpu < 2; ++cpu) {
    msr.Set(cpu, kMsrTsc, 1000);
    msr.Set(cpu, kMsrMperf, 1000);
    msr.Set(cpu, kMsrAperf, 1000);
  }
  options_.msr = &msr;
  std::unique_ptr<LinuxCpufreq> c = Open();
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(c->msr_counters());
  ASSERT_TRUE(c->Sample(0).ok());
  // cpu0: APERF/MPERF = 3/4 of base 2.8 GHz = 2.1 GHz.
  msr.Set(0, kMsrTsc, 9000);
  msr.Set(0, kMsrMperf, 5000);
  msr.Set(0, kMsrAperf, 4000);
  ASSERT_TRUE(c->Sample(10 * kMs).ok());
  EXPECT_EQ(c->observation(0).avg_khz, 2100000);
  // Busy = MPERF/TSC; /proc/stat did not move and does not matter.
  EXPECT_DOUBLE_EQ(c->observation(0).busy_fraction, 0.5);
  const CpuCounters k = c->domains()[0]->counters(0);
  EXPECT_EQ(k.tsc, 9000u);
  EXPECT_EQ(k.mperf, 5000u);
  EXPECT_EQ(k.aperf, 4000u);
  // A register that stops reading: derived counters from then on.
  testing::FakeMsrAccess empty;
  options_.msr = &empty;
  std::unique_ptr<LinuxCpufreq> none = Open();
  ASSERT_NE(none, nullptr);
  EXPECT_FALSE(none->msr_counters());
}

TEST_F(LinuxCpufreqTest, DryRunRecordsTheTargetAndWritesNothing) {
  MakeDefaultTree();
  options_.governor_name = "schedutil";
  std::unique_ptr<LinuxCpufreq> c = Open();
  ASSERT_NE(c, nullptr);
  ASSERT_TRUE(c->Sample(0).ok());
  const auto before = testing::TreeState(SysDir());
  LinuxFreqDomain& d = *c->domains()[0];
  d.SetTargetKhz(2000000);
  d.SetTargetKhz(2050000);  // resolves to the same: not repeated
  d.SetTargetKhz(1400000);
  EXPECT_EQ(d.requested_khz(), 1500000);
  EXPECT_TRUE(d.status().ok());
  EXPECT_EQ(testing::TreeState(SysDir()), before);
  std::vector<LinuxFreqAction> actions = d.TakeActions();
  ASSERT_EQ(actions.size(), 2u);
  const LinuxFreqAction& a = actions[0];
  EXPECT_FALSE(a.applied);
  EXPECT_EQ(a.what,
            "target 2100000 kHz (asked 2000000 kHz; within the limits "
            "1500000-2800000 and resolved to an available frequency)");
  EXPECT_THAT(a.writes,
              ElementsAre(PolicyFile(0, "scaling_governor") + " <- userspace",
                          PolicyFile(0, "scaling_setspeed") + " <- 2100000"));
  EXPECT_THAT(a.why, HasSubstr("schedutil; cpu0 busy 0.0% util 0"));
  const std::string text = FormatAction(a);
  EXPECT_THAT(text, HasSubstr("policy0: target 2100000 kHz"));
  EXPECT_THAT(text, HasSubstr("dry run, would write: "));
  // The governor switch is planned once.
  EXPECT_THAT(actions[1].writes,
              ElementsAre(PolicyFile(0, "scaling_setspeed") + " <- 1500000"));
  EXPECT_TRUE(d.TakeActions().empty());
}

TEST_F(LinuxCpufreqTest, ApplyWritesSetspeedUnderUserspaceAndRestores) {
  MakeDefaultTree();
  options_.apply = true;
  const auto before = testing::TreeState(SysDir());
  {
    SettingsSnapshot snapshot(options_.paths);
    std::unique_ptr<LinuxCpufreq> c = Open(&snapshot);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(snapshot.entries().size(), 4u);  // governor setspeed min max
    ASSERT_TRUE(c->Sample(0).ok());
    LinuxFreqDomain& d = *c->domains()[0];
    d.SetTargetKhz(2800000);
    ASSERT_TRUE(d.status().ok()) << d.status();
    EXPECT_EQ(testing::ReadTestFile(PolicyFile(0, "scaling_governor")),
              "userspace\n");
    EXPECT_EQ(testing::ReadTestFile(PolicyFile(0, "scaling_setspeed")),
              "2800000\n");
    EXPECT_EQ(d.governor(), "userspace");
    d.SetTargetKhz(1500000);
    EXPECT_EQ(testing::ReadTestFile(PolicyFile(0, "scaling_setspeed")),
              "1500000\n");
    std::vector<LinuxFreqAction> actions = d.TakeActions();
    ASSERT_EQ(actions.size(), 2u);
    EXPECT_TRUE(actions[0].applied);
    EXPECT_THAT(FormatAction(actions[0]), HasSubstr("    wrote: "));
    ASSERT_TRUE(snapshot.Restore().ok());
  }
  for (const auto& [path, state] : testing::TreeState(SysDir())) {
    EXPECT_EQ(state.content, before.at(path).content) << path;
  }
}

TEST_F(LinuxCpufreqTest, ApplyWithoutUserspaceOnAPStateDriverFailsEarly) {
  FakeMachine m;
  FakePolicy p;
  p.driver = "intel_pstate";  // active mode, no HWP
  p.available_governors = "performance powersave";
  p.governor = "powersave";
  m.policies.push_back(p);
  MakeTree(m);
  options_.apply = true;
  SettingsSnapshot snapshot(options_.paths);
  absl::StatusOr<std::unique_ptr<LinuxCpufreq>> c =
      LinuxCpufreq::Open(options_, &snapshot);
  EXPECT_EQ(c.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(c.status().message(),
              HasSubstr("policy0 (driver intel_pstate) offers no `userspace`"));
  EXPECT_THAT(c.status().message(), HasSubstr("passive"));
  // In a dry run the same target is recorded with the reason.
  options_.apply = false;
  std::unique_ptr<LinuxCpufreq> dry = Open();
  ASSERT_NE(dry, nullptr);
  dry->domains()[0]->SetTargetKhz(2100000);
  std::vector<LinuxFreqAction> a = dry->domains()[0]->TakeActions();
  ASSERT_EQ(a.size(), 1u);
  EXPECT_TRUE(a[0].writes.empty());
  EXPECT_THAT(a[0].notes[0], HasSubstr("cannot be applied"));
}

TEST_F(LinuxCpufreqTest, AFailedWriteNamesTheFileAndStopsTheDomain) {
  MakeDefaultTree();
  options_.apply = true;
  SettingsSnapshot snapshot(options_.paths);
  std::unique_ptr<LinuxCpufreq> c = Open(&snapshot);
  ASSERT_NE(c, nullptr);
  // scaling_setspeed becomes something no write can go to.
  const std::string setspeed = PolicyFile(0, "scaling_setspeed");
  ASSERT_EQ(std::remove(setspeed.c_str()), 0);
  ASSERT_TRUE(testing::WriteTestFile(setspeed + "/x", "").ok());
  LinuxFreqDomain& d = *c->domains()[0];
  d.SetTargetKhz(2100000);
  EXPECT_FALSE(d.status().ok());
  EXPECT_THAT(d.status().message(), HasSubstr(setspeed));
  std::vector<LinuxFreqAction> actions = d.TakeActions();
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_THAT(FormatAction(actions[0]), HasSubstr("FAILED: "));
  EXPECT_THAT(FormatAction(actions[0]), HasSubstr("tried to write: "));
  d.SetTargetKhz(2800000);  // refused
  EXPECT_TRUE(d.TakeActions().empty());
  // Restoring brings the governor back; the file that cannot take its
  // original "<unsupported>" back is a note.
  SettingsSnapshot::RestoreReport report;
  EXPECT_TRUE(snapshot.Restore(&report).ok());
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_THAT(report.notes[0], HasSubstr(setspeed));
  EXPECT_EQ(testing::ReadTestFile(PolicyFile(0, "scaling_governor")),
            "schedutil\n");
  ASSERT_EQ(std::remove((setspeed + "/x").c_str()), 0);
  ASSERT_EQ(std::remove(setspeed.c_str()), 0);
  ASSERT_TRUE(testing::WriteTestFile(setspeed, "<unsupported>\n").ok());
}

TEST_F(LinuxCpufreqTest, ApplyRefusesANonWritableFile) {
  if (geteuid() == 0) {
    GTEST_SKIP() << "running as root: mode 0444 does not stop writes";
  }
  MakeDefaultTree();
  options_.apply = true;
  ASSERT_EQ(chmod(PolicyFile(0, "scaling_setspeed").c_str(), 0444), 0);
  SettingsSnapshot snapshot(options_.paths);
  absl::StatusOr<std::unique_ptr<LinuxCpufreq>> c =
      LinuxCpufreq::Open(options_, &snapshot);
  EXPECT_EQ(c.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(c.status().message(),
              HasSubstr("cannot write " + PolicyFile(0, "scaling_setspeed")));
}

// --- HWP: the sklep0 capture (intel_pstate active, HWP, EPP) ---------------

class SkylakeHwpTest : public LinuxCpufreqTest {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> dir =
        topology::testing::MakeTestTempDir("sklep0");
    ASSERT_TRUE(dir.ok());
    dir_ = *dir;
    options_.paths.sysfs_root = dir_ + "/sys";
    options_.paths.proc_root = dir_ + "/proc";
    options_.paths.dev_root = dir_ + "/dev";
    ASSERT_TRUE(topology::testing::LayOutPepcCapture(
                    topology::testing::CaptureRunfile(
                        "pepc_sklep0_sys_inlinefiles.txt"),
                    options_.paths.sysfs_root)
                    .ok());
    std::vector<CpuTimes> idle;
    for (int cpu = 0; cpu < 104; ++cpu) idle.push_back(Times(cpu, 0, 100));
    ASSERT_TRUE(testing::WriteProcStat(options_.paths, idle).ok());
  }
};

TEST_F(SkylakeHwpTest, SeesHwpWithCapabilitiesFromAcpiCppc) {
  std::unique_ptr<LinuxCpufreq> c = Open();
  ASSERT_NE(c, nullptr);
  ASSERT_EQ(c->domains().size(), 104u);
  const LinuxFreqDomain& d = *c->domains()[5];
  EXPECT_EQ(d.id(), 5);
  EXPECT_EQ(d.cpus().ToList(), "5");
  EXPECT_EQ(d.cpus().width(), 104);
  EXPECT_TRUE(d.spec().has_hwp);
  EXPECT_TRUE(d.spec().has_epp);
  EXPECT_EQ(d.spec().hwp.highest, 37);
  EXPECT_EQ(d.spec().hwp.guaranteed, 21);
  EXPECT_EQ(d.spec().hwp.lowest, 7);
  EXPECT_EQ(d.spec().khz_per_perf_unit, 100000);
  EXPECT_EQ(d.spec().base_khz, 2100000);
  EXPECT_FALSE(d.userspace_available());
}

TEST_F(SkylakeHwpTest, HwpRequestsMapOntoLimitsAndEpp) {
  options_.governor_name = "intel_pstate_hwp";
  HwpRequest r;
  r.min_perf = 20;
  r.max_perf = 37;
  r.desired_perf = 30;
  r.epp = 0xFF;
  const std::string min_file = PolicyFile(0, "scaling_min_freq");
  const std::string epp_file = PolicyFile(0, "energy_performance_preference");
  // Dry run: recorded, nothing written.
  {
    std::unique_ptr<LinuxCpufreq> c = Open();
    ASSERT_NE(c, nullptr);
    ASSERT_TRUE(c->Sample(0).ok());
    const auto before = testing::TreeState(SysDir());
    c->domains()[0]->SetHwpRequest(0, r);
    EXPECT_EQ(testing::TreeState(SysDir()), before);
    std::vector<LinuxFreqAction> a = c->domains()[0]->TakeActions();
    ASSERT_EQ(a.size(), 1u);
    EXPECT_THAT(a[0].writes,
                ElementsAre(min_file + " <- 2000000", epp_file + " <- power"));
    EXPECT_THAT(a[0].notes[0], HasSubstr("desired performance 30 (3000000 "
                                         "kHz) has no sysfs equivalent"));
  }
  // Apply: written, then restored.
  options_.apply = true;
  {
    SettingsSnapshot snapshot(options_.paths);
    std::unique_ptr<LinuxCpufreq> c = Open(&snapshot);
    ASSERT_NE(c, nullptr);
    ASSERT_TRUE(c->Sample(0).ok());
    c->domains()[0]->SetHwpRequest(0, r);
    ASSERT_TRUE(c->domains()[0]->status().ok()) << c->domains()[0]->status();
    EXPECT_EQ(testing::ReadTestFile(min_file), "2000000\n");
    EXPECT_EQ(testing::ReadTestFile(epp_file), "power\n");
    EXPECT_EQ(c->domains()[0]->policy_min_khz(), 2000000);
    // The same request again writes nothing.
    c->domains()[0]->TakeActions();
    c->domains()[0]->SetHwpRequest(0, r);
    EXPECT_TRUE(c->domains()[0]->TakeActions().empty());
    ASSERT_TRUE(snapshot.Restore().ok());
  }
  EXPECT_EQ(testing::ReadTestFile(min_file), "1000000\n");
  EXPECT_EQ(testing::ReadTestFile(epp_file), "balance_performance\n");
}

TEST_F(SkylakeHwpTest, HwpRequestsGoToTheMsrWhenAllowed) {
  options_.apply = true;
  options_.allow_msr_writes = true;
  options_.msr_counters = false;
  const uint64_t original = 0x0000'0000'8000'2507ull;
  testing::FakeMsrAccess msr;
  for (int cpu = 0; cpu < 104; ++cpu) msr.Set(cpu, kMsrHwpRequest, original);
  options_.msr = &msr;
  {
    SettingsSnapshot snapshot(options_.paths, &msr);
    std::unique_ptr<LinuxCpufreq> c = Open(&snapshot);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(snapshot.entries().size(), 104u * 5 + 104u);
    ASSERT_TRUE(c->Sample(0).ok());
    LinuxFreqDomain& d = *c->domains()[3];
    HwpRequest r;
    r.min_perf = 7;
    r.max_perf = 37;
    r.desired_perf = 21;
    r.epp = 0x80;
    d.SetHwpRequest(3, r);
    ASSERT_TRUE(d.status().ok()) << d.status();
    EXPECT_EQ(msr.Get(3, kMsrHwpRequest), 0x8015'2507ull);
    std::vector<LinuxFreqAction> a = d.TakeActions();
    ASSERT_EQ(a.size(), 1u);
    EXPECT_THAT(a[0].writes[0], HasSubstr("MSR 0x774 (IA32_HWP_REQUEST) of "
                                          "CPU 3"));
    // A request for a CPU outside the policy stops the domain.
    d.SetHwpRequest(4, r);
    EXPECT_THAT(d.status().message(),
                HasSubstr("CPU 4, which is not in policy3"));
  }
  EXPECT_EQ(msr.Get(3, kMsrHwpRequest), original);
}

TEST(EppTextTest, KernelNamesForTheKnownValues) {
  EXPECT_EQ(EppText(0), "performance");
  EXPECT_EQ(EppText(128), "balance_performance");
  EXPECT_EQ(EppText(192), "balance_power");
  EXPECT_EQ(EppText(255), "power");
  EXPECT_EQ(EppText(64), "64");
}

}  // namespace
}  // namespace schedsim::platform::host
