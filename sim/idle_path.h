// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The idle path as a part of the engine, over the shared state of
// sim/engine_state.h, shaped as the kernel's (Linux 6.1):
// - what the idle governor sees (the cpuidle device, platform/cpuidle.h):
//   the sleep length up to the next timer and the tick
//   (kernel/time/tick-sched.c tick_nohz_get_sleep_length()), the latency
//   limit (drivers/cpuidle/governor.c cpuidle_governor_latency_req()) and
//   the POLL time limit (drivers/cpuidle/cpuidle.c cpuidle_poll_time(),
//   the governor's dev->poll_limit_ns when it set one);
// - entering and leaving a state (kernel/sched/idle.c do_idle() and
//   cpuidle_idle_call(); drivers/cpuidle/cpuidle.c cpuidle_enter_state()'s
//   counters: usage at entry, time, above and below at the end);
// - the physical exit latency of the state a CPU really reached: a core
//   C-state needs every SMT sibling in a core state, a cluster state every
//   CPU of the cluster (the LLC) in a cluster state, else the CPU sits in
//   the deepest state below;
// - on a KVM guest, a halt's wake-up cost and the host's halt-poll window
//   of each vCPU (virt/kvm/kvm_main.c kvm_vcpu_halt(), v6.1; the window's
//   rules in sim/kvm_halt_poll.h), with the guest's counters;
// - SIS_PROP's avg_idle at an idle period's end (kernel/sched/core.c
//   ttwu_do_wakeup(), v6.1).
// The part owns the POLL limits, the guest's state and its counters. The
// engine (idle.cc) keeps the event-driven side: it calls the governor
// through the devices, arms the POLL limit and the tick, drains the wake
// list after an exit and accounts the energy before every change of a
// CPU's idle state. Private to sim/.

#ifndef SCHEDSIM_SIM_IDLE_PATH_H_
#define SCHEDSIM_SIM_IDLE_PATH_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "platform/cpuidle.h"
#include "sim/config.h"
#include "sim/engine_state.h"
#include "sim/kvm_halt_poll.h"
#include "sim/sched_state.h"
#include "sim/stats.h"
#include "topology/topology.h"

namespace schedsim::sim {

class IdlePath {
 public:
  // Beyond the last timer on a CPU, other kernel timers bound the sleep
  // (assumed 1 s).
  static constexpr int64_t kNoTimerSleepNs = 1000000000;

  // Reads and writes `state`; reads the others, which must outlive it
  // (`now_ns` is the engine's clock, `stats_start_ns` when the statistics
  // began: idle time before it is not counted).
  IdlePath(EngineState& state, const topology::Topology& topo,
           const SimConfig& config, const int64_t& now_ns,
           const int64_t& stats_start_ns)
      : s_(state),
        topo_(topo),
        config_(config),
        now_ns_(now_ns),
        stats_start_ns_(stats_start_ns) {}
  IdlePath(const IdlePath&) = delete;
  IdlePath& operator=(const IdlePath&) = delete;

  // With the tick period `tick_ns`: the core's POLL limit, no governor's
  // limit yet, and on a guest (topo.guest()) whether the host polls after
  // a HLT (not when the guest's haltpoll driver turned it off,
  // SimConfig::kvm_poll_control), kvm's parameters and every vCPU's window
  // at 0.
  void Init(int64_t tick_ns);

  // The cpuidle device of `cpu` the governors see (reads through the const
  // state; its one write is set_poll_limit_ns).
  std::unique_ptr<platform::IdleDevice> MakeDevice(int cpu);

  // --- What the governor sees -------------------------------------------
  int64_t tick_ns() const { return tick_ns_; }
  // tick_nohz_get_sleep_length(): the time to `cpu`'s next timer (its
  // earliest, kNoTimerSleepNs without one), and in `delta_tick_ns` (when
  // not null) the time to the next tick boundary.
  int64_t SleepLengthNs(int cpu, int64_t* delta_tick_ns) const;
  // cpuidle_governor_latency_req(): the smaller of the CPU's resume latency
  // request and the global cpu_dma_latency (no limit: INT64_MAX).
  int64_t LatencyLimitNs(int cpu) const;
  // cpuidle_poll_time(): the governor's limit when it set one (haltpoll's
  // window), else the core's.
  int64_t PollLimitNs(int cpu) const {
    return gov_poll_limit_ns_[cpu] > 0 ? gov_poll_limit_ns_[cpu]
                                       : poll_limit_ns_;
  }
  // dev->poll_limit_ns set by the governor (0: the core's limit).
  void SetGovPollLimitNs(int cpu, int64_t ns) {
    gov_poll_limit_ns_[cpu] = ns < 0 ? 0 : ns;
  }
  // The governor's reflect of `cpu`'s last idle period waits for the end
  // of its exit (the engine's LeaveIdleWithExit and OnIdleExitDone).
  void SetReflectPending(int cpu) { reflect_pending_[cpu] = 1; }
  bool TakeReflectPending(int cpu) {
    const bool pending = reflect_pending_[cpu] != 0;
    reflect_pending_[cpu] = 0;
    return pending;
  }

