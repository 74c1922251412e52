// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// A model of pgbench against a cache-hot PostgreSQL: `clients` pgbench
// clients, each with its own backend process, exchanging statements over a
// unix socket; read-write transactions commit with a WAL flush (an fsync,
// io_wait on the device of model_util.h).
//
//   PgbenchParams p;
//   p.mode = PgbenchMode::kReadWrite;
//   p.clients = 4;
//   absl::StatusOr<sim::Workload> w = PgbenchWorkload(p);
//
// Client i is task pgbench/i, its backend postgres/i; channels 2i (client
// -> backend) and 2i+1 (backend -> client), shared programs through
// TaskSpec::channel_base. A transaction of S statements (rw: the TPC-B-like
// script's 7: BEGIN, 3 UPDATEs, SELECT, INSERT, END; ro, -S: one SELECT):
//
//   client:   loop { stamp; loop(S) { compute(client_cycles); send(0);
//                                     recv(1) } mark(transaction) }
//   backend rw: loop { loop(S-1) { recv(0); compute(backend_cycles);
//                                  send(1) }
//                      recv(0); compute(backend_cycles);
//                      io_wait(fsync); send(1) }      // END: WAL flush
//   backend ro: loop { recv(0); compute(backend_cycles); send(1) }
//
// Assumptions: every statement costs the backend `backend_cycles` (70000,
// 20 us at 3.5 GHz; assumed) and the client `client_cycles` (10000;
// assumed); the database is cache-hot (no reads from the device, as in
// mmtests' pgbench-small); each client has its own pgbench thread (-j =
// -c); commits do not share WAL flushes (no group commit) and there are no
// background processes (walwriter, checkpointer). With the defaults a
// read-write transaction on one client takes ~7 * 38 + 100 us: ~2700 tps,
// near seed 000's 2692 tps at one client.

#ifndef SCHEDSIM_WORKLOADS_PGBENCH_H_
#define SCHEDSIM_WORKLOADS_PGBENCH_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "sim/workload.h"
#include "workloads/model_registry.h"
#include "workloads/model_util.h"

namespace schedsim::workloads {

enum class PgbenchMode { kReadWrite, kReadOnly };

inline constexpr int kPgbenchReadWriteStatements = 7;
inline constexpr int kPgbenchTransactionMetric = 0;

struct PgbenchParams {
  PgbenchMode mode = PgbenchMode::kReadWrite;
  int clients = 1;                 // -c
  int64_t backend_cycles = 70000;  // per statement, assumed
  int64_t client_cycles = 10000;   // per statement, assumed
  IoDevice device;
};

absl::StatusOr<sim::Workload> PgbenchWorkload(const PgbenchParams& params);

// The registered model "pgbench".
WorkloadModel PgbenchModel();

}  // namespace schedsim::workloads

#endif  // SCHEDSIM_WORKLOADS_PGBENCH_H_
