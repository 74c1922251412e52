// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/settle.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace schedsim::experiments {

int Mser5Truncation(const std::vector<double>& y, bool* tail_minimum) {
  const int m = static_cast<int>(y.size()) / 5;
  if (tail_minimum != nullptr) *tail_minimum = false;
  if (m < 2) return 0;
  std::vector<double> z(m);
  for (int j = 0; j < m; ++j) {
    double s = 0;
    for (int i = 0; i < 5; ++i) s += y[5 * j + i];
    z[j] = s / 5;
  }
  // Suffix sums give each candidate's mean and sum of squares in O(1).
  std::vector<double> sum(m + 1, 0), sum2(m + 1, 0);
  for (int j = m - 1; j >= 0; --j) {
    sum[j] = sum[j + 1] + z[j];
    sum2[j] = sum2[j + 1] + z[j] * z[j];
  }
  const int limit = m / 2;
  int best = 0;
  double best_value = 0;
  for (int d = 0; d <= limit; ++d) {
    const double n = m - d;
    const double mean = sum[d] / n;
    const double ss = std::max(0.0, sum2[d] - n * mean * mean);
    const double value = ss / (n * n);
    if (d == 0 || value < best_value) {
      best = d;
      best_value = value;
    }
  }
  if (tail_minimum != nullptr && limit >= 4) {
    *tail_minimum = best > limit - limit / 4;
  }
  return 5 * best;
}

