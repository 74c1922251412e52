// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// A sysfs tree (topology/sysfs.h LoadTopologyFromSysfs): the input is a
// pepc "inlinefiles" capture (tests/data/README.md, "Format"), laid out
// as a directory tree and imported.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <system_error>

#include "fuzz/fuzz_util.h"
#include "topology/sysfs.h"
#include "topology/testing/pepc_tree.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string root = schedsim::fuzz::ScratchDir() + "/tree";
  std::error_code ec;
  std::filesystem::remove_all(root, ec);
  int files = 0;
  absl::Status laid = schedsim::topology::testing::LayOutPepcCaptureText(
      schedsim::fuzz::Text(data, size), root, "fuzz", &files);
  // A capture of thousands of files costs seconds to lay out: fewer.
  if (laid.ok() && files <= 4000) {
    (void)schedsim::topology::LoadTopologyFromSysfs(root + "/sys");
  }
  std::filesystem::remove_all(root, ec);
  return 0;
}
