// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// hwloc topology XML (topology/hwloc.h LoadTopologyFromHwlocXml): the
// import is tried in a child first, so a libhwloc crash is an error.

#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_util.h"
#include "topology/hwloc.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path =
      schedsim::fuzz::WriteScratch("topology.xml", data, size);
  (void)schedsim::topology::LoadTopologyFromHwlocXml(path);
  return 0;
}
