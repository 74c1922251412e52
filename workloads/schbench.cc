// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/schbench.h"

#include <cmath>
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

constexpr char kModel[] = "schbench";

}  // namespace

int64_t SchbenchCyclesPerOperation(const SchbenchParams& params) {
  if (params.cycles_per_operation > 0) return params.cycles_per_operation;
  const double scale =
      std::pow(static_cast<double>(params.cache_footprint_kb) / 256.0, 1.5);
  return static_cast<int64_t>(std::llround(
      static_cast<double>(kSchbenchCyclesPerOperationAt256K) * scale));
}

absl::StatusOr<sim::Workload> SchbenchWorkload(
    const SchbenchParams& params, const topology::Topology& topology) {
  if (absl::Status s = CheckIntParam(kModel, "message_threads",
                                     params.message_threads, 1, 4096);
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          CheckIntParam(kModel, "threads", params.threads, 0, 100000);
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          CheckIntParam(kModel, "operations", params.operations, 0, 1000000);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckIntParam(kModel, "cache_footprint",
                                     params.cache_footprint_kb, 1, 1 << 20);
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          CheckIntParam(kModel, "sleep_usec", params.sleep_usec, 0, 1000000000);
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          CheckIntParam(kModel, "cycles_per_operation",
                        params.cycles_per_operation, 0, int64_t{1} << 40);
      !s.ok()) {
    return s;
  }
  const int workers = params.threads > 0 ? params.threads : topology.num_cpus();
  if (int64_t{workers} * params.message_threads > 1000000) {
    return absl::InvalidArgumentError(
        absl::StrCat(kModel, ": message_threads * threads is too many tasks"));
  }
  const int64_t op_cycles = SchbenchCyclesPerOperation(params);
  // <= 2^42 * 10^6: no overflow.
  const int64_t request_cycles = op_cycles * params.operations;

  sim::Workload w;
  w.metrics = {"wakeup", "request"};
  sim::ProgramBuilder msg("schbench-msg");
  msg.Loop(0).Recv(0).Send(1).EndLoop();
  absl::StatusOr<sim::Program> msg_program = BuildProgram(kModel, msg);
  if (!msg_program.ok()) return msg_program.status();
  w.programs.push_back(*std::move(msg_program));

  sim::ProgramBuilder worker("schbench-worker");
  worker.Loop(0).Stamp().Send(0).Recv(1).Mark(kSchbenchWakeupMetric).Stamp();
  if (params.sleep_usec > 0) {
    worker.Sleep(sim::Dist::Constant(params.sleep_usec * 1000));
  }
  if (request_cycles > 0) worker.Compute(sim::Dist::Constant(request_cycles));
  worker.Mark(kSchbenchRequestMetric).EndLoop();
  absl::StatusOr<sim::Program> worker_program = BuildProgram(kModel, worker);
  if (!worker_program.ok()) return worker_program.status();
  w.programs.push_back(*std::move(worker_program));

  for (int m = 0; m < params.message_threads; ++m) {
    sim::ChannelSpec post;
    post.name = absl::StrCat("m", m, ".post");
    post.kind = sim::ChannelSpec::Kind::kPipe;
    post.capacity = workers + 1;
    w.channels.push_back(std::move(post));
    sim::ChannelSpec work;
    work.name = absl::StrCat("m", m, ".work");
    work.kind = sim::ChannelSpec::Kind::kPipe;
    work.capacity = workers + 1;
    w.channels.push_back(std::move(work));

    sim::TaskSpec mt;
    mt.name = absl::StrCat("schbench-msg/", m);
    mt.program = 0;
    mt.channel_base = 2 * m;
    w.tasks.push_back(std::move(mt));
    sim::TaskSpec wt;
    wt.name = absl::StrCat("schbench-worker/", m);
    wt.program = 1;
    wt.count = workers;
    wt.channel_base = 2 * m;
    w.tasks.push_back(std::move(wt));
  }
  return w;
}

