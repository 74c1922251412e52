// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/unixbench.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "sim/program.h"
#include "workloads/model_util.h"

namespace schedsim::workloads {
namespace {

constexpr int64_t kMaxCycles = 1000000000000;  // 10^12
constexpr int kWaitChannelCapacity = 4;
// Writes to the shared struct file per syscall-test loop (dup + close).
constexpr int kSyscallSharedWrites = 2;

absl::Status CheckCycles(absl::string_view model, const char* name, int64_t v) {
  return CheckIntParam(model, name, v, 0, kMaxCycles);
}

// `count` tasks of `spec_name`/i, task i on channel i (parent/child wait
// channels), running program 0.
void AddWaitingTasks(sim::Workload& w, int count, const std::string& name) {
  for (int i = 0; i < count; ++i) {
    sim::ChannelSpec ch;
    ch.name = absl::StrCat(name, i, ".wait");
    ch.kind = sim::ChannelSpec::Kind::kPipe;
    ch.capacity = kWaitChannelCapacity;
    w.channels.push_back(std::move(ch));
    sim::TaskSpec t;
    t.name = absl::StrCat(name, "/", i);
    t.program = 0;
    t.channel_base = i;
    w.tasks.push_back(std::move(t));
  }
}

}  // namespace

absl::StatusOr<UnixbenchTest> ParseUnixbenchTest(absl::string_view name) {
  for (UnixbenchTest t :
       {UnixbenchTest::kSpawn, UnixbenchTest::kExecl, UnixbenchTest::kSyscall,
        UnixbenchTest::kPipe, UnixbenchTest::kDhry2reg}) {
    if (name == UnixbenchTestName(t)) return t;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unixbench: unknown test '", name,
                   "'; known: spawn, execl, syscall, pipe, dhry2reg"));
}

const char* UnixbenchTestName(UnixbenchTest test) {
  switch (test) {
    case UnixbenchTest::kSpawn:
      return "spawn";
    case UnixbenchTest::kExecl:
      return "execl";
    case UnixbenchTest::kSyscall:
      return "syscall";
    case UnixbenchTest::kPipe:
      return "pipe";
    case UnixbenchTest::kDhry2reg:
      return "dhry2reg";
  }
  return "?";
}

int UnixbenchLoopsPerMark(UnixbenchTest test) {
  switch (test) {
    case UnixbenchTest::kSyscall:
    case UnixbenchTest::kPipe:
      return kUnixbenchBatch;
    case UnixbenchTest::kDhry2reg:
      return kDhryBatch;
    case UnixbenchTest::kSpawn:
    case UnixbenchTest::kExecl:
      break;
  }
  return 1;
}

