// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The engine loop (RunUntil, with the phase-end handler inlined into it),
// the dispatch of the event queue's kinds, and the public facade.
// Building the machine is in simulator_init.cc, the interpreter in
// interpreter.cc, the statistics in simulator_stats.cc.

#include "sim/simulator.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "sim/simulator_impl.h"

namespace schedsim::sim {

// Records the first error: RunUntil stops after the current event and
// returns it. Handlers return right after calling it.
void SimulatorImpl::Fail(std::string message) {
  if (error_.empty()) error_ = std::move(message);
}

// Inlined into RunUntil: most events are phase ends.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void SimulatorImpl::OnPhaseEnd(int cpu) {
  // The task from phase_task_, not c.curr: the two loads then overlap.
  const int id = phase_task_[cpu];
  Cpu& c = cpus_[cpu];
  assert(c.curr == id);
  Task& t = tasks_[id];
  t.in_phase = false;
  t.rem_cycles = 0;
  t.rem_stall_ns = 0;
  if (t.spinning) {
    // Spun on a barrier until the spin limit: block now.
    progs_.SpinTimedOut(t, id);
    BlockCurrent(cpu, true);
    return Schedule(cpu);
  }
  if (c.need_resched) return Schedule(cpu);
  return RunTask(cpu, id, phase_op_[cpu]);
}

absl::Status SimulatorImpl::RunUntil(SimTime until) {
  if (!error_.empty()) return absl::FailedPreconditionError(error_);
  const int64_t until_ns = until.ns();
  // The phase-end slot the last event guessed would be the top now (the
  // runner-up, see below), or -1.
  int predicted = -1;
  while (true) {
    // The earliest of five heads: the phase ends (most events), the ticks,
    // the wake-up deliveries, the C-state exits, the queue (timers, POLL
    // limits, frequency transitions, the PMU). The earliest of the last
    // four is cached (others_*) and recomputed only after one of them
    // changed (others_changed_, set by every push, clear and cancel and by
    // the pops below): most events are phase ends that touch none of them.
    // Empty trees and rings report the largest key; so does an empty queue
    // here.
    if (others_changed_) {
      others_changed_ = false;
      int64_t t = ticks_.top_time_ns();
      uint64_t k = ticks_.top_band_seq();
      int src = 1;
      if (KeyBefore(deliveries_.TopTime(), deliveries_.TopBandSeq(), t, k)) {
        t = deliveries_.TopTime();
        k = deliveries_.TopBandSeq();
        src = 3;
      }
      if (KeyBefore(exits_.TopTime(), exits_.TopBandSeq(), t, k)) {
        t = exits_.TopTime();
        k = exits_.TopBandSeq();
        src = 4;
      }
      if (!queue_.empty() &&
          KeyBefore(queue_.TopTime().ns(), queue_.TopBandSeq(), t, k)) {
        t = queue_.TopTime().ns();
        k = queue_.TopBandSeq();
        src = 2;
      }
      others_time_ns_ = t;
      others_key_ = k;
      others_source_ = src;
    }
    // The phase ends' top. The tree knows it only once the last event's
    // re-arm has replayed its path, at the end of a chain of dependent
    // steps (the handler, the end time, the replay). The guess made at the
    // start of the last event is usually right: when it is, the branch
    // below hands the guess on (a value known long ago), so that this
    // event's loads start under the branch's prediction instead of waiting
    // for the replay. Either way `top` is the tree's top (the asm only
    // keeps the compiler from merging the two values into one).
    int top = phase_ends_.top_slot();
    if (ABSL_PREDICT_TRUE(top == predicted)) {
      top = predicted;
#if defined(__GNUC__)
      __asm__ volatile("" : "+r"(top));
#endif
    }
    int64_t time_ns = phase_ends_.time_ns(top);
    uint64_t key = phase_ends_.band_seq(top);
    int source = 0;
    if (KeyBefore(others_time_ns_, others_key_, time_ns, key)) {
      time_ns = others_time_ns_;
      key = others_key_;
      source = others_source_;
    } else if (key == EventWinnerTree::kEmpty) {
      break;  // nothing pending
    }
    if (time_ns > until_ns) break;
    now_ns_ = time_ns;
    ++events_;
    // Handlers report a broken rule through Fail() (error_), not a return
    // value: the hot path carries no status.
    if (source == 0) {
      // A phase end usually re-arms its slot for the next phase: leave it
      // set, and clear it after the handler only if the handler did not.
      const int cpu = top;
      // The slot with the next time is most likely the next event (this
      // one re-arms later): start loading its lines now, so that they
      // arrive while this event runs, and guess it is the next top.
      const int runner = phase_ends_.runner_up_slot(top);
      predicted = runner;
      __builtin_prefetch(cpus_.data() + runner);
      __builtin_prefetch(tasks_.data() + phase_task_[runner]);
      __builtin_prefetch(phase_channel_[runner]);
      OnPhaseEnd(cpu);
      if (phase_ends_.band_seq(cpu) == key) phase_ends_.Clear(cpu);
    } else {
      // The phase ends' top stays the top unless the handler re-arms it.
      predicted = top;
      others_changed_ = true;  // the pop below changes the cached head
      if (source == 1) {
        const int cpu = ticks_.top_slot();
        ticks_.Clear(cpu);
        if (cpus_[cpu].mode == CpuMode::kBusy) {
          OnTick(cpu);
        } else {
          OnIdleTick(cpu);
        }
      } else if (source == 3) {
        const Event e = deliveries_.Pop();
        // The next delivery's lines (PushDelivery prefetches a new front).
        if (!deliveries_.empty()) PrefetchDeliveryTop();
        OnWakeDeliver(e.cpu, e.task);
      } else if (source == 4) {
        OnIdleExitDone(exits_.Pop().cpu);
      } else {
        Dispatch(queue_.Pop());
      }
    }
    if (ABSL_PREDICT_FALSE(!error_.empty())) {
      return absl::FailedPreconditionError(error_);
    }
  }
  if (until_ns > now_ns_) now_ns_ = until_ns;
  return absl::OkStatus();
}

