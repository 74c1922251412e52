// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Helpers the benchmark models share: the storage device's latency
// distribution, work given in microseconds at the machine's highest
// frequency converted to cycles, parameter range checks with messages that
// name the model, and readers of a run's statistics (rates, percentiles).
//
//   SCHEDSIM_RETURN_IF_ERROR(CheckIntParam("pgbench", "clients", c, 1, 4096));
//   sim::Dist fsync = IoLatency(kDefaultFsyncMedianUs,
//                               kDefaultFsyncSigmaMilli);
//   int64_t cycles = UsAtMaxToCycles(20.0, topology);  // 20 us of work
//   double tps = PerSecond(MetricCount(stats, 0), stats);
//
// The storage device. The simulator has no device model: an IO is an
// io_wait op whose duration is drawn independently for each request (no
// queue, no contention between tasks, no write-back). The default is an
// SSD-like 4 KiB write + fsync path: lognormal with median 90 us and sigma
// 0.5 (assumed: SATA/NVMe flush latencies of 50-200 us are typical; the
// Skylake box of seed 000 had "SSD storage", model unpublished), so the
// mean is 90 * exp(0.125) = 102 us and the 99th percentile ~290 us.

#ifndef SCHEDSIM_WORKLOADS_MODEL_UTIL_H_
#define SCHEDSIM_WORKLOADS_MODEL_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "platform/registry.h"
#include "sim/program.h"
#include "sim/stats.h"
#include "topology/topology.h"
#include "workloads/model_registry.h"

namespace schedsim::workloads {

// The default storage device (see the file comment; assumed).
inline constexpr int64_t kDefaultFsyncMedianUs = 90;
inline constexpr int64_t kDefaultFsyncSigmaMilli = 500;  // sigma 0.5

// The IO latency distribution: lognormal with the given median (us) and
// sigma (thousandths); sigma 0 gives a constant median.
sim::Dist IoLatency(int64_t median_us, int64_t sigma_milli);

// The storage device of a model.
struct IoDevice {
  int64_t fsync_median_us = kDefaultFsyncMedianUs;
  int64_t fsync_sigma_milli = kDefaultFsyncSigmaMilli;
  // The fsync latency distribution, with `extra_us` (a transfer time)
  // added to the median.
  sim::Dist Fsync(int64_t extra_us = 0) const {
    return IoLatency(fsync_median_us + extra_us, fsync_sigma_milli);
  }
};

// The device's model parameters: "fsync_median_us" (int) and "fsync_sigma"
// (double), with the defaults above; and the device they describe
// (InvalidArgument naming `model` when out of range).
std::vector<platform::ParamSpec> IoDeviceParamSpecs();
absl::StatusOr<IoDevice> IoDeviceFromParams(absl::string_view model,
                                            const platform::Params& params);
absl::Status ValidateIoDevice(absl::string_view model, const IoDevice& device);

// The kWorkCvParam ("work_cv_pct") spec of a model whose user work varies
// with coefficient of variation `default_pct` percent: each compute op's
// cycles and stall are multiplied by a lognormal factor with mean 1 (see
// sim::Workload::work_cv). `source` ends the doc ("assumed", or where the
// figure comes from).
platform::ParamSpec WorkCvParam(double default_pct, absl::string_view source);

// Cycles that take `us` microseconds at the machine's highest frequency
// (FrequencySpec::max_turbo_khz): work that runs longer at lower
// frequencies. At least 0.
int64_t UsAtMaxToCycles(double us, const topology::Topology& topology);

// InvalidArgument "<model>: <name> must be in <lo>..<hi>, got <v>" unless
// lo <= value <= hi.
absl::Status CheckIntParam(absl::string_view model, absl::string_view name,
                           int64_t value, int64_t lo, int64_t hi);
absl::Status CheckDoubleParam(absl::string_view model, absl::string_view name,
                              double value, double lo, double hi);

// The ProgramBuilder's result with the model's name in front of an error.
absl::StatusOr<sim::Program> BuildProgram(absl::string_view model,
                                          sim::ProgramBuilder& builder);

// Readers of a run's statistics, tolerant of a metric index the run does
// not have (they read as empty).
uint64_t MetricCount(const sim::SimStats& stats, int metric);
const sim::LatencyHistogram& MetricLatency(const sim::SimStats& stats,
                                           int metric);
// count / duration_s(), 0 for an empty run.
double PerSecond(double count, const sim::SimStats& stats);

// The metrics dbench4 and tbench both report from the operations marked as
// `metric`: throughput_mb_s (ops/s x bytes_per_op), latency_ms (mean) and
// max_latency_ms.
std::vector<MetricValue> OpThroughputAndLatency(const sim::SimStats& stats,
                                                int metric,
                                                int64_t bytes_per_op);
// A histogram percentile (0..100] in microseconds.
double PercentileUs(const sim::LatencyHistogram& h, double p);
double MeanUs(const sim::LatencyHistogram& h);
// True when every task of the run has exited.
bool AllExited(const sim::SimStats& stats);

}  // namespace schedsim::workloads

#endif  // SCHEDSIM_WORKLOADS_MODEL_UTIL_H_
