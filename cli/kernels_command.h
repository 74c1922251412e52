// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// `schedsim kernels [--format=text|json] [--kernel=V]`: the kernel versions
// the project names and the table of version-dependent features
// (sim/kernels.h): for each feature its sched_feat name, the versions that
// have it, the commits that brought or removed it and what the model does;
// for each version the features it has and its default idle-CPU search.

#ifndef SCHEDSIM_CLI_KERNELS_COMMAND_H_
#define SCHEDSIM_CLI_KERNELS_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "sim/kernels.h"

namespace schedsim::cli {

// {"versions": [{"version", "note", "fair_class", "placement",
// "features": [names on]}], "features": [{"name", "sched_feat", "since",
// "until", "since_commit", "until_commit", "model"}]}; with `only`, the
// versions list holds that version alone.
nlohmann::ordered_json KernelsJson(const sim::KernelVersion* only);
std::string KernelsText(const sim::KernelVersion* only);

int KernelsCommand(const std::vector<std::string>& args, std::ostream& out,
                   std::ostream& err);

}  // namespace schedsim::cli

#endif  // SCHEDSIM_CLI_KERNELS_COMMAND_H_