  // --- Entering and leaving ---------------------------------------------
  // `cpu` enters state `state` (-1: an unmodelled halt, no cpuidle driver)
  // now; the state starts after `entry_work_ns` of kernel work on the idle
  // path. Counts the state's usage; Cpu::polling says whether it polls.
  void Enter(int cpu, int state, int64_t entry_work_ns);
  // The idle period of `cpu` ends now (REQUIRES: it is idle); `by_poll`: a
  // wake-up or a task's timer ended a POLL period; `exit_ns`: the time from
  // now to the end of the state's exit (an IPI's flight and the physical
  // exit, PhysicalExitNs; 0 for POLL). cpuidle_enter_state()'s accounting:
  // the idle time since the statistics began and the state's time (both
  // to now: the time in the state), and the measured period (to the exit's
  // end), which the governors read as last_residency_ns and which counts
  // `above` (shorter than the state's target residency, when an enabled
  // shallower state exists) or `below` (less the state's advertised exit
  // latency, long enough for the next enabled state); on a guest the
  // halt's counters and window. The CPU is awake after it. Returns the
  // state it was in.
  int Leave(int cpu, bool by_poll, int64_t exit_ns);
  // ttwu_do_wakeup()'s avg_idle update, when a task is woken onto `cpu`'s
  // runqueue (not at an interrupt): the idle period that began at
  // Cpu::idle_stamp_ns (when set) ends now; an EWMA of 1/8, clamped at
  // 2 * sched_migration_cost, which SIS_PROP's wake_avg_idle starts from.
  void NoteIdleEnd(int cpu);

  // The latency of `cpu`'s exit from its idle state now (0 when it is not
  // in one): the physical exit of the state it really reached (core and
  // cluster states need their siblings), plus what is left of its entry;
  // on a guest a halt costs GuestHaltExitNs.
  int64_t PhysicalExitNs(int cpu) const;
  // On a KVM guest: the wake-up cost of the halt `cpu` is in now: the VM
  // exit and re-entry (kvm_hlt_exit_ns), and once the host stopped polling
  // (the vCPU's window) the host CPU's idle exit (its deepest enabled state
  // whose target residency the rest of the halt reaches), the host's
  // wake-up of the vCPU thread and its switch back to it.
  int64_t GuestHaltExitNs(int cpu) const;

  // --- Statistics ---------------------------------------------------------
  const GuestTotals& guest_totals() const { return guest_stats_; }
  void ResetStats() { guest_stats_ = GuestTotals(); }
  // Adds to `cs` (a copy of `cpu`'s counters) the idle period still open
  // now, counted from the statistics' start.
  void CloseOpenIdle(int cpu, CpuStats& cs) const;
  // The vCPU's halt-poll window (vcpu->halt_poll_ns); 0 off a guest.
  int64_t kvm_window_ns(int cpu) const {
    return kvm_window_ns_.empty() ? 0 : kvm_window_ns_[cpu];
  }
  bool host_polls() const { return host_polls_; }

 private:
  // The halt or guest poll that ends now on `cpu` (from Leave): the
  // counters, and kvm_vcpu_halt()'s window update.
  void NoteGuestIdleEnd(int cpu, int state, int64_t residency_ns, bool woken);

  EngineState& s_;
  const topology::Topology& topo_;
  const SimConfig& config_;
  const int64_t& now_ns_;
  const int64_t& stats_start_ns_;
  int64_t tick_ns_ = 4000000;
  // cpuidle_poll_time()'s limit from the state table and the tick
  // (platform/core/poll_limit.h), and per CPU the governor's
  // (dev->poll_limit_ns; 0: none).
  int64_t poll_limit_ns_ = 0;
  std::vector<int64_t> gov_poll_limit_ns_;
  std::vector<uint8_t> reflect_pending_;
  // A KVM guest (docs/model-idle-frequency.md, "Guests"), else nullptr:
  // whether the host polls, kvm's parameters, each vCPU's window and the
  // counters.
  const topology::GuestSpec* guest_ = nullptr;
  bool host_polls_ = false;
  KvmHaltPoll kvm_;
  std::vector<int64_t> kvm_window_ns_;
  GuestTotals guest_stats_;
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_IDLE_PATH_H_
