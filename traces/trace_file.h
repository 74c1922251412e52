// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// TraceFile: one trace output as `schedsim run --trace=FORMAT` writes it: a
// writer of FORMAT, optionally behind a SelectingTraceSink (a time window
// and a CPU list, traces/trace_select.h) and gzip compression
// (traces/gzip_stream.h), into a file or a stream.
//
//   FORMAT           writer                         file name ends
//   perfetto         ChromeJsonWriter (Chrome JSON) .json
//   perfetto-proto   PerfettoProtoWriter (protobuf) .pftrace
//   csv              CsvWriter                      .csv
//   ftrace           FtraceWriter (trace-cmd -t)    .txt
// and `.gz` after it when compressed.

#ifndef SCHEDSIM_TRACES_TRACE_FILE_H_
#define SCHEDSIM_TRACES_TRACE_FILE_H_

#include <cstdint>
#include <fstream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "sim/trace_sink.h"
#include "traces/trace_select.h"

namespace schedsim::traces {

enum class TraceFileFormat { kChromeJson, kPerfettoProto, kCsv, kFtrace };

// "perfetto", "perfetto-proto", "csv", "ftrace".
absl::StatusOr<TraceFileFormat> ParseTraceFileFormat(absl::string_view name);
// The format names ParseTraceFileFormat takes, "a|b|c|d".
const char* TraceFileFormatNames();
// ".json", ".pftrace", ".csv" or ".txt", then ".gz" when `gzip`.
std::string TraceFileExtension(TraceFileFormat format, bool gzip);

struct TraceFileOptions {
  TraceFileFormat format = TraceFileFormat::kChromeJson;
  bool gzip = false;
  TraceSelection selection;  // the whole trace by default
  // The machine's CPUs (the ftrace `cpus=N` header, the Chrome JSON CPU
  // tracks declared up front when no CPU list is given).
  int num_cpus = 0;
};

class TraceFile {
 public:
  // Creates (truncates) `path`; errors name it.
  static absl::StatusOr<std::unique_ptr<TraceFile>> Create(
      const std::string& path, const TraceFileOptions& options,
      std::vector<std::string> task_names);
  // Writes to `out` (not owned, must outlive the TraceFile).
  static std::unique_ptr<TraceFile> ToStream(
      std::ostream* out, const TraceFileOptions& options,
      std::vector<std::string> task_names);
  ~TraceFile();

  TraceFile(const TraceFile&) = delete;
  TraceFile& operator=(const TraceFile&) = delete;

  // The sink to give the simulator (or a converter).
  sim::TraceSink* sink();
  // Ends the trace at `end_ns` (the window's end if sooner), closes the
  // compression and the file. An error when writing failed.
  absl::Status Finish(int64_t end_ns);

  // Events passed to the writer and dropped by the selection.
  int64_t events_written() const;
  int64_t events_dropped() const;

 private:
  TraceFile() = default;
  void Init(std::ostream* out, const TraceFileOptions& options,
            std::vector<std::string> task_names);

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace schedsim::traces

#endif  // SCHEDSIM_TRACES_TRACE_FILE_H_
