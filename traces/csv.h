// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// CsvWriter: a trace sink that writes one CSV row per event, for
// spreadsheets, pandas and other analysis tools. The first line is the
// header
//
//   time_ns,event,cpu,task,arg1,arg2
//
// and the rows are, per event (empty cell = not applicable; task -1 = the
// idle task):
//
//   event          cpu          task        arg1              arg2
//   switch         cpu          next task   prev task
//   wakeup         target cpu   woken task  waker cpu
//   migrate        to cpu       task        from cpu
//   idle           cpu                      state index (-1 = leaves idle)
//   frequency_khz  cpu                      frequency in kHz
//   exit                        task
//   task_name                   task        name (CSV-quoted if needed)
//
// A task_name row carries the time of the event row that follows it: names
// set with SetTaskName() (and those given to the constructor) are held until
// the next event and written just before its row, so a task's name row
// comes right before the row of the event that introduced it. Names still
// pending at Flush() or destruction are written with the last event's time
// (0 if none). Apart from those, rows are written as events arrive.

#ifndef SCHEDSIM_TRACES_CSV_H_
#define SCHEDSIM_TRACES_CSV_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "traces/named_trace_sink.h"

namespace schedsim::traces {

class CsvWriter : public NamedTraceSink {
 public:
  static constexpr char kHeader[] = "time_ns,event,cpu,task,arg1,arg2";

  // `out` is not owned and must outlive the writer. Writes the header and a
  // task_name row for each non-empty name.
  explicit CsvWriter(std::ostream* out,
                     const std::vector<std::string>& task_names = {});
  ~CsvWriter() override;

  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;

  void SetTaskName(int task, absl::string_view name) override;

  void OnSwitch(int64_t time_ns, int cpu, int prev, int next) override;
  void OnWakeup(int64_t time_ns, int task, int cpu, int waker_cpu) override;
  void OnMigrate(int64_t time_ns, int task, int from_cpu, int to_cpu) override;
  void OnIdle(int64_t time_ns, int cpu, int state) override;
  void OnFrequency(int64_t time_ns, int cpu, int64_t khz) override;
  void OnTaskExit(int64_t time_ns, int task) override;

  // Writes pending task_name rows and flushes the stream.
  void Flush();

  // Rows written, header excluded.
  int64_t rows_written() const { return rows_; }

 private:
  // Starts an event row at `time_ns`, after any pending task_name rows.
  void BeginRow(int64_t time_ns);
  void WritePendingNames(int64_t time_ns);
  void WriteLine();

  std::ostream* out_;
  std::string line_;
  int64_t last_ns_ = 0;
  int64_t rows_ = 0;
  std::vector<std::pair<int, std::string>> pending_names_;
};

// Appends `field` to `*out` as one CSV field (RFC 4180: quoted, with
// doubled quotes, if it holds a comma, a quote, CR or LF).
void AppendCsvField(absl::string_view field, std::string* out);

}  // namespace schedsim::traces

#endif  // SCHEDSIM_TRACES_CSV_H_
