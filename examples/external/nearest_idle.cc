// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "nearest_idle.h"

namespace example {
namespace {

bool Allowed(const schedsim::WakeupRequest& r, int cpu) {
  return r.allowed == nullptr || r.allowed->Test(cpu);
}

}  // namespace

int NearestIdlePlacement::SelectIdleSibling(schedsim::SchedView& view,
                                            const schedsim::WakeupRequest& r) {
  const int target = r.target;
  if (Allowed(r, target) && view.available_idle(target)) return target;
  const schedsim::Topology& topo = view.topology();
  const schedsim::CpuSet& llc = topo.llc_span(target);
  if (r.prev_cpu != target && r.prev_cpu >= 0 && llc.Test(r.prev_cpu) &&
      Allowed(r, r.prev_cpu) && view.available_idle(r.prev_cpu)) {
    return r.prev_cpu;
  }
  int64_t probes = 0;
  // The target's SMT siblings first: they share its caches.
  const schedsim::CpuSet& core = topo.smt_siblings(target);
  for (int cpu = core.First(); cpu >= 0; cpu = core.Next(cpu)) {
    if (cpu == target || !Allowed(r, cpu)) continue;
    if (probes++ >= max_probes_) return target;
    if (view.available_idle(cpu)) return cpu;
  }
  // Then the rest of the LLC, in order after the target, wrapping around.
  for (int cpu = llc.Next(target); cpu != target;) {
    if (cpu < 0) {
      cpu = llc.First();
      continue;
    }
    if (!core.Test(cpu) && Allowed(r, cpu)) {
      if (probes++ >= max_probes_) return target;
      if (view.available_idle(cpu)) return cpu;
    }
    cpu = llc.Next(cpu);
  }
  return target;
}

// Selectable by name from SimulationOptions, scenario and experiment files
// and the command line of any binary that links this file (the library is
// alwayslink in BUILD).
SCHEDSIM_REGISTER_POLICY(schedsim::DescribePolicy<NearestIdlePlacement>(
    "nearest_idle",
    "Example (examples/external): the target if idle, else prev if idle in "
    "the target's LLC, else the nearest idle CPU (SMT siblings, then the LLC "
    "in order after the target), probing at most max_probes runqueues.",
    {{"max_probes", NearestIdlePlacement::kDefaultMaxProbes,
      "runqueues probed at most, after target and prev"}}));

}  // namespace example
