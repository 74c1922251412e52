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
//   parent:  loop { shared(i_mmap, image_vmas, fork_cycles); fork(child);
//                   recv(0); mark }
//   child:   shared(i_mmap, image_vmas, exit_cycles); send(0); exit
// fork() places the child with find_idlest_cpu (SD_BALANCE_FORK) and the
// parent waits (wait4) until the child's exit wakes it: modelled by the
// child's send on the copy's channel just before it exits.
//
// execl:   shared(i_mmap, 2 x image_vmas, exec_cycles / 2);
//          shared(page_refs, exec_fault_writes, exec_cycles / 2); mark;
//          exec(execl)
// Each copy is one task that execs itself (the exec op: sched_exec()
// balancing with SD_BALANCE_EXEC, its utilization kept).
//
// syscall: loop { compute(batch * syscall_cycles); mark } - UnixBench's
// close(dup()), getpid(), getuid(), umask() loop; `batch` (100) loops per
// compute op keep the event count down.
//
// pipe: loop { compute(batch * pipe_cycles); mark } - one process writes
// 512 bytes to a pipe and reads them back: no other task and no wake-up,
// so it is syscall work only (in cycles, so it scales with frequency).
//
// dhry2reg: loop { compute(dhry_batch * dhry_cycles); mark } - Dhrystone 2
// with register variables (UnixBench's dhry_1.c / dhry_2.c built with
// -DREG): a CPU loop in user space, no system call and no wake-up. Its
// copies share CPUs only through the SMT sibling's throughput and the
// turbo ceiling by active cores (docs/model.md, "Execution").
//
// Serialisation (spawn and execl). Every copy runs the same image (the
// test binary, ld.so and libc: image_vmas = 12 file-backed VMAs, about 4
// per file), so each VMA links into or out of the same files'
// address_space interval trees under their i_mmap_rwsem: fork's
// dup_mmap() once per file VMA (kernel/fork.c, v6.1), exit's
// exit_mmap() -> free_pgtables() -> unlink_file_vma() once per file VMA
// (mm/mmap.c, v6.1), and an exec both for the old image and the new one.
// Modelled as one shared line "image.i_mmap_rwsem" written image_vmas
// times by fork and by exit and 2 x image_vmas times by an exec, each
// write holding it i_mmap_hold_ns (a kShared op: a FIFO server, so 512
// copies queue on it). An exec also faults the image's pages in
// (filemap_map_pages(): a page reference and an rmap count per page,
// mm/filemap.c, v6.1), exec_fault_writes atomic writes to a second shared
// line "image.page_refs". i_mmap_hold_ns and exec_fault_writes are fitted
// to seed 001's 512-copy tip rates (docs/validation.md); single copies
// pay the holds uncontended.
//
// Costs, fitted to seed 001's tip rates on zen3-2s-nps1 (docs/validation.md,
// calibration): fork_cycles 100000 and exit_cycles 75000 (spawn, 1 copy
// ~6800/s), exec_cycles 630000 (execl, 1 copy ~5400/s), i_mmap_hold_ns 440
// (spawn, 512 copies ~72800/s), exec_fault_writes 1400 (execl, 512 copies
// ~11300/s), dhry_cycles (dhry2reg, 1 copy ~49.3 M loops/s); syscall_cycles
// 1100 and pipe_cycles 1200 (assumed, from the single-copy syscall
// ~2.97 M/s and pipe ~2.9 M/s).
//
// Every spawned child stays in the simulator's task table after it exits
// (the simulator does not reuse task slots): spawn runs grow by one task
// (~1 KiB) per loop.
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

enum class UnixbenchTest { kSpawn, kExecl, kSyscall, kPipe, kDhry2reg };

absl::StatusOr<UnixbenchTest> ParseUnixbenchTest(absl::string_view name);
const char* UnixbenchTestName(UnixbenchTest test);

inline constexpr int kUnixbenchLoopMetric = 0;
inline constexpr int kUnixbenchBatch = 100;  // syscall and pipe loops/mark
inline constexpr int kDhryBatch = 10000;     // dhry2reg loops per mark

struct UnixbenchParams {
  UnixbenchTest test = UnixbenchTest::kSpawn;
  int copies = 1;
  int64_t fork_cycles = 100000;
  int64_t exit_cycles = 75000;
  int64_t exec_cycles = 630000;
  int64_t syscall_cycles = 1100;
  int64_t pipe_cycles = 1200;
  int64_t dhry_cycles = 74;
  // The process-lifecycle serialisation (spawn and execl; see the file
  // comment): file-backed VMAs of the image every copy maps, the hold of
  // the image's i_mmap_rwsem per VMA, and the page-cache reference writes
  // of one exec's faults on the image.
  int image_vmas = 12;
  int64_t i_mmap_hold_ns = 440;
  int exec_fault_writes = 1400;
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
