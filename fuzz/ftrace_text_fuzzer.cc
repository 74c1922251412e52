// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// ftrace text (traces/ftrace.h FtraceReader), read by path as the CLI
// reads it (bounded lines), every event including unknown ones.

#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_util.h"
#include "traces/ftrace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path =
      schedsim::fuzz::WriteScratch("trace.txt", data, size);
  auto reader = schedsim::traces::FtraceReader::Open(path);
  if (!reader.ok()) return 0;
  (*reader)->set_return_unknown_events(true);
  schedsim::traces::TraceEvent event;
  for (int i = 0; i < 100000; ++i) {
    absl::StatusOr<bool> more = (*reader)->Next(&event);
    if (!more.ok() || !*more) break;
  }
  return 0;
}
