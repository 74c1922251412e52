// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "workloads/model_util.h"

#include <cmath>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

namespace schedsim::workloads {

sim::Dist IoLatency(int64_t median_us, int64_t sigma_milli) {
  if (sigma_milli <= 0) return sim::Dist::Constant(median_us * 1000);
  return sim::Dist::LogNormal(median_us * 1000, sigma_milli);
}

std::vector<platform::ParamSpec> IoDeviceParamSpecs() {
  return {
      {"fsync_median_us", kDefaultFsyncMedianUs,
       "model only: median latency of a write + fsync on the device, us "
       "(assumed SSD-like)"},
      {"fsync_sigma", static_cast<double>(kDefaultFsyncSigmaMilli) / 1000.0,
       "model only: lognormal sigma of that latency; 0 = constant "
       "(assumed)"},
  };
}

absl::Status ValidateIoDevice(absl::string_view model, const IoDevice& device) {
  if (absl::Status s = CheckIntParam(model, "fsync_median_us",
                                     device.fsync_median_us, 1, 1000000000);
      !s.ok()) {
    return s;
  }
  return CheckIntParam(model, "fsync_sigma (in thousandths)",
                       device.fsync_sigma_milli, 0, 5000);
}

absl::StatusOr<IoDevice> IoDeviceFromParams(absl::string_view model,
                                            const platform::Params& params) {
  const double sigma = params.GetDouble("fsync_sigma");
  if (absl::Status s = CheckDoubleParam(model, "fsync_sigma", sigma, 0, 5);
      !s.ok()) {
    return s;
  }
  IoDevice d;
  d.fsync_median_us = params.GetInt("fsync_median_us");
  d.fsync_sigma_milli = static_cast<int64_t>(std::llround(sigma * 1000.0));
  if (absl::Status s = ValidateIoDevice(model, d); !s.ok()) return s;
  return d;
}

platform::ParamSpec WorkCvParam(double default_pct, absl::string_view source) {
  return {kWorkCvParam, default_pct,
          absl::StrCat("model only: coefficient of variation of each compute "
                       "op's user work, percent (a lognormal factor with mean "
                       "1 on its cycles and stall, drawn per op; times "
                       "SimConfig noise_scale; 0 = none; ",
                       source, ")")};
}

int64_t UsAtMaxToCycles(double us, const topology::Topology& topology) {
  // kHz * us / 1000 = cycles.
  const double cycles =
      us * static_cast<double>(topology.frequency().max_turbo_khz) / 1000.0;
  if (!(cycles > 0)) return 0;
  return static_cast<int64_t>(std::llround(cycles));
}

absl::Status CheckIntParam(absl::string_view model, absl::string_view name,
                           int64_t value, int64_t lo, int64_t hi) {
  if (value < lo || value > hi) {
    return absl::InvalidArgumentError(absl::StrCat(
        model, ": ", name, " must be in ", lo, "..", hi, ", got ", value));
  }
  return absl::OkStatus();
}

absl::Status CheckDoubleParam(absl::string_view model, absl::string_view name,
                              double value, double lo, double hi) {
  if (!(value >= lo && value <= hi)) {
    return absl::InvalidArgumentError(absl::StrCat(
        model, ": ", name, " must be in ", lo, "..", hi, ", got ", value));
  }
  return absl::OkStatus();
}

absl::StatusOr<sim::Program> BuildProgram(absl::string_view model,
                                          sim::ProgramBuilder& builder) {
  absl::StatusOr<sim::Program> p = builder.Build();
  if (!p.ok()) {
    return absl::InternalError(
        absl::StrCat(model, ": program: ", p.status().message()));
  }
  return p;
}

uint64_t MetricCount(const sim::SimStats& stats, int metric) {
  if (metric < 0 || metric >= static_cast<int>(stats.metrics.size())) return 0;
  return stats.metrics[metric].count;
}

const sim::LatencyHistogram& MetricLatency(const sim::SimStats& stats,
                                           int metric) {
  static const sim::LatencyHistogram* const kEmpty =
      new sim::LatencyHistogram();
  if (metric < 0 || metric >= static_cast<int>(stats.metrics.size())) {
    return *kEmpty;
  }
  return stats.metrics[metric].latency_ns;
}

double PerSecond(double count, const sim::SimStats& stats) {
  const double s = stats.duration_s();
  return s > 0 ? count / s : 0.0;
}

double PercentileUs(const sim::LatencyHistogram& h, double p) {
  return static_cast<double>(h.Percentile(p)) / 1000.0;
}

double MeanUs(const sim::LatencyHistogram& h) { return h.mean() / 1000.0; }

bool AllExited(const sim::SimStats& stats) {
  if (stats.tasks.empty()) return false;
  for (const sim::TaskStats& t : stats.tasks) {
    if (!t.exited) return false;
  }
  return true;
}

std::vector<MetricValue> OpThroughputAndLatency(const sim::SimStats& stats,
                                                int metric,
                                                int64_t bytes_per_op) {
  const double ops =
      PerSecond(static_cast<double>(MetricCount(stats, metric)), stats);
  const sim::LatencyHistogram& h = MetricLatency(stats, metric);
  return {
      {"throughput_mb_s", ops * static_cast<double>(bytes_per_op) / 1e6},
      {"latency_ms", h.mean() / 1e6},
      {"max_latency_ms", static_cast<double>(h.max()) / 1e6},
  };
}

}  // namespace schedsim::workloads