WorkloadModel SchbenchModel() {
  WorkloadModel m;
  m.name = kModel;
  m.description =
      "schbench: message threads dispatch requests to worker threads; a "
      "worker posts itself, is woken by its message thread, sleeps "
      "sleep_usec (simulated network) and does `operations` matrix "
      "multiplications. Exercises wake-up latency and placement under "
      "saturation (the idle-CPU search finding the last idle CPUs), idle "
      "exits, involuntary preemption of long requests, and the frequency "
      "of saturated CPUs. Assumes ~3.4 ms per operation at -F 256 (10.1 M "
      "cycles, from schbench's README calibration; assumed), futex ops "
      "costed as pipe ops, and no per-CPU spinlock penalty (as -L).";
  m.params = {
      {"message_threads", int64_t{1}, "message threads (-m)"},
      {"threads", int64_t{0},
       "worker threads per message thread (-t); 0 = one per CPU (schbench's "
       "default)"},
      {"operations", int64_t{5}, "matrix multiplications per request (-n)"},
      {"cache_footprint", int64_t{256},
       "matrix footprint in KiB (-F); the work per operation scales as "
       "footprint^1.5"},
      {"sleep_usec", int64_t{100}, "sleep per request, us (-s)"},
      {"cycles_per_operation", int64_t{0},
       "model only: cycles per matrix operation; 0 = 10.1 M * "
       "(cache_footprint / 256)^1.5 (assumed)"},
      WorkCvParam(5.0, "assumed"),
  };
  m.metrics = {
      {"wakeup_p50_us", "us", false, MeanKind::kArithmetic,
       "wake-up latency, 50th percentile (worker post -> running)"},
      {"wakeup_p90_us", "us", false, MeanKind::kArithmetic,
       "wake-up latency, 90th percentile"},
      {"wakeup_p99_us", "us", false, MeanKind::kArithmetic,
       "wake-up latency, 99th percentile"},
      {"wakeup_p999_us", "us", false, MeanKind::kArithmetic,
       "wake-up latency, 99.9th percentile"},
      {"request_p99_us", "us", false, MeanKind::kArithmetic,
       "request latency, 99th percentile (sleep + matrix math)"},
      {"rps", "requests/s", true, MeanKind::kHarmonic,
       "requests completed per second"},
  };
  m.build =
      [](const platform::Params& p,
         const topology::Topology& topology) -> absl::StatusOr<sim::Workload> {
    SchbenchParams s;
    const int64_t message_threads = p.GetInt("message_threads");
    const int64_t threads = p.GetInt("threads");
    if (absl::Status st =
            CheckIntParam(kModel, "message_threads", message_threads, 1, 4096);
        !st.ok()) {
      return st;
    }
    if (absl::Status st = CheckIntParam(kModel, "threads", threads, 0, 100000);
        !st.ok()) {
      return st;
    }
    s.message_threads = static_cast<int>(message_threads);
    s.threads = static_cast<int>(threads);
    s.operations = p.GetInt("operations");
    s.cache_footprint_kb = p.GetInt("cache_footprint");
    s.sleep_usec = p.GetInt("sleep_usec");
    s.cycles_per_operation = p.GetInt("cycles_per_operation");
    return SchbenchWorkload(s, topology);
  };
  m.evaluate = [](const platform::Params&, const sim::SimStats& stats) {
    const sim::LatencyHistogram& wake =
        MetricLatency(stats, kSchbenchWakeupMetric);
    const sim::LatencyHistogram& req =
        MetricLatency(stats, kSchbenchRequestMetric);
    return std::vector<MetricValue>{
        {"wakeup_p50_us", PercentileUs(wake, 50)},
        {"wakeup_p90_us", PercentileUs(wake, 90)},
        {"wakeup_p99_us", PercentileUs(wake, 99)},
        {"wakeup_p999_us", PercentileUs(wake, 99.9)},
        {"request_p99_us", PercentileUs(req, 99)},
        {"rps", PerSecond(static_cast<double>(
                              MetricCount(stats, kSchbenchRequestMetric)),
                          stats)},
    };
  };
  return m;
}

SCHEDSIM_REGISTER_WORKLOAD(SchbenchModel());

}  // namespace schedsim::workloads
