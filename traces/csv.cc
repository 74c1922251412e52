// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "traces/csv.h"

#include "absl/strings/str_cat.h"

namespace schedsim::traces {

void AppendCsvField(absl::string_view field, std::string* out) {
  if (field.find_first_of(",\"\r\n") == absl::string_view::npos) {
    out->append(field.data(), field.size());
    return;
  }
  out->push_back('"');
  for (char c : field) {
    if (c == '"') out->push_back('"');
    out->push_back(c);
  }
  out->push_back('"');
}

CsvWriter::CsvWriter(std::ostream* out,
                     const std::vector<std::string>& task_names)
    : out_(out) {
  *out_ << kHeader << '\n';
  for (size_t task = 0; task < task_names.size(); ++task) {
    if (!task_names[task].empty()) {
      SetTaskName(static_cast<int>(task), task_names[task]);
    }
  }
}

CsvWriter::~CsvWriter() { Flush(); }

void CsvWriter::Flush() {
  WritePendingNames(last_ns_);
  out_->flush();
}

void CsvWriter::WriteLine() {
  line_.push_back('\n');
  out_->write(line_.data(), static_cast<std::streamsize>(line_.size()));
  ++rows_;
}

void CsvWriter::SetTaskName(int task, absl::string_view name) {
  pending_names_.emplace_back(task, std::string(name));
}

void CsvWriter::WritePendingNames(int64_t time_ns) {
  for (const auto& [task, name] : pending_names_) {
    line_.clear();
    absl::StrAppend(&line_, time_ns, ",task_name,,", task, ",");
    AppendCsvField(name, &line_);
    line_.push_back(',');
    WriteLine();
  }
  pending_names_.clear();
}

void CsvWriter::BeginRow(int64_t time_ns) {
  if (!pending_names_.empty()) WritePendingNames(time_ns);
  last_ns_ = time_ns;
  line_.clear();
}

void CsvWriter::OnSwitch(int64_t time_ns, int cpu, int prev, int next) {
  BeginRow(time_ns);
  absl::StrAppend(&line_, time_ns, ",switch,", cpu, ",", next, ",", prev, ",");
  WriteLine();
}

void CsvWriter::OnWakeup(int64_t time_ns, int task, int cpu, int waker_cpu) {
  BeginRow(time_ns);
  absl::StrAppend(&line_, time_ns, ",wakeup,", cpu, ",", task, ",", waker_cpu,
                  ",");
  WriteLine();
}

void CsvWriter::OnMigrate(int64_t time_ns, int task, int from_cpu, int to_cpu) {
  BeginRow(time_ns);
  absl::StrAppend(&line_, time_ns, ",migrate,", to_cpu, ",", task, ",",
                  from_cpu, ",");
  WriteLine();
}

void CsvWriter::OnIdle(int64_t time_ns, int cpu, int state) {
  BeginRow(time_ns);
  absl::StrAppend(&line_, time_ns, ",idle,", cpu, ",,", state, ",");
  WriteLine();
}

void CsvWriter::OnFrequency(int64_t time_ns, int cpu, int64_t khz) {
  BeginRow(time_ns);
  absl::StrAppend(&line_, time_ns, ",frequency_khz,", cpu, ",,", khz, ",");
  WriteLine();
}

void CsvWriter::OnTaskExit(int64_t time_ns, int task) {
  BeginRow(time_ns);
  absl::StrAppend(&line_, time_ns, ",exit,,", task, ",,");
  WriteLine();
}

}  // namespace schedsim::traces
