// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "cli/govd_command.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "platform/linux/fake_tree.h"
#include "platform/linux/governor_loop.h"
#include "platform/linux/proc_stat.h"
#include "platform/linux/settings_snapshot.h"
#include "topology/testing/pepc_tree.h"

namespace schedsim::cli {
namespace {

namespace host = platform::host;
using ::testing::HasSubstr;
using ::testing::Not;

struct Result {
  int code;
  std::string out;
  std::string err;
};

// Time moves only when the loop sleeps.
class FakeClock final : public host::LoopClock {
 public:
  int64_t NowNs() override { return now_ns; }
  void SleepUntilNs(int64_t deadline_ns) override {
    now_ns = std::max(now_ns, deadline_ns);
  }
  int64_t now_ns = 5'000'000'000;
};

host::CpuTimes Times(int cpu, uint64_t busy, uint64_t idle) {
  host::CpuTimes t;
  t.cpu = cpu;
  t.user = busy;
  t.idle = idle;
  return t;
}

class GovdCommandTest : public ::testing::Test {
 protected:
  void MakeTree(const host::testing::FakeMachine& m) {
    absl::StatusOr<std::string> dir =
        topology::testing::MakeTestTempDir("govd");
    ASSERT_TRUE(dir.ok());
    absl::StatusOr<host::LinuxPaths> paths =
        host::testing::MakeFakeLinuxTree(*dir, m);
    ASSERT_TRUE(paths.ok()) << paths.status();
    paths_ = *paths;
    dir_ = *dir;
    hooks_.snapshot_dir = *dir;  // not /run/schedsim
    hooks_.lock_dir = *dir;
  }
  void MakeAcpiCpufreqTree() {
    host::testing::FakeMachine m;
    m.policies.push_back(host::testing::FakePolicy());
    MakeTree(m);
  }
  std::vector<std::string> RootFlags() const {
    return {"--sysfs=" + paths_.sysfs_root, "--proc=" + paths_.proc_root,
            "--dev=" + paths_.dev_root};
  }
  Result Run(const std::vector<std::string>& given) {
    std::vector<std::string> args = RootFlags();
    args.insert(args.end(), given.begin(), given.end());
    std::ostringstream out, err;
    hooks_.clock = &clock_;
    const int code = GovdCommand(args, out, err, hooks_);
    return {code, out.str(), err.str()};
  }
  std::string Policy0(const std::string& name) const {
    return paths_.sysfs_root + "/" + host::PolicyDir(0) + "/" + name;
  }
  // Plays the kernel: CPU 0 turns fully busy, and scaling_cur_freq
  // follows scaling_setspeed. Records what scaling_setspeed held.
  void BusyCpu0(int64_t raise_sigterm_at = -1) {
    hooks_.after_period = [this, raise_sigterm_at](int64_t periods) {
      const std::string setspeed =
          host::testing::ReadTestFile(Policy0("scaling_setspeed"));
      setspeed_seen_.push_back(setspeed);
      if (!setspeed.empty() && setspeed[0] != '<') {
        ASSERT_TRUE(
            host::testing::WriteTestFile(Policy0("scaling_cur_freq"), setspeed)
                .ok());
      }
      ticks_ += 10;
      ASSERT_TRUE(
          host::testing::WriteProcStat(
              paths_, {Times(0, ticks_, 1000), Times(1, 0, 1000 + ticks_)})
              .ok());
      if (periods == raise_sigterm_at) std::raise(SIGTERM);
    };
  }

