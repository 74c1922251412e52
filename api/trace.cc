// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "schedsim/trace.h"

#include <utility>

#include "api/convert.h"
#include "traces/chrome_json.h"
#include "traces/csv.h"
#include "traces/named_trace_sink.h"

namespace schedsim {
namespace {

// A TraceWriter over one of the trace writers of traces/. The simulation
// hands writer() to the engine directly (api::EngineSinkOf); a caller
// feeding events by hand goes through the hooks below.
class WriterImpl final : public TraceWriter {
 public:
  WriterImpl(TraceFormat format, std::ostream* out,
             std::vector<std::string> task_names, int num_cpus)
      : out_(out) {
    if (format == TraceFormat::kChromeJson) {
      traces::ChromeJsonWriter::Options options;
      options.num_cpus = num_cpus;
      chrome_ =
          new traces::ChromeJsonWriter(out, std::move(task_names), options);
      writer_.reset(chrome_);
    } else {
      csv_ = new traces::CsvWriter(out, task_names);
      writer_.reset(csv_);
    }
  }
  ~WriterImpl() override {
    if (!finished_ && csv_ != nullptr) csv_->Flush();
  }

  traces::NamedTraceSink* writer() { return writer_.get(); }

  void OnSwitch(int64_t time_ns, int cpu, int prev, int next) override {
    writer_->OnSwitch(time_ns, cpu, prev, next);
  }
  void OnWakeup(int64_t time_ns, int task, int cpu, int waker_cpu) override {
    writer_->OnWakeup(time_ns, task, cpu, waker_cpu);
  }
  void OnMigrate(int64_t time_ns, int task, int from_cpu, int to_cpu) override {
    writer_->OnMigrate(time_ns, task, from_cpu, to_cpu);
  }
  void OnIdle(int64_t time_ns, int cpu, int state) override {
    writer_->OnIdle(time_ns, cpu, state);
  }
  void OnFrequency(int64_t time_ns, int cpu, int64_t khz) override {
    writer_->OnFrequency(time_ns, cpu, khz);
  }
  void OnTaskExit(int64_t time_ns, int task) override {
    writer_->OnTaskExit(time_ns, task);
  }

  void SetTaskName(int task, absl::string_view name) override {
    writer_->SetTaskName(task, name);
  }
  void Finish(int64_t end_ns) override {
    if (chrome_ != nullptr) chrome_->Finish(end_ns);
    if (csv_ != nullptr) csv_->Flush();
    out_->flush();
    finished_ = true;
  }

 private:
  std::ostream* out_;
  std::unique_ptr<traces::NamedTraceSink> writer_;
  traces::ChromeJsonWriter* chrome_ = nullptr;  // writer_, if Chrome JSON
  traces::CsvWriter* csv_ = nullptr;            // writer_, if CSV
  bool finished_ = false;
};

}  // namespace

std::unique_ptr<TraceWriter> TraceWriter::Create(
    TraceFormat format, std::ostream* out, std::vector<std::string> task_names,
    int num_cpus) {
  return std::make_unique<WriterImpl>(format, out, std::move(task_names),
                                      num_cpus);
}

namespace api {

sim::TraceSink* EngineSinkOf(schedsim::TraceSink* sink) {
  WriterImpl* w = dynamic_cast<WriterImpl*>(sink);
  return w == nullptr ? nullptr : w->writer();
}

}  // namespace api
}  // namespace schedsim
