// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// A model of schbench (Chris Mason's scheduler benchmark, the 2023+ design
// in message.c/worker.c): message threads dispatch requests to their worker
// threads, which wake, sleep briefly (simulated network) and do matrix math.
//
//   SchbenchParams p;
//   p.message_threads = 2;
//   p.threads = 4;  // workers per message thread
//   absl::StatusOr<sim::Workload> w = SchbenchWorkload(p, topology);
//   // metric 0 "wakeup": one per dispatch, latency = post -> running;
//   // metric 1 "request": one per request, latency = the request's time.
//
// Shape. Message thread m owns channels 2m ("post": workers -> message
// thread) and 2m+1 ("work": message thread -> workers, shared by its
// workers, FIFO). One program serves every message thread and one every
// worker, through TaskSpec::channel_base = 2m:
//
//   message thread:  loop { recv(post); send(work) }
//   worker:          loop { stamp; send(post); recv(work); mark(wakeup);
//                           stamp; sleep(sleep_usec);
//                           compute(operations * cycles_per_operation);
//                           mark(request) }
//
// as schbench's msg_and_wait(): a worker takes its wake_time, posts itself
// to its message thread and futex-waits; the message thread, woken by the
// post, wakes every posted worker; the worker's wake-up latency is from its
// own wake_time to running again (so it includes the message thread's
// reaction, as in schbench). A request is usleep(sleep_usec) then
// `operations` matrix multiplications, timed from before the sleep.
//
// Costs (assumed). A futex post or wait is charged as a pipe operation
// (SimConfig::pipe_op_ns) on the channel. One "operation" is a matrix
// multiplication of side sqrt(cache_footprint * 1024 / 24): schbench's
// README calibrates -F 256 -n 5 to ~16.9 ms, i.e. ~3.4 ms per operation,
// taken as 10.1 M cycles (3.4 ms at ~3 GHz, assumed), scaled by
// (cache_footprint / 256)^1.5 (n^3 work for an n^2 footprint); all compute
// (the matrix fits the L2), no stall. The per-CPU spinlock that penalises
// preemption (schbench without -L) is not modelled.

#ifndef SCHEDSIM_WORKLOADS_SCHBENCH_H_
#define SCHEDSIM_WORKLOADS_SCHBENCH_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "sim/workload.h"
#include "topology/topology.h"
#include "workloads/model_registry.h"

namespace schedsim::workloads {

inline constexpr int kSchbenchWakeupMetric = 0;
inline constexpr int kSchbenchRequestMetric = 1;
// Cycles of one matrix operation at -F 256 (see the file comment; assumed).
inline constexpr int64_t kSchbenchCyclesPerOperationAt256K = 10100000;

struct SchbenchParams {
  int message_threads = 1;  // -m
  int threads = 0;          // -t, workers per message thread; 0 = num CPUs
  int64_t operations = 5;   // -n, matrix multiplications per request
  int64_t cache_footprint_kb = 256;  // -F
  int64_t sleep_usec = 100;          // -s
  // Cycles per operation; 0 = derived from cache_footprint_kb.
  int64_t cycles_per_operation = 0;
};

// Cycles of one operation for `params` (cycles_per_operation, or the
// footprint scaling of the file comment).
int64_t SchbenchCyclesPerOperation(const SchbenchParams& params);

// InvalidArgument naming the parameter when out of range.
absl::StatusOr<sim::Workload> SchbenchWorkload(
    const SchbenchParams& params, const topology::Topology& topology);

// The registered model "schbench".
WorkloadModel SchbenchModel();

}  // namespace schedsim::workloads

#endif  // SCHEDSIM_WORKLOADS_SCHBENCH_H_