absl::StatusOr<sim::Workload> UnixbenchWorkload(const UnixbenchParams& params) {
  constexpr char kModel[] = "unixbench";
  if (absl::Status s =
          CheckIntParam(kModel, "copies", params.copies, 1, 100000);
      !s.ok()) {
    return s;
  }
  for (const auto& [name, v] :
       {std::pair<const char*, int64_t>{"fork_cycles", params.fork_cycles},
        {"exit_cycles", params.exit_cycles},
        {"exec_cycles", params.exec_cycles},
        {"syscall_cycles", params.syscall_cycles},
        {"pipe_cycles", params.pipe_cycles},
        {"dhry_cycles", params.dhry_cycles}}) {
    if (absl::Status s = CheckCycles(kModel, name, v); !s.ok()) return s;
  }
  for (const auto& [name, v] :
       {std::pair<const char*, int64_t>{"image_vmas", params.image_vmas},
        {"exec_fault_writes", params.exec_fault_writes}}) {
    if (absl::Status s = CheckIntParam(kModel, name, v, 0, 100000); !s.ok()) {
      return s;
    }
  }
  if (absl::Status s = CheckIntParam(kModel, "i_mmap_hold_ns",
                                     params.i_mmap_hold_ns, 0, 1000000000);
      !s.ok()) {
    return s;
  }
  const std::string name =
      absl::StrCat("unixbench-", UnixbenchTestName(params.test));
  sim::Workload w;
  w.metrics = {"loop"};
  auto simple = [&](int64_t cycles) -> absl::StatusOr<sim::Workload> {
    if (cycles <= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(kModel, ": ", UnixbenchTestName(params.test),
                       " needs a positive cycle count per loop"));
    }
    sim::ProgramBuilder b(name);
    if (params.test == UnixbenchTest::kExecl) {
      // The copy execs itself: half the work unmaps the old image and maps
      // the new one under the image's i_mmap_rwsem, half faults the new one
      // in; then exec (sched_exec()'s balancing, the same task).
      const int i_mmap = w.AddLine("image.i_mmap_rwsem");
      const int refs = w.AddLine("image.page_refs");
      b.Shared(i_mmap, 2 * params.image_vmas,
               sim::Dist::Constant(cycles - cycles / 2),
               sim::Dist::Constant(params.i_mmap_hold_ns))
          .Shared(refs, params.exec_fault_writes,
                  sim::Dist::Constant(cycles / 2))
          .Mark(kUnixbenchLoopMetric)
          .Exec(/*program=*/0);
    } else if (params.test == UnixbenchTest::kSyscall) {
      // The syscall test's loop is close(dup(0)), getpid(), getuid(),
      // umask() (UnixBench's syscall.c, "mix"). dup takes a reference on
      // descriptor 0's struct file and close drops it (fget_raw and fput,
      // fs/file.c and fs/file_table.c, v6.1): two atomic writes to its
      // f_count per loop. Every copy inherits fd 0 from the one shell that
      // started them, so all copies write one shared line.
      const int line = w.AddLine("stdin.f_count");
      b.Loop(0)
          .Shared(line, kSyscallSharedWrites * kUnixbenchBatch,
                  sim::Dist::Constant(cycles))
          .Mark(kUnixbenchLoopMetric)
          .EndLoop();
    } else {
      b.Loop(0)
          .Compute(sim::Dist::Constant(cycles))
          .Mark(kUnixbenchLoopMetric)
          .EndLoop();
    }
    absl::StatusOr<sim::Program> p = BuildProgram(kModel, b);
    if (!p.ok()) return p.status();
    w.programs.push_back(*std::move(p));
    sim::TaskSpec t;
    t.name = name;
    t.program = 0;
    t.count = params.copies;
    w.tasks.push_back(std::move(t));
    return w;
  };
  switch (params.test) {
    case UnixbenchTest::kExecl:
      return simple(params.exec_cycles);
    case UnixbenchTest::kSyscall:
      return simple(params.syscall_cycles * kUnixbenchBatch);
    case UnixbenchTest::kPipe:
      return simple(params.pipe_cycles * kUnixbenchBatch);
    case UnixbenchTest::kDhry2reg:
      return simple(params.dhry_cycles * kDhryBatch);
    case UnixbenchTest::kSpawn:
      break;
  }
  // fork's dup_mmap() and the child's exit_mmap() each take the image's
  // i_mmap_rwsem once per file VMA.
  const int i_mmap = w.AddLine("image.i_mmap_rwsem");
  const sim::Dist hold = sim::Dist::Constant(params.i_mmap_hold_ns);
  sim::ProgramBuilder parent(name);
  parent.Loop(0);
  parent.Shared(i_mmap, params.image_vmas,
                sim::Dist::Constant(params.fork_cycles), hold);
  parent.Fork(/*program=*/1).Recv(0).Mark(kUnixbenchLoopMetric).EndLoop();
  sim::ProgramBuilder child(absl::StrCat(name, "-child"));
  child.Shared(i_mmap, params.image_vmas,
               sim::Dist::Constant(params.exit_cycles), hold);
  child.Send(0).Exit();
  absl::StatusOr<sim::Program> p = BuildProgram(kModel, parent);
  if (!p.ok()) return p.status();
  absl::StatusOr<sim::Program> c = BuildProgram(kModel, child);
  if (!c.ok()) return c.status();
  w.programs.push_back(*std::move(p));
  w.programs.push_back(*std::move(c));
  AddWaitingTasks(w, params.copies, name);
  return w;
}