double StudentT975(int df) {
  static const double kTable[] = {
      0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
      2.306, 2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
      2.120, 2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
      2.064, 2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
  if (df <= 0) return INFINITY;
  if (df <= 30) return kTable[df];
  if (df <= 60) return 2.000 + (2.042 - 2.000) * (60 - df) / 30.0;
  return 1.960 + (2.000 - 1.960) * 60.0 / df;
}

Interval BatchMeansInterval(const std::vector<double>& y, int max_batches) {
  Interval out;
  const int n = static_cast<int>(y.size());
  if (n == 0) return out;
  const int b = std::min(n, std::max(max_batches, 1));
  const int size = n / b;
  const int skip = n - b * size;  // the earliest left over
  std::vector<double> means(b);
  double total = 0;
  for (int k = 0; k < b; ++k) {
    double s = 0;
    for (int i = 0; i < size; ++i) s += y[skip + k * size + i];
    means[k] = s / size;
    total += means[k];
  }
  out.batches = b;
  out.mean = total / b;
  if (b < 2) {
    out.half_width = INFINITY;
    return out;
  }
  double ss = 0;
  for (double v : means) ss += (v - out.mean) * (v - out.mean);
  const double sd = std::sqrt(ss / (b - 1));
  out.half_width = StudentT975(b - 1) * sd / std::sqrt(static_cast<double>(b));
  return out;
}

nlohmann::ordered_json SettleOutcomeJson(const SettleOutcome& o) {
  nlohmann::ordered_json j;
  j["mode"] = o.fixed_length ? "fixed_length" : "settled";
  j["stop_reason"] = o.stop_reason;
  if (o.fixed_length) {
    j["measured_s"] = o.measured_s;
    return j;
  }
  j["batches"] = o.batches;
  j["truncated_batches"] = o.truncated;
  j["batch_ms"] = std::llround(o.batch_s * 1e3);
  j["measured_s"] = o.measured_s;
  j["elapsed_s"] = o.elapsed_s;
  j["rate"] = o.rate;
  j["ci95"] = {o.ci_low, o.ci_high};
  j["relative_half_width"] = o.relative_half_width;
  if (!o.extrapolated_metric.empty()) {
    j["extrapolated"] = {
        {"metric", o.extrapolated_metric},
        {"length", o.length},
        {"value", o.extrapolated},
        {"ci95", {o.extrapolated_low, o.extrapolated_high}},
        {"note",
         "extrapolated from the settled rate, not simulated to the "
         "end"}};
  }
  return j;
}

bool ParseSettleOutcome(const nlohmann::ordered_json& j, SettleOutcome* o) {
  if (!j.is_object() || !j.contains("mode") || !j["mode"].is_string() ||
      !j.contains("stop_reason") || !j["stop_reason"].is_string()) {
    return false;
  }
  const auto number = [&j](const char* key, double* out) {
    if (!j.contains(key)) return true;
    if (!j[key].is_number()) return false;
    *out = j[key].get<double>();
    return true;
  };
  *o = SettleOutcome();
  o->fixed_length = j["mode"] == "fixed_length";
  o->stop_reason = j["stop_reason"].get<std::string>();
  double batches = 0, truncated = 0, batch_ms = 0;
  bool ok = number("measured_s", &o->measured_s) &&
            number("batches", &batches) &&
            number("truncated_batches", &truncated) &&
            number("batch_ms", &batch_ms) && number("rate", &o->rate) &&
            number("elapsed_s", &o->elapsed_s) &&
            number("relative_half_width", &o->relative_half_width);
  o->batches = static_cast<int>(batches);
  o->truncated = static_cast<int>(truncated);
  o->batch_s = batch_ms / 1e3;
  const auto pair = [](const nlohmann::ordered_json& v, double* a, double* b) {
    if (!v.is_array() || v.size() != 2 || !v[0].is_number() ||
        !v[1].is_number()) {
      return false;
    }
    *a = v[0].get<double>();
    *b = v[1].get<double>();
    return true;
  };
  if (j.contains("ci95")) ok = ok && pair(j["ci95"], &o->ci_low, &o->ci_high);
  if (j.contains("extrapolated")) {
    const nlohmann::ordered_json& x = j["extrapolated"];
    ok = ok && x.is_object() && x.value("metric", "") != "" &&
         x.contains("value") && x["value"].is_number() && x.contains("ci95") &&
         pair(x["ci95"], &o->extrapolated_low, &o->extrapolated_high);
    if (ok) {
      o->extrapolated_metric = x["metric"].get<std::string>();
      o->length = x.value("length", "");
      o->extrapolated = x["value"].get<double>();
    }
  }
  return ok;
}

SettleMonitor::SettleMonitor(const SettleOptions& options)
    : options_(options) {}

bool SettleMonitor::Add(double count) {
  const double batch_s = static_cast<double>(options_.batch_ms) / 1e3;
  rates_.push_back((count - last_count_) / batch_s);
  last_count_ = count;
  if (batches() < std::max(options_.min_batches, kMinKeptBatches)) {
    return false;
  }
  bool drifting = false;
  const int d = Mser5Truncation(rates_, &drifting);
  if (drifting) return false;
  const std::vector<double> kept(rates_.begin() + d, rates_.end());
  if (static_cast<int>(kept.size()) < kMinKeptBatches) return false;
  const Interval ci = BatchMeansInterval(kept);
  if (!(ci.mean > 0 && ci.half_width <= options_.precision * ci.mean)) {
    return false;
  }
  // A drift slower than MSER-5 sees (a rate still climbing over the kept
  // batches) shows as halves that differ: require them within the
  // precision too.
  const size_t half = kept.size() / 2;
  double first = 0, second = 0;
  for (size_t i = 0; i < half; ++i) first += kept[i];
  for (size_t i = kept.size() - half; i < kept.size(); ++i) second += kept[i];
  return std::abs(first - second) / static_cast<double>(half) <=
         options_.precision * ci.mean;
}

SettleOutcome SettleMonitor::Outcome(const std::string& reason) const {
  SettleOutcome o;
  o.stop_reason = reason;
  o.batches = batches();
  o.batch_s = static_cast<double>(options_.batch_ms) / 1e3;
  o.measured_s = o.batches * o.batch_s;
  o.count = last_count_;
  if (rates_.empty()) return o;
  o.truncated = Mser5Truncation(rates_);
  const std::vector<double> kept(rates_.begin() + o.truncated, rates_.end());
  const Interval ci = BatchMeansInterval(kept);
  o.rate = ci.mean;
  const double hw = std::isfinite(ci.half_width) ? ci.half_width : ci.mean;
  o.ci_low = ci.mean - hw;
  o.ci_high = ci.mean + hw;
  o.relative_half_width = ci.mean > 0 ? hw / ci.mean : 0;
  return o;
}

}  // namespace schedsim::experiments
