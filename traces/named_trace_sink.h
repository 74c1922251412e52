// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// NamedTraceSink: a sim::TraceSink that also accepts display names for task
// ids. The simulator's trace sink knows tasks only by id; the trace writers
// (ChromeJsonWriter, CsvWriter) show names, which their owner sets up front
// (the constructor's name list) and appends with SetTaskName() for tasks
// created later (forks, or tasks first seen in a converted ftrace trace).
// TaskNames is the shared name table.

#ifndef SCHEDSIM_TRACES_NAMED_TRACE_SINK_H_
#define SCHEDSIM_TRACES_NAMED_TRACE_SINK_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "sim/trace_sink.h"

namespace schedsim::traces {

class NamedTraceSink : public sim::TraceSink {
 public:
  // Sets or replaces the name of task `task` (>= 0). Names may be set at
  // any time; a writer uses the name current when it writes a record.
  virtual void SetTaskName(int task, absl::string_view name) = 0;
};

// Task names indexed by task id. Ids without a name read as "task <id>"
// (and -1, the idle task, as "idle").
class TaskNames {
 public:
  TaskNames() = default;
  explicit TaskNames(std::vector<std::string> names)
      : names_(std::move(names)) {}

  void Set(int task, absl::string_view name) {
    if (task < 0) return;
    if (static_cast<size_t>(task) >= names_.size()) names_.resize(task + 1);
    names_[task].assign(name.data(), name.size());
  }

  // Appends the name of `task` to `*out`.
  void AppendName(int task, std::string* out) const {
    if (task < 0) {
      out->append("idle");
    } else if (static_cast<size_t>(task) < names_.size() &&
               !names_[task].empty()) {
      out->append(names_[task]);
    } else {
      absl::StrAppend(out, "task ", task);
    }
  }

 private:
  std::vector<std::string> names_;
};

}  // namespace schedsim::traces

#endif  // SCHEDSIM_TRACES_NAMED_TRACE_SINK_H_
