// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// `schedsim policies [--format=text|json]`: every registered policy, grouped
// as cpufreq, cpuidle and placement, with its parameters and defaults.

#ifndef SCHEDSIM_CLI_POLICIES_COMMAND_H_
#define SCHEDSIM_CLI_POLICIES_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "platform/registry.h"

namespace schedsim::cli {

// The registry's policies as JSON: {"cpufreq": [{"name", "description",
// "params": [{"name", "type", "default", "doc"}]}], "cpuidle": [...],
// "placement": [...]}.
nlohmann::json PoliciesJson(const platform::PolicyRegistry& registry);
std::string PoliciesText(const platform::PolicyRegistry& registry);

int PoliciesCommand(const std::vector<std::string>& args, std::ostream& out,
                    std::ostream& err);

}  // namespace schedsim::cli

#endif  // SCHEDSIM_CLI_POLICIES_COMMAND_H_
