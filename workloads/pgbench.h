// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// A model of pgbench against a cache-hot PostgreSQL, as mmtests runs it
// (seed 000): `clients` connections (-c), each served by its own backend
// process, driven by `threads` pgbench threads (-j); read-write transactions
// commit with a WAL flush (io_wait on the device of model_util.h).
//
//   PgbenchParams p;
//   p.mode = PgbenchMode::kReadWrite;
//   p.clients = 8;  // one pgbench thread (-j 1) drives all eight
//   absl::StatusOr<sim::Workload> w = PgbenchWorkload(p);
//
// A pgbench thread is one task that multiplexes its clients' connections
// (pgbench waits in select() on all of them and handles each result as it
// arrives): it answers a result by building and sending that client's next
// statement. A transaction is S statements, each a round trip (rw: the
// TPC-B-like script's 7: BEGIN, 3 UPDATEs, SELECT, INSERT, END; ro, -S:
// one SELECT). With c clients on the thread, w = client_cycles +
// stack_cycles, b = backend_cycles:
//
//   pgbench/t:  loop(c) { compute(w); send(query) }   // each client's first
//               loop { recv(result); compute(w); send(query) }
//   postgres/i rw: loop { loop(S-1) { recv(query); compute(b + stack_cycles);
//                                     send(result) }
//                         recv(query); compute(b);            // END
//                         io_wait(fsync);                     // WAL flush
//                         compute(stack_cycles); send(result);
//                         mark(transaction) }
//   postgres/i ro: loop { recv(query); compute(b + stack_cycles);
//                         send(result); mark(transaction) }
//
// Channels: thread t's clients share one query channel (2t) and one result
// channel (2t + 1); its backends (i % threads == t) take queries in FIFO
// order. The thread handles results in arrival order and a backend waits for
// its next query right after sending its result, so the query the thread
// sends after a backend's result goes to that backend: each client keeps its
// backend, as a connection does (a backend still finishing its send can
// rarely take the query woken for another; the counts are unchanged).
// Transactions are counted by the backends at commit; `tps` is commits per
// second and `latency_ms` is pgbench's "latency average" without -L/-R/-P,
// clients / tps (Little's law for a closed loop without think time).
//
// Sources and assumptions:
// - mmtests' shellpack pgbench-bench (github.com/gormanm/mmtests,
//   shellpack_src/src/pgbench/pgbench-bench) runs `pgbench -c N -j
//   $NUMNODES -r -l --aggregate-interval=1` with PGHOST=127.0.0.1: one
//   pgbench thread on a single-node machine such as seed 000's E3-1240 v5,
//   over loopback TCP. Its config db-pgbench-timed-rw-small sizes the
//   database to 80% of shared_buffers (cache-hot: no reads from the device)
//   and runs 300 s per client count.
// - Loopback TCP: every send also runs the stack and the receiver's softirq
//   on the sender's CPU: stack_cycles = netperf.h's kDefaultTcpStackCycles
//   (8000, assumed there); the simulator adds its socket_op_ns per send and
//   receive.
// - The two cycle counts are assumed and calibrated against seed 000's
//   vanilla (no hwp_boost) numbers only, never against the boosted ones:
//   - client_cycles = 45000: pgbench's and libpq's work per statement
//     (parse the result, -r's per-command accounting, build the next
//     query). With the TCP send, two socket operations and a wake-up a
//     statement costs the thread ~19 us at 3.9 GHz, so one thread saturates
//     near 7,400 tps on the Skylake preset: the vanilla plateau (7333 tps
//     at 7 clients, 7462 at 8, ext4) that one pgbench thread explains.
//   - backend_cycles = 45000: the backend's parse, plan and execute per
//     statement, averaged over the script (BEGIN is cheaper, UPDATEs
//     dearer), so that one client's transaction with every CPU at 3.9 GHz
//     and no idle-exit cost takes ~365 us: 7 x (~19 us thread + ~19 us
//     backend) + a ~102 us flush, near the vanilla 2692 tps (371 us) at one
//     client (tested with POLL only).
// - Commit (synchronous_commit = on, PostgreSQL's default): the backend
//   that commits waits for its WAL flush (fdatasync, the write and the
//   device cache flush) as one io_wait of the device's fsync latency.
//   PostgreSQL lets one process flush at a time (WALWriteLock) and a commit
//   whose record another backend's flush covered returns without flushing
//   (group commit, PostgreSQL 9.2 commit 9b38d46). Programs cannot branch
//   on "already flushed", so each commit waits for one flush of its own and
//   concurrent flushes do not queue; a WALWriteLock without the
//   piggy-backing would serialise every commit's flush, which PostgreSQL
//   does not.
// - No background processes (walwriter, checkpointer, bgwriter,
//   autovacuum); no row-lock contention: rw-small's scale factor,
//   (RAM / 5 x 0.8 - 30 MB) / 15 MB, gives ~85 branches with 8 GB of RAM
//   and ~170 with 16 GB for at most 8 clients (the seed's RAM is
//   unpublished); every statement of a script costs the same.

#ifndef SCHEDSIM_WORKLOADS_PGBENCH_H_
#define SCHEDSIM_WORKLOADS_PGBENCH_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "sim/workload.h"
#include "workloads/model_registry.h"
#include "workloads/model_util.h"
#include "workloads/netperf.h"

namespace schedsim::workloads {

enum class PgbenchMode { kReadWrite, kReadOnly };

inline constexpr int kPgbenchReadWriteStatements = 7;
inline constexpr int kPgbenchTransactionMetric = 0;

// The defaults (see the file comment; assumed).
inline constexpr int64_t kPgbenchBackendCycles = 45000;
inline constexpr int64_t kPgbenchClientCycles = 45000;

struct PgbenchParams {
  PgbenchMode mode = PgbenchMode::kReadWrite;
  int clients = 1;  // -c
  // -j; pgbench's default 1, as mmtests runs it on one NUMA node. At most
  // `clients` threads run (a thread needs a client).
  int threads = 1;
  int64_t backend_cycles = kPgbenchBackendCycles;  // per statement, assumed
  int64_t client_cycles = kPgbenchClientCycles;    // per statement, assumed
  // Per send on either side: loopback TCP (mmtests' PGHOST=127.0.0.1); 0
  // models a unix-domain socket.
  int64_t stack_cycles = kDefaultTcpStackCycles;
  IoDevice device;  // the WAL flush
};

absl::StatusOr<sim::Workload> PgbenchWorkload(const PgbenchParams& params);

// The registered model "pgbench".
WorkloadModel PgbenchModel();

}  // namespace schedsim::workloads

#endif  // SCHEDSIM_WORKLOADS_PGBENCH_H_
