// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// `schedsim shadow`: shadow evaluation of a cpuidle governor or a placement
// policy from the policy registry against a recorded ftrace text trace
// (traces/shadow.h): the policy is shown each decision the kernel made and
// its answers are compared with the kernel's. docs/cli-shadow.md describes the
// flags and the report; docs/traces-shadow.md the method and its assumptions.
//
//   schedsim shadow --trace=trace.txt --cpuidle=menu --machine=NAME
//   schedsim shadow --trace=trace.txt --placement=sis_util --format=json
//
// Exit codes: 0 the report was printed; 1 the run failed (the trace cannot
// be read or is malformed, naming the line; a recorded idle state beyond
// the machine's table; a trace CPU the machine lacks; the machine cannot
// be loaded); 2 usage error (bad or missing flags, --trace missing, both or
// neither of --cpuidle and --placement, an unknown policy or parameter).

#ifndef SCHEDSIM_CLI_SHADOW_COMMAND_H_
#define SCHEDSIM_CLI_SHADOW_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

namespace schedsim::cli {

// The machine used when neither --machine nor --sysfs is given.
inline constexpr char kShadowDefaultMachine[] = "skylake-e3-1240v5";

// Runs `schedsim shadow` with `args` (the flags after "shadow"); the report
// goes to `out`, errors to `err`. Returns the exit code.
int ShadowCommand(const std::vector<std::string>& args, std::ostream& out,
                  std::ostream& err);

}  // namespace schedsim::cli

#endif  // SCHEDSIM_CLI_SHADOW_COMMAND_H_
