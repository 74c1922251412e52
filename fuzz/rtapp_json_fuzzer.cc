// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// rt-app JSON (workloads/rtapp.h ParseRtApp) on a built-in machine.

#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_util.h"
#include "topology/presets.h"
#include "workloads/rtapp.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const schedsim::topology::Topology* machine =
      new schedsim::topology::Topology(
          *schedsim::topology::MakePreset("skylake-e3-1240v5"));
  (void)schedsim::workloads::ParseRtApp(schedsim::fuzz::Text(data, size),
                                        "fuzz.json", *machine);
  return 0;
}
