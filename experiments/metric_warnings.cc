// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/metric_warnings.h"

#include "absl/strings/str_cat.h"

namespace schedsim::experiments {

std::vector<std::string> EmptyMetricWarnings(const Experiment& e,
                                             const ExperimentResult& r) {
  std::vector<std::string> warnings;
  for (int p = 0; p < static_cast<int>(r.runs.size()); ++p) {
    for (size_t m = 0; m < r.metrics.size(); ++m) {
      bool all_zero = true;
      int samples = 0;
      for (size_t v = 0; v < r.variants.size() && all_zero; ++v) {
        for (double x :
             r.Samples(p, static_cast<int>(v), static_cast<int>(m))) {
          ++samples;
          if (x != 0) {
            all_zero = false;
            break;
          }
        }
      }
      if (!all_zero || samples == 0) continue;
      warnings.push_back(absl::StrCat(
          "metric ", r.metrics[m].name,
          e.sweep ? absl::StrCat(" at ", e.PointName(p)) : std::string(),
          " is 0 in all ", samples,
          " runs: nothing it measures happened in the ", e.duration_ms,
          " ms measured (e.g. no rt-app loop completed: one loop is longer "
          "than the window), so its comparison says nothing; lengthen "
          "duration_ms or check the workload"));
    }
  }
  return warnings;
}

}  // namespace schedsim::experiments
