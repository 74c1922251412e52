// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/cfs.h"

#include <algorithm>

namespace schedsim::sim {

void Cfs::Init(int cpus, const FairTunables& tunables) {
  tun_ = tunables;
  buddies_.assign(static_cast<size_t>(cpus), Buddies{});
}

void Cfs::Enqueue(int cpu, int task, int from_cpu, uint32_t flags) {
  Cpu& c = cpus_[cpu];
  Task& t = tasks_[task];
  if (flags & kEnqueueMigrated) {
    // migrate_task_rq_fair() subtracts the old runqueue's min_vruntime,
    // enqueue_entity() adds the new one's.
    t.vruntime = t.vruntime - cpus_[from_cpu].min_vruntime + c.min_vruntime;
  }
  if (flags & kEnqueueWakeup) {
    // place_entity(): a waking task gets at most half a latency period of
    // sleeper credit (GENTLE_FAIR_SLEEPERS).
    t.vruntime = std::max(t.vruntime, c.min_vruntime - tun_.latency_ns / 2);
  }
  heap_.Push(c, task);
  ++c.nr_fair;
  c.load_weight += t.weight;
}

bool Cfs::Dequeue(int cpu, int task, uint32_t flags) {
  Cpu& c = cpus_[cpu];
  Task& t = tasks_[task];
  if (t.rq_pos >= 0) heap_.Remove(c, task);
  ClearBuddies(cpu, task);  // dequeue_entity() -> clear_buddies()
  --c.nr_fair;
  c.load_weight -= t.weight;
  return true;
}

int Cfs::Pick(int cpu) {
  const Cpu& c = cpus_[cpu];
  const int left = RqHeap::Top(c);
  if (left < 0 || !tun_.buddies) return left;
  // wakeup_preempt_entity(buddy, left) < 1: the buddy's vruntime leads the
  // leftmost's by at most the wake-up granularity in the leftmost's
  // virtual time.
  const Task& l = tasks_[left];
  const int64_t gran = WakeupGranNs(l);
  auto fair = [&](int b) {
    return b >= 0 && tasks_[b].rq_pos >= 0 &&
           tasks_[b].vruntime - l.vruntime <= gran;
  };
  const Buddies& b = buddies_[static_cast<size_t>(cpu)];
  if (fair(b.next)) return b.next;
  if (fair(b.last)) return b.last;
  return left;
}

void Cfs::SetNext(int cpu, int task) {
  // set_next_entity() -> clear_buddies(): a buddy earns its favour anew.
  ClearBuddies(cpu, task);
  heap_.Remove(cpus_[cpu], task);
}

bool Cfs::Charge(int cpu, Task& t, int64_t delta_ns) {
  Cpu& c = cpus_[cpu];
  // delta * 1024 / weight; nice-0 tasks (weight 1024) skip the division.
  t.vruntime += t.weight == 1024 ? delta_ns : delta_ns * 1024 / t.weight;
  // update_min_vruntime().
  int64_t v = t.vruntime;
  int top = RqHeap::Top(c);
  if (top >= 0) v = std::min(v, tasks_[top].vruntime);
  c.min_vruntime = std::max(c.min_vruntime, v);
  return false;
}

bool Cfs::WakeupPreempt(int cpu, int wakee) {
  Cpu& c = cpus_[cpu];
  const Task& w = tasks_[wakee];
  const Task& curr = tasks_[c.curr];
  const bool preempt = curr.vruntime - w.vruntime > WakeupGranNs(w);
  if (preempt && tun_.buddies) {
    // set_next_buddy(wakee); with sched_nr_latency (8) or more tasks on
    // the runqueue, LAST_BUDDY marks the preempted task too. Neither
    // marks a SCHED_IDLE task.
    Buddies& b = buddies_[static_cast<size_t>(cpu)];
    if (w.policy != SchedPolicy::kIdle) b.next = wakee;
    if (c.nr_fair >= 8 && curr.policy != SchedPolicy::kIdle) b.last = c.curr;
  }
  return preempt;
}

int64_t Cfs::SliceNs(const Cpu& c, const Task& t) const {
  int64_t nr = std::max(c.nr_fair, 1);
  int64_t period = nr > 8 ? nr * tun_.min_granularity_ns : tun_.latency_ns;
  int64_t load = std::max<int64_t>(c.load_weight, t.weight);
  return period * t.weight / load;
}

bool Cfs::TickPreempt(int cpu) {
  Cpu& c = cpus_[cpu];
  if (c.nr_fair <= 1) return false;
  // check_preempt_tick().
  const Task& t = tasks_[c.curr];
  int64_t ideal = SliceNs(c, t);
  int top = RqHeap::Top(c);
  if (t.slice_exec_ns > ideal) {
    // It ran long enough: no buddy favour brings it back.
    ClearBuddies(cpu, c.curr);
    return true;
  }
  return top >= 0 && t.slice_exec_ns >= tun_.min_granularity_ns &&
         t.vruntime - tasks_[top].vruntime > ideal;
}

void Cfs::Yield(int cpu, int task) {
  // yield_task_fair() in the model: go behind the other runnable tasks.
  Task& t = tasks_[task];
  int rightmost = -1;
  for (int q : cpus_[cpu].rq) {
    if (rightmost < 0 || tasks_[q].vruntime > tasks_[rightmost].vruntime)
      rightmost = q;
  }
  if (rightmost >= 0) {
    t.vruntime = std::max(t.vruntime, tasks_[rightmost].vruntime + 1);
  }
  ClearBuddies(cpu, task);  // yield_task_fair() -> clear_buddies()
}

bool Cfs::IsBuddy(int task) const {
  if (!tun_.buddies) return false;
  const Buddies& b = buddies_[static_cast<size_t>(tasks_[task].cpu)];
  return b.next == task || b.last == task;
}

}  // namespace schedsim::sim
