// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Internal to the shadow evaluators (shadow_idle.cc, shadow_placement.cc):
// what both share.

#ifndef SCHEDSIM_SHADOW_SHADOW_COMMON_H_
#define SCHEDSIM_SHADOW_SHADOW_COMMON_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "traces/ftrace.h"

namespace schedsim::traces::shadow_internal {

constexpr int64_t kNsPerS = 1000000000;

inline absl::Status LineError(const TraceSource& reader,
                              absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(reader.Where(), ": ", what));
}

inline absl::Status CheckHz(int hz) {
  if (hz < 1 || hz > 10000) {
    return absl::InvalidArgumentError(
        absl::StrCat("HZ must be in 1..10000, got ", hz));
  }
  return absl::OkStatus();
}

}  // namespace schedsim::traces::shadow_internal

#endif  // SCHEDSIM_SHADOW_SHADOW_COMMON_H_
