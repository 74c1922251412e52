// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// PELT's frequency-invariance reference: the frequency at which a
// domain's arch_scale_freq_capacity() reaches 1024 (freq_invariance.cc
// cites the kernel's choice per vendor).

#ifndef SCHEDSIM_SIM_FREQ_INVARIANCE_H_
#define SCHEDSIM_SIM_FREQ_INVARIANCE_H_

#include <cstdint>

#include "topology/topology.h"

namespace schedsim::sim {

// The frequency at which x86's arch_scale_freq_capacity() reaches 1024
// for a domain whose highest frequency is `top_khz` (sim/freq.cc).
int64_t InvarianceRefKhz(const topology::FrequencySpec& f,
                         topology::Vendor vendor, int64_t top_khz);

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_FREQ_INVARIANCE_H_