// The kinds that live in queue_; RunUntil handles the trees' and the
// rings' events itself.
void SimulatorImpl::Dispatch(const Event& e) {
  switch (static_cast<EventKind>(e.kind)) {
    case kEvTaskTimer:
      return OnTaskTimer(e.cpu, e.task);
    case kEvTaskIrq:
      return OnTaskTimer(e.cpu, e.task, /*device_irq=*/true);
    case kEvPollTimeout:
      return OnPollTimeout(e.cpu);
    case kEvFreqDone:
      return OnFreqDone(e.cpu);
    case kEvPmu:
      return OnPmu(e.cpu);
    case kEvNoise:
      return OnNoise(e.cpu, e.task);
    case kEvNewidleStep:
      return OnNewidleStep(e.cpu, e.task);
    case kEvNohzBalance:
      return OnNohzBalance(e.cpu);
    case kEvPhaseEnd:
    case kEvTick:
    case kEvWakeDeliver:
    case kEvIdleExitDone:
      break;  // never queued
  }
  return FailCat("event kind ", e.kind, " does not belong in the queue");
}

// --- Simulator (public facade) --------------------------------------------

Simulator::Simulator(std::unique_ptr<SimulatorImpl> impl)
    : impl_(std::move(impl)) {}
Simulator::~Simulator() = default;

absl::Status Simulator::RunUntil(SimTime until) {
  return impl_->RunUntil(until);
}
absl::Status Simulator::RunFor(SimDuration duration) {
  return impl_->RunUntil(now() + duration);
}
SimTime Simulator::now() const {
  return SimTime::FromNanoseconds(impl_->now_ns());
}
void Simulator::ResetStats() { impl_->ResetStats(); }
SimStats Simulator::Stats() const { return impl_->Stats(); }
void Simulator::set_trace_sink(TraceSink* sink) { impl_->sink_ = sink; }
const topology::Topology& Simulator::topology() const { return impl_->topo(); }
const topology::SchedDomains& Simulator::domains() const {
  return impl_->domains();
}
int Simulator::task_count() const {
  return static_cast<int>(impl_->tasks_.size());
}
int Simulator::task_cpu(int task) const { return impl_->tasks_[task].cpu; }
uint64_t Simulator::periodic_balances(int cpu, int level) const {
  const auto& levels = impl_->cpus_[cpu].balance;
  return level >= 0 && level < static_cast<int>(levels.size())
             ? levels[level].count
             : 0;
}
bool Simulator::task_running(int task) const {
  const Task& t = impl_->tasks_[task];
  return impl_->cpus_[t.cpu].curr == task;
}
int Simulator::cpu_idle_state(int cpu) const {
  const Cpu& c = impl_->cpus_[cpu];
  return c.mode == CpuMode::kIdle ? c.idle_state : -1;
}
int64_t Simulator::cpu_khz(int cpu) const {
  return impl_->fdoms_[impl_->cpus_[cpu].domain].cur_khz;
}

}  // namespace schedsim::sim
