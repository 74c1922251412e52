// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// trace-cmd .dat files (traces/tracecmd_dat.h TraceCmdReader). The reader
// parses each file first in a child process (libtracecmd and
// libtraceevent trust the file): a crash there must come back as an error.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz/fuzz_util.h"
#include "traces/tracecmd_dat.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path =
      schedsim::fuzz::WriteScratch("trace.dat", data, size);
  auto reader = schedsim::traces::TraceCmdReader::Open(path);
  if (!reader.ok()) {
    // SCHEDSIM_FUZZ_VERBOSE=1: show why (to find reproducers).
    static const bool verbose = std::getenv("SCHEDSIM_FUZZ_VERBOSE") != nullptr;
    if (verbose)
      std::fprintf(stderr, "status: %s\n",
                   std::string(reader.status().message()).c_str());
    return 0;
  }
  (*reader)->set_return_unknown_events(true);
  schedsim::traces::TraceEvent event;
  for (int i = 0; i < 100000; ++i) {
    absl::StatusOr<bool> more = (*reader)->Next(&event);
    if (!more.ok() || !*more) break;
  }
  return 0;
}
