// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// For the tests of the engine's parts: the shared state (EngineState) of
// a small machine built by hand, without the engine, and two such
// machines. Test-only.

#ifndef SCHEDSIM_SIM_ENGINE_STATE_TESTING_H_
#define SCHEDSIM_SIM_ENGINE_STATE_TESTING_H_

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "sim/engine_state.h"
#include "sim/pelt.h"
#include "sim/sched_state.h"
#include "topology/cpuset.h"
#include "topology/sched_domains.h"
#include "topology/topology.h"

namespace schedsim::sim::state_testing {

using topology::SchedDomains;
using topology::Topology;
using topology::TopologyBuilder;

inline constexpr int64_t kMs = 1000000;

// One package, 8 single-thread cores, LLCs 0-3 and 4-7: MC and DIE.
inline Topology TwoLlcs() {
  TopologyBuilder b("two-llcs");
  for (int cpu = 0; cpu < 8; ++cpu) b.AddCpu(cpu, 0, 0, cpu / 4, cpu);
  b.set_distances({{10}});
  absl::StatusOr<Topology> t = b.Build();
  EXPECT_TRUE(t.ok()) << t.status();
  return *std::move(t);
}

// Two packages (nodes 21 apart), each one LLC of 4 cores: MC and NUMA.
inline Topology TwoSockets() {
  TopologyBuilder b("two-sockets");
  for (int cpu = 0; cpu < 8; ++cpu)
    b.AddCpu(cpu, cpu / 4, cpu / 4, cpu / 4, cpu);
  b.set_distances({{10, 21}, {21, 10}});
  absl::StatusOr<Topology> t = b.Build();
  EXPECT_TRUE(t.ok()) << t.status();
  return *std::move(t);
}

// The shared state, open to the test: every CPU idle, no task.
class TestState : public EngineState {
 public:
  // The runqueues' load signals start at `now_ns` (no load yet).
  TestState(const Topology& topo, const SchedDomains& domains, int64_t now_ns) {
    InitLayout(topo, domains);
    PeltSignal unloaded;
    unloaded.last_update_ns = now_ns;
    rq_load_.assign(topo.num_cpus(), unloaded);
    for (int cpu = 0; cpu < topo.num_cpus(); ++cpu) {
      cpus_[cpu].mode = CpuMode::kIdle;
      ++llcs_[cpus_[cpu].llc].nr_idle;
      RefreshProbe(cpu);
    }
    spec_allowed_ = {&all_cpus_};
  }

  // A runnable fair task on `cpu` (its curr when `running`, else queued
  // behind it) that last ran at `last_ran_ns`.
  int AddTask(int cpu, bool running, int64_t last_ran_ns) {
    const int id = static_cast<int>(tasks_.size());
    Task t;
    t.state = TaskState::kRunnable;
    t.cpu = cpu;
    t.last_ran_ns = last_ran_ns;
    tasks_.push_back(t);
    task_load_.push_back(PeltSignal{});
    Cpu& c = cpus_[cpu];
    if (running) {
      c.curr = id;
    } else {
      c.rq.push_back(id);
    }
    SetBusy(cpu, true);
    ++c.nr_fair;
    c.load_weight += t.weight;
    NoteNrRunning(cpu, +1);
    RefreshProbe(cpu);
    return id;
  }
  void SetBusy(int cpu, bool busy) {
    Cpu& c = cpus_[cpu];
    if ((c.mode == CpuMode::kIdle) == !busy) return;
    llcs_[c.llc].nr_idle += busy ? -1 : 1;
    c.mode = busy ? CpuMode::kBusy : CpuMode::kIdle;
    RefreshProbe(cpu);
  }
  // Restricts task `id` to `allowed` (its own spec).
  void Pin(int id, const topology::CpuSet* allowed) {
    tasks_[id].has_affinity = true;
    tasks_[id].spec = static_cast<int32_t>(spec_allowed_.size());
    spec_allowed_.push_back(allowed);
  }
  // detach_task() + attach_task() on the state (the test's mover).
  void Move(int task, int src, int dst) {
    Cpu& s = cpus_[src];
    s.rq.erase(std::find(s.rq.begin(), s.rq.end(), task));
    --s.nr_fair;
    s.load_weight -= tasks_[task].weight;
    NoteNrRunning(src, -1);
    Cpu& d = cpus_[dst];
    d.rq.push_back(task);
    SetBusy(dst, true);
    ++d.nr_fair;
    d.load_weight += tasks_[task].weight;
    NoteNrRunning(dst, +1);
    tasks_[task].cpu = dst;
    RefreshProbe(src);
    RefreshProbe(dst);
  }

  using EngineState::cpus_;
  using EngineState::fdoms_;
  using EngineState::llcs_;
  using EngineState::packages_;
  using EngineState::rq_util_est_;
  using EngineState::tasks_;
  using EngineState::util_est_;
};

}  // namespace schedsim::sim::state_testing

#endif  // SCHEDSIM_SIM_ENGINE_STATE_TESTING_H_
