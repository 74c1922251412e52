// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The registered model "replay": the tasks of a recorded trace (ftrace text
// or a trace-cmd .dat file) replayed as a workload (replay.h,
// docs/traces.md "Replaying a trace as a workload"), so that an experiment
// or a scenario can replay a trace from the command line:
//
//   "workload": {"model": "replay",
//                "params": {"trace": "trace.dat", "tasks": "surfaceflinger"}}
//
// Every run burst of a replayed task is one "burst" operation (a stamp
// before its compute and a mark after it), so the model reports how long
// the bursts took on the simulated machine.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "sim/program.h"
#include "workloads/model_registry.h"
#include "workloads/model_util.h"
#include "workloads/replay.h"

namespace schedsim::workloads {
namespace {

constexpr int kBurstMetric = 0;

// A comma-separated list, blanks around each item dropped, empty items
// left out.
std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  for (absl::string_view item : absl::StrSplit(text, ',')) {
    item = absl::StripAsciiWhitespace(item);
    if (!item.empty()) out.emplace_back(item);
  }
  return out;
}

// Puts a stamp before and a mark of metric 0 after every compute op of `p`
// (its loop ends re-pointed at their loops' new places).
void MarkBursts(sim::Program& p) {
  std::vector<sim::Op> out;
  std::vector<int32_t> new_index(p.ops.size());
  for (size_t i = 0; i < p.ops.size(); ++i) {
    const sim::Op& op = p.ops[i];
    if (op.code == sim::OpCode::kCompute) {
      sim::Op stamp;
      stamp.code = sim::OpCode::kStamp;
      out.push_back(stamp);
    }
    new_index[i] = static_cast<int32_t>(out.size());
    out.push_back(op);
    if (op.code == sim::OpCode::kCompute) {
      sim::Op mark;
      mark.code = sim::OpCode::kMark;
      mark.arg = kBurstMetric;
      out.push_back(mark);
    }
  }
  for (sim::Op& op : out) {
    if (op.code == sim::OpCode::kEndLoop) op.arg = new_index[op.arg];
  }
  p.ops = std::move(out);
}

WorkloadModel ReplayModel() {
  WorkloadModel m;
  m.name = "replay";
  m.description =
      "The tasks of a recorded trace (ftrace text: trace-cmd report, tracefs "
      "`trace`, systrace; or a trace-cmd .dat file) replayed as a workload: "
      "one task per traced pid with its run bursts (cycles at the frequency "
      "of the moment) and its sleeps and IO waits as recorded "
      "(docs/traces.md). Open loop: a task woken by another sleeps for the "
      "recorded time instead of waiting for its waker. Exercises whatever "
      "the traced system did: typically frequency selection for bursty "
      "load, idle-state choice between bursts and wake-up placement.";
  m.params = {
      {"trace", std::string(""), "path of the trace (text or .dat)"},
      {"tasks", std::string(""),
       "comma-separated pids or comms to replay; empty: every task but the "
       "tracer's"},
      {"exclude_comms",
       std::string("trace-cmd,perf,atrace,traced,"
                   "traced_probes,perfetto"),
       "with `tasks` empty, comma-separated comms left out"},
      {"nominal_khz", int64_t{1000000},
       "frequency of CPUs without cpu_frequency events, kHz"},
      {"loop", false,
       "repeat each program forever (each iteration lasts about the trace)"},
      {"rt_as_fifo", true,
       "RT tasks (prio < 100) become SCHED_FIFO; false: SCHED_NORMAL"},
  };
  m.metrics = {
      {"burst_us_mean", "us", false, MeanKind::kArithmetic,
       "mean time from a replayed run burst's start to its end (its cycles "
       "at the simulated frequency, plus preemption)"},
      {"burst_us_p99", "us", false, MeanKind::kArithmetic,
       "99th percentile of that time"},
      {"wakeup_p99_us", "us", false, MeanKind::kArithmetic,
       "99th percentile wake-up latency, all tasks"},
  };
  m.build = [](const platform::Params& p,
               const topology::Topology&) -> absl::StatusOr<sim::Workload> {
    const std::string& trace = p.GetString("trace");
    if (trace.empty()) {
      return absl::InvalidArgumentError(
          "replay: `trace` is required (the path of an ftrace text or "
          "trace-cmd .dat file)");
    }
    ReplayOptions o;
    o.tasks = SplitList(p.GetString("tasks"));
    o.exclude_comms = SplitList(p.GetString("exclude_comms"));
    o.nominal_khz = p.GetInt("nominal_khz");
    if (absl::Status s =
            CheckIntParam("replay", "nominal_khz", o.nominal_khz, 1, 100000000);
        !s.ok()) {
      return s;
    }
    o.loop = p.GetBool("loop");
    o.rt_as_fifo = p.GetBool("rt_as_fifo");
    absl::StatusOr<sim::Workload> w = ReplayWorkload(trace, o);
    if (!w.ok()) return w.status();
    for (sim::Program& program : w->programs) MarkBursts(program);
    w->metrics = {"burst"};
    return w;
  };
  m.evaluate = [](const platform::Params&, const sim::SimStats& stats) {
    const sim::LatencyHistogram& burst = MetricLatency(stats, kBurstMetric);
    return std::vector<MetricValue>{
        {"burst_us_mean", MeanUs(burst)},
        {"burst_us_p99", PercentileUs(burst, 99)},
        {"wakeup_p99_us", PercentileUs(stats.wakeup_latency_ns, 99)},
    };
  };
  return m;
}

SCHEDSIM_REGISTER_WORKLOAD(ReplayModel());

}  // namespace
}  // namespace schedsim::workloads
