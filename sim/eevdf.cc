// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "sim/eevdf.h"

#include <algorithm>

namespace schedsim::sim {

void Eevdf::Init(int cpus, const FairTunables& tunables) {
  tun_ = tunables;
  rqs_.assign(static_cast<size_t>(cpus), Rq{});
}

void Eevdf::TaskNew(int task) {
  if (static_cast<size_t>(task) >= se_.size()) {
    se_.resize(static_cast<size_t>(task) + 1);
  }
  // __sched_fork(): vlag 0; the first enqueue is ENQUEUE_INITIAL
  // (wake_up_new_task()).
  Entity& e = se_[task];
  e = Entity{};
  e.slice = tun_.base_slice_ns;
  e.initial = true;
}

void Eevdf::SetSlice(int task, int64_t slice_ns) {
  Entity& e = se_[task];
  if (slice_ns <= 0) {
    e.custom_slice = false;
    e.slice = tun_.base_slice_ns;
    return;
  }
  e.custom_slice = true;
  e.slice = std::clamp<int64_t>(slice_ns, 100000, 100000000);
}

void Eevdf::AvgAdd(int cpu, int task) {
  Rq& rq = rqs_[cpu];
  const int64_t w = tasks_[task].weight;
  rq.avg_vruntime += Key(cpus_[cpu], task) * w;
  rq.avg_load += w;
}

void Eevdf::AvgSub(int cpu, int task) {
  Rq& rq = rqs_[cpu];
  const int64_t w = tasks_[task].weight;
  rq.avg_vruntime -= Key(cpus_[cpu], task) * w;
  rq.avg_load -= w;
}

int64_t Eevdf::AvgVruntime(int cpu) const {
  const Rq& rq = rqs_[cpu];
  const Cpu& c = cpus_[cpu];
  int64_t avg = rq.avg_vruntime;
  int64_t load = rq.avg_load;
  if (rq.curr >= 0) {
    const int64_t w = tasks_[rq.curr].weight;
    avg += Key(c, rq.curr) * w;
    load += w;
  }
  if (load) {
    // The sign flips the truncation: a floor for a negative sum.
    if (avg < 0) avg -= load - 1;
    avg /= load;
  }
  return c.min_vruntime + avg;
}

bool Eevdf::Eligible(int cpu, int task) const {
  const Rq& rq = rqs_[cpu];
  const Cpu& c = cpus_[cpu];
  int64_t avg = rq.avg_vruntime;
  int64_t load = rq.avg_load;
  if (rq.curr >= 0) {
    const int64_t w = tasks_[rq.curr].weight;
    avg += Key(c, rq.curr) * w;
    load += w;
  }
  return avg >= Key(c, task) * load;
}

int64_t Eevdf::WeightedLagSum(int cpu) const {
  const Cpu& c = cpus_[cpu];
  const int64_t v = AvgVruntime(cpu);
  int64_t sum = 0;
  for (int q : c.rq) sum += (v - tasks_[q].vruntime) * tasks_[q].weight;
  const int curr = rqs_[cpu].curr;
  if (curr >= 0) sum += (v - tasks_[curr].vruntime) * tasks_[curr].weight;
  return sum;
}

void Eevdf::UpdateMinVruntime(int cpu) {
  Cpu& c = cpus_[cpu];
  Rq& rq = rqs_[cpu];
  int64_t v = c.min_vruntime;
  const int curr = rq.curr;
  if (curr >= 0) v = tasks_[curr].vruntime;
  const int left = RqHeap::Top(c);
  if (left >= 0) {
    v = curr < 0 ? tasks_[left].vruntime : std::min(v, tasks_[left].vruntime);
  }
  // __update_min_vruntime(): never backwards; the keys of the sum move.
  const int64_t delta = v - c.min_vruntime;
  if (delta > 0) {
    rq.avg_vruntime -= rq.avg_load * delta;
    c.min_vruntime = v;
  }
}

void Eevdf::UpdateEntityLag(int cpu, int task) {
  Entity& e = se_[task];
  const int32_t w = tasks_[task].weight;
  const int64_t lag = AvgVruntime(cpu) - tasks_[task].vruntime;
  const int64_t limit = CalcDeltaFair(std::max(2 * e.slice, tun_.tick_ns), w);
  e.vlag = std::clamp(lag, -limit, limit);
}

void Eevdf::Place(int cpu, int task, uint32_t flags) {
  const Cpu& c = cpus_[cpu];
  const Rq& rq = rqs_[cpu];
  Entity& e = se_[task];
  Task& t = tasks_[task];
  const int64_t v = AvgVruntime(cpu);
  if (!e.custom_slice) e.slice = tun_.base_slice_ns;
  int64_t vslice = CalcDeltaFair(e.slice, t.weight);
  int64_t lag = 0;
  if (tun_.place_lag && c.nr_fair > 0) {
    // The entity's lag, inflated by (W + w) / W: adding it at V - lag
    // would otherwise pull V towards it and shrink the lag it keeps.
    int64_t load = rq.avg_load;
    if (rq.curr >= 0) load += tasks_[rq.curr].weight;
    lag = e.vlag * (load + t.weight);
    if (load == 0) load = 1;
    lag /= load;
  }
  t.vruntime = v - lag;
  if (tun_.place_deadline_initial && (flags & kEnqueueInitial)) vslice /= 2;
  e.deadline = t.vruntime + vslice;
}

void Eevdf::Enqueue(int cpu, int task, int from_cpu, uint32_t flags) {
  Cpu& c = cpus_[cpu];
  Entity& e = se_[task];
  if (e.initial) {
    flags |= kEnqueueInitial;
    e.initial = false;
  }
  Place(cpu, task, flags);
  heap_.Push(c, task);
  AvgAdd(cpu, task);
  ++c.nr_fair;
  c.load_weight += tasks_[task].weight;
}

bool Eevdf::Dequeue(int cpu, int task, uint32_t flags) {
  Cpu& c = cpus_[cpu];
  Rq& rq = rqs_[cpu];
  Entity& e = se_[task];
  if (!(flags & kDequeueDelayed) && tun_.delay_dequeue &&
      (flags & kDequeueSleep) && !Eligible(cpu, task)) {
    // DELAY_DEQUEUE (dequeue_entity(), v6.12): it stays queued, competing,
    // until it is picked or woken. The running one goes back into the
    // queue, as put_prev_entity() puts an on_rq curr back.
    e.delayed = true;
    if (rq.curr == task) {
      rq.curr = -1;
      heap_.Push(c, task);
      AvgAdd(cpu, task);
    }
    return false;
  }
  UpdateEntityLag(cpu, task);
  if (rq.curr == task) {
    rq.curr = -1;
  } else if (tasks_[task].rq_pos >= 0) {
    AvgSub(cpu, task);
    heap_.Remove(c, task);
  }
  if (rq.prev == task) rq.prev = -1;
  --c.nr_fair;
  c.load_weight -= tasks_[task].weight;
  if (flags & kDequeueDelayed) {
    e.delayed = false;
    if (tun_.delay_zero && e.vlag > 0) e.vlag = 0;
  }
  UpdateMinVruntime(cpu);
  return true;
}

void Eevdf::PutPrev(int cpu, int task) {
  Rq& rq = rqs_[cpu];
  if (rq.curr == task) rq.curr = -1;
  heap_.Push(cpus_[cpu], task);
  AvgAdd(cpu, task);
  rq.prev = task;
}

int Eevdf::PickEevdf(int cpu, int curr) const {
  const Cpu& c = cpus_[cpu];
  if (curr >= 0 && !Eligible(cpu, curr)) curr = -1;
  // RUN_TO_PARITY: once picked, run until no longer eligible or a new
  // deadline.
  if (curr >= 0 && Protected(curr)) return curr;
  int best = -1;
  for (int q : c.rq) {
    if (!Eligible(cpu, q)) continue;
    if (best < 0 || se_[q].deadline < se_[best].deadline ||
        (se_[q].deadline == se_[best].deadline && heap_.Before(q, best))) {
      best = q;
    }
  }
  if (best < 0 || (curr >= 0 && se_[best].deadline > se_[curr].deadline)) {
    best = curr;
  }
  if (best < 0)
    best = RqHeap::Top(c);  // cannot happen: the leftmost is
                            // always eligible
  return best;
}

int Eevdf::Pick(int cpu) {
  Rq& rq = rqs_[cpu];
  const int prev = rq.prev >= 0 && tasks_[rq.prev].rq_pos >= 0 ? rq.prev : -1;
  const int next = PickEevdf(cpu, prev);
  if (next < 0) rq.prev = -1;
  return next;
}

void Eevdf::SetNext(int cpu, int task) {
  Rq& rq = rqs_[cpu];
  AvgSub(cpu, task);
  heap_.Remove(cpus_[cpu], task);
  rq.curr = task;
  rq.prev = -1;
  // set_next_entity(): the deadline at the pick, stashed in vlag, which
  // is not used again before the dequeue (RUN_TO_PARITY).
  se_[task].vlag = se_[task].deadline;
}

bool Eevdf::UpdateDeadline(int task) {
  Entity& e = se_[task];
  const Task& t = tasks_[task];
  if (t.vruntime - e.deadline < 0) return false;
  if (!e.custom_slice) e.slice = tun_.base_slice_ns;
  e.deadline = t.vruntime + CalcDeltaFair(e.slice, t.weight);
  return true;
}

bool Eevdf::Charge(int cpu, Task& t, int64_t delta_ns) {
  const int task = static_cast<int>(&t - tasks_.data());
  if (rqs_[cpu].curr != task) return false;  // not on the queue
  t.vruntime += CalcDeltaFair(delta_ns, t.weight);
  const bool resched = UpdateDeadline(task);
  UpdateMinVruntime(cpu);
  if (cpus_[cpu].nr_fair <= 1) return false;
  // did_preempt_short() (v6.12): a running entity whose protection a
  // shorter slice cancelled goes once it is not eligible.
  const bool short_preempted =
      tun_.preempt_short && !Protected(task) && !Eligible(cpu, task);
  return resched || short_preempted;
}

bool Eevdf::WakeupPreempt(int cpu, int wakee) {
  const Cpu& c = cpus_[cpu];
  const Task& curr = tasks_[c.curr];
  const Task& p = tasks_[wakee];
  // check_preempt_wakeup() (v6.6; check_preempt_wakeup_fair() in 6.12):
  // an idle-policy task is preempted by any other; a SCHED_IDLE or
  // SCHED_BATCH wakee preempts nothing.
  const bool curr_idle = curr.policy == SchedPolicy::kIdle;
  const bool p_idle = p.policy == SchedPolicy::kIdle;
  if (curr_idle && !p_idle) return true;
  if (p.policy != SchedPolicy::kNormal) return false;
  if (curr_idle != p_idle) return false;
  if (rqs_[cpu].curr != c.curr) return false;
  // PREEMPT_SHORT (v6.12, do_preempt_short()): an eligible wakee with a
  // shorter slice cancels the running entity's protection when its
  // deadline is earlier or the running one is not eligible
  // (cancel_protect_slice()).
  if (tun_.preempt_short) {
    const Entity& pe = se_[wakee];
    Entity& ce = se_[c.curr];
    if (pe.slice < ce.slice && Eligible(cpu, wakee) &&
        (pe.deadline < ce.deadline || !Eligible(cpu, c.curr))) {
      if (Protected(c.curr)) ce.vlag = ce.deadline + 1;
    }
  }
  return PickEevdf(cpu, c.curr) == wakee;
}

void Eevdf::Yield(int cpu, int task) {
  // yield_task_fair() (v6.6): the entity's deadline moves a slice on.
  Entity& e = se_[task];
  e.deadline += CalcDeltaFair(e.slice, tasks_[task].weight);
}

void Eevdf::Requeue(int cpu, int task) {
  Cpu& c = cpus_[cpu];
  Entity& e = se_[task];
  // requeue_delayed_entity() (v6.12): with DELAY_ZERO a positive lag is
  // dropped and the entity placed anew at V.
  if (tun_.delay_zero) {
    UpdateEntityLag(cpu, task);
    if (e.vlag > 0) {
      --c.nr_fair;
      if (tasks_[task].rq_pos >= 0) {
        AvgSub(cpu, task);
        heap_.Remove(c, task);
      }
      e.vlag = 0;
      Place(cpu, task, 0);
      heap_.Push(c, task);
      AvgAdd(cpu, task);
      ++c.nr_fair;
    }
  }
  e.delayed = false;
}

}  // namespace schedsim::sim
