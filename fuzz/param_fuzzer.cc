// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// `--param=KEY=VALUE` strings (cli/param_flags.h), typed against
// every registered policy's declarations; one string per input line.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "cli/param_flags.h"
#include "fuzz/fuzz_util.h"
#include "platform/registry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using schedsim::platform::PolicyFamily;
  using schedsim::platform::PolicyRegistry;
  std::vector<std::string> texts =
      absl::StrSplit(schedsim::fuzz::Text(data, size), '\n');
  if (texts.size() > 64) texts.resize(64);
  for (PolicyFamily family : {PolicyFamily::kCpufreq, PolicyFamily::kCpuidle,
                              PolicyFamily::kPlacement}) {
    for (const auto* info : PolicyRegistry::Global().List(family)) {
      (void)schedsim::cli::TypedParamValues(*info, "fuzz", texts);
    }
  }
  return 0;
}
