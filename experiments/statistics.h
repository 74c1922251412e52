// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Summary statistics of repeated runs and the comparison of two variants,
// as mmtests' compare-kernels computes them: arithmetic, harmonic and
// geometric means, the sample standard deviation (n - 1), the coefficient
// of variation, min and max, and Welch's unequal-variance t-test with the
// Welch-Satterthwaite degrees of freedom, its two-sided p-value (Boost.Math
// students_t) and the 95% confidence interval of the difference of means.
//
//   std::vector<double> base = {10, 12, 14}, patched = {11, 13, 15, 17};
//   WelchResult w = WelchTTest(base, patched);   // t 1.155, p 0.30
//   double d = PctDiff(Amean(base), Amean(patched),
//                      /*higher_is_better=*/true);  // +16.67
//
// Conventions for degenerate input: an empty sample has NaN statistics; one
// sample has Stddev 0; identical samples have Stddev exactly 0, and two
// sides that both have no spread get no p-value (NaN), since a p-value
// must come from real spread; see each function for the rest. NaN means
// "not defined" and the reports print it as "n/a".

#ifndef SCHEDSIM_EXPERIMENTS_STATISTICS_H_
#define SCHEDSIM_EXPERIMENTS_STATISTICS_H_

#include <vector>

namespace schedsim::experiments {

// The arithmetic mean.
double Amean(const std::vector<double>& x);
// The harmonic mean, for rates: n / sum(1/x). 0 when a sample is 0; NaN
// when one is negative.
double Hmean(const std::vector<double>& x);
// The geometric mean, for ratios: exp(mean(log x)). 0 when a sample is 0;
// NaN when one is negative.
double Gmean(const std::vector<double>& x);
// The sample standard deviation, sqrt(sum((x - mean)^2) / (n - 1)); 0 for
// one sample, and exactly 0 when every sample is identical.
double Stddev(const std::vector<double>& x);
// Stddev / Amean * 100 (in percent of the mean); NaN when the mean is 0.
double CoeffVar(const std::vector<double>& x);
double Min(const std::vector<double>& x);
double Max(const std::vector<double>& x);
// Every sample equal to the first (false when empty or a sample is NaN).
bool Identical(const std::vector<double>& x);
// At least 2 samples, all identical: repeated runs that show no spread at
// all (the comparison tables warn, and no test is made when both sides of
// a comparison have none).
bool NoSpread(const std::vector<double>& x);

// All of the above for one set of samples.
struct Summary {
  int n = 0;
  double amean = 0;
  double hmean = 0;
  double gmean = 0;
  double stddev = 0;
  double coeffvar = 0;
  double min = 0;
  double max = 0;
};
Summary Summarize(const std::vector<double>& x);

// Welch's t-test of "the means of `a` and `b` differ".
struct WelchResult {
  double diff = 0;     // Amean(b) - Amean(a)
  double t = 0;        // diff / se, se = sqrt(var_a / n_a + var_b / n_b)
  double df = 0;       // Welch-Satterthwaite degrees of freedom
  double p_value = 1;  // two-sided, from Student's t with df
  // Half-width of the 95% confidence interval of diff:
  // t_{0.975, df} * se.
  double ci95_half_width = 0;
};
// Fewer than 2 samples on either side: t, df, p_value and ci95_half_width
// are NaN (diff is still the difference of the means). Neither side varies
// (se = 0, every sample of `a` identical and every sample of `b`
// identical): there is no spread to judge the difference against, so
// there is no test either: t, df, p_value and ci95_half_width are NaN,
// whether the means differ or not (a p-value comes only from real spread;
// identical iterations of a deterministic model say nothing about noise).
// One side without variance and the other with some (se > 0): the test is
// defined and made as usual; df is then the varying side's n - 1.
WelchResult WelchTTest(const std::vector<double>& a,
                       const std::vector<double>& b);

// The significance level of the comparison tables' `*` marker.
inline constexpr double kSignificanceLevel = 0.05;
// p_value < kSignificanceLevel (false when p is NaN).
bool Significant(const WelchResult& w);

// The difference of `value` against `baseline` in percent of `baseline`,
// signed so that positive means better: (value - baseline) / |baseline| *
// 100 when higher is better, the negation when lower is better. 0 when
// both are equal (also both 0); NaN when baseline is 0 and value is not, or
// either is NaN.
double PctDiff(double baseline, double value, bool higher_is_better);

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_STATISTICS_H_
