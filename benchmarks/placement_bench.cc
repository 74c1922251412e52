// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Cost of one placement decision (PlacementPolicy::SelectIdleSibling, the
// select_idle_sibling variants of governors/placement/) on a FakeSchedView
// of zen3-2s-nps1, whose LLC (one CCX) has 16 CPUs. Each iteration is one
// decision; the requests cycle through the 16 CPUs of LLC 0 as target ==
// this_cpu, with prev the next CPU of the LLC and recent_used_cpu reset to
// -1 before each call. Probe recording is off (the view's record is a
// growing vector); the view still counts probes.
//
//   BM_Placement_SisUtil_Llc16/<state>     sis_util (Linux 6.1 default)
//   BM_Placement_SisAbelWu_Llc16/<state>   sis_abel_wu, whole series
//   BM_Placement_Prev/<state>              prev (no scan)
//
// States (set before timing; the policies' own state then evolves):
//   half_busy       8 of the 16 CPUs busy (a fixed shuffle), the idle-core
//                   hint and masks as OnCpuIdle leaves them, nr_idle_scan 10
//                   (docs/kernel-behaviour.md, "SIS_UTIL scan depth",
//                   50 % utilisation).
//   all_busy_nr4    every CPU busy, no idle-core hint, nr_idle_scan 4.
//   has_idle_core   every CPU busy but core {7,135}, hint set,
//                   nr_idle_scan 2 (the 6.1 idle-core scan ignores it).
// Counters:
//   probes_per_decision   runqueue probes (available_idle, nr_running, ...)
//   allocs_per_decision   global operator new calls in the timed loop per
//                         decision (want 0: hooks must not allocate)
//
//   bazel run -c opt //benchmarks:placement_bench

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <random>
#include <vector>

#include "benchmark/benchmark.h"
#include "platform/placement.h"
#include "platform/registry.h"
#include "platform/testing/fake_sched.h"
#include "topology/cpuset.h"

// --- Counting allocator ------------------------------------------------------
// Replaces the global allocation functions for the whole binary and counts
// calls; blocks come from malloc and go back to free.

namespace {

std::atomic<uint64_t> g_allocations{0};

void* CountedAlloc(std::size_t size, std::size_t align) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  void* p = nullptr;
  if (align <= alignof(std::max_align_t)) {
    p = std::malloc(size == 0 ? 1 : size);
  } else if (posix_memalign(&p, align, size == 0 ? 1 : size) != 0) {
    p = nullptr;
  }
  return p;
}

void* CountedAllocOrThrow(std::size_t size, std::size_t align) {
  void* p = CountedAlloc(size, align);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

constexpr std::size_t kDefaultAlign = alignof(std::max_align_t);

}  // namespace

