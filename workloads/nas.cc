// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/nas.h"

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

constexpr char kModel[] = "nas";
constexpr double kCyclesPerByte = 0.35;  // as netperf.h (assumed)
constexpr int kChannelCapacity = 4;

absl::StatusOr<NasIpc> ParseIpc(const std::string& ipc) {
  if (ipc == "openmp") return NasIpc::kOpenMp;
  if (ipc == "mpi") return NasIpc::kMpi;
  return absl::InvalidArgumentError(
      absl::StrCat(kModel, ": ipc must be openmp or mpi, got '", ipc, "'"));
}

}  // namespace

absl::StatusOr<sim::Workload> NasWorkload(const NasParams& params,
                                          const topology::Topology& topology) {
  if (absl::Status s = CheckIntParam(kModel, "ranks", params.ranks, 0, 100000);
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          CheckIntParam(kModel, "iterations", params.iterations, 0, 2147483647);
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          CheckDoubleParam(kModel, "work_ms", params.work_ms, 0.001, 1e7);
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          CheckDoubleParam(kModel, "stall_pct", params.stall_pct, 0, 100);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckDoubleParam(kModel, "imbalance_pct",
                                        params.imbalance_pct, 0, 100);
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          CheckIntParam(kModel, "spin_us", params.spin_us, 0, 1000000000);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckIntParam(kModel, "message_size",
                                     params.message_size, 0, int64_t{1} << 34);
      !s.ok()) {
    return s;
  }
  const int ranks = params.ranks > 0 ? params.ranks : topology.num_cpus();
  const double share_us = params.work_ms * 1000.0 / ranks;
  const int64_t cycles =
      UsAtMaxToCycles(share_us * (100.0 - params.stall_pct) / 100.0, topology);
  const int64_t stall_ns = static_cast<int64_t>(
      std::llround(share_us * 1000.0 * params.stall_pct / 100.0));
  const int64_t sd = static_cast<int64_t>(
      std::llround(static_cast<double>(cycles) * params.imbalance_pct / 100.0));
  const sim::Dist work_cycles =
      sd > 0 ? sim::Dist::Normal(cycles, sd) : sim::Dist::Constant(cycles);
  const sim::Dist work_stall = sim::Dist::Constant(stall_ns);
  const int64_t message_cycles = static_cast<int64_t>(
      std::llround(static_cast<double>(params.message_size) * kCyclesPerByte));
  const bool mpi = params.ipc == NasIpc::kMpi;

  sim::Workload w;
  w.metrics = {"iteration"};
  // program(first, last): rank 0 stamps and marks; the last rank of an MPI
  // ring sends to channel 0 (absolute channels, base 0).
  auto make = [&](const std::string& name, bool first,
                  bool last) -> absl::StatusOr<sim::Program> {
    sim::ProgramBuilder b(name);
    b.Loop(params.iterations);
    if (first) b.Stamp();
    b.Compute(work_cycles, work_stall);
    if (mpi) {
      if (message_cycles > 0) b.Compute(sim::Dist::Constant(message_cycles));
      if (last) {
        b.Send(0).Recv(ranks - 1);
      } else {
        b.Send(1).Recv(0);
      }
      if (message_cycles > 0) b.Compute(sim::Dist::Constant(message_cycles));
    } else {
      b.Barrier(0, sim::Dist::Constant(params.spin_us * 1000));
    }
    if (first) b.Mark(kNasIterationMetric);
    b.EndLoop().Exit();
    return BuildProgram(kModel, b);
  };
  const std::string prefix = mpi ? "nas-mpi/rank" : "nas-omp/thread";
  auto add_task = [&](int program, int rank, int count, int base) {
    sim::TaskSpec t;
    t.name = count == 1 ? absl::StrCat(prefix, rank) : prefix;
    t.program = program;
    t.count = count;
    t.channel_base = base;
    w.tasks.push_back(std::move(t));
  };
  absl::StatusOr<sim::Program> first =
      make("nas-rank0", true, mpi && ranks == 1);
  if (!first.ok()) return first.status();
  w.programs.push_back(*std::move(first));
  add_task(0, 0, 1, 0);
  if (!mpi) {
    sim::BarrierSpec b;
    b.name = "omp-barrier";
    b.parties = ranks;
    w.barriers.push_back(b);
    if (ranks > 1) {
      absl::StatusOr<sim::Program> other = make("nas-thread", false, false);
      if (!other.ok()) return other.status();
      w.programs.push_back(*std::move(other));
      add_task(1, 1, ranks - 1, 0);
    }
    return w;
  }
  for (int r = 0; r < ranks; ++r) {
    sim::ChannelSpec ch;
    ch.name = absl::StrCat("rank", (r + ranks - 1) % ranks, "->rank", r);
    ch.kind = sim::ChannelSpec::Kind::kPipe;
    ch.capacity = kChannelCapacity;
    w.channels.push_back(std::move(ch));
  }
  if (ranks > 1) {
    absl::StatusOr<sim::Program> last = make("nas-rank-last", false, true);
    if (!last.ok()) return last.status();
    w.programs.push_back(*std::move(last));
    if (ranks > 2) {
      absl::StatusOr<sim::Program> middle = make("nas-rank", false, false);
      if (!middle.ok()) return middle.status();
      w.programs.push_back(*std::move(middle));
      for (int r = 1; r < ranks - 1; ++r) add_task(2, r, 1, r);
    }
    add_task(1, ranks - 1, 1, 0);
  }
  return w;
}

