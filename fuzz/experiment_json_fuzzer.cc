// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Experiment JSON (experiments/experiment.h ParseExperiment), and its cost
// estimate.

#include <cstddef>
#include <cstdint>

#include "experiments/experiment.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schedsim::experiments;  // NOLINT(build/namespaces)
  absl::StatusOr<Experiment> e =
      ParseExperiment(schedsim::fuzz::Text(data, size), "fuzz.json");
  if (e.ok()) {
    const int64_t runs = int64_t{e->num_points()} *
                         static_cast<int64_t>(e->variants.size()) *
                         e->iterations;
    (void)CheckCost(*e, EstimateCost(*e, runs, 8, 2), false);
  }
  return 0;
}
