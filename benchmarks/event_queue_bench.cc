// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Event-queue designs under the simulator's two characteristic loads.
//
// Hold (Jones, "An empirical comparison of priority-queue and event-set
// implementations", CACM 1986): with N events pending, each operation pops
// the earliest and pushes one at now + Exp(mean). N stays constant; it is
// the steady state of a discrete-event simulation where every handled event
// schedules one successor. 256-4096 pending is the simulator's range (a
// 256-CPU machine keeps ~300-1000 events pending); 65536 shows scaling.
//
// CancelReschedule: with N pending, each operation moves a random pending
// event to now + Exp(mean), as a CPU frequency change moves the end of the
// running task's execution phase.
//
// Random inputs are drawn before timing into tables indexed by the
// iteration count, so the loop measures the queue and not the generator.
// items_per_second counts queue operations (one pop + one push for Hold; one
// reschedule for CancelReschedule).
//
//   bazel run -c opt //benchmarks:event_queue_bench

#include <cstdint>
#include <vector>

#include "benchmark/benchmark.h"
#include "sim/event_queue.h"
#include "sim/rng.h"
#include "sim/time.h"

namespace schedsim::sim {
namespace {

constexpr double kMeanIncrementNs = 100000.0;   // 100 us
constexpr size_t kTableSize = size_t{1} << 16;  // power of two

struct Draw {
  int64_t dt_ns;
  uint32_t index;
};

std::vector<Draw> MakeDraws(uint64_t seed, uint32_t n) {
  Rng rng(seed);
  std::vector<Draw> draws(kTableSize);
  for (Draw& d : draws) {
    d.dt_ns = static_cast<int64_t>(rng.Exponential(kMeanIncrementNs));
    d.index = static_cast<uint32_t>(rng.UniformU64(n));
  }
  return draws;
}

// Fills `q` with n events and runs the hold model for 8n operations so the
// pending times reach their stationary distribution (and every internal
// buffer its high-water mark) before timing starts.
template <typename Q>
std::vector<EventHandle> Fill(Q& q, uint32_t n, const std::vector<Draw>& d) {
  Rng rng(12345);
  std::vector<EventHandle> handles;
  handles.reserve(n);
  q.Reserve(n);
  for (uint32_t i = 0; i < n; ++i) {
    const auto t = static_cast<int64_t>(rng.Exponential(kMeanIncrementNs));
    handles.push_back(q.Push(SimTime::FromNanoseconds(t),
                             static_cast<uint8_t>(i % 3), 1,
                             static_cast<int32_t>(i), static_cast<int32_t>(i)));
  }
  for (size_t i = 0; i < 8 * size_t{n}; ++i) {
    const Event e = q.Pop();
    const EventHandle h = q.Push(e.time + Nanoseconds(d[i % kTableSize].dt_ns),
                                 e.band, e.kind, e.cpu, e.task);
    handles[static_cast<uint32_t>(e.task)] = h;
  }
  return handles;
}

template <typename Q>
void Hold(benchmark::State& state) {
  const auto n = static_cast<uint32_t>(state.range(0));
  const std::vector<Draw> draws = MakeDraws(1, n);
  Q q;
  Fill(q, n, draws);
  size_t i = 0;
  for (auto _ : state) {
    const Event e = q.Pop();
    benchmark::DoNotOptimize(
        q.Push(e.time + Nanoseconds(draws[i++ & (kTableSize - 1)].dt_ns),
               e.band, e.kind, e.cpu, e.task));
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

template <typename Q>
void CancelReschedule(benchmark::State& state) {
  const auto n = static_cast<uint32_t>(state.range(0));
  const std::vector<Draw> draws = MakeDraws(2, n);
  Q q;
  const std::vector<EventHandle> handles = Fill(q, n, draws);
  const SimTime now = q.floor();
  size_t i = 0;
  for (auto _ : state) {
    const Draw& d = draws[i++ & (kTableSize - 1)];
    benchmark::DoNotOptimize(
        q.Reschedule(handles[d.index], now + Nanoseconds(d.dt_ns)));
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

void BM_EventQueue_Hold_QuaternaryHeap(benchmark::State& state) {
  Hold<QuaternaryHeapQueue>(state);
}
void BM_EventQueue_Hold_RadixHeap(benchmark::State& state) {
  Hold<RadixHeapQueue>(state);
}
void BM_EventQueue_CancelReschedule_QuaternaryHeap(benchmark::State& state) {
  CancelReschedule<QuaternaryHeapQueue>(state);
}
void BM_EventQueue_CancelReschedule_RadixHeap(benchmark::State& state) {
  CancelReschedule<RadixHeapQueue>(state);
}

BENCHMARK(BM_EventQueue_Hold_QuaternaryHeap)
    ->Arg(256)
    ->Arg(1024)
    ->Arg(4096)
    ->Arg(65536);
BENCHMARK(BM_EventQueue_Hold_RadixHeap)
    ->Arg(256)
    ->Arg(1024)
    ->Arg(4096)
    ->Arg(65536);
BENCHMARK(BM_EventQueue_CancelReschedule_QuaternaryHeap)
    ->Arg(256)
    ->Arg(1024)
    ->Arg(4096)
    ->Arg(65536);
BENCHMARK(BM_EventQueue_CancelReschedule_RadixHeap)
    ->Arg(256)
    ->Arg(1024)
    ->Arg(4096)
    ->Arg(65536);

}  // namespace
}  // namespace schedsim::sim
