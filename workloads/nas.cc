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
// ep's run, which has no barrier, is split into this many chunks (one
// metric sample each).
constexpr int64_t kEpChunks = 1000;

// NPB 3.x class C: iterations from NPB's class-C parameters (bt 200 time
// steps, cg 75 outer iterations of 25 conjugate-gradient steps, ft 20, is
// 10, lu 250 SSOR iterations, mg 20 V-cycles, sp 400, ua 200; ep one
// parallel loop). Synchronisations per iteration (assumed): bt and sp the
// worksharing loops of compute_rhs, the three line solves and add; cg four
// per conjugate-gradient step (the product, two reductions, the update)
// plus the residual norm; ft evolve, three FFT passes and the checksum; is
// the key histogram, the prefix sums and the ranking loops; lu the
// pipelined wavefront over 162 k-planes, forwards and backwards, plus the
// right-hand side; mg four loops per level of a nine-level V-cycle down and
// up; ua the adaptation, transfer and diffusion solver loops. Memory-stall
// shares: assumed. work_s: fitted (docs/validation.md, "Calibration").
constexpr NasKernelProfile kKernels[] = {
    {"bt", 200, 10, 20, 806}, {"cg", 75, 105, 60, 245},
    {"ep", 1, 0, 0, 122},     {"ft", 20, 5, 40, 201},
    {"is", 10, 5, 50, 8.3},   {"lu", 250, 326, 25, 1041},
    {"mg", 20, 40, 50, 103},  {"sp", 400, 15, 35, 1502},
    {"ua", 200, 50, 40, 894},
};

absl::StatusOr<NasIpc> ParseIpc(const std::string& ipc) {
  if (ipc == "openmp") return NasIpc::kOpenMp;
  if (ipc == "mpi") return NasIpc::kMpi;
  return absl::InvalidArgumentError(
      absl::StrCat(kModel, ": ipc must be openmp or mpi, got '", ipc, "'"));
}

}  // namespace

const NasKernelProfile* FindNasKernel(const std::string& kernel) {
  for (const NasKernelProfile& k : kKernels) {
    if (kernel == k.name) return &k;
  }
  return nullptr;
}

int64_t NasKernelSteps(const NasKernelProfile& profile) {
  return profile.syncs_per_iteration > 0
             ? profile.iterations * profile.syncs_per_iteration
             : kEpChunks;
}

NasParams NasKernelParams(const NasKernelProfile& profile,
                          const NasParams& base) {
  NasParams p = base;
  p.work_ms =
      profile.work_s * 1000.0 / static_cast<double>(NasKernelSteps(profile));
  p.stall_pct = profile.stall_pct;
  p.barrier = profile.syncs_per_iteration > 0;
  return p;
}

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
    } else if (params.barrier) {
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
    if (params.barrier) {
      sim::BarrierSpec b;
      b.name = "omp-barrier";
      b.parties = ranks;
      w.barriers.push_back(b);
    }
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

namespace {

// The NasParams of registry parameters `p` (a named kernel's profile
// applied).
absl::StatusOr<NasParams> ParamsOf(const platform::Params& p) {
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
  const std::string kernel = p.GetString("kernel");
  if (kernel == "generic") return n;
  const NasKernelProfile* k = FindNasKernel(kernel);
  if (k == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(kModel,
                     ": kernel must be generic, bt, cg, ep, ft, is, lu, mg, "
                     "sp or ua, got '",
                     kernel, "'"));
  }
  return NasKernelParams(*k, n);
}

}  // namespace

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
      "(all assumed); `kernel` picks one of the nine NPB kernels' class-C "
      "profiles instead (iterations, synchronisations, memory stall, and "
      "work fitted to skylake-e3-1240v5's published times).";
  m.params = {
      {"kernel", std::string("generic"),
       "generic (work_ms and stall_pct as given) or an NPB kernel with its "
       "class-C profile: bt, cg, ep, ft, is, lu, mg, sp, ua"},
      {"ipc", std::string("openmp"),
       "openmp (spin-then-block barrier) or mpi (blocking ring messages)"},
      {"ranks", int64_t{0}, "threads or MPI ranks; 0 = one per CPU"},
      {"iterations", int64_t{0},
       "iterations (for an NPB kernel: steps, one per synchronisation); 0 = "
       "endless"},
      {"work_ms", 80.0,
       "model only: serial work per iteration at the highest frequency, ms "
       "(assumed; generic only, an NPB kernel takes its profile's)"},
      {"stall_pct", 30.0,
       "model only: memory-stall share of the work, % (assumed; generic "
       "only)"},
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
      {"run_s", "s", false, MeanKind::kArithmetic,
       "the benchmark's run time: for an NPB kernel the mean step time x the "
       "steps of its class-C run; for generic the mean iteration time x "
       "iterations (one when endless)"},
  };
  m.build =
      [](const platform::Params& p,
         const topology::Topology& topology) -> absl::StatusOr<sim::Workload> {
    absl::StatusOr<NasParams> n = ParamsOf(p);
    if (!n.ok()) return n.status();
    return NasWorkload(*n, topology);
  };
  m.evaluate = [](const platform::Params& p, const sim::SimStats& stats) {
    const double t = MetricLatency(stats, kNasIterationMetric).mean() * 1e-9;
    absl::StatusOr<NasParams> n = ParamsOf(p);
    const NasKernelProfile* k = FindNasKernel(p.GetString("kernel"));
    const int64_t iterations = p.GetInt("iterations");
    const double steps =
        k != nullptr ? static_cast<double>(NasKernelSteps(*k))
                     : static_cast<double>(iterations > 0 ? iterations : 1);
    const double work_ms = n.ok() ? n->work_ms : 0.0;
    return std::vector<MetricValue>{
        {"time_s", t},
        {"mops", t > 0 ? work_ms / t : 0.0},
        {"run_s", t * steps},
    };
  };
  return m;
}

SCHEDSIM_REGISTER_WORKLOAD(NasModel());

}  // namespace schedsim::workloads
