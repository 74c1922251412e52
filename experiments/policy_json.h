// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The policy-choice grammar scenario files (`schedsim simulate`) and
// experiment files (`schedsim run`) share, and typed parameter values. A
// policy choice is a registered name, or {"name": NAME, "params": {...}}
// merged over a starting choice: without "name" the starting policy is
// kept, the same policy keeps the starting parameters, another starts
// afresh; an empty name (the cpufreq default, resolved per machine) takes
// no parameters. Parameters are checked against the policy's declared
// ones, and the policy is built once so that a bad value is reported with
// its JSON path.
//
//   JsonFileReader reader("exp.json");
//   absl::StatusOr<PolicySpec> idle = ParsePolicyChoice(
//       reader, root["policies"]["cpuidle"], "policies.cpuidle",
//       platform::PolicyFamily::kCpuidle, {kDefaultIdleGovernor, {}});

#ifndef SCHEDSIM_EXPERIMENTS_POLICY_JSON_H_
#define SCHEDSIM_EXPERIMENTS_POLICY_JSON_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "experiments/builtin_registry.h"
#include "experiments/json_util.h"
#include "platform/registry.h"

namespace schedsim::experiments {

// "a boolean", "an integer", "a number" or "a string".
const char* TypeWithArticle(const platform::ParamValue& v);

// A value of a declared parameter's type. `owner` names whose parameter it
// is ("workload 'hackbench'").
absl::StatusOr<platform::ParamValue> TypedParamValue(
    const JsonFileReader& r, const OrderedJson& j, const std::string& path,
    const platform::ParamSpec& spec, const std::string& owner);

// Where a parameter that `owner` ("cpufreq policy 'schedutil'") no longer
// has went ("" when it never moved): a renamed or moved key's error says so.
std::string MovedParamNote(absl::string_view owner, absl::string_view key);

// The parameters of the object `j` (at `path`), checked against `specs`,
// added to `out`; a key in MovedParamNote's table is an error naming its new
// place.
absl::Status ParseParamValues(const JsonFileReader& r, const OrderedJson& j,
                              const std::string& path,
                              const std::vector<platform::ParamSpec>& specs,
                              const std::string& owner, PolicyParams* out);

// The policy choice of `family` at `path`, on top of `base`.
absl::StatusOr<PolicySpec> ParsePolicyChoice(const JsonFileReader& r,
                                             const OrderedJson& j,
                                             const std::string& path,
                                             platform::PolicyFamily family,
                                             const PolicySpec& base);

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_POLICY_JSON_H_
