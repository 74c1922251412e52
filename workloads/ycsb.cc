// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/ycsb.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "sim/program.h"
#include "workloads/model_util.h"

namespace schedsim::workloads {
namespace {

constexpr char kModel[] = "ycsb_mongodb";

// Channels of connection i (added to TaskSpec::channel_base = 2i).
constexpr int kRequestChannel = 0;
constexpr int kReplyChannel = 1;

// A YCSB client thread: one synchronous operation at a time.
absl::StatusOr<sim::Program> ClientProgram(int64_t cycles) {
  sim::ProgramBuilder b("ycsb");
  b.Loop(0);
  if (cycles > 0) b.Compute(sim::Dist::Constant(cycles));
  b.Send(kRequestChannel).Recv(kReplyChannel).Mark(kYcsbOperationMetric);
  b.EndLoop();
  return BuildProgram(kModel, b);
}

// A mongod connection thread: serves its connection's requests.
absl::StatusOr<sim::Program> ServerProgram(int64_t cycles) {
  sim::ProgramBuilder b("mongod");
  b.Loop(0).Recv(kRequestChannel);
  if (cycles > 0) b.Compute(sim::Dist::Constant(cycles));
  b.Send(kReplyChannel).EndLoop();
  return BuildProgram(kModel, b);
}

absl::Status CheckCycles(const char* name, int64_t v) {
  return CheckIntParam(kModel, name, v, 0, 1000000000000);
}

}  // namespace

absl::StatusOr<sim::Workload> YcsbMongodbWorkload(const YcsbParams& params) {
  if (absl::Status s =
          CheckIntParam(kModel, "threads", params.threads, 1, 100000);
      !s.ok()) {
    return s;
  }
  for (const auto& [name, v] :
       {std::pair<const char*, int64_t>{"client_cycles", params.client_cycles},
        {"server_cycles", params.server_cycles},
        {"stack_cycles", params.stack_cycles}}) {
    if (absl::Status s = CheckCycles(name, v); !s.ok()) return s;
  }

  sim::Workload w;
  w.metrics = {"operation"};
  absl::StatusOr<sim::Program> client =
      ClientProgram(params.client_cycles + params.stack_cycles);
  if (!client.ok()) return client.status();
  w.programs.push_back(*std::move(client));  // program 0
  absl::StatusOr<sim::Program> server =
      ServerProgram(params.server_cycles + params.stack_cycles);
  if (!server.ok()) return server.status();
  w.programs.push_back(*std::move(server));  // program 1

  w.channels.reserve(2 * static_cast<size_t>(params.threads));
  w.tasks.reserve(2 * static_cast<size_t>(params.threads));
  for (int i = 0; i < params.threads; ++i) {
    for (const char* dir : {"requests", "replies"}) {
      sim::ChannelSpec ch;
      ch.name = absl::StrCat("conn", i, ".", dir);
      ch.kind = sim::ChannelSpec::Kind::kSocket;
      ch.capacity = 1;  // one operation in flight per connection
      w.channels.push_back(std::move(ch));
    }
  }
  // The client threads (program 0), then their mongod threads (program 1):
  // both ends of connection i use its two channels.
  for (int program : {0, 1}) {
    for (int i = 0; i < params.threads; ++i) {
      sim::TaskSpec t;
      t.name = program == 0 ? absl::StrCat("ycsb/", i)
                            : absl::StrCat("mongod/conn", i);
      t.program = program;
      t.channel_base = 2 * i;
      w.tasks.push_back(std::move(t));
    }
  }
  return w;
}

WorkloadModel YcsbMongodbModel() {
  WorkloadModel m;
  m.name = kModel;
  m.description =
      "YCSB against a MongoDB server on the same machine: `threads` client "
      "threads, each with one connection served by its own mongod thread "
      "(thread per connection), one synchronous operation at a time over "
      "loopback TCP; the read/update mix of workload A folded into one "
      "average operation (work_cv_pct its spread), no journal or checkpoint "
      "waits (w: 1). Exercises many 1:1 wake-ups on a mostly idle machine: "
      "placement, idle exits and the frequency of lightly loaded CPUs. "
      "Assumes 16 threads and 60000 client cycles per operation; "
      "server_cycles is fitted to seed 001's NPS1 baseline (131,696 ops/s).";
  m.params = {
      {"threads", int64_t{kYcsbThreads},
       "YCSB client threads (-threads), each with its own connection and "
       "mongod thread (assumed 16: the report gives no configuration)"},
      {"client_cycles", kYcsbClientCycles,
       "model only: YCSB client and driver cycles per operation (assumed)"},
      {"server_cycles", kYcsbServerCycles,
       "model only: mongod cycles per operation, the workload A mix's mean "
       "(fitted to seed 001's NPS1 baseline)"},
      {"stack_cycles", kDefaultTcpStackCycles,
       "model only: TCP loopback stack cycles per send on either side "
       "(assumed, as netperf)"},
      WorkCvParam(kYcsbWorkCvPct,
                  "assumed: workload A's reads and updates differ in cost"),
  };
  m.metrics = {
      {"ops_per_s", "ops/s", true, MeanKind::kHarmonic,
       "operations per second (YCSB's [OVERALL] Throughput)"},
      {"latency_us", "us", false, MeanKind::kArithmetic,
       "average operation latency: threads / throughput"},
  };
  m.build = [](const platform::Params& p,
               const topology::Topology&) -> absl::StatusOr<sim::Workload> {
    const int64_t threads = p.GetInt("threads");
    if (absl::Status s = CheckIntParam(kModel, "threads", threads, 1, 100000);
        !s.ok()) {
      return s;
    }
    YcsbParams y;
    y.threads = static_cast<int>(threads);
    y.client_cycles = p.GetInt("client_cycles");
    y.server_cycles = p.GetInt("server_cycles");
    y.stack_cycles = p.GetInt("stack_cycles");
    return YcsbMongodbWorkload(y);
  };
  m.evaluate = [](const platform::Params& p, const sim::SimStats& stats) {
    const double ops = PerSecond(
        static_cast<double>(MetricCount(stats, kYcsbOperationMetric)), stats);
    const double threads = static_cast<double>(p.GetInt("threads"));
    return std::vector<MetricValue>{
        {"ops_per_s", ops},
        {"latency_us", ops > 0 ? 1e6 * threads / ops : 0.0},
    };
  };
  return m;
}

SCHEDSIM_REGISTER_WORKLOAD(YcsbMongodbModel());

}  // namespace schedsim::workloads
