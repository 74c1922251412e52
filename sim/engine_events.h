// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The engine's event kinds, the noise sources an event may carry and the
// bands that order simultaneous events (sim/event_queue.h). Private to
// sim/.

#ifndef SCHEDSIM_SIM_ENGINE_EVENTS_H_
#define SCHEDSIM_SIM_ENGINE_EVENTS_H_

#include <cstdint>

namespace schedsim::sim {

// Event kinds, each with the container that holds it pending. RunUntil
// handles the trees' and rings' events; Dispatch those of queue_.
enum EventKind : uint16_t {
  kEvPhaseEnd,      // cpu: its running task's phase ends (phase_ends_)
  kEvTick,          // cpu: scheduler tick (ticks_)
  kEvTaskTimer,     // task: sleep or IO wait over; cpu: where it slept (queue_)
  kEvWakeDeliver,   // task: enqueue on `cpu`, wake list / IPI (deliveries_)
  kEvIdleExitDone,  // cpu: C-state exit finished (exits_)
  kEvPollTimeout,   // cpu: POLL time limit reached (queue_)
  kEvFreqDone,      // cpu = domain: P-state transition completes (queue_)
  kEvPmu,           // cpu = package: power-management evaluation (queue_)
  kEvNoise,         // cpu: background kernel activity; task = NoiseSource
                    // (queue_)
  kEvTaskIrq,       // task: a device interrupt (not IO, not a timer) wakes
                    // it; cpu: where it slept (queue_)
  kEvNewidleStep,   // cpu: a level of its newidle balance walk ends (queue_)
  kEvNohzBalance,   // cpu: the kicked idle CPU balances for the idle ones
                    // (queue_)
};

// The background activity of docs/model.md "Run-to-run variability".
enum NoiseSource : int32_t {
  kNoiseVmstat,       // per CPU, periodic, deferrable
  kNoiseWatchdog,     // one timer moving round the CPUs
  kNoiseWriteback,    // CPU 0, periodic
  kNoiseKernelTimer,  // per CPU, periodic
  kNoiseKworker,      // per CPU, Poisson
  kNoiseRcu,          // per CPU, Poisson
  kNoiseDeviceIrq,    // per CPU, Poisson
  kNoiseSources,
};

// Bands order simultaneous events: interrupts and deliveries before timers
// before scheduler work.
enum EventBand : uint8_t {
  kBandIrq = 0,
  kBandDeliver = 1,
  kBandTimer = 2,
  kBandSched = 3,
  kBandPmu = 4,
};

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_ENGINE_EVENTS_H_
