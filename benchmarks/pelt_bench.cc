// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Cost of one PELT utilization update (sim/pelt.h), the simulator's
// per-event hot path: every context switch updates the outgoing and
// incoming tasks and the runqueue.
//
// BM_Pelt_Update/<step_ns>: each iteration advances one signal by step_ns,
// alternating running and not running. 100 us stays inside a period most of
// the time (no decay); 1 ms and 4 ms cross one to four period boundaries
// (decay plus the three-segment sum); 100 ms crosses ~95 (shift + table).
// items_per_second counts updates.
//
//   bazel run -c opt //benchmarks:pelt_bench

#include <cstdint>

#include "benchmark/benchmark.h"
#include "sim/pelt.h"

namespace schedsim::sim {
namespace {

void BM_Pelt_Update(benchmark::State& state) {
  const int64_t step_ns = state.range(0);
  PeltSignal s;
  int64_t now_ns = 0;
  bool running = false;
  for (auto _ : state) {
    now_ns += step_ns;
    running = !running;
    benchmark::DoNotOptimize(PeltUpdate(s, now_ns, running, 768));
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Pelt_Update)
    ->Arg(100000)
    ->Arg(1000000)
    ->Arg(4000000)
    ->Arg(100000000);

void BM_Pelt_DecayLoad(benchmark::State& state) {
  uint64_t val = uint64_t{kPeltLoadAvgMax} * kSchedCapacityScale;
  uint64_t n_periods = 1;
  for (auto _ : state) {
    benchmark::DoNotOptimize(DecayLoad(val, n_periods));
    n_periods = (n_periods * 5 + 1) & 255;  // 0..255, varying
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Pelt_DecayLoad);

}  // namespace
}  // namespace schedsim::sim
