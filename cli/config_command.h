// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// `schedsim config [--kernel=V] [--format=text|json]`: every model knob of
// the parameter table (sim/params.h) with its unit, default, valid range,
// status and source; with --kernel, the values that kernel sets
// (sim/kernels.h) and which differ from the model's defaults.

#ifndef SCHEDSIM_CLI_CONFIG_COMMAND_H_
#define SCHEDSIM_CLI_CONFIG_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

namespace schedsim::cli {

int ConfigCommand(const std::vector<std::string>& args, std::ostream& out,
                  std::ostream& err);

}  // namespace schedsim::cli

#endif  // SCHEDSIM_CLI_CONFIG_COMMAND_H_
