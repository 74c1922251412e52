// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// A partial result of `schedsim run --shard` or `validate --shard`
// (experiments/shard.h LoadPartials), as `schedsim merge` reads it: the
// input is written as one shard file and read; a set that loads is merged
// by its kind's merger with no output directory.

#include <cstddef>
#include <cstdint>
#include <sstream>

#include "experiments/shard.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path =
      schedsim::fuzz::WriteScratch("shard-0-of-1.json", data, size);
  absl::StatusOr<std::vector<schedsim::experiments::LoadedPartial>> partials =
      schedsim::experiments::LoadPartials({path});
  if (partials.ok() && !partials->empty()) {
    if (schedsim::experiments::PartialMerger merger =
            schedsim::experiments::FindPartialMerger(partials->front().kind)) {
      std::ostringstream out, err;
      schedsim::experiments::MergeOptions options;
      options.format = "json";
      (void)merger(*partials, options, out, err);
    }
  }
  return 0;
}