WorkloadModel NasModel() {
  WorkloadModel m;
  m.name = kModel;
  m.description =
      "A NAS Parallel Benchmarks kernel as a bulk-synchronous loop: `ranks` "
      "tasks compute their share of a fixed-size iteration, then "
      "synchronise with an OpenMP barrier (spin, then block) or MPI-style "
      "blocking messages around a ring. Exercises the frequency of fully "
      "busy CPUs (turbo by active cores, memory stall limiting the gain), "
      "idle entry/exit at synchronisation points, wake-ups of blocked ranks "
      "and load imbalance. Assumes 80 ms of serial work per iteration, 30% "
      "memory stall, 5% imbalance, 1 ms of barrier spin and 64 KiB halos "
      "(all assumed).";
  m.params = {
      {"ipc", std::string("openmp"),
       "openmp (spin-then-block barrier) or mpi (blocking ring messages)"},
      {"ranks", int64_t{0}, "threads or MPI ranks; 0 = one per CPU"},
      {"iterations", int64_t{0}, "iterations; 0 = endless"},
      {"work_ms", 80.0,
       "model only: serial work per iteration at the highest frequency, ms "
       "(assumed)"},
      {"stall_pct", 30.0,
       "model only: memory-stall share of the work, % (assumed)"},
      {"imbalance_pct", 5.0,
       "model only: standard deviation of a rank's work, % (assumed)"},
      {"spin_us", int64_t{1000},
       "model only: OpenMP barrier spin before sleeping, us (assumed)"},
      {"message_size", int64_t{65536},
       "model only: MPI halo bytes per rank and iteration (assumed)"},
      WorkCvParam(2.0,
                  "assumed: on top of imbalance_pct, the run-to-run spread of "
                  "one iteration"),
  };
  m.metrics = {
      {"time_s", "s", false, MeanKind::kArithmetic,
       "seconds per iteration (rank 0's iteration time)"},
      {"mops", "Mop/s", true, MeanKind::kHarmonic,
       "notional Mop/s: work_ms of serial work at one op per ns, per "
       "iteration time"},
  };
  m.build =
      [](const platform::Params& p,
         const topology::Topology& topology) -> absl::StatusOr<sim::Workload> {
    absl::StatusOr<NasIpc> ipc = ParseIpc(p.GetString("ipc"));
    if (!ipc.ok()) return ipc.status();
    NasParams n;
    n.ipc = *ipc;
    const int64_t ranks = p.GetInt("ranks");
    if (absl::Status s = CheckIntParam(kModel, "ranks", ranks, 0, 100000);
        !s.ok()) {
      return s;
    }
    n.ranks = static_cast<int>(ranks);
    n.iterations = p.GetInt("iterations");
    n.work_ms = p.GetDouble("work_ms");
    n.stall_pct = p.GetDouble("stall_pct");
    n.imbalance_pct = p.GetDouble("imbalance_pct");
    n.spin_us = p.GetInt("spin_us");
    n.message_size = p.GetInt("message_size");
    return NasWorkload(n, topology);
  };
  m.evaluate = [](const platform::Params& p, const sim::SimStats& stats) {
    const double t = MetricLatency(stats, kNasIterationMetric).mean() * 1e-9;
    return std::vector<MetricValue>{
        {"time_s", t},
        {"mops", t > 0 ? p.GetDouble("work_ms") / t : 0.0},
    };
  };
  return m;
}

SCHEDSIM_REGISTER_WORKLOAD(NasModel());

}  // namespace schedsim::workloads
