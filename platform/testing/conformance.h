// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The seams' contracts as checks any backend must pass (issue 43 item 4):
// what platform/cpuidle.h, platform/cpufreq.h and platform/placement.h
// promise a policy about the IdleDevice, FreqDomain and SchedView it is
// handed, whichever backend made it
// (the simulator, the fakes of this folder, a recorded trace, Linux).
// Each check returns the broken promises, one sentence each, empty when
// the view keeps them all; tests/seam_conformance_test.cc runs them on
// every backend through probe governors that check each view they see.

#ifndef SCHEDSIM_PLATFORM_TESTING_CONFORMANCE_H_
#define SCHEDSIM_PLATFORM_TESTING_CONFORMANCE_H_

#include <string>
#include <vector>

#include "platform/cpufreq.h"
#include "platform/cpuidle.h"
#include "platform/placement.h"

namespace schedsim::platform::testing {

// An idle device as its governor sees it at Select: a state table in the
// kernel's order (exit latency and target residency never decrease with
// the index; only state 0 may poll), times and limits that are not
// negative, a tick period.
std::vector<std::string> CheckIdleDevice(const IdleDevice& dev);

// A frequency domain as its governor sees it at UpdateUtil: CPUs, a
// frequency range min <= base <= max turbo, policy limits inside it, the
// current and requested frequencies inside the policy's limits (0 where a
// backend does not know them), utilisation within capacity, counters in
// which APERF and MPERF never exceed the TSC's cycles.
std::vector<std::string> CheckFreqDomain(const FreqDomain& domain, int cpu);

// A scheduler view and wake-up request as select_idle_sibling sees them:
// a topology and sched domains of the same CPUs; a request whose waking,
// previous and target CPUs are CPUs of the machine, with an allowed mask
// and a recent_used_cpu slot; for every CPU, nr_running and the SIS inputs
// not negative, cpu_util within the CPU's capacity, an available_idle CPU
// with nothing running and no wake-up pending, idle_for_wakeup equal to
// available_idle || sched_idle, nr_idle_scan within the LLC; smt_active
// only with SMT siblings, cluster_scan_active only with a cluster level;
// scan_time_ns never going back as probes are made. The check probes
// every CPU, which a backend that charges probes (the simulator) bills to
// the waker: run it in tests, not in a measured run.
std::vector<std::string> CheckSchedView(SchedView& view,
                                        const WakeupRequest& request);

}  // namespace schedsim::platform::testing

#endif  // SCHEDSIM_PLATFORM_TESTING_CONFORMANCE_H_
