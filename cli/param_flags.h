// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The `--param KEY=VALUE` flags of the commands that run one registered
// policy (`schedsim govd`, `schedsim shadow`): taking them out of the
// argument list and typing their values by the policy's declared
// parameters.

#ifndef SCHEDSIM_CLI_PARAM_FLAGS_H_
#define SCHEDSIM_CLI_PARAM_FLAGS_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "platform/registry.h"

namespace schedsim::cli {

// The names of the family's registered policies, comma-separated, or
// "(none linked)".
std::string KnownPolicyNames(platform::PolicyFamily family);

// Takes every --param=K=V / --param K=V out of `args` (up to a "--").
absl::Status ExtractParamFlags(std::vector<std::string>& args,
                               std::vector<std::string>* params);

// "key=value" texts -> values typed by `info`'s declared parameters
// (`what` names the policy in errors, e.g. "governor 'schedutil'"). Names
// the policy does not declare pass as strings; the registry then rejects
// them, listing the declared ones.
absl::StatusOr<std::map<std::string, platform::ParamValue>> TypedParamValues(
    const platform::PolicyInfo& info, const std::string& what,
    const std::vector<std::string>& texts);

}  // namespace schedsim::cli

#endif  // SCHEDSIM_CLI_PARAM_FLAGS_H_