void* operator new(std::size_t n) {
  return CountedAllocOrThrow(n, kDefaultAlign);
}
void* operator new[](std::size_t n) {
  return CountedAllocOrThrow(n, kDefaultAlign);
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  return CountedAlloc(n, kDefaultAlign);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return CountedAlloc(n, kDefaultAlign);
}
void* operator new(std::size_t n, std::align_val_t a) {
  return CountedAllocOrThrow(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return CountedAllocOrThrow(n, static_cast<std::size_t>(a));
}
void* operator new(std::size_t n, std::align_val_t a,
                   const std::nothrow_t&) noexcept {
  return CountedAlloc(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a,
                     const std::nothrow_t&) noexcept {
  return CountedAlloc(n, static_cast<std::size_t>(a));
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t,
                     const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::align_val_t,
                       const std::nothrow_t&) noexcept {
  std::free(p);
}

namespace schedsim {
namespace {

using platform::PlacementPolicy;
using platform::WakeupRequest;
using platform::testing::FakeSchedView;

enum class LlcState { kHalfBusy, kAllBusyNr4, kHasIdleCore };

constexpr int kLlc = 0;  // LLC 0 of zen3-2s-nps1: CPUs 0-7,128-135

// Puts LLC 0 in `state`, after emptying any idle mask the policy keeps (a
// failed full idle-core scan resets SIS_CORE's mask), and lets every idle
// CPU of the LLC pass through OnCpuIdle as it would on going idle.
void SetUp(FakeSchedView& v, PlacementPolicy& policy, LlcState state) {
  const topology::CpuSet& llc = v.topology().llc_span(kLlc);
  v.SetAllBusy();
  v.set_idle_cores(kLlc, true);
  v.recent_used_cpu = -1;
  policy.SelectIdleSibling(v, v.Request(1, kLlc, kLlc, kLlc));
  v.set_idle_cores(kLlc, false);
  switch (state) {
    case LlcState::kHalfBusy: {
      std::vector<int> cpus = llc.ToVector();
      std::shuffle(cpus.begin(), cpus.end(), std::mt19937(1));
      for (size_t i = 0; i < cpus.size() / 2; ++i) v.SetIdle(cpus[i]);
      v.set_nr_idle_scan(kLlc, 10);
      break;
    }
    case LlcState::kAllBusyNr4:
      v.set_nr_idle_scan(kLlc, 4);
      break;
    case LlcState::kHasIdleCore:
      v.SetIdle(7);
      v.SetIdle(135);
      v.set_nr_idle_scan(kLlc, 2);
      break;
  }
  for (int cpu = llc.First(); cpu >= 0; cpu = llc.Next(cpu)) {
    if (v.nr_running(cpu) == 0) policy.OnCpuIdle(v, cpu);
  }
  if (state == LlcState::kHasIdleCore) v.set_idle_cores(kLlc, true);
  if (state == LlcState::kAllBusyNr4) v.set_idle_cores(kLlc, false);
}

void RunDecisions(benchmark::State& bm, const char* policy_name,
                  LlcState state) {
  absl::StatusOr<std::unique_ptr<PlacementPolicy>> made =
      platform::PolicyRegistry::Global().MakePlacement(policy_name);
  if (!made.ok()) {
    bm.SkipWithError(std::string(made.status().message()).c_str());
    return;
  }
  PlacementPolicy& policy = **made;
  FakeSchedView v = FakeSchedView::ForPreset("zen3-2s-nps1");
  policy.Attach(v.topology(), v.domains());
  SetUp(v, policy, state);

  // The 16 requests: target == this_cpu each CPU of the LLC, prev the next.
  const std::vector<int> cpus = v.topology().llc_span(kLlc).ToVector();
  std::array<WakeupRequest, 16> requests;
  int recent = -1;
  for (size_t i = 0; i < requests.size(); ++i) {
    const int cpu = cpus[i % cpus.size()];
    const int prev = cpus[(i + 1) % cpus.size()];
    requests[i] = v.Request(1, cpu, prev, cpu);
    requests[i].recent_used_cpu = &recent;
  }

  v.set_record_probes(false);
  v.set_probe_cost_ns(1);  // scan_time_ns() then counts probes
  v.ClearProbes();
  size_t next = 0;
  const uint64_t allocs_before = g_allocations.load(std::memory_order_relaxed);
  for (auto _ : bm) {
    recent = -1;
    benchmark::DoNotOptimize(policy.SelectIdleSibling(v, requests[next]));
    next = (next + 1) & 15;
  }
  const uint64_t allocs =
      g_allocations.load(std::memory_order_relaxed) - allocs_before;
  const double decisions = static_cast<double>(bm.iterations());
  bm.counters["probes_per_decision"] =
      static_cast<double>(v.scan_time_ns()) / decisions;
  bm.counters["allocs_per_decision"] = static_cast<double>(allocs) / decisions;
}

void BM_Placement_SisUtil_Llc16(benchmark::State& bm, LlcState state) {
  RunDecisions(bm, "sis_util", state);
}
void BM_Placement_SisAbelWu_Llc16(benchmark::State& bm, LlcState state) {
  RunDecisions(bm, "sis_abel_wu", state);
}
void BM_Placement_Prev(benchmark::State& bm, LlcState state) {
  RunDecisions(bm, "prev", state);
}

BENCHMARK_CAPTURE(BM_Placement_SisUtil_Llc16, half_busy, LlcState::kHalfBusy);
BENCHMARK_CAPTURE(BM_Placement_SisUtil_Llc16, all_busy_nr4,
                  LlcState::kAllBusyNr4);
BENCHMARK_CAPTURE(BM_Placement_SisUtil_Llc16, has_idle_core,
                  LlcState::kHasIdleCore);
BENCHMARK_CAPTURE(BM_Placement_SisAbelWu_Llc16, half_busy, LlcState::kHalfBusy);
BENCHMARK_CAPTURE(BM_Placement_SisAbelWu_Llc16, all_busy_nr4,
                  LlcState::kAllBusyNr4);
BENCHMARK_CAPTURE(BM_Placement_SisAbelWu_Llc16, has_idle_core,
                  LlcState::kHasIdleCore);
BENCHMARK_CAPTURE(BM_Placement_Prev, half_busy, LlcState::kHalfBusy);
BENCHMARK_CAPTURE(BM_Placement_Prev, all_busy_nr4, LlcState::kAllBusyNr4);
BENCHMARK_CAPTURE(BM_Placement_Prev, has_idle_core, LlcState::kHasIdleCore);

}  // namespace
}  // namespace schedsim
