// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/testing/fake_sched.h"

#include <cstdio>
#include <cstdlib>

#include "topology/presets.h"

namespace schedsim::platform::testing {

FakeSchedView::FakeSchedView(topology::Topology topology,
                             topology::SchedDomains domains)
    : topology_(std::move(topology)), domains_(std::move(domains)) {
  int n = topology_.num_cpus();
  nr_running_.assign(n, 0);
  sched_idle_.assign(n, false);
  util_.assign(n, 0);
  ttwu_pending_.assign(n, false);
  avg_idle_.assign(n, 1000000);
  wake_avg_idle_.assign(n, 500000);
  avg_scan_cost_.assign(n, 0);
  has_idle_cores_.assign(topology_.num_llcs(), false);
  nr_idle_scan_.resize(topology_.num_llcs());
  for (int l = 0; l < topology_.num_llcs(); ++l) {
    nr_idle_scan_[l] = topology_.llcs()[l].Count();
  }
  all_ = topology_.all_cpus();
}

FakeSchedView FakeSchedView::ForPreset(const std::string& machine) {
  absl::StatusOr<topology::Topology> t = topology::MakePreset(machine);
  if (!t.ok()) {
    std::fprintf(stderr, "FakeSchedView: %s\n",
                 std::string(t.status().message()).c_str());
    std::abort();
  }
  absl::StatusOr<topology::SchedDomains> d = topology::BuildSchedDomains(*t);
  if (!d.ok()) std::abort();
  return FakeSchedView(*std::move(t), *std::move(d));
}

void FakeSchedView::SetBusy(int cpu, int nr_running) {
  nr_running_[cpu] = nr_running;
}
void FakeSchedView::SetBusy(const topology::CpuSet& cpus, int nr_running) {
  for (int c = cpus.First(); c >= 0; c = cpus.Next(c)) SetBusy(c, nr_running);
}
void FakeSchedView::SetIdle(int cpu) {
  nr_running_[cpu] = 0;
  ttwu_pending_[cpu] = false;
}
void FakeSchedView::SetIdle(const topology::CpuSet& cpus) {
  for (int c = cpus.First(); c >= 0; c = cpus.Next(c)) SetIdle(c);
}
void FakeSchedView::SetAllBusy(int nr_running) { SetBusy(all_, nr_running); }

void FakeSchedView::set_nr_idle_scan(int cpu, int n) {
  nr_idle_scan_[topology_.place(cpu).llc] = n;
}

WakeupRequest FakeSchedView::Request(int task, int this_cpu, int prev,
                                     int target, uint32_t wake_flags) {
  WakeupRequest r;
  r.task = task;
  r.this_cpu = this_cpu;
  r.prev_cpu = prev;
  r.target = target;
  r.wake_flags = wake_flags;
  r.allowed = &all_;
  r.recent_used_cpu = &recent_used_cpu;
  return r;
}

bool FakeSchedView::available_idle(int cpu) {
  RecordProbe(cpu);
  return nr_running_[cpu] == 0 && !ttwu_pending_[cpu];
}

int FakeSchedView::nr_running(int cpu) {
  RecordProbe(cpu);
  return nr_running_[cpu];
}

int64_t FakeSchedView::cpu_util(int cpu) {
  RecordProbe(cpu);
  return util_[cpu];
}

bool FakeSchedView::has_idle_cores(int cpu) const {
  return has_idle_cores_[topology_.place(cpu).llc];
}
void FakeSchedView::set_idle_cores(int cpu, bool value) {
  has_idle_cores_[topology_.place(cpu).llc] = value;
}
int FakeSchedView::nr_idle_scan(int cpu) const {
  return nr_idle_scan_[topology_.place(cpu).llc];
}
int64_t FakeSchedView::avg_scan_cost_ns(int cpu) const {
  return avg_scan_cost_[cpu];
}
void FakeSchedView::set_avg_scan_cost_ns(int cpu, int64_t value) {
  avg_scan_cost_[cpu] = value;
}

}  // namespace schedsim::platform::testing
