// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The time limit of the POLL idle state, written once for every backend.
//
// In the kernel (v6.6), drivers/cpuidle/poll_state.c poll_idle() spins with
// need_resched() checks and gives up after cpuidle_poll_time(), setting
// dev->poll_time_limit so that the governor learns the period ended by the
// limit rather than by a wake-up. cpuidle_poll_time()
// (drivers/cpuidle/cpuidle.c) starts from CPUIDLE_POLL_MAX (TICK_NSEC / 16)
// and, walking the states after POLL, takes the target residency of the
// first enabled one whose residency is at least CPUIDLE_POLL_MIN (10 us),
// never above CPUIDLE_POLL_MAX; the answer is cached per device.
//
// The model's rule is that one, with two simplifications: the walk skips
// polling states wherever they are instead of starting at index 1 (the same
// on every table whose state 0 is POLL), and there is no per-device cache
// (haltpoll's adaptive dev->poll_limit_ns is not modelled). A table without
// a qualifying state gets TICK_NSEC / 16.

#ifndef SCHEDSIM_PLATFORM_CORE_POLL_LIMIT_H_
#define SCHEDSIM_PLATFORM_CORE_POLL_LIMIT_H_

#include <cstdint>
#include <vector>

#include "topology/topology.h"

namespace schedsim::platform::core {

// CPUIDLE_POLL_MIN: states with a shorter target residency do not bound
// the poll.
inline constexpr int64_t kPollMinResidencyNs = 10000;
// CPUIDLE_POLL_MAX = TICK_NSEC / 16.
inline constexpr int64_t kPollMaxTickDivisor = 16;

// The POLL time limit for the state table `states` (disabled flags as in
// the table) on a machine with tick period `tick_ns`.
int64_t PollTimeLimitNs(const std::vector<topology::CState>& states,
                        int64_t tick_ns);

}  // namespace schedsim::platform::core

#endif  // SCHEDSIM_PLATFORM_CORE_POLL_LIMIT_H_
