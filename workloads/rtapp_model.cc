// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The registered model "rtapp": an rt-app JSON workload (rtapp.h) from a
// file or inline text.

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "workloads/model_registry.h"
#include "workloads/model_util.h"
#include "workloads/rtapp.h"

namespace schedsim::workloads {
namespace {

WorkloadModel RtAppModel() {
  WorkloadModel m;
  m.name = "rtapp";
  m.description =
      "An rt-app JSON workload (tasks with instance, loop, phases and run, "
      "runtime, sleep, timer, yield and barrier events; policies, "
      "priorities, CPU affinity and uclamp). `run` is work at maximum "
      "capacity (cycles at the highest frequency, longer at lower "
      "frequencies), `runtime` wall-clock work; timers are approximated by "
      "a sleep of the period minus the work since the previous timer. What "
      "it exercises depends on the file: typically the frequency governor's "
      "response to periodic load, uclamp, idle-state choice between "
      "periods and wake-up placement. Warnings (ignored keys) go to "
      "stderr.";
  m.params = {
      {"file", std::string(""), "path of an rt-app JSON file"},
      {"json", std::string(""), "inline rt-app JSON text (instead of `file`)"},
      {"define", std::string(""),
       "template substitutions KEY=VALUE,KEY=VALUE applied to the text "
       "before parsing (LISA-style placeholders such as __DURATION__; "
       "`schedsim run --define=KEY=VALUE` adds to it)"},
      WorkCvParam(2.0,
                  "assumed: rt-app calibrates its run loops, cache and TLB "
                  "state still vary"),
  };
  m.metrics = {
      {"loops_per_s", "loops/s", true, MeanKind::kHarmonic,
       "task loop iterations per second, all tasks"},
      {"loop_us_mean", "us", false, MeanKind::kArithmetic,
       "mean duration of a task loop iteration"},
      {"loop_us_p99", "us", false, MeanKind::kArithmetic,
       "99th percentile of a task loop iteration's duration"},
      {"wakeup_p99_us", "us", false, MeanKind::kArithmetic,
       "99th percentile wake-up latency, all tasks"},
  };
  m.build =
      [](const platform::Params& p,
         const topology::Topology& topology) -> absl::StatusOr<sim::Workload> {
    const std::string& file = p.GetString("file");
    const std::string& json = p.GetString("json");
    if (file.empty() == json.empty()) {
      return absl::InvalidArgumentError(
          "rtapp: give exactly one of `file` (a path) and `json` (inline "
          "rt-app JSON)");
    }
    absl::StatusOr<RtAppDefines> defines =
        ParseRtAppDefines(p.GetString("define"));
    if (!defines.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("rtapp: ", defines.status().message()));
    }
    absl::StatusOr<RtAppWorkload> r =
        file.empty() ? ParseRtApp(json, "<inline json>", topology, *defines)
                     : LoadRtAppFile(file, topology, *defines);
    if (!r.ok()) return r.status();
    for (const std::string& w : r->warnings) {
      std::fprintf(stderr, "schedsim: rtapp: warning: %s\n", w.c_str());
    }
    return std::move(r->workload);
  };
  m.evaluate = [](const platform::Params&, const sim::SimStats& stats) {
    const sim::LatencyHistogram& loop = MetricLatency(stats, kRtAppLoopMetric);
    return std::vector<MetricValue>{
        {"loops_per_s",
         PerSecond(static_cast<double>(MetricCount(stats, kRtAppLoopMetric)),
                   stats)},
        {"loop_us_mean", MeanUs(loop)},
        {"loop_us_p99", PercentileUs(loop, 99)},
        {"wakeup_p99_us", PercentileUs(stats.wakeup_latency_ns, 99)},
    };
  };
  return m;
}

SCHEDSIM_REGISTER_WORKLOAD(RtAppModel());

}  // namespace
}  // namespace schedsim::workloads
