// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// A model of YCSB against MongoDB on the same machine (seed 001's
// ycsb-mongodb rows): `threads` YCSB client threads (-threads), each with
// its own connection, served by its own mongod connection thread, over
// loopback TCP.
//
//   YcsbParams p;
//   p.threads = 16;
//   absl::StatusOr<sim::Workload> w = YcsbMongodbWorkload(p);
//
// Each client thread runs YCSB's synchronous loop (Client.java's
// ClientThread: one operation at a time, no think time without -target);
// each mongod thread serves its one connection. With w = client_cycles +
// stack_cycles and s = server_cycles + stack_cycles:
//
//   ycsb/i:   loop { compute(w); send(request); recv(reply); mark(op) }
//   mongod/i: loop { recv(request); compute(s); send(reply) }
//
// Channels 2i (requests) and 2i + 1 (replies) are connection i's; one
// operation is in flight per connection. `ops_per_s` is YCSB's
// "[OVERALL], Throughput(ops/sec)"; `latency_us` its average operation
// latency, threads / throughput (Little's law for a closed loop).
//
// Sources and assumptions:
// - MongoDB serves each connection with a dedicated thread (the
//   synchronous service executor, the default of the 4.x-6.x servers:
//   "thread per connection"); YCSB's MongoDB binding uses one driver
//   connection per client thread for its synchronous calls.
// - The operation mix is folded into one average operation: YCSB's core
//   workload A (50% reads, 50% updates of one 1 KB record, zipfian keys;
//   the workload the report does not name, assumed) reads and updates a
//   cache-hot WiredTiger table. work_cv_pct (30%, assumed) is the spread
//   of that mix. With the default write concern (w: 1, no j) an update
//   does not wait for the journal, whose group commit and the
//   checkpoints run in the background and are not modelled: the loop
//   never waits for IO.
// - threads = 16 (assumed: the report gives no YCSB configuration; 16 is
//   a common -threads for one MongoDB server, and any count well below the
//   machine's 256 CPUs leaves most CPUs idle, as a server benchmark at
//   130 k ops/s on this machine does).
// - client_cycles = 60000 (assumed: the Java client, the key chooser and
//   the driver's BSON encoding and decoding per operation, about 20 us at
//   3 GHz); server_cycles is fitted to seed 001's tip baseline on NPS1
//   (131,696 ops/s; docs/validation.md, "Calibration").
// - Loopback TCP: every send also runs the stack and the receiver's softirq
//   on the sender's CPU (stack_cycles, netperf.h's kDefaultTcpStackCycles);
//   the simulator adds its socket_op_ns per send and receive.

#ifndef SCHEDSIM_WORKLOADS_YCSB_H_
#define SCHEDSIM_WORKLOADS_YCSB_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "sim/workload.h"
#include "workloads/model_registry.h"
#include "workloads/netperf.h"

namespace schedsim::workloads {

inline constexpr int kYcsbOperationMetric = 0;

// The defaults (see the file comment).
inline constexpr int kYcsbThreads = 16;               // assumed
inline constexpr int64_t kYcsbClientCycles = 60000;   // assumed
inline constexpr int64_t kYcsbServerCycles = 224000;  // fitted
inline constexpr double kYcsbWorkCvPct = 30.0;        // assumed

struct YcsbParams {
  int threads = kYcsbThreads;  // -threads: client threads = connections
  int64_t client_cycles = kYcsbClientCycles;  // per operation
  int64_t server_cycles = kYcsbServerCycles;  // per operation
  // Per send on either side: loopback TCP.
  int64_t stack_cycles = kDefaultTcpStackCycles;
};

absl::StatusOr<sim::Workload> YcsbMongodbWorkload(const YcsbParams& params);

// The registered model "ycsb_mongodb".
WorkloadModel YcsbMongodbModel();

}  // namespace schedsim::workloads

#endif  // SCHEDSIM_WORKLOADS_YCSB_H_
