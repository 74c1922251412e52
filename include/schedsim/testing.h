// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The scripted test kit: fakes of the three platform interfaces, for
// unit-testing a policy without the simulator (docs/testing-governors.md).
// Bazel: depend on @schedsim//include/schedsim:testing (testonly); CMake:
// link schedsim::testing.
//
//   schedsim::testing::FakeIdleDevice dev =
//       schedsim::testing::FakeIdleDevice::ForPreset("skylake-e3-1240v5");
//   MyIdleGovernor gov;
//   gov.Enable(dev);
//   dev.set_next_timer_in_ns(10'000'000);
//   dev.IdlePeriod(gov, /*idle_ns=*/50'000);
//   EXPECT_EQ(dev.state(dev.last_state()).name, "C10");
//
//   FakeFreqDomain  cpufreq governors: script utilization, busy fractions
//                   and time; check actions(), requested_khz(),
//                   hwp_request(cpu).
//   FakeIdleDevice  cpuidle governors: script the next timer, PM QoS,
//                   iowait; IdlePeriod() plays one idle period; check
//                   last_state(), selections(), the per-state counters.
//   FakeSchedView   placement policies: script busy and idle CPUs,
//                   utilization, the LLC hints; check the CPU returned and
//                   probes().
//
// The fakes' headers (platform/testing/) are part of the public API.

#ifndef SCHEDSIM_INCLUDE_SCHEDSIM_TESTING_H_
#define SCHEDSIM_INCLUDE_SCHEDSIM_TESTING_H_

#include "platform/testing/fake_freq.h"
#include "platform/testing/fake_idle.h"
#include "platform/testing/fake_sched.h"
#include "schedsim/policy.h"

namespace schedsim::testing {

using FakeFreqDomain = platform::testing::FakeFreqDomain;
using FakeIdleDevice = platform::testing::FakeIdleDevice;
using FakeSchedView = platform::testing::FakeSchedView;

}  // namespace schedsim::testing

#endif  // SCHEDSIM_INCLUDE_SCHEDSIM_TESTING_H_
