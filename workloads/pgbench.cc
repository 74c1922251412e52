// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/pgbench.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "sim/program.h"

namespace schedsim::workloads {
namespace {

constexpr char kModel[] = "pgbench";

// Channels of pgbench thread t (added to TaskSpec::channel_base = 2t).
constexpr int kQueryChannel = 0;
constexpr int kResultChannel = 1;

absl::StatusOr<PgbenchMode> ParseMode(const std::string& mode) {
  if (mode == "rw") return PgbenchMode::kReadWrite;
  if (mode == "ro") return PgbenchMode::kReadOnly;
  return absl::InvalidArgumentError(absl::StrCat(
      kModel, ": mode must be rw (TPC-B-like) or ro (-S), got '", mode, "'"));
}

// A pgbench thread driving `clients` connections: one first statement per
// client, then one statement per result (see pgbench.h).
absl::StatusOr<sim::Program> ThreadProgram(int clients, int64_t cycles) {
  const sim::Dist work = sim::Dist::Constant(cycles);
  sim::ProgramBuilder b("pgbench");
  b.Loop(clients);
  if (cycles > 0) b.Compute(work);
  b.Send(kQueryChannel).EndLoop();
  b.Loop(0).Recv(kResultChannel);
  if (cycles > 0) b.Compute(work);
  b.Send(kQueryChannel).EndLoop();
  return BuildProgram(kModel, b);
}

// A backend: statements answered over the connection; in rw mode the last
// one (END) waits for the WAL flush before its result goes out.
absl::StatusOr<sim::Program> BackendProgram(const PgbenchParams& params) {
  const bool rw = params.mode == PgbenchMode::kReadWrite;
  const int64_t statement_cycles = params.backend_cycles + params.stack_cycles;
  sim::ProgramBuilder b("postgres");
  b.Loop(0);
  if (rw) {
    b.Loop(kPgbenchReadWriteStatements - 1).Recv(kQueryChannel);
    if (statement_cycles > 0) b.Compute(sim::Dist::Constant(statement_cycles));
    b.Send(kResultChannel).EndLoop();
    // END: the commit record, the WAL flush, then the result's send.
    b.Recv(kQueryChannel);
    if (params.backend_cycles > 0) {
      b.Compute(sim::Dist::Constant(params.backend_cycles));
    }
    b.IoWait(params.device.Fsync());
    if (params.stack_cycles > 0) {
      b.Compute(sim::Dist::Constant(params.stack_cycles));
    }
  } else {
    b.Recv(kQueryChannel);
    if (statement_cycles > 0) b.Compute(sim::Dist::Constant(statement_cycles));
  }
  b.Send(kResultChannel).Mark(kPgbenchTransactionMetric).EndLoop();
  return BuildProgram(kModel, b);
}

}  // namespace

absl::StatusOr<sim::Workload> PgbenchWorkload(const PgbenchParams& params) {
  if (absl::Status s =
          CheckIntParam(kModel, "clients", params.clients, 1, 100000);
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          CheckIntParam(kModel, "threads", params.threads, 1, 100000);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckIntParam(kModel, "backend_cycles",
                                     params.backend_cycles, 0, 1000000000000);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckIntParam(kModel, "client_cycles",
                                     params.client_cycles, 0, 1000000000000);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckIntParam(kModel, "stack_cycles",
                                     params.stack_cycles, 0, 1000000000000);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = ValidateIoDevice(kModel, params.device); !s.ok()) {
    return s;
  }
  const int threads = std::min(params.threads, params.clients);

  sim::Workload w;
  w.metrics = {"transaction"};
  absl::StatusOr<sim::Program> backend = BackendProgram(params);
  if (!backend.ok()) return backend.status();
  w.programs.push_back(*std::move(backend));  // program 0
  // Threads differ only in their number of clients: clients / threads
  // (program 1), one more for the first clients % threads of them (program
  // 2, when there are any).
  const int base_clients = params.clients / threads;
  const int extra = params.clients % threads;
  const int last_count = base_clients + (extra > 0 ? 1 : 0);
  for (int n = base_clients; n <= last_count; ++n) {
    absl::StatusOr<sim::Program> t =
        ThreadProgram(n, params.client_cycles + params.stack_cycles);
    if (!t.ok()) return t.status();
    w.programs.push_back(*std::move(t));
  }

  for (int t = 0; t < threads; ++t) {
    const int clients = base_clients + (t < extra ? 1 : 0);
    for (const char* dir : {"queries", "results"}) {
      sim::ChannelSpec ch;
      ch.name = absl::StrCat("pgbench/", t, ".", dir);
      ch.kind = sim::ChannelSpec::Kind::kSocket;
      // One statement or result in flight per client: never full.
      ch.capacity = clients;
      w.channels.push_back(std::move(ch));
    }
    sim::TaskSpec ts;
    ts.name = absl::StrCat("pgbench/", t);
    ts.program = t < extra ? 2 : 1;
    ts.channel_base = 2 * t;
    w.tasks.push_back(std::move(ts));
  }
  for (int i = 0; i < params.clients; ++i) {
    sim::TaskSpec bt;
    bt.name = absl::StrCat("postgres/", i);
    bt.program = 0;
    bt.channel_base = 2 * (i % threads);
    w.tasks.push_back(std::move(bt));
  }
  return w;
}

WorkloadModel PgbenchModel() {
  WorkloadModel m;
  m.name = kModel;
  m.description =
      "pgbench on a cache-hot database as mmtests runs it: `clients` "
      "connections, each with its own backend, driven by `threads` pgbench "
      "threads (-j, default 1) over loopback TCP; rw runs the TPC-B-like "
      "script (7 statements, the commit waits for a WAL flush), ro the "
      "SELECT-only script (-S). Exercises the 1:N wake-ups of a pgbench "
      "thread and its backends, their placement and idle exits, the "
      "frequency of lightly loaded CPUs and (rw) iowait wake-ups driving the "
      "iowait boost and HWP dynamic boost; one thread saturates near 7,400 "
      "tps on the Skylake preset, as seed 000's plateau. Assumes 45000 "
      "backend and 45000 pgbench cycles per statement, 8000 cycles of TCP "
      "stack per send, an SSD-like flush, each commit flushing for itself "
      "(no group commit) and no background processes (all assumed).";
  m.params = {
      {"mode", std::string("rw"), "rw (TPC-B-like) or ro (select-only, -S)"},
      {"clients", int64_t{1}, "clients (-c), each with its own backend"},
      {"threads", int64_t{1},
       "pgbench threads (-j), each driving clients / threads connections; "
       "pgbench's default 1, what mmtests uses on a single-node machine"},
      {"backend_cycles", kPgbenchBackendCycles,
       "model only: backend cycles per statement (assumed)"},
      {"client_cycles", kPgbenchClientCycles,
       "model only: pgbench thread cycles per statement (assumed; one "
       "thread then saturates near seed 000's 7,400 tps)"},
      {"stack_cycles", kDefaultTcpStackCycles,
       "model only: TCP loopback stack cycles per send on either side "
       "(assumed, as netperf); 0 for a unix-domain socket"},
      WorkCvParam(
          10.0,
          "assumed: statements of one transaction type vary with buffer hits"),
  };
  for (platform::ParamSpec& p : IoDeviceParamSpecs()) {
    m.params.push_back(std::move(p));
  }
  m.metrics = {
      {"tps", "tps", true, MeanKind::kHarmonic, "transactions per second"},
      {"latency_ms", "ms", false, MeanKind::kArithmetic,
       "pgbench's latency average: clients / tps"},
  };
  m.build = [](const platform::Params& p,
               const topology::Topology&) -> absl::StatusOr<sim::Workload> {
    absl::StatusOr<PgbenchMode> mode = ParseMode(p.GetString("mode"));
    if (!mode.ok()) return mode.status();
    PgbenchParams g;
    g.mode = *mode;
    const int64_t clients = p.GetInt("clients");
    if (absl::Status s = CheckIntParam(kModel, "clients", clients, 1, 100000);
        !s.ok()) {
      return s;
    }
    const int64_t threads = p.GetInt("threads");
    if (absl::Status s = CheckIntParam(kModel, "threads", threads, 1, 100000);
        !s.ok()) {
      return s;
    }
    g.clients = static_cast<int>(clients);
    g.threads = static_cast<int>(threads);
    g.backend_cycles = p.GetInt("backend_cycles");
    g.client_cycles = p.GetInt("client_cycles");
    g.stack_cycles = p.GetInt("stack_cycles");
    absl::StatusOr<IoDevice> dev = IoDeviceFromParams(kModel, p);
    if (!dev.ok()) return dev.status();
    g.device = *dev;
    return PgbenchWorkload(g);
  };
  m.evaluate = [](const platform::Params& p, const sim::SimStats& stats) {
    const double tps = PerSecond(
        static_cast<double>(MetricCount(stats, kPgbenchTransactionMetric)),
        stats);
    const double clients = static_cast<double>(p.GetInt("clients"));
    return std::vector<MetricValue>{
        {"tps", tps},
        {"latency_ms", tps > 0 ? 1e3 * clients / tps : 0.0},
    };
  };
  // Runs until stopped (-T): the transaction rate settles.
  SettleSpec settle;
  settle.rate_metric = 0;
  settle.count = [](const platform::Params&, const sim::SimStats& stats) {
    return static_cast<double>(MetricCount(stats, kPgbenchTransactionMetric));
  };
  settle.derive = [](const platform::Params& p, double tps) {
    const double clients = static_cast<double>(p.GetInt("clients"));
    return std::vector<std::pair<int, double>>{
        {1, tps > 0 ? 1e3 * clients / tps : 0.0}};
  };
  m.settle = std::move(settle);
  return m;
}

SCHEDSIM_REGISTER_WORKLOAD(PgbenchModel());

}  // namespace schedsim::workloads
