// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// `schedsim scx`: a sched_ext scheduler whose placement is a registered
// placement policy (`--placement=sis_util`, any `schedsim policies` lists)
// running in this process against the live machine
// (platform/linux/scx_agent.h). The BPF side (platform/linux/scx/
// scx_place.bpf.c) queues each wake-up to this process and dispatches the
// task where the policy says; a SIGINT/SIGTERM, the --duration-s end, a
// crash or a kill closes the BPF link and the kernel returns every task to
// the fair class. docs/hardware.md ("sched_ext") says how to build and run
// it and what it costs.
//
// Before loading anything it checks the kernel has sched_ext, no other
// BPF scheduler is loaded, it has the privilege, and this binary has the
// libbpf loader (the plain build has not: dev/build-scx builds one); each
// refusal is one line on stderr.
//
// Exit codes: 0 ran and unloaded; 1 failed (the BPF object would not load
// or attach, the topology could not be read); 2 usage error; 3 this
// machine or binary cannot run it (the refusals above).

#ifndef SCHEDSIM_CLI_SCX_COMMAND_H_
#define SCHEDSIM_CLI_SCX_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

namespace schedsim::cli {

// Exit code when sched_ext cannot be used here (see above).
inline constexpr int kScxUnavailable = 3;

int ScxCommand(const std::vector<std::string>& args, std::ostream& out,
               std::ostream& err);

}  // namespace schedsim::cli

#endif  // SCHEDSIM_CLI_SCX_COMMAND_H_
