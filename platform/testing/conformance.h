// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The seams' contracts as checks any backend must pass (issue 43 item 4):
// what platform/cpuidle.h and platform/cpufreq.h promise a policy about
// the IdleDevice and FreqDomain it is handed, whichever backend made it
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

}  // namespace schedsim::platform::testing

#endif  // SCHEDSIM_PLATFORM_TESTING_CONFORMANCE_H_