  host::LinuxPaths paths_;
  std::string dir_;
  FakeClock clock_;
  GovdHooks hooks_;
  uint64_t ticks_ = 0;
  std::vector<std::string> setspeed_seen_;
};

TEST_F(GovdCommandTest, ApplyRunsSchedutilAndRestoresEverything) {
  MakeAcpiCpufreqTree();
  BusyCpu0();
  const auto before = host::testing::TreeState(paths_.sysfs_root);
  Result r = Run({"--governor=schedutil", "--apply", "--period-ms=10",
                  "--duration-s=0.05", "--util-half-life-ms=0"});
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  // All idle: the minimum; then CPU 0 busy at 1.5 GHz: util 549, 1.25 x
  // 2.8 GHz x 548/1024 = 1.87 GHz -> 2.1 GHz; at 2.1 GHz: util 768 ->
  // 2.63 GHz -> 2.8 GHz.
  ASSERT_EQ(setspeed_seen_.size(), 5u);
  EXPECT_EQ(setspeed_seen_[0], "1500000\n");
  EXPECT_EQ(setspeed_seen_[1], "2100000\n");
  EXPECT_EQ(setspeed_seen_[2], "2800000\n");
  EXPECT_THAT(r.out, HasSubstr("APPLY"));
  EXPECT_THAT(r.out, HasSubstr("Saved 4 settings"));
  EXPECT_THAT(r.out, HasSubstr(Policy0("scaling_governor") + " = 'schedutil'"));
  EXPECT_THAT(r.out, HasSubstr("policy0: target 2100000 kHz"));
  EXPECT_THAT(r.out, HasSubstr("wrote: " + Policy0("scaling_setspeed") +
                               " <- 2100000"));
  EXPECT_THAT(r.out, HasSubstr("why: schedutil; cpu0 busy 100.0% util 549"));
  EXPECT_THAT(r.out, HasSubstr("Restored the saved settings: 2 written back"));
  EXPECT_THAT(r.out, HasSubstr("Ran 5 periods (0.050 s)"));
  for (const auto& [path, state] :
       host::testing::TreeState(paths_.sysfs_root)) {
    if (path == Policy0("scaling_cur_freq")) continue;  // the "kernel's"
    EXPECT_EQ(state.content, before.at(path).content) << path;
  }
}

// Issue 49 #9: a second --apply on the same root (spelled differently)
// while the first runs is refused before it saves or writes anything, and
// the first still puts every file back.
TEST_F(GovdCommandTest, ASecondApplyOnTheSameRootIsRefused) {
  MakeAcpiCpufreqTree();
  BusyCpu0();
  const auto before = host::testing::TreeState(paths_.sysfs_root);
  auto busy = hooks_.after_period;
  Result second;
  std::map<std::string, host::testing::FileState> during, after_second;
  hooks_.after_period = [&](int64_t periods) {
    busy(periods);
    if (periods != 2) return;
    during = host::testing::TreeState(paths_.sysfs_root);
    GovdHooks hooks;
    hooks.snapshot_dir = dir_;
    hooks.lock_dir = dir_;
    std::ostringstream out, err;
    second.code =
        GovdCommand({"--sysfs=" + paths_.sysfs_root + "/./",
                     "--proc=" + paths_.proc_root, "--dev=" + paths_.dev_root,
                     "--governor=performance", "--apply", "--duration-s=0.02"},
                    out, err, hooks);
    second.out = out.str();
    second.err = err.str();
    after_second = host::testing::TreeState(paths_.sysfs_root);
  };
  Result first = Run({"--governor=schedutil", "--apply", "--period-ms=10",
                      "--duration-s=0.05", "--util-half-life-ms=0"});
  ASSERT_EQ(first.code, 0) << first.err << first.out;
  EXPECT_EQ(second.code, 1) << second.out;
  EXPECT_THAT(second.err, HasSubstr(absl::StrCat("another schedsim govd (PID ",
                                                 getpid(), ") is writing")));
  EXPECT_THAT(second.err, HasSubstr("one instance per root"));
  EXPECT_THAT(second.err, HasSubstr("(nothing was written)"));
  EXPECT_EQ(after_second, during);
  for (const auto& [path, state] :
       host::testing::TreeState(paths_.sysfs_root)) {
    if (path == Policy0("scaling_cur_freq")) continue;  // the "kernel's"
    EXPECT_EQ(state.content, before.at(path).content) << path;
  }
  // The first one is gone: the root is free again.
  Result third =
      Run({"--governor=performance", "--apply", "--duration-s=0.02"});
  EXPECT_EQ(third.code, 0) << third.err;
}

TEST_F(GovdCommandTest, DryRunWritesNothing) {
  MakeAcpiCpufreqTree();
  hooks_.after_period = [this](int64_t) {
    ticks_ += 10;
    ASSERT_TRUE(host::testing::WriteProcStat(
                    paths_, {Times(0, ticks_, 1000), Times(1, 0, 1000)})
                    .ok());
  };
  const auto before = host::testing::TreeState(paths_.sysfs_root);
  Result r = Run(
      {"--governor=schedutil", "--duration-s=0.03", "--param=rate_limit_us=0"});
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_EQ(host::testing::TreeState(paths_.sysfs_root), before);
  EXPECT_THAT(r.out, HasSubstr("dry run: nothing is written"));
  EXPECT_THAT(r.out, HasSubstr("dry run, would write: " +
                               Policy0("scaling_governor") + " <- userspace"));
  EXPECT_THAT(r.out, HasSubstr("why: schedutil; cpu0 busy"));
  EXPECT_THAT(r.out, Not(HasSubstr("Saved")));
}

TEST_F(GovdCommandTest, SigtermStopsTheRunAndRestores) {
  MakeAcpiCpufreqTree();
  BusyCpu0(/*raise_sigterm_at=*/3);
  const auto before = host::testing::TreeState(paths_.sysfs_root);
  Result r = Run({"--governor=schedutil", "--apply",
                  "--util-half-life-ms=0"});  // no duration: until a signal
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_EQ(setspeed_seen_.size(), 3u);
  EXPECT_THAT(r.out, HasSubstr("Ran 3 periods"));
  EXPECT_THAT(r.out, HasSubstr("stopped by SIGTERM"));
  EXPECT_EQ(host::testing::ReadTestFile(Policy0("scaling_governor")),
            "schedutil\n");
  for (const auto& [path, state] :
       host::testing::TreeState(paths_.sysfs_root)) {
    if (path == Policy0("scaling_cur_freq")) continue;
    EXPECT_EQ(state.content, before.at(path).content) << path;
  }
  // The handlers are gone again: SIGTERM's disposition is the default.
  struct sigaction now;
  sigaction(SIGTERM, nullptr, &now);
  EXPECT_EQ(now.sa_handler, SIG_DFL);
}

TEST_F(GovdCommandTest, WithoutCpufreqItListsWhatIsMissing) {
  MakeTree(host::testing::FakeMachine());  // no policies
  Result dry = Run({"--governor=schedutil"});
  EXPECT_EQ(dry.code, kGovdNothingToGovern);
  EXPECT_THAT(dry.out, HasSubstr("  MISSING  cpufreq: no cpufreq policies"));
  EXPECT_THAT(dry.out, HasSubstr("  MISSING  MSR: "));
  EXPECT_THAT(dry.out, HasSubstr("  present  cpuidle: "));
  EXPECT_THAT(dry.err, HasSubstr("nothing to govern"));
  Result apply = Run({"--governor=schedutil", "--apply"});
  EXPECT_EQ(apply.code, 1);
  EXPECT_THAT(apply.err, HasSubstr("nothing to govern"));
}

TEST_F(GovdCommandTest, BadFlagsAreUsageErrors) {
  MakeAcpiCpufreqTree();
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const Case cases[] = {
      {{}, "--governor is required; known: "},
      {{"--governor=schedutil", "--bogus"}, "unknown flag --bogus"},
      {{"--governor=schedutil", "--period-ms=0"}, "--period-ms must be in"},
      {{"--governor=schedutil", "--duration-s=-1"}, "--duration-s must be"},
      // Issue 49 #16: it said ">= 0, got 1e+300".
      {{"--governor=schedutil", "--duration-s=1e300"},
       "--duration-s must be in 0..10000000 (0: until SIGINT/SIGTERM), got "
       "1e+300"},
      {{"--governor=schedutil", "--period-ms=ten"},
       "--period-ms expects an integer"},
      {{"--governor=schedutil", "extra"}, "unexpected argument 'extra'"},
      {{"--governor=schedutil", "--param=rate_limit_us"},
       "--param expects KEY=VALUE"},
      {{"--governor=schedutil", "--param"}, "--param needs a value"},
      {{"--governor=schedutil", "--param", "rate_limit_us=abc"},
       "--param rate_limit_us of governor 'schedutil' expects an integer, "
       "got 'abc'"},
      {{"--governor=schedutil", "--param=iowait_boost=maybe"},
       "expects true or false"},
      {{"--governor=schedutil", "--param=nope=1"},
       "has no parameter 'nope'; its parameters: "},
      {{"--governor=schedutil", "--param=rate_limit_us=-5"},
       "rate_limit_us must be >= 0"},
  };
  for (const Case& c : cases) {
    Result r = Run(c.args);
    EXPECT_EQ(r.code, 2) << c.message;
    EXPECT_THAT(r.err, HasSubstr(c.message));
    EXPECT_THAT(r.err, HasSubstr("Usage: schedsim govd"));
  }
}

TEST_F(GovdCommandTest, AnUnknownGovernorListsTheKnownOnes) {
  MakeAcpiCpufreqTree();
  Result r = Run({"--governor=turbo"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown cpufreq governor 'turbo'; known: "));
  for (const char* name : {"schedutil", "ondemand", "performance", "powersave",
                           "conservative", "userspace"}) {
    EXPECT_THAT(r.err, HasSubstr(name));
  }
}

TEST_F(GovdCommandTest, AFailedWriteNamesTheFileExitsOneAndRestores) {
  MakeAcpiCpufreqTree();
  const std::string setspeed = Policy0("scaling_setspeed");
  BusyCpu0();
  auto busy = hooks_.after_period;
  // After the first target, scaling_setspeed stops taking writes.
  hooks_.after_period = [&](int64_t periods) {
    busy(periods);
    if (periods != 1) return;
    ASSERT_EQ(std::remove(setspeed.c_str()), 0);
    ASSERT_TRUE(host::testing::WriteTestFile(setspeed + "/x", "").ok());
  };
  Result r = Run({"--governor=schedutil", "--apply", "--duration-s=0.05",
                  "--util-half-life-ms=0"});
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_THAT(r.err, HasSubstr("cannot open " + setspeed + " for writing"));
  EXPECT_THAT(r.out, HasSubstr("FAILED: "));
  EXPECT_THAT(r.out, HasSubstr("Restored the saved settings"));
  EXPECT_EQ(host::testing::ReadTestFile(Policy0("scaling_governor")),
            "schedutil\n");
}

TEST_F(GovdCommandTest, AnUnreadableSettingStopsBeforeAnyWrite) {
  MakeAcpiCpufreqTree();
  const std::string setspeed = Policy0("scaling_setspeed");
  ASSERT_EQ(std::remove(setspeed.c_str()), 0);
  ASSERT_TRUE(host::testing::WriteTestFile(setspeed + "/x", "").ok());
  const auto before = host::testing::TreeState(paths_.sysfs_root);
  Result r = Run({"--governor=performance", "--apply", "--duration-s=0.02"});
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_THAT(r.err, HasSubstr("cannot save the original setting: "));
  EXPECT_THAT(r.err, HasSubstr(setspeed));
  EXPECT_EQ(host::testing::TreeState(paths_.sysfs_root), before);
}

TEST_F(GovdCommandTest, ANonWritableFileIsNamed) {
  if (geteuid() == 0) {
    GTEST_SKIP() << "running as root: mode 0444 does not stop writes";
  }
  MakeAcpiCpufreqTree();
  ASSERT_EQ(chmod(Policy0("scaling_governor").c_str(), 0444), 0);
  Result r = Run({"--governor=schedutil", "--apply", "--duration-s=0.02"});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("cannot write " + Policy0("scaling_governor")));
}

// Path -> content of every file of a tree (byte-identical, mtimes aside:
// a restore rewrites).
std::map<std::string, std::string> Contents(const std::string& root) {
  std::map<std::string, std::string> out;
  for (const auto& [path, state] : host::testing::TreeState(root)) {
    out[path] = state.content;
  }
  return out;
}

// Issue 14 #8: govd in a child process on the real clock, stopped by a
// signal (or by its reader going away) once it has written.
class GovdSignalTest : public GovdCommandTest {
 protected:
  // Starts `govd --apply` in a child whose stdout is a pipe; returns the
  // child's pid and sets *read_end.
  pid_t Start(const std::vector<std::string>& extra, int* read_end) {
    std::vector<std::string> args = RootFlags();
    for (const char* a : {"--governor=schedutil", "--apply", "--period-ms=5"}) {
      args.push_back(a);
    }
    args.insert(args.end(), extra.begin(), extra.end());
    int fds[2];
    if (pipe(fds) != 0) return -1;
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
      close(fds[0]);
      dup2(fds[1], 1);
      close(fds[1]);
      GovdHooks hooks;
      hooks.snapshot_dir = dir_;
      hooks.lock_dir = dir_;
      std::ostringstream err;
      const int code = GovdCommand(args, std::cout, err, hooks);
      std::cout.flush();
      _exit(code);
    }
    close(fds[1]);
    *read_end = fds[0];
    return pid;
  }
  // Reads lines until one contains `what` (true) or the end (false); the
  // lines read go to *lines.
  static bool ReadUntil(FILE* in, const std::string& what,
                        std::vector<std::string>* lines) {
    char buf[8192];
    while (std::fgets(buf, sizeof(buf), in) != nullptr) {
      lines->push_back(buf);
      if (lines->back().find(what) != std::string::npos) return true;
    }
    return false;
  }
  static int Wait(pid_t pid) {
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  std::string SnapshotFileOf(const std::string& first_line) const {
    const size_t at = first_line.find("snapshot ");
    if (at == std::string::npos) return "";
    std::string file = first_line.substr(at + 9);
    while (!file.empty() && file.back() == '\n') file.pop_back();
    return file;
  }
};

TEST_F(GovdSignalTest, EveryStopSignalRestoresTheTreeByteForByte) {
  for (int sig : {SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGINT}) {
    MakeAcpiCpufreqTree();
    const auto before = Contents(paths_.sysfs_root);
    int fd = -1;
    const pid_t pid = Start({}, &fd);
    ASSERT_GT(pid, 0);
    FILE* in = fdopen(fd, "r");
    std::vector<std::string> lines;
    ASSERT_TRUE(ReadUntil(in, "wrote: ", &lines)) << sig;
    const std::string snapshot = SnapshotFileOf(lines[0]);
    ASSERT_FALSE(snapshot.empty()) << lines[0];
    EXPECT_EQ(access(snapshot.c_str(), F_OK), 0) << snapshot;
    EXPECT_NE(Contents(paths_.sysfs_root), before);
    ASSERT_EQ(kill(pid, sig), 0);
    EXPECT_TRUE(ReadUntil(in, "Removed the snapshot file", &lines)) << sig;
    std::fclose(in);
    EXPECT_EQ(Wait(pid), 0) << sig;
    EXPECT_EQ(Contents(paths_.sysfs_root), before) << sig;
    EXPECT_NE(access(snapshot.c_str(), F_OK), 0) << snapshot;
  }
}

// `govd --apply | head -1`: the reader goes away after the first line.
TEST_F(GovdSignalTest, AClosedOutputStopsAndRestores) {
  MakeAcpiCpufreqTree();
  const auto before = Contents(paths_.sysfs_root);
  int fd = -1;
  const pid_t pid = Start({}, &fd);
  ASSERT_GT(pid, 0);
  FILE* in = fdopen(fd, "r");
  std::vector<std::string> lines;
  ASSERT_TRUE(ReadUntil(in, "schedsim govd:", &lines));
  std::fclose(in);  // as head -1 exits
  EXPECT_EQ(Wait(pid), 0);
  EXPECT_EQ(Contents(paths_.sysfs_root), before);
}

TEST_F(GovdSignalTest, AfterSigkillRestoreFromTheSnapshotFile) {
  MakeAcpiCpufreqTree();
  const auto before = Contents(paths_.sysfs_root);
  const std::string snapshot = dir_ + "/chosen.snapshot";
  int fd = -1;
  const pid_t pid = Start({"--snapshot=" + snapshot}, &fd);
  ASSERT_GT(pid, 0);
  FILE* in = fdopen(fd, "r");
  std::vector<std::string> lines;
  ASSERT_TRUE(ReadUntil(in, "wrote: ", &lines));
  EXPECT_THAT(lines[0], HasSubstr("snapshot " + snapshot));
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  std::fclose(in);
  EXPECT_EQ(Wait(pid), 128 + SIGKILL);
  EXPECT_NE(Contents(paths_.sysfs_root), before);
  EXPECT_EQ(host::testing::ReadTestFile(Policy0("scaling_governor")),
            "userspace\n");

  Result r = Run({"--restore=" + snapshot});
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_THAT(r.out, HasSubstr("Restored the saved settings: "));
  EXPECT_EQ(Contents(paths_.sysfs_root), before);
  // Idempotent: again, nothing to write.
  Result again = Run({"--restore=" + snapshot});
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_THAT(again.out, HasSubstr(": 0 written back"));
  EXPECT_EQ(Contents(paths_.sysfs_root), before);

  Result bad = Run({"--restore=" + Policy0("scaling_governor")});
  EXPECT_EQ(bad.code, 1);
  EXPECT_THAT(bad.err, HasSubstr("not a schedsim settings snapshot"));
}

// Issue 49 #9 and #10, end to end on a fake root: while a first govd
// --apply runs, a second one (same or another snapshot path) refuses and
// writes nothing; after a kill -9 of the first, a new --apply refuses to
// take the killed run's settings as originals, --restore puts every file
// back as it was before either ran, and then --apply works again.
TEST_F(GovdSignalTest, TwoInstancesThenKillNineThenRestore) {
  MakeAcpiCpufreqTree();
  const auto before = Contents(paths_.sysfs_root);
  const std::string snapshot = dir_ + "/first.snapshot";
  int fd = -1;
  const pid_t pid = Start({"--snapshot=" + snapshot}, &fd);
  ASSERT_GT(pid, 0);
  FILE* in = fdopen(fd, "r");
  std::vector<std::string> lines;
  ASSERT_TRUE(ReadUntil(in, "wrote: ", &lines));
  const std::string first_snapshot = host::testing::ReadTestFile(snapshot);
  ASSERT_THAT(first_snapshot, HasSubstr("scaling_governor schedutil"));

  for (const std::string& second_snapshot :
       {snapshot, dir_ + "/second.snapshot"}) {
    const auto during = Contents(paths_.sysfs_root);
    Result second = Run({"--governor=performance", "--apply",
                         "--duration-s=0.02", "--snapshot=" + second_snapshot});
    EXPECT_EQ(second.code, 1) << second.out;
    EXPECT_THAT(second.err,
                HasSubstr(absl::StrCat("another schedsim govd (PID ", pid,
                                       ") is writing the settings under ")));
    EXPECT_THAT(second.err, HasSubstr("with the snapshot " + snapshot));
    EXPECT_EQ(Contents(paths_.sysfs_root), during);
    EXPECT_EQ(host::testing::ReadTestFile(snapshot), first_snapshot);
  }
  EXPECT_NE(access((dir_ + "/second.snapshot").c_str(), F_OK), 0);
  // --restore while the first runs is refused too: it restores its own.
  Result early = Run({"--restore=" + snapshot});
  EXPECT_EQ(early.code, 1);
  EXPECT_THAT(early.err, HasSubstr("another schedsim govd"));

  ASSERT_EQ(kill(pid, SIGKILL), 0);
  std::fclose(in);
  EXPECT_EQ(Wait(pid), 128 + SIGKILL);
  EXPECT_EQ(host::testing::ReadTestFile(Policy0("scaling_governor")),
            "userspace\n");

  // The killed run's snapshot is still there: a new --apply refuses
  // rather than saving `userspace` as the original.
  const auto killed = Contents(paths_.sysfs_root);
  Result after_kill =
      Run({"--governor=performance", "--apply", "--duration-s=0.02",
           "--snapshot=" + dir_ + "/third.snapshot"});
  EXPECT_EQ(after_kill.code, 1) << after_kill.out;
  EXPECT_THAT(after_kill.err,
              HasSubstr(absl::StrCat("(PID ", pid,
                                     ") ended without restoring its settings; "
                                     "its snapshot ",
                                     snapshot, " is still there")));
  EXPECT_THAT(after_kill.err, HasSubstr("schedsim govd --restore=" + snapshot));
  EXPECT_EQ(Contents(paths_.sysfs_root), killed);

  Result r = Run({"--restore=" + snapshot});
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_EQ(Contents(paths_.sysfs_root), before);

  // The root is free and clean: a new run applies and restores.
  Result again = Run({"--governor=performance", "--apply", "--duration-s=0.02",
                      "--snapshot=" + dir_ + "/fourth.snapshot"});
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(Contents(paths_.sysfs_root), before);
}

TEST_F(GovdCommandTest, ASymlinkOutOfTheRootIsRefusedBeforeAnyWrite) {
  MakeAcpiCpufreqTree();
  const std::string outside = dir_ + "/outside_setspeed";
  ASSERT_TRUE(host::testing::WriteTestFile(outside, "<unsupported>\n").ok());
  const std::string setspeed = Policy0("scaling_setspeed");
  ASSERT_EQ(std::remove(setspeed.c_str()), 0);
  ASSERT_EQ(symlink(outside.c_str(), setspeed.c_str()), 0);
  const auto before = Contents(paths_.sysfs_root);
  Result r = Run({"--governor=schedutil", "--apply", "--duration-s=0.02"});
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_THAT(r.err, HasSubstr("refusing to write " + setspeed));
  EXPECT_THAT(r.err, HasSubstr("outside the root"));
  EXPECT_EQ(host::testing::ReadTestFile(outside), "<unsupported>\n");
  EXPECT_EQ(Contents(paths_.sysfs_root), before);
}

// The captures: what govd makes of real machines' sysfs.
class GovdCaptureTest : public GovdCommandTest {
 protected:
  void LayOut(const std::string& machine, int num_cpus) {
    absl::StatusOr<std::string> dir =
        topology::testing::MakeTestTempDir(machine);
    ASSERT_TRUE(dir.ok());
    paths_.sysfs_root = *dir + "/sys";
    paths_.proc_root = *dir + "/proc";
    paths_.dev_root = *dir + "/dev";
    ASSERT_TRUE(topology::testing::LayOutPepcCapture(
                    topology::testing::CaptureRunfile("pepc_" + machine +
                                                      "_sys_inlinefiles.txt"),
                    paths_.sysfs_root)
                    .ok());
    std::vector<host::CpuTimes> idle;
    for (int cpu = 0; cpu < num_cpus; ++cpu) idle.push_back(Times(cpu, 0, 100));
    ASSERT_TRUE(host::testing::WriteProcStat(paths_, idle).ok());
  }
};

TEST_F(GovdCaptureTest, SkylakeHwpDryRunMapsRequestsOntoSysfs) {
  LayOut("sklep0", 104);
  const auto before = host::testing::TreeState(paths_.sysfs_root);
  Result r = Run({"--governor=schedutil", "--duration-s=0.02"});
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_EQ(host::testing::TreeState(paths_.sysfs_root), before);
  EXPECT_THAT(r.out, HasSubstr("Governing 104 cpufreq policies"));
  EXPECT_THAT(r.out, HasSubstr("policy0: CPUs 0, intel_pstate (HWP)"));
  EXPECT_THAT(r.out, HasSubstr("  present  EPP: "));
  EXPECT_THAT(r.out, HasSubstr("  MISSING  userspace governor: "));
  EXPECT_THAT(r.out, HasSubstr("HWP request CPU 0: min 10 max 37"));
  EXPECT_THAT(r.out, HasSubstr("has no sysfs equivalent"));
}

TEST_F(GovdCaptureTest, MilanAcpiCpufreqDryRunSetsTargets) {
  LayOut("milan0", 128);
  Result r = Run({"--governor=ondemand", "--duration-s=0.05"});
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_THAT(r.out, HasSubstr("policy0: CPUs 0, acpi-cpufreq, "));
  EXPECT_THAT(r.out, HasSubstr("  present  userspace governor: "));
  EXPECT_THAT(r.out, HasSubstr("scaling_setspeed <- 1500000"));
}

TEST(GovdHelpTest, HelpListsTheFlagsAndExitCodes) {
  std::ostringstream out, err;
  EXPECT_EQ(GovdCommand({"--help"}, out, err), 0);
  EXPECT_THAT(out.str(), HasSubstr("Usage: schedsim govd --governor=NAME"));
  EXPECT_THAT(out.str(), HasSubstr("--allow-msr-writes"));
  EXPECT_THAT(out.str(), HasSubstr("3 dry run with\nnothing to govern"));
}

}  // namespace
}  // namespace schedsim::cli
