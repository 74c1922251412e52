// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Every model knob declared once: each SimConfig field with its name, unit,
// owner group, valid range, status (kernel: a kernel tunable or default
// with its source; measured: a published measurement,
// docs/kernel-behaviour.md; assumed: no published figure, sweep it;
// switch: a kernel mechanism on or off, whose versions sim/kernels.h
// gives) and one line of doc. The file formats' "config" reader, the
// library's SimulationOptions::config, the robustness list and
// `schedsim config` read it; tests check it against sim/config.h and
// docs/cli-simulate.md. The default is the field's value in SimConfig{}
// (or, with a kernel, what that kernel sets).

#ifndef SCHEDSIM_SIM_PARAMS_H_
#define SCHEDSIM_SIM_PARAMS_H_

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "sim/config.h"

namespace schedsim::sim {

using ConfigFieldPtr = std::variant<int SimConfig::*, int64_t SimConfig::*,
                                    bool SimConfig::*, double SimConfig::*>;

struct ConfigParam {
  const char* name;  // the C++ field name, the "config" key
  ConfigFieldPtr field;
  int64_t min = 0;  // integers and numbers (unused for booleans)
  int64_t max = 0;
  const char* unit;    // "ns", "Hz", "%", "mW", "per s", "" (boolean)
  const char* group;   // scheduler, wake-up, costs, idle, frequency, ...
  const char* status;  // kernel, measured, assumed, switch
  const char* source;  // a kernel file and symbol, a document, a paper
  const char* doc;     // one line
};

// Every SimConfig field, in declaration order.
const std::vector<ConfigParam>& ConfigParams();
// nullptr when `name` is not a field.
const ConfigParam* FindConfigParam(const std::string& name);
// The field's value in `c`, as text ("true", "6000000", "1.5").
std::string ConfigValueText(const ConfigParam& p, const SimConfig& c);

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_PARAMS_H_
