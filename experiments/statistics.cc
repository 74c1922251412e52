// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "boost/math/distributions/students_t.hpp"

namespace schedsim::experiments {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Student's t with errors reported as NaN rather than thrown.
using NoThrowPolicy = boost::math::policies::policy<
    boost::math::policies::domain_error<boost::math::policies::ignore_error>,
    boost::math::policies::overflow_error<boost::math::policies::ignore_error>,
    boost::math::policies::evaluation_error<
        boost::math::policies::ignore_error>>;
using StudentsT = boost::math::students_t_distribution<double, NoThrowPolicy>;

double Variance(const std::vector<double>& x) {
  if (x.size() < 2 || Identical(x)) return 0;
  const double mean = Amean(x);
  double sum = 0;
  for (double v : x) sum += (v - mean) * (v - mean);
  return sum / static_cast<double>(x.size() - 1);
}

}  // namespace

bool Identical(const std::vector<double>& x) {
  if (x.empty()) return false;
  for (double v : x) {
    if (!(v == x[0])) return false;  // also false for NaN
  }
  return true;
}

bool NoSpread(const std::vector<double>& x) {
  return x.size() >= 2 && Identical(x);
}

double Amean(const std::vector<double>& x) {
  if (x.empty()) return kNaN;
  double sum = 0;
  for (double v : x) sum += v;
  return sum / static_cast<double>(x.size());
}

double Hmean(const std::vector<double>& x) {
  if (x.empty()) return kNaN;
  double sum = 0;
  bool zero = false;
  for (double v : x) {
    if (std::isnan(v) || v < 0) return kNaN;
    if (v == 0) {
      zero = true;
    } else {
      sum += 1 / v;
    }
  }
  if (zero) return 0;
  return static_cast<double>(x.size()) / sum;
}

double Gmean(const std::vector<double>& x) {
  if (x.empty()) return kNaN;
  double sum = 0;
  bool zero = false;
  for (double v : x) {
    if (std::isnan(v) || v < 0) return kNaN;
    if (v == 0) {
      zero = true;
    } else {
      sum += std::log(v);
    }
  }
  if (zero) return 0;
  return std::exp(sum / static_cast<double>(x.size()));
}

double Stddev(const std::vector<double>& x) {
  if (x.empty()) return kNaN;
  return std::sqrt(Variance(x));
}

double CoeffVar(const std::vector<double>& x) {
  const double mean = Amean(x);
  if (x.empty() || mean == 0) return kNaN;
  return Stddev(x) / std::fabs(mean) * 100;
}

double Min(const std::vector<double>& x) {
  if (x.empty()) return kNaN;
  return *std::min_element(x.begin(), x.end());
}

double Max(const std::vector<double>& x) {
  if (x.empty()) return kNaN;
  return *std::max_element(x.begin(), x.end());
}

Summary Summarize(const std::vector<double>& x) {
  Summary s;
  s.n = static_cast<int>(x.size());
  s.amean = Amean(x);
  s.hmean = Hmean(x);
  s.gmean = Gmean(x);
  s.stddev = Stddev(x);
  s.coeffvar = CoeffVar(x);
  s.min = Min(x);
  s.max = Max(x);
  return s;
}

WelchResult WelchTTest(const std::vector<double>& a,
                       const std::vector<double>& b) {
  WelchResult w;
  w.diff = Amean(b) - Amean(a);
  if (a.size() < 2 || b.size() < 2) {
    w.t = w.df = w.p_value = w.ci95_half_width = kNaN;
    return w;
  }
  const double na = static_cast<double>(a.size());
  const double nb = static_cast<double>(b.size());
  const double qa = Variance(a) / na;  // squared standard errors
  const double qb = Variance(b) / nb;
  const double se2 = qa + qb;
  if (!std::isfinite(se2)) {  // a sample is inf or NaN
    w.t = w.df = w.p_value = w.ci95_half_width = kNaN;
    return w;
  }
  if (se2 == 0) {  // neither side varies: nothing to test against
    w.t = w.df = w.p_value = w.ci95_half_width = kNaN;
    return w;
  }
  const double se = std::sqrt(se2);
  w.t = w.diff / se;
  w.df = se2 * se2 / (qa * qa / (na - 1) + qb * qb / (nb - 1));
  const StudentsT dist(w.df);
  w.p_value =
      2 * boost::math::cdf(boost::math::complement(dist, std::fabs(w.t)));
  w.p_value = std::min(w.p_value, 1.0);
  w.ci95_half_width = boost::math::quantile(dist, 0.975) * se;
  return w;
}

bool Significant(const WelchResult& w) {
  return !std::isnan(w.p_value) && w.p_value < kSignificanceLevel;
}

double PctDiff(double baseline, double value, bool higher_is_better) {
  if (std::isnan(baseline) || std::isnan(value)) return kNaN;
  if (value == baseline) return 0;
  if (baseline == 0) return kNaN;
  const double pct = (value - baseline) / std::fabs(baseline) * 100;
  return higher_is_better ? pct : -pct;
}

}  // namespace schedsim::experiments
