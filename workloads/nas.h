// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// A model of a NAS Parallel Benchmarks kernel as a bulk-synchronous
// program: `ranks` tasks each compute their share of an iteration, then
// synchronise, either OpenMP-style (a barrier that spins, then blocks) or
// MPI-style (blocking halo messages around a ring of ranks).
//
//   NasParams p;
//   p.ipc = NasIpc::kOpenMp;
//   p.ranks = 8;
//   absl::StatusOr<sim::Workload> w = NasWorkload(p, topology);
//   // metric 0 "iteration": one per iteration (rank 0), latency = its time
//
// The problem size is fixed (strong scaling, like a NAS class): an
// iteration is `work_ms` of serial work at the machine's highest frequency,
// split evenly across the ranks, of which stall_pct percent is memory stall
// (frequency-independent) and the rest cycles; each rank's cycles are
// drawn from a normal distribution with a standard deviation of
// imbalance_pct percent (load imbalance and noise).
//
//   openmp, rank 0:   loop { stamp; compute(share); barrier(spin_us);
//                            mark(iteration) }
//   openmp, rank r:   loop { compute(share); barrier(spin_us) }
//   mpi, rank r:      loop { compute(share); send(right); recv(left) }
//                     (rank 0 also stamps and marks), each message costing
//                     SimConfig::pipe_op_ns plus message_size * 0.35
//                     cycles per side.
//
// Channel r carries rank r-1's message to rank r (channel 0: from the last
// rank). Assumptions: work_ms 80, stall 30%, imbalance 5%, spin 1000 us
// (libgomp's GOMP_SPINCOUNT spin, assumed length), 64 KiB halos (all
// assumed). MPI ranks block in the kernel; Open MPI's default busy polling
// of shared memory is not modelled.
//
// Kernels. `kernel` "generic" is the loop above with work_ms and
// stall_pct as given. The nine NPB 3.x kernels (bt, cg, ep, ft, is, lu, mg,
// sp, ua) each have a class-C profile (NasKernelProfile): the benchmark's
// own iteration count (NPB's class-C parameters), how many times the
// threads synchronise in one iteration (the worksharing loops and
// reductions of one time step, each ending in an implicit barrier;
// assumed), the memory-stall share of the work (assumed from what the
// kernel does: ep draws random numbers in registers, cg and mg stream
// sparse and multigrid arrays from memory) and the serial work of the
// whole class-C run at the highest frequency (fitted to the published
// vanilla time on skylake-e3-1240v5: docs/validation.md, "Calibration").
// A step of the loop is then one synchronisation interval: the run's work
// divided by iterations x syncs. ep has no barrier inside its one parallel
// loop: its threads run independent chunks (1000 in the run) and rank 0's
// chunk times give the run time. Metric run_s is the benchmark's run time:
// the mean step time x the steps of a class-C run (for "generic", the mean
// iteration time x iterations, or one iteration when endless).

#ifndef SCHEDSIM_WORKLOADS_NAS_H_
#define SCHEDSIM_WORKLOADS_NAS_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "sim/workload.h"
#include "topology/topology.h"
#include "workloads/model_registry.h"

namespace schedsim::workloads {

enum class NasIpc { kOpenMp, kMpi };

inline constexpr int kNasIterationMetric = 0;

// A class-C kernel profile (see the file comment).
struct NasKernelProfile {
  const char* name;
  int64_t iterations;           // NPB class C
  int64_t syncs_per_iteration;  // assumed; 0 = no barrier (ep)
  double stall_pct;             // assumed
  double work_s;  // fitted: serial work of the run at max frequency
};

// The profile of `kernel` (bt, cg, ep, ft, is, lu, mg, sp, ua), or nullptr.
const NasKernelProfile* FindNasKernel(const std::string& kernel);

struct NasParams {
  NasIpc ipc = NasIpc::kOpenMp;
  int ranks = 0;                 // 0 = one per CPU
  int64_t iterations = 0;        // 0 = endless
  double work_ms = 80;           // serial work per iteration at max frequency
  double stall_pct = 30;         // memory-bound share of the work
  double imbalance_pct = 5;      // standard deviation of a rank's cycles
  int64_t spin_us = 1000;        // OpenMP barrier spin before blocking
  int64_t message_size = 65536;  // MPI halo bytes per rank and iteration
  bool barrier = true;           // OpenMP: synchronise after each step
};

// The parameters of one step of `profile`'s class-C run: work_ms and
// stall_pct from the profile, barrier false when it has no syncs; ipc,
// ranks, imbalance_pct, spin_us and message_size from `base`.
NasParams NasKernelParams(const NasKernelProfile& profile,
                          const NasParams& base);

// The steps of `profile`'s class-C run (iterations x syncs, or the chunks
// of a run without barrier).
int64_t NasKernelSteps(const NasKernelProfile& profile);

absl::StatusOr<sim::Workload> NasWorkload(const NasParams& params,
                                          const topology::Topology& topology);

// The registered model "nas".
WorkloadModel NasModel();

}  // namespace schedsim::workloads

#endif  // SCHEDSIM_WORKLOADS_NAS_H_