absl::StatusOr<sim::Workload> GitsourceWorkload(
    const GitsourceParams& params, const topology::Topology& topology) {
  constexpr char kModel[] = "gitsource";
  if (absl::Status s = CheckIntParam(kModel, "jobs", params.jobs, 1, 100000);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckCycles(kModel, "shell_cycles", params.shell_cycles);
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          CheckCycles(kModel, "fork_exec_cycles", params.fork_exec_cycles);
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          CheckDoubleParam(kModel, "command_us", params.command_us, 0, 1e9);
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          CheckDoubleParam(kModel, "command_sigma", params.command_sigma, 0, 5);
      !s.ok()) {
    return s;
  }
  const int64_t median = UsAtMaxToCycles(params.command_us, topology);
  const int64_t sigma_milli =
      static_cast<int64_t>(std::llround(params.command_sigma * 1000.0));
  if (median <= 0 && params.fork_exec_cycles <= 0 && params.shell_cycles <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(kModel, ": a command that takes no time"));
  }
  sim::Workload w;
  w.metrics = {"command"};
  sim::ProgramBuilder shell("sh");
  shell.Loop(0);
  if (params.shell_cycles > 0) {
    shell.Compute(sim::Dist::Constant(params.shell_cycles));
  }
  shell.Fork(/*program=*/1).Recv(0).Mark(kGitsourceCommandMetric).EndLoop();
  sim::ProgramBuilder command("command");
  if (params.fork_exec_cycles > 0) {
    command.Compute(sim::Dist::Constant(params.fork_exec_cycles));
  }
  if (median > 0) {
    command.Compute(sigma_milli > 0 ? sim::Dist::LogNormal(median, sigma_milli)
                                    : sim::Dist::Constant(median));
  }
  command.Send(0).Exit();
  absl::StatusOr<sim::Program> s = BuildProgram(kModel, shell);
  if (!s.ok()) return s.status();
  absl::StatusOr<sim::Program> c = BuildProgram(kModel, command);
  if (!c.ok()) return c.status();
  w.programs.push_back(*std::move(s));
  w.programs.push_back(*std::move(c));
  AddWaitingTasks(w, params.jobs, "gitsource-sh");
  return w;
}

WorkloadModel UnixbenchModel() {
  WorkloadModel m;
  m.name = "unixbench";
  m.description =
      "UnixBench spawn, execl, syscall, pipe and dhry2reg, `copies` "
      "parallel copies. "
      "spawn: fork + exit + wait loops (fork balancing with "
      "find_idlest_cpu, new-task utilization, the parent's wake-up when the "
      "child exits); execl: a task that execs itself (sched_exec "
      "balancing, its utilization kept); "
      "syscall and pipe: tight single-task syscall loops (frequency and "
      "turbo by active cores only); syscall's dup and close write the "
      "struct file all copies share (a contended line); dhry2reg: a "
      "user-space CPU loop (Dhrystone 2, register variables: SMT and "
      "turbo only); spawn and execl "
      "serialise on the image all copies map (its i_mmap_rwsem at fork, "
      "exit and exec, its page references at exec's faults). Costs fitted "
      "to seed 001's tip rates at 1 and 512 copies.";
  m.params = {
      {"test", std::string("spawn"), "spawn, execl, syscall, pipe or dhry2reg"},
      {"copies", int64_t{1}, "parallel copies (-c)"},
      {"fork_cycles", int64_t{100000},
       "model only: parent cycles per fork (fitted)"},
      {"exit_cycles", int64_t{75000},
       "model only: child cycles from start to exit (fitted)"},
      {"exec_cycles", int64_t{630000}, "model only: cycles per execl (fitted)"},
      {"syscall_cycles", int64_t{1100},
       "model only: cycles per syscall-test loop (assumed)"},
      {"pipe_cycles", int64_t{1200},
       "model only: cycles per pipe-test write + read (assumed)"},
      {"dhry_cycles", int64_t{74},
       "model only: cycles per Dhrystone loop (dhry2reg; fitted)"},
      {"image_vmas", int64_t{12},
       "model only: file-backed VMAs of the image every copy maps (binary, "
       "ld.so, libc), each an i_mmap_rwsem hold at fork, exit and exec "
       "(assumed)"},
      {"i_mmap_hold_ns", int64_t{440},
       "model only: ns the image's i_mmap_rwsem is held per VMA link or "
       "unlink (fitted)"},
      {"exec_fault_writes", int64_t{1400},
       "model only: page-cache reference writes of one exec's faults on "
       "the shared image (fitted)"},
      WorkCvParam(3.0, "assumed"),
  };
  m.metrics = {
      {"loops_per_s", "loops/s", true, MeanKind::kHarmonic,
       "loops per second over all copies (UnixBench's lps)"},
  };
  m.build = [](const platform::Params& p,
               const topology::Topology&) -> absl::StatusOr<sim::Workload> {
    absl::StatusOr<UnixbenchTest> test =
        ParseUnixbenchTest(p.GetString("test"));
    if (!test.ok()) return test.status();
    UnixbenchParams u;
    u.test = *test;
    const int64_t copies = p.GetInt("copies");
    if (absl::Status s =
            CheckIntParam("unixbench", "copies", copies, 1, 100000);
        !s.ok()) {
      return s;
    }
    u.copies = static_cast<int>(copies);
    u.fork_cycles = p.GetInt("fork_cycles");
    u.exit_cycles = p.GetInt("exit_cycles");
    u.exec_cycles = p.GetInt("exec_cycles");
    u.syscall_cycles = p.GetInt("syscall_cycles");
    u.pipe_cycles = p.GetInt("pipe_cycles");
    u.dhry_cycles = p.GetInt("dhry_cycles");
    u.image_vmas = static_cast<int>(
        std::min<int64_t>(p.GetInt("image_vmas"), int64_t{1} << 30));
    u.i_mmap_hold_ns = p.GetInt("i_mmap_hold_ns");
    u.exec_fault_writes = static_cast<int>(
        std::min<int64_t>(p.GetInt("exec_fault_writes"), int64_t{1} << 30));
    return UnixbenchWorkload(u);
  };
  m.evaluate = [](const platform::Params& p, const sim::SimStats& stats) {
    absl::StatusOr<UnixbenchTest> test =
        ParseUnixbenchTest(p.GetString("test"));
    const int per_mark = test.ok() ? UnixbenchLoopsPerMark(*test) : 1;
    return std::vector<MetricValue>{
        {"loops_per_s", PerSecond(static_cast<double>(MetricCount(
                                      stats, kUnixbenchLoopMetric)) *
                                      per_mark,
                                  stats)},
    };
  };
  return m;
}

