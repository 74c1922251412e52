// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// A CPU's queued fair tasks (Cpu::rq) as a binary heap ordered by vruntime,
// then task id: the leftmost entity of the kernel's cfs_rq tree
// (__pick_first_entity()) at the top, each task's index in Task::rq_pos.
// Both fair classes keep their queue in it (sim/fair_class.h).

#ifndef SCHEDSIM_SIM_RQ_HEAP_H_
#define SCHEDSIM_SIM_RQ_HEAP_H_

#include <vector>

#include "sim/sched_state.h"

namespace schedsim::sim {

class RqHeap {
 public:
  explicit RqHeap(std::vector<Task>& tasks) : tasks_(tasks) {}

  // entity_before() by vruntime, ties by task id.
  bool Before(int a, int b) const {
    const Task& ta = tasks_[a];
    const Task& tb = tasks_[b];
    if (ta.vruntime != tb.vruntime) return ta.vruntime < tb.vruntime;
    return a < b;
  }
  static int Top(const Cpu& c) { return c.rq.empty() ? -1 : c.rq[0]; }
  void Push(Cpu& c, int task) {
    c.rq.push_back(task);
    SiftUp(c, static_cast<int>(c.rq.size()) - 1);
  }
  void Remove(Cpu& c, int task) {
    int pos = tasks_[task].rq_pos;
    tasks_[task].rq_pos = -1;
    int last = c.rq.back();
    c.rq.pop_back();
    if (last == task) return;
    c.rq[pos] = last;
    tasks_[last].rq_pos = pos;
    SiftUp(c, pos);
    SiftDown(c, tasks_[last].rq_pos);
  }

 private:
  void SiftUp(Cpu& c, int pos) {
    int task = c.rq[pos];
    while (pos > 0) {
      int parent = (pos - 1) / 2;
      if (!Before(task, c.rq[parent])) break;
      c.rq[pos] = c.rq[parent];
      tasks_[c.rq[pos]].rq_pos = pos;
      pos = parent;
    }
    c.rq[pos] = task;
    tasks_[task].rq_pos = pos;
  }
  void SiftDown(Cpu& c, int pos) {
    int n = static_cast<int>(c.rq.size());
    int task = c.rq[pos];
    while (true) {
      int child = 2 * pos + 1;
      if (child >= n) break;
      if (child + 1 < n && Before(c.rq[child + 1], c.rq[child])) ++child;
      if (!Before(c.rq[child], task)) break;
      c.rq[pos] = c.rq[child];
      tasks_[c.rq[pos]].rq_pos = pos;
      pos = child;
    }
    c.rq[pos] = task;
    tasks_[task].rq_pos = pos;
  }

  std::vector<Task>& tasks_;
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_RQ_HEAP_H_
