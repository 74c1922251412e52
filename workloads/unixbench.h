// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Models of UnixBench's scheduler-relevant tests, each run as `copies`
// parallel copies (UnixBench's -c), and of a shell-driven workload
// (gitsource: the git test suite).
//
//   UnixbenchParams p;
//   p.test = UnixbenchTest::kSpawn;
//   p.copies = 4;
//   absl::StatusOr<sim::Workload> w = UnixbenchWorkload(p);
//   // metric 0 "loop" counts `batch` loops per mark (see below)
//
// spawn (copy i: channel i, the child inherits the parent's channel base):
//   parent:  loop { compute(fork_cycles); fork(child); recv(0); mark }
//   child:   compute(exit_cycles); send(0); exit
// fork() places the child with find_idlest_cpu (SD_BALANCE_FORK) and the
// parent waits (wait4) until the child's exit wakes it: modelled by the
// child's send on the copy's channel just before it exits.
//
// execl:   compute(exec_cycles); mark; fork(execl); exit
// The simulator has no exec op: each exec is a new task that continues the
// chain, placed by fork balancing (find_idlest_cpu, as sched_exec()'s
// SD_BALANCE_EXEC balancing places an exec'ing task) while the old one
// exits. Unlike a real exec, the new task starts with a fresh utilization.
//
// syscall: loop { compute(batch * syscall_cycles); mark } - UnixBench's
// close(dup()), getpid(), getuid(), umask() loop; `batch` (100) loops per
// compute op keep the event count down.
//
// pipe: loop { compute(batch * pipe_cycles); mark } - one process writes
// 512 bytes to a pipe and reads them back: no other task and no wake-up,
// so it is syscall work only (in cycles, so it scales with frequency).
//
// Costs (assumed, from seed 001's single-copy rates on a ~3.5 GHz Zen3:
// spawn ~6800/s, execl ~5400/s, syscall ~2.97 M/s, pipe ~2.9 M/s):
// fork_cycles 200000, exit_cycles 150000, exec_cycles 600000,
// syscall_cycles 1100, pipe_cycles 1200.
//
// Every spawned child (and every execl image) stays in the simulator's
// task table after it exits (the simulator does not reuse task slots):
// spawn and execl runs grow by one task (~1 KiB) per loop.
//
// gitsource (`jobs` shells, shell i on channel i):
//   shell:    loop { compute(shell_cycles); fork(command); recv(0); mark }
//   command:  compute(fork_exec_cycles + lognormal(command_us at max
//             frequency)); send(0); exit
// Many short-lived processes, one after another: each new task starts
// with a fresh (half-capacity) utilization on the CPU fork balancing
// picks, so frequency governors rarely see a long busy period; this is
// the gitsource case of the HWP boost seed (000).

#ifndef SCHEDSIM_WORKLOADS_UNIXBENCH_H_
#define SCHEDSIM_WORKLOADS_UNIXBENCH_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "sim/workload.h"
#include "topology/topology.h"
#include "workloads/model_registry.h"

namespace schedsim::workloads {

enum class UnixbenchTest { kSpawn, kExecl, kSyscall, kPipe };

absl::StatusOr<UnixbenchTest> ParseUnixbenchTest(absl::string_view name);
const char* UnixbenchTestName(UnixbenchTest test);

inline constexpr int kUnixbenchLoopMetric = 0;
inline constexpr int kUnixbenchBatch = 100;  // syscall and pipe loops/mark

struct UnixbenchParams {
  UnixbenchTest test = UnixbenchTest::kSpawn;
  int copies = 1;
  int64_t fork_cycles = 200000;
  int64_t exit_cycles = 150000;
  int64_t exec_cycles = 600000;
  int64_t syscall_cycles = 1100;
  int64_t pipe_cycles = 1200;
};

// Loops per mark of the "loop" metric for `test` (1 or kUnixbenchBatch).
int UnixbenchLoopsPerMark(UnixbenchTest test);

absl::StatusOr<sim::Workload> UnixbenchWorkload(const UnixbenchParams& params);

struct GitsourceParams {
  int jobs = 1;
  int64_t shell_cycles = 50000;       // parsing between commands, assumed
  int64_t fork_exec_cycles = 400000;  // fork + exec + exit, assumed
  double command_us = 1000;           // median command work, assumed
  double command_sigma = 1.0;         // lognormal sigma, assumed
};

inline constexpr int kGitsourceCommandMetric = 0;

absl::StatusOr<sim::Workload> GitsourceWorkload(
    const GitsourceParams& params, const topology::Topology& topology);

// The registered models "unixbench" and "gitsource".
WorkloadModel UnixbenchModel();
WorkloadModel GitsourceModel();

}  // namespace schedsim::workloads

#endif  // SCHEDSIM_WORKLOADS_UNIXBENCH_H_
