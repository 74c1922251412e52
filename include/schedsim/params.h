// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Parameters by name, as policies and workload models declare and take
// them: a value is a bool, an int64, a double or a string.
//
//   schedsim::ParamMap p = {{"groups", 8}, {"loops", int64_t{1000}},
//                           {"mode", "process"}};
//
// These are the types of the policy registry (platform/registry.h), which
// is part of the public API (see docs/library.md, "What is public").

#ifndef SCHEDSIM_INCLUDE_SCHEDSIM_PARAMS_H_
#define SCHEDSIM_INCLUDE_SCHEDSIM_PARAMS_H_

#include <map>
#include <string>

#include "platform/registry.h"

namespace schedsim {

// bool, int64_t, double or std::string. An int given where a double is
// declared is accepted.
using ParamValue = platform::ParamValue;
// Parameters given by name; names not given take their declared default.
using ParamMap = std::map<std::string, ParamValue>;
// A declared parameter: name, default (which fixes its type) and doc.
using ParamSpec = platform::ParamSpec;
// Validated parameters as a factory receives them (GetInt, GetBool, ...).
using Params = platform::Params;

using platform::ParamTypeName;   // "bool", "int", "double", "string"
using platform::ParamValueText;  // the value as text

}  // namespace schedsim

#endif  // SCHEDSIM_INCLUDE_SCHEDSIM_PARAMS_H_
