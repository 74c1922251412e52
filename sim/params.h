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
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "platform/registry.h"
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
// Every field's name, in declaration order.
std::vector<std::string> ConfigParamNames();

// Sets the fields named in `values` on `config`, each value checked
// against its field's type and range, with a file's messages (`source` in
// place of the file name: "SOURCE: config.hz: expected an integer in
// 1..10000, got 0"; an unknown name lists the names with a suggestion).
// The library's SimulationOptions::config and `schedsim run --set` use
// it; a file's "config" object goes through SetConfigParam below.
// OK when every field of `config` is in its declared range (a typed
// struct skips SetConfigParams' checks); else InvalidArgument "SOURCE:
// hz: expected an integer in 1..10000, got 0" for the first that is not
// (NaN and infinities are out of every range).
absl::Status CheckConfigRanges(const SimConfig& config,
                               const std::string& source);

absl::Status SetConfigParams(
    const std::map<std::string, platform::ParamValue>& values,
    const std::string& source, SimConfig* config);

// Sets one field, `key` of the config object at `object_path` ("config",
// "variants[1].config"), with SetConfigParams' checks and messages
// ("SOURCE: OBJECT_PATH.KEY: expected ..."; an unknown key: "SOURCE:
// OBJECT_PATH: unknown key ..."). `shown`, when not empty, is how the
// messages show the value (a file reader passes its own rendering, e.g.
// of an array, which a ParamValue cannot hold). The one setter behind
// SetConfigParams and the file formats' "config" reader.
absl::Status SetConfigParam(const std::string& key,
                            const platform::ParamValue& value,
                            const std::string& source,
                            const std::string& object_path, SimConfig* config,
                            const std::string& shown = "");

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_PARAMS_H_
