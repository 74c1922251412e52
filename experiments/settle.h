// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Stop when settled: for workloads that run until stopped (hackbench
// loops, tbench, netperf, pgbench), a run measures its rate in batches of
// simulated time and stops once the batch means have settled, then reports
// the rate with its confidence interval.
//
// The rule, after each batch from the min_batches-th on:
//  1. Warm-up: MSER-5 (White 1997; White, Cobb and Spratt 2000) on the
//     batch means: the means of consecutive groups of 5 batches, Z_1..Z_m;
//     the truncation d (groups) that minimises the standard error of the
//     mean of Z_{d+1..m}, searched over d <= m/2. A minimum in the last
//     searched quarter of that range means the drift is not over: not
//     settled yet.
//  2. The kept batches (after the 5d truncated) are regrouped into at most
//     kMaxCiBatches batches (non-overlapping batch means, Law and Kelton);
//     the rate is their mean, the 95% interval mean +- t(b-1) s / sqrt(b).
//  3. Settled when the interval's half-width is at most `precision` of
//     the mean, at least kMinKeptBatches batches are kept, and the means
//     of the first and the last half of the kept batches differ by at most
//     `precision` of the mean (a drift slower than MSER-5 sees, as in
//     Geweke's diagnostic).
// A run stops when settled, at its maximum length ("max_length"; the rate
// and interval are still those of the kept batches), or when its workload
// has finished ("finished"; a finite run completed and its own metrics
// stand). Batches are fixed lengths of simulated time, so the same seed
// stops at the same point.
//
//   SettleMonitor m(options);
//   while (...) { run one batch; if (m.Add(count_now)) break; }
//   SettleOutcome o = m.Outcome("settled");

#ifndef SCHEDSIM_EXPERIMENTS_SETTLE_H_
#define SCHEDSIM_EXPERIMENTS_SETTLE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"

namespace schedsim::experiments {

inline constexpr int kMaxCiBatches = 20;
inline constexpr int kMinKeptBatches = 10;

struct SettleOptions {
  int64_t batch_ms = 10;    // simulated time per batch
  int min_batches = 20;     // checked from then on
  double precision = 0.01;  // relative half-width of the 95% interval
};

// MSER-5's truncation, in batches (a multiple of 5), of batch means `y`;
// `tail_minimum` (if given) is set when the minimum is in the last quarter
// of the searched range (the series is still drifting).
int Mser5Truncation(const std::vector<double>& y, bool* tail_minimum = nullptr);

struct Interval {
  double mean = 0;
  double half_width = 0;  // 95%
  int batches = 0;        // the batches the interval is computed over
};
// The batch-means 95% interval of `y` regrouped into at most `max_batches`
// equal batches (the earliest left-over values dropped).
Interval BatchMeansInterval(const std::vector<double>& y,
                            int max_batches = kMaxCiBatches);

// The two-sided 95% quantile of Student's t with `df` degrees of freedom.
double StudentT975(int df);

struct SettleOutcome {
  bool fixed_length = false;  // settling was off: the run's full length
  std::string stop_reason;    // "settled", "max_length", "finished",
                              // "fixed_length"
  int batches = 0;            // batches run
  int truncated = 0;          // warm-up batches MSER-5 dropped
  double batch_s = 0;
  double measured_s = 0;  // simulated time measured (batches x batch_s)
  double rate = 0;        // per second, over the kept batches
  double ci_low = 0;
  double ci_high = 0;
  double relative_half_width = 0;
  // The count at the end of the warm-up (before the statistics were
  // reset) and at the end of the run; the simulated time since the start.
  double warmup_count = 0;
  double count = 0;
  double elapsed_s = 0;
  // The metric at the benchmark's published length extrapolated from the
  // rate ("" when none): its name, the length ("50000 loops"), its value
  // and the values at the interval's ends (low <= high).
  std::string extrapolated_metric;
  std::string length;
  double extrapolated = 0;
  double extrapolated_low = 0;
  double extrapolated_high = 0;
};

// As JSON: {"mode": "settled" or "fixed_length", "stop_reason", and for a
// settled run "batches", "truncated_batches", "batch_ms", "measured_s",
// "rate", "ci95": [low, high], "relative_half_width", and with an
// extrapolation "extrapolated": {"metric", "length", "value", "ci95",
// "note"}}.
nlohmann::ordered_json SettleOutcomeJson(const SettleOutcome& o);
// The outcome from SettleOutcomeJson's JSON; false when it is not one.
bool ParseSettleOutcome(const nlohmann::ordered_json& j, SettleOutcome* o);

class SettleMonitor {
 public:
  explicit SettleMonitor(const SettleOptions& options);
  // Adds a batch ending with the cumulative count `count` (since the
  // measurement started); true when the rate has settled.
  bool Add(double count);
  double count() const { return last_count_; }
  int batches() const { return static_cast<int>(rates_.size()); }
  const std::vector<double>& rates() const { return rates_; }
  // The outcome so far, with `reason` as the stop reason.
  SettleOutcome Outcome(const std::string& reason) const;

 private:
  SettleOptions options_;
  double last_count_ = 0;
  std::vector<double> rates_;
};

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_SETTLE_H_
