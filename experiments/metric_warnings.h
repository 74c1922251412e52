// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Warnings about results that say nothing: a metric that is 0 in every
// iteration of every variant at a sweep value measured nothing (no rt-app
// loop completed within the measured window, no request finished), so its
// table row compares zeros. `schedsim run` prints them on stderr.

#ifndef SCHEDSIM_EXPERIMENTS_METRIC_WARNINGS_H_
#define SCHEDSIM_EXPERIMENTS_METRIC_WARNINGS_H_

#include <string>
#include <vector>

#include "experiments/experiment.h"
#include "experiments/runner.h"

namespace schedsim::experiments {

// One warning per (sweep value, metric) whose samples are all exactly 0, in
// (sweep value, metric) order.
std::vector<std::string> EmptyMetricWarnings(const Experiment& experiment,
                                             const ExperimentResult& result);

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_METRIC_WARNINGS_H_
