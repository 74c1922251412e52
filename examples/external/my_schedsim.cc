// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The schedsim command-line tool with this example's policy linked in:
// `nearest_idle` is then listed by `policies` and usable by name in
// scenario and experiment files (nearest_idle_experiment.json).
//
//   bazel run //:my_schedsim -- run nearest_idle_experiment.json

#include "schedsim/cli.h"

int main(int argc, char** argv) { return schedsim::CliMain(argc, argv); }
