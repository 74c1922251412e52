// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// ftrace_convert: converts an ftrace text trace (`trace-cmd report` output
// or /sys/kernel/tracing/trace) or a trace-cmd .dat file (told apart by its
// first bytes) into a Chrome JSON trace for ui.perfetto.dev or a CSV file.
//
//   bazel run //traces:ftrace_convert_tool -- [--csv] IN.txt OUT
//
// Also prints the trace's summary (event counts, CPUs, span) to stderr.

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "traces/chrome_json.h"
#include "traces/csv.h"
#include "traces/ftrace.h"
#include "traces/ftrace_convert.h"
#include "traces/tracecmd_dat.h"

namespace {

// `bazel run` starts the tool in its runfiles tree; relative paths are
// meant relative to where the user ran it.
std::string Resolve(const std::string& path) {
  const char* dir = std::getenv("BUILD_WORKING_DIRECTORY");
  if (dir == nullptr || path.empty() || path[0] == '/') return path;
  return std::string(dir) + "/" + path;
}

int Usage() {
  std::cerr << "usage: ftrace_convert [--csv] IN OUT (IN: ftrace text or "
               "trace-cmd .dat)\n"
               "  Writes OUT as Chrome JSON (open it in ui.perfetto.dev) or, "
               "with --csv, CSV.\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  bool csv = false;
  std::string in;
  std::string out_path;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--csv") {
      csv = true;
    } else if (!arg.empty() && arg[0] == '-') {
      return Usage();
    } else if (in.empty()) {
      in = arg;
    } else if (out_path.empty()) {
      out_path = arg;
    } else {
      return Usage();
    }
  }
  if (in.empty() || out_path.empty()) return Usage();
  in = Resolve(in);
  out_path = Resolve(out_path);

  std::ofstream out(out_path, std::ios::binary);
  if (!out) {
    std::cerr << "cannot write " << out_path << "\n";
    return 1;
  }
  absl::Status status;
  if (csv) {
    schedsim::traces::CsvWriter writer(&out);
    status = schedsim::traces::ConvertFtraceFile(in, &writer);
  } else {
    schedsim::traces::ChromeJsonWriter writer(&out, {});
    status = schedsim::traces::ConvertFtraceFile(in, &writer);
    writer.Finish();
  }
  if (!status.ok()) {
    std::cerr << status.message() << "\n";
    return 1;
  }
  absl::StatusOr<std::unique_ptr<schedsim::traces::TraceSource>> source =
      schedsim::traces::OpenTrace(in);
  absl::StatusOr<schedsim::traces::TraceSummary> summary =
      source.ok()
          ? schedsim::traces::Summarize(source->get(),
                                        schedsim::traces::TimeWindow())
          : absl::StatusOr<schedsim::traces::TraceSummary>(source.status());
  if (summary.ok()) {
    std::cerr << "events: " << summary->total_events
              << ", CPUs seen: " << summary->cpus.size()
              << ", span: " << summary->span_ns() << " ns\n";
    for (int i = 0; i < schedsim::traces::kNumEventTypes; ++i) {
      const auto type = static_cast<schedsim::traces::EventType>(i);
      if (summary->count(type) > 0) {
        std::cerr << "  " << schedsim::traces::EventTypeName(type) << ": "
                  << summary->count(type) << "\n";
      }
    }
    for (const auto& [name, n] : summary->unknown_counts) {
      std::cerr << "  " << name << " (not converted): " << n << "\n";
    }
  }
  out.close();
  if (!out) {
    std::cerr << "error writing " << out_path << "\n";
    return 1;
  }
  std::cerr << "wrote " << out_path << "\n";
  return 0;
}
