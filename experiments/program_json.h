// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The task-program grammar of scenario files (docs/cli-simulate.md):
// "channels", "barriers", "metrics", "programs" (lists of operations: compute,
// sleep, send/recv, barrier, fork, loop, ...) and "tasks", names resolved to
// ids.
//
//   JsonFileReader reader("s.json");
//   OrderedJson root;
//   SCHEDSIM_RETURN_IF_ERROR(reader.ParseText(text, &root));
//   sim::Workload workload;
//   SCHEDSIM_RETURN_IF_ERROR(ParseTaskPrograms("s.json", root, &workload));
//
// Errors are InvalidArgument "FILE: PATH: MESSAGE", as JsonFileReader
// gives them.

#ifndef SCHEDSIM_EXPERIMENTS_PROGRAM_JSON_H_
#define SCHEDSIM_EXPERIMENTS_PROGRAM_JSON_H_

#include <string>

#include "absl/status/status.h"
#include "experiments/json_util.h"
#include "sim/workload.h"

namespace schedsim::experiments {

// Parses the task-program keys of the object `root` (the others are not
// looked at) into `workload`; `filename` starts error messages.
absl::Status ParseTaskPrograms(const std::string& filename,
                               const OrderedJson& root,
                               sim::Workload* workload);

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_PROGRAM_JSON_H_
