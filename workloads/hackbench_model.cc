// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The registered models "hackbench" and "perf_bench_pipe", built on
// hackbench.h and pipe_pingpong.h (see docs/workloads-messaging.md).

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "workloads/hackbench.h"
#include "workloads/model_registry.h"
#include "workloads/model_util.h"
#include "workloads/pipe_pingpong.h"

namespace schedsim::workloads {
namespace {

constexpr int64_t kHackbenchDefaultLoops = 100;  // hackbench and perf -l

HackbenchParams HackbenchFromParams(const platform::Params& p) {
  HackbenchParams h;
  h.groups = static_cast<int>(p.GetInt("groups"));
  h.fds = static_cast<int>(p.GetInt("fds"));
  h.loops = p.GetInt("loops");
  h.pipe = p.GetBool("pipe");
  h.threads = p.GetBool("threads");
  h.message_cycles = p.GetInt("message_cycles");
  h.working_set_bytes = p.GetInt("working_set_kib") * 1024;
  h.start_gate = true;
  h.stamp_start = true;
  return h;
}

WorkloadModel HackbenchModel() {
  WorkloadModel m;
  m.name = "hackbench";
  m.description =
      "hackbench / perf bench sched messaging: `groups` groups of `fds` "
      "senders and `fds` receivers; every sender writes 100-byte messages to "
      "every receiver of its group over unix sockets (or pipes). Exercises "
      "wake-up placement under overload (wake_affine, wake_wide, the "
      "idle-CPU search), runqueue contention, migrations and load balancing; "
      "frequency only a little (the machine saturates). 600 cycles of user "
      "work per message and side, fitted to seed 001's tip time at 128 "
      "groups (docs/validation.md, Calibration), on top of SimConfig's "
      "pipe_op_ns/socket_op_ns and the channel's cache lines; a 16 KiB "
      "working set per task (assumed) refilled after a migration to another "
      "LLC; threads share one mm, so a switch between two of them is not "
      "charged SimConfig's mm_switch_ns (processes: every switch is).";
  m.params = {
      {"groups", int64_t{10}, "groups of senders and receivers (-g)"},
      {"fds", int64_t{20}, "senders and receivers per group (-f)"},
      {"loops", int64_t{0},
       "messages each sender sends each receiver (-l); 0 = endless, for "
       "fixed-duration runs"},
      {"pipe", false, "pipes instead of unix stream sockets (-p)"},
      {"threads", false, "threads instead of processes (-T)"},
      {"time_loops", kHackbenchDefaultLoops,
       "model only: the loop count time_s is reported for when loops = 0 "
       "(hackbench's default -l 100)"},
      {"message_cycles", kDefaultHackbenchMessageCycles,
       "model only: user cycles per message and side (assumed)"},
      {"working_set_kib", kDefaultHackbenchWorkingSetBytes / 1024,
       "model only: each task's warm cache, KiB, refilled after a migration "
       "to another LLC (assumed)"},
      WorkCvParam(
          5.0,
          "assumed: per-message work of a few microseconds, cache-dependent"),
  };
  m.metrics = {
      {"messages_per_s", "msgs/s", true, MeanKind::kHarmonic,
       "messages received per second"},
      {"time_s", "s", false, MeanKind::kArithmetic,
       "hackbench's reported time: measured when a finite run (loops > 0) "
       "completes, otherwise groups * fds * fds * loops (or time_loops) "
       "messages at the measured rate"},
  };
  m.build = [](const platform::Params& p,
               const topology::Topology&) -> absl::StatusOr<sim::Workload> {
    for (const char* name : {"groups", "fds"}) {
      if (absl::Status s =
              CheckIntParam("hackbench", name, p.GetInt(name), 1, 1000000);
          !s.ok()) {
        return s;
      }
    }
    if (absl::Status s =
            CheckIntParam("hackbench", "working_set_kib",
                          p.GetInt("working_set_kib"), 0, int64_t{1} << 30);
        !s.ok()) {
      return s;
    }
    const HackbenchParams h = HackbenchFromParams(p);
    if (absl::Status s = ValidateHackbenchParams(h); !s.ok()) return s;
    if (absl::Status s = CheckIntParam("hackbench", "time_loops",
                                       p.GetInt("time_loops"), 1, 1000000000);
        !s.ok()) {
      return s;
    }
    return HackbenchWorkload(h);
  };
  m.evaluate = [](const platform::Params& p, const sim::SimStats& stats) {
    const double per_loop = static_cast<double>(p.GetInt("groups")) *
                            static_cast<double>(p.GetInt("fds")) *
                            static_cast<double>(p.GetInt("fds"));
    const int64_t loops = p.GetInt("loops");
    const sim::LatencyHistogram& h =
        MetricLatency(stats, kHackbenchMessagesMetric);
    double rate = 0;
    double time_s = 0;
    if (loops > 0 && AllExited(stats) && h.max() > 0) {
      // The run completed: its last message arrived at max() after the
      // start (the receivers' stamps).
      time_s = static_cast<double>(h.max()) * 1e-9;
      rate = per_loop * static_cast<double>(loops) / time_s;
    } else {
      rate = PerSecond(
          static_cast<double>(MetricCount(stats, kHackbenchMessagesMetric)),
          stats);
      const double l =
          static_cast<double>(loops > 0 ? loops : p.GetInt("time_loops"));
      time_s = rate > 0 ? per_loop * l / rate : 0.0;
    }
    return std::vector<MetricValue>{{"messages_per_s", rate},
                                    {"time_s", time_s}};
  };
  // Runs until stopped: the message rate settles; time_s at the loops (or
  // time_loops) is extrapolated from it.
  SettleSpec settle;
  settle.rate_metric = 0;
  settle.count = [](const platform::Params&, const sim::SimStats& stats) {
    return static_cast<double>(MetricCount(stats, kHackbenchMessagesMetric));
  };
  settle.derive = [](const platform::Params& p, double rate) {
    const double per_loop = static_cast<double>(p.GetInt("groups")) *
                            static_cast<double>(p.GetInt("fds")) *
                            static_cast<double>(p.GetInt("fds"));
    const int64_t loops = p.GetInt("loops");
    const double l =
        static_cast<double>(loops > 0 ? loops : p.GetInt("time_loops"));
    return std::vector<std::pair<int, double>>{
        {1, rate > 0 ? per_loop * l / rate : 0.0}};
  };
  settle.extrapolated_metric = 1;
  // Only a run of finite loops is the published-length run itself; an
  // endless one reports time_s for time_loops at the rate alone.
  settle.total = [](const platform::Params& p) {
    const int64_t loops = p.GetInt("loops");
    return loops <= 0 ? 0.0
                      : static_cast<double>(p.GetInt("groups")) *
                            static_cast<double>(p.GetInt("fds")) *
                            static_cast<double>(p.GetInt("fds")) *
                            static_cast<double>(loops);
  };
  settle.length = [](const platform::Params& p) {
    const int64_t loops = p.GetInt("loops");
    return absl::StrCat(loops > 0 ? loops : p.GetInt("time_loops"), " loops");
  };
  m.settle = std::move(settle);
  return m;
}

WorkloadModel PerfBenchPipeModel() {
  WorkloadModel m;
  m.name = "perf_bench_pipe";
  m.description =
      "perf bench sched pipe: two tasks bounce a message over two pipes; one "
      "op is a round trip (two wake-ups). Exercises the synchronous wake-up "
      "path (wake_affine of WF_SYNC wake-ups, same-CPU vs cross-CPU "
      "ping-pong), idle exits of the partner's CPU (C-state choice, POLL) "
      "and, with short idle periods, the frequency governor's view of a "
      "half-busy CPU. Assumes no user work between the syscalls (perf does "
      "none); the syscall cost is SimConfig::pipe_op_ns. -T puts both tasks "
      "in one mm: a switch between them is not charged mm_switch_ns.";
  m.params = {
      {"loops", int64_t{0},
       "round trips (-l; perf's default is 1000000); 0 = endless, for "
       "fixed-duration runs"},
      {"threads", false, "threads instead of processes (-T)"},
  };
  m.metrics = {
      {"usecs_per_op", "us", false, MeanKind::kArithmetic,
       "mean round-trip time (perf's usecs/op)"},
      {"ops_per_s", "ops/s", true, MeanKind::kHarmonic,
       "round trips per second (perf's ops/sec)"},
  };
  m.build = [](const platform::Params& p,
               const topology::Topology&) -> absl::StatusOr<sim::Workload> {
    const int64_t loops = p.GetInt("loops");
    if (absl::Status s = CheckIntParam("perf_bench_pipe", "loops", loops, 0,
                                       int64_t{2147483647});
        !s.ok()) {
      return s;
    }
    sim::Workload w = PipePingPongWorkload(loops, 0);
    const std::string prefix = p.GetBool("threads")
                                   ? "perf-bench-pipe-thread/"
                                   : "perf-bench-pipe-process/";
    const bool threads = p.GetBool("threads");
    for (sim::TaskSpec& t : w.tasks) {
      t.name = absl::StrCat(prefix, t.name);
      if (threads) t.mm = 0;  // one process: no switch_mm between them
    }
    return w;
  };
  m.evaluate = [](const platform::Params&, const sim::SimStats& stats) {
    // Each round trip is stamped right after the previous one ends, so the
    // mean round trip is perf's total time / loops.
    const sim::LatencyHistogram& h =
        MetricLatency(stats, kPingPongRoundTripMetric);
    const double usecs = MeanUs(h);
    return std::vector<MetricValue>{
        {"usecs_per_op", usecs}, {"ops_per_s", usecs > 0 ? 1e6 / usecs : 0.0}};
  };
  return m;
}

SCHEDSIM_REGISTER_WORKLOAD(HackbenchModel());
SCHEDSIM_REGISTER_WORKLOAD(PerfBenchPipeModel());

}  // namespace
}  // namespace schedsim::workloads
