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

#ifndef SCHEDSIM_WORKLOADS_NAS_H_
#define SCHEDSIM_WORKLOADS_NAS_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "sim/workload.h"
#include "topology/topology.h"
#include "workloads/model_registry.h"

namespace schedsim::workloads {

enum class NasIpc { kOpenMp, kMpi };

inline constexpr int kNasIterationMetric = 0;

struct NasParams {
  NasIpc ipc = NasIpc::kOpenMp;
  int ranks = 0;                 // 0 = one per CPU
  int64_t iterations = 0;        // 0 = endless
  double work_ms = 80;           // serial work per iteration at max frequency
  double stall_pct = 30;         // memory-bound share of the work
  double imbalance_pct = 5;      // standard deviation of a rank's cycles
  int64_t spin_us = 1000;        // OpenMP barrier spin before blocking
  int64_t message_size = 65536;  // MPI halo bytes per rank and iteration
};

absl::StatusOr<sim::Workload> NasWorkload(const NasParams& params,
                                          const topology::Topology& topology);

// The registered model "nas".
WorkloadModel NasModel();

}  // namespace schedsim::workloads

#endif  // SCHEDSIM_WORKLOADS_NAS_H_
