// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "traces/trace_file.h"

#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "traces/chrome_json.h"
#include "traces/csv.h"
#include "traces/ftrace_writer.h"
#include "traces/gzip_stream.h"
#include "traces/perfetto_proto.h"

namespace schedsim::traces {

absl::StatusOr<TraceFileFormat> ParseTraceFileFormat(absl::string_view name) {
  if (name == "perfetto") return TraceFileFormat::kChromeJson;
  if (name == "perfetto-proto") return TraceFileFormat::kPerfettoProto;
  if (name == "csv") return TraceFileFormat::kCsv;
  if (name == "ftrace") return TraceFileFormat::kFtrace;
  return absl::InvalidArgumentError(absl::StrCat(
      "expected one of ", TraceFileFormatNames(), ", got '", name, "'"));
}

const char* TraceFileFormatNames() {
  return "perfetto|perfetto-proto|csv|ftrace";
}

std::string TraceFileExtension(TraceFileFormat format, bool gzip) {
  std::string ext;
  switch (format) {
    case TraceFileFormat::kChromeJson:
      ext = ".json";
      break;
    case TraceFileFormat::kPerfettoProto:
      ext = ".pftrace";
      break;
    case TraceFileFormat::kCsv:
      ext = ".csv";
      break;
    case TraceFileFormat::kFtrace:
      ext = ".txt";
      break;
  }
  if (gzip) ext += ".gz";
  return ext;
}

struct TraceFile::Impl {
  std::string path;  // empty for a stream
  std::ofstream file;
  std::ostream* raw = nullptr;  // the file or the caller's stream
  std::unique_ptr<GzipOstream> gzip;
  std::ostream* out = nullptr;  // what the writer writes to
  TraceFileFormat format = TraceFileFormat::kChromeJson;
  std::unique_ptr<ChromeJsonWriter> json;
  std::unique_ptr<PerfettoProtoWriter> proto;
  std::unique_ptr<CsvWriter> csv;
  std::unique_ptr<FtraceWriter> ftrace;
  NamedTraceSink* writer = nullptr;
  std::unique_ptr<SelectingTraceSink> select;
  bool finished = false;
};

void TraceFile::Init(std::ostream* out, const TraceFileOptions& options,
                     std::vector<std::string> task_names) {
  Impl& m = *impl_;
  m.raw = out;
  m.out = out;
  if (options.gzip) {
    m.gzip = std::make_unique<GzipOstream>(out);
    m.out = m.gzip.get();
  }
  m.format = options.format;
  const bool cpu_list = !options.selection.cpus.empty();
  switch (options.format) {
    case TraceFileFormat::kChromeJson: {
      ChromeJsonWriter::Options o;
      // With a CPU list only the CPUs used get tracks.
      o.num_cpus = cpu_list ? 0 : options.num_cpus;
      m.json =
          std::make_unique<ChromeJsonWriter>(m.out, std::move(task_names), o);
      m.writer = m.json.get();
      break;
    }
    case TraceFileFormat::kPerfettoProto:
      m.proto =
          std::make_unique<PerfettoProtoWriter>(m.out, std::move(task_names));
      m.writer = m.proto.get();
      break;
    case TraceFileFormat::kCsv:
      m.csv = std::make_unique<CsvWriter>(m.out, task_names);
      m.writer = m.csv.get();
      break;
    case TraceFileFormat::kFtrace:
      m.ftrace = std::make_unique<FtraceWriter>(m.out, options.num_cpus,
                                                std::move(task_names));
      m.writer = m.ftrace.get();
      break;
  }
  // Without a window or a CPU list it passes everything on (and counts).
  m.select = std::make_unique<SelectingTraceSink>(m.writer, options.selection);
}

absl::StatusOr<std::unique_ptr<TraceFile>> TraceFile::Create(
    const std::string& path, const TraceFileOptions& options,
    std::vector<std::string> task_names) {
  std::unique_ptr<TraceFile> f(new TraceFile());
  f->impl_ = std::make_unique<Impl>();
  f->impl_->path = path;
  f->impl_->file.open(path, std::ios::binary | std::ios::trunc);
  if (!f->impl_->file) {
    return absl::NotFoundError(absl::StrCat("cannot write ", path));
  }
  f->Init(&f->impl_->file, options, std::move(task_names));
  return f;
}

std::unique_ptr<TraceFile> TraceFile::ToStream(
    std::ostream* out, const TraceFileOptions& options,
    std::vector<std::string> task_names) {
  std::unique_ptr<TraceFile> f(new TraceFile());
  f->impl_ = std::make_unique<Impl>();
  f->Init(out, options, std::move(task_names));
  return f;
}

TraceFile::~TraceFile() {
  if (impl_ && impl_->select && !impl_->finished)
    Finish(std::numeric_limits<int64_t>::max()).IgnoreError();
}

sim::TraceSink* TraceFile::sink() { return impl_->select.get(); }

int64_t TraceFile::events_written() const { return impl_->select->passed(); }
int64_t TraceFile::events_dropped() const { return impl_->select->dropped(); }

absl::Status TraceFile::Finish(int64_t end_ns) {
  Impl& m = *impl_;
  if (m.finished) return absl::OkStatus();
  m.finished = true;
  const int64_t end = m.select->Finish(end_ns);
  if (m.json) {
    // From the destructor: at the last event seen.
    if (end == std::numeric_limits<int64_t>::max()) {
      m.json->Finish();
    } else {
      m.json->Finish(end);
    }
  }
  if (m.proto) m.proto->Finish();
  if (m.csv) m.csv->Flush();
  if (m.ftrace) m.ftrace->Finish();
  const std::string where = m.path.empty() ? std::string("the trace") : m.path;
  if (m.gzip) {
    absl::Status closed = m.gzip->Close();
    if (!closed.ok()) {
      return absl::InternalError(
          absl::StrCat("writing ", where, ": ", closed.message()));
    }
  }
  m.raw->flush();
  if (!m.path.empty()) m.file.close();
  if (!*m.raw || (!m.path.empty() && m.file.fail())) {
    return absl::InternalError(absl::StrCat("writing ", where, " failed"));
  }
  return absl::OkStatus();
}

}  // namespace schedsim::traces