WorkloadModel GitsourceModel() {
  WorkloadModel m;
  m.name = "gitsource";
  m.description =
      "A shell-driven test suite (mmtests gitsource: git's unit tests): "
      "`jobs` shells each run commands one after another; a command is a "
      "short-lived process (fork, exec, a lognormal burst of work, exit) "
      "that the shell waits for. Exercises fork placement "
      "(find_idlest_cpu), the frequency ramp of new short-lived tasks "
      "(fresh utilization, HWP boost), idle exits and the shell's wake-up. "
      "Assumes a 1 ms median command (sigma 1.0) at the highest frequency, "
      "400000 cycles of fork + exec + exit and 50000 of shell work per "
      "command (assumed).";
  m.params = {
      {"jobs", int64_t{1}, "shells running commands in parallel (make -j)"},
      {"commands", int64_t{100000},
       "model only: commands in one suite run, for time_s (assumed)"},
      {"command_us", 1000.0,
       "model only: median work per command at the highest frequency, us "
       "(assumed)"},
      {"command_sigma", 1.0,
       "model only: lognormal sigma of the command work (assumed)"},
      {"fork_exec_cycles", int64_t{400000},
       "model only: cycles of fork + exec + exit per command (assumed)"},
      {"shell_cycles", int64_t{50000},
       "model only: shell cycles between commands (assumed)"},
      WorkCvParam(
          3.0,
          "assumed: on every compute op, the lognormal command work included"),
  };
  m.metrics = {
      {"time_s", "s", false, MeanKind::kArithmetic,
       "time to run `commands` commands at the measured rate"},
      {"commands_per_s", "commands/s", true, MeanKind::kHarmonic,
       "commands completed per second"},
  };
  m.build =
      [](const platform::Params& p,
         const topology::Topology& topology) -> absl::StatusOr<sim::Workload> {
    GitsourceParams g;
    const int64_t jobs = p.GetInt("jobs");
    if (absl::Status s = CheckIntParam("gitsource", "jobs", jobs, 1, 100000);
        !s.ok()) {
      return s;
    }
    if (absl::Status s = CheckIntParam(
            "gitsource", "commands", p.GetInt("commands"), 1, int64_t{1} << 50);
        !s.ok()) {
      return s;
    }
    g.jobs = static_cast<int>(jobs);
    g.command_us = p.GetDouble("command_us");
    g.command_sigma = p.GetDouble("command_sigma");
    g.fork_exec_cycles = p.GetInt("fork_exec_cycles");
    g.shell_cycles = p.GetInt("shell_cycles");
    return GitsourceWorkload(g, topology);
  };
  m.evaluate = [](const platform::Params& p, const sim::SimStats& stats) {
    const double rate = PerSecond(
        static_cast<double>(MetricCount(stats, kGitsourceCommandMetric)),
        stats);
    return std::vector<MetricValue>{
        {"time_s",
         rate > 0 ? static_cast<double>(p.GetInt("commands")) / rate : 0.0},
        {"commands_per_s", rate},
    };
  };
  return m;
}

SCHEDSIM_REGISTER_WORKLOAD(UnixbenchModel());
SCHEDSIM_REGISTER_WORKLOAD(GitsourceModel());

}  // namespace schedsim::workloads
