// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/pgbench.h"

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
constexpr int kChannelCapacity = 16;

absl::StatusOr<PgbenchMode> ParseMode(const std::string& mode) {
  if (mode == "rw") return PgbenchMode::kReadWrite;
  if (mode == "ro") return PgbenchMode::kReadOnly;
  return absl::InvalidArgumentError(absl::StrCat(
      kModel, ": mode must be rw (TPC-B-like) or ro (-S), got '", mode, "'"));
}

}  // namespace

absl::StatusOr<sim::Workload> PgbenchWorkload(const PgbenchParams& params) {
  if (absl::Status s =
          CheckIntParam(kModel, "clients", params.clients, 1, 100000);
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
  if (absl::Status s = ValidateIoDevice(kModel, params.device); !s.ok()) {
    return s;
  }
  const bool rw = params.mode == PgbenchMode::kReadWrite;
  const int statements = rw ? kPgbenchReadWriteStatements : 1;
  const sim::Dist client_work = sim::Dist::Constant(params.client_cycles);
  const sim::Dist backend_work = sim::Dist::Constant(params.backend_cycles);

  sim::Workload w;
  w.metrics = {"transaction"};
  sim::ProgramBuilder client("pgbench");
  client.Loop(0).Stamp().Loop(statements);
  if (params.client_cycles > 0) client.Compute(client_work);
  client.Send(0).Recv(1).EndLoop().Mark(kPgbenchTransactionMetric).EndLoop();
  absl::StatusOr<sim::Program> c = BuildProgram(kModel, client);
  if (!c.ok()) return c.status();
  w.programs.push_back(*std::move(c));

  sim::ProgramBuilder backend("postgres");
  backend.Loop(0);
  auto statement = [&](bool commit) {
    backend.Recv(0);
    if (params.backend_cycles > 0) backend.Compute(backend_work);
    if (commit) backend.IoWait(params.device.Fsync());
    backend.Send(1);
  };
  if (rw) {
    backend.Loop(statements - 1);
    statement(false);
    backend.EndLoop();
    statement(true);
  } else {
    statement(false);
  }
  backend.EndLoop();
  absl::StatusOr<sim::Program> b = BuildProgram(kModel, backend);
  if (!b.ok()) return b.status();
  w.programs.push_back(*std::move(b));

  for (int i = 0; i < params.clients; ++i) {
    for (const char* dir : {"->", "<-"}) {
      sim::ChannelSpec ch;
      ch.name = absl::StrCat("pgbench", i, dir, "postgres", i);
      ch.kind = sim::ChannelSpec::Kind::kSocket;
      ch.capacity = kChannelCapacity;
      w.channels.push_back(std::move(ch));
    }
    sim::TaskSpec ct;
    ct.name = absl::StrCat("pgbench/", i);
    ct.program = 0;
    ct.channel_base = 2 * i;
    w.tasks.push_back(std::move(ct));
    sim::TaskSpec bt;
    bt.name = absl::StrCat("postgres/", i);
    bt.program = 1;
    bt.channel_base = 2 * i;
    w.tasks.push_back(std::move(bt));
  }
  return w;
}

WorkloadModel PgbenchModel() {
  WorkloadModel m;
  m.name = kModel;
  m.description =
      "pgbench on a cache-hot database: `clients` pgbench clients, each "
      "with its own backend over a unix socket; rw runs the TPC-B-like "
      "script (7 statements, the commit waits for a WAL fsync), ro the "
      "SELECT-only script (-S). Exercises synchronous wake-up placement of "
      "client/backend pairs, idle exits, the frequency ramp of short "
      "bursts and (rw) iowait wake-ups driving the iowait boost and HWP "
      "dynamic boost. Assumes 20 us of backend and 3 us of client work per "
      "statement at 3.5 GHz, an SSD-like device, no group commit and no "
      "background processes (all assumed).";
  m.params = {
      {"mode", std::string("rw"), "rw (TPC-B-like) or ro (select-only, -S)"},
      {"clients", int64_t{1}, "clients (-c), each with its own backend"},
      {"backend_cycles", int64_t{70000},
       "model only: backend cycles per statement (assumed)"},
      {"client_cycles", int64_t{10000},
       "model only: pgbench cycles per statement (assumed)"},
  };
  for (platform::ParamSpec& p : IoDeviceParamSpecs()) {
    m.params.push_back(std::move(p));
  }
  m.metrics = {
      {"tps", "tps", true, MeanKind::kHarmonic, "transactions per second"},
      {"latency_ms", "ms", false, MeanKind::kArithmetic,
       "mean transaction latency (pgbench's latency average)"},
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
    g.clients = static_cast<int>(clients);
    g.backend_cycles = p.GetInt("backend_cycles");
    g.client_cycles = p.GetInt("client_cycles");
    absl::StatusOr<IoDevice> dev = IoDeviceFromParams(kModel, p);
    if (!dev.ok()) return dev.status();
    g.device = *dev;
    return PgbenchWorkload(g);
  };
  m.evaluate = [](const platform::Params&, const sim::SimStats& stats) {
    return std::vector<MetricValue>{
        {"tps", PerSecond(static_cast<double>(
                              MetricCount(stats, kPgbenchTransactionMetric)),
                          stats)},
        {"latency_ms",
         MetricLatency(stats, kPgbenchTransactionMetric).mean() / 1e6},
    };
  };
  return m;
}

SCHEDSIM_REGISTER_WORKLOAD(PgbenchModel());

}  // namespace schedsim::workloads
