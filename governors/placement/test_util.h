// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Helpers shared by the placement policies' tests: random scheduler states
// and wake-up requests on a FakeSchedView, drawn from a seeded engine so
// that every test is deterministic.

#ifndef SCHEDSIM_GOVERNORS_PLACEMENT_TEST_UTIL_H_
#define SCHEDSIM_GOVERNORS_PLACEMENT_TEST_UTIL_H_

#include <cstdint>
#include <random>

#include "platform/placement.h"
#include "platform/testing/fake_sched.h"
#include "topology/cpuset.h"

namespace schedsim::governors::testing {

// Every CPU busy with probability `busy_pct`; a busy CPU runs only
// SCHED_IDLE tasks with probability 1/16; an idle CPU has a wake-up pending
// with probability 1/16. Each LLC gets a random nr_idle_scan in
// [0, LLC size] and a random has_idle_cores hint.
inline void RandomizeState(platform::testing::FakeSchedView& view,
                           std::mt19937_64& rng, int busy_pct) {
  std::uniform_int_distribution<int> pct(0, 99);
  std::uniform_int_distribution<int> sixteenth(0, 15);
  const int n = view.topology().num_cpus();
  for (int cpu = 0; cpu < n; ++cpu) {
    if (pct(rng) < busy_pct) {
      view.SetBusy(cpu, 1 + sixteenth(rng) / 8);
      view.set_sched_idle(cpu, sixteenth(rng) == 0);
    } else {
      view.SetIdle(cpu);
      view.set_sched_idle(cpu, false);
      view.set_ttwu_pending(cpu, sixteenth(rng) == 0);
    }
  }
  for (const topology::CpuSet& llc : view.topology().llcs()) {
    std::uniform_int_distribution<int> depth(0, llc.Count());
    view.set_nr_idle_scan(llc.First(), depth(rng));
    view.set_idle_cores(llc.First(), sixteenth(rng) < 8);
  }
}

// A random non-empty set of CPUs: each CPU with probability `pct` (or, one
// time in four, the whole machine).
inline topology::CpuSet RandomAllowed(int num_cpus, std::mt19937_64& rng,
                                      int pct) {
  std::uniform_int_distribution<int> hundred(0, 99);
  topology::CpuSet set(num_cpus);
  if (hundred(rng) < 25) {
    set.SetAll();
    return set;
  }
  for (int cpu = 0; cpu < num_cpus; ++cpu) {
    if (hundred(rng) < pct) set.Set(cpu);
  }
  if (set.Empty())
    set.Set(std::uniform_int_distribution<int>(0, num_cpus - 1)(rng));
  return set;
}

// A random CPU of `cpu`'s LLC.
inline int RandomLlcSibling(const platform::testing::FakeSchedView& view,
                            int cpu, std::mt19937_64& rng) {
  const topology::CpuSet& llc = view.topology().llc_span(cpu);
  int k = std::uniform_int_distribution<int>(0, llc.Count() - 1)(rng);
  int c = llc.First();
  while (k-- > 0) c = llc.Next(c);
  return c;
}

// A wake-up request with random CPUs: this_cpu anywhere; prev equal to it,
// in its LLC or anywhere; target this_cpu or prev (as wake_affine returns);
// recent_used_cpu in target's LLC, anywhere or -1; sometimes woken by a
// per-CPU kthread. Every CPU is allowed (set request.allowed to change it).
inline platform::WakeupRequest RandomRequest(
    platform::testing::FakeSchedView& view, std::mt19937_64& rng) {
  const int n = view.topology().num_cpus();
  std::uniform_int_distribution<int> any_cpu(0, n - 1);
  std::uniform_int_distribution<int> eighth(0, 7);
  const int this_cpu = any_cpu(rng);
  const int p = eighth(rng);
  const int prev = p < 2   ? this_cpu
                   : p < 6 ? RandomLlcSibling(view, this_cpu, rng)
                           : any_cpu(rng);
  const int target = eighth(rng) < 4 ? this_cpu : prev;
  const int r = eighth(rng);
  view.recent_used_cpu = r == 0  ? -1
                         : r < 5 ? RandomLlcSibling(view, target, rng)
                                 : any_cpu(rng);
  platform::WakeupRequest request =
      view.Request(/*task=*/1, this_cpu, prev, target);
  request.waker_is_per_cpu_kthread = eighth(rng) == 0;
  return request;
}

}  // namespace schedsim::governors::testing

#endif  // SCHEDSIM_GOVERNORS_PLACEMENT_TEST_UTIL_H_
