// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Scenario JSON (experiments/scenario.h ParseScenario), then a run capped
// at a few simulated milliseconds on a small built-in machine.

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "experiments/scenario.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schedsim::experiments;  // NOLINT(build/namespaces)
  absl::StatusOr<Scenario> s =
      ParseScenario(schedsim::fuzz::Text(data, size), "fuzz.json");
  if (!s.ok()) return 0;
  // Capped: a built-in 8-CPU machine (no files), at most 2 ms, few tasks.
  s->machine = MachineSource();
  s->machine.machine = "skylake-e3-1240v5";
  s->warmup_ms = std::min<int64_t>(s->warmup_ms, 1);
  s->duration_ms = std::min<int64_t>(std::max<int64_t>(s->duration_ms, 1), 2);
  int64_t tasks = 0;
  for (const auto& t : s->workload.tasks) tasks += t.count;
  if (tasks > 64) return 0;
  (void)RunScenario(*s);
  return 0;
}
