// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// schedsim as a library: every public header (the test kit, testing.h,
// apart). docs/library.md is the tour.
//
//   machine.h     the machine: a preset, a sysfs tree, an hwloc XML
//   policy.h      the policy interfaces, policies by name, registering yours
//   workload.h    workload models, rt-app, trace replay, task programs
//   simulation.h  running a simulation
//   metrics.h     what it measured
//   trace.h       streaming trace events; Perfetto and CSV writers
//   params.h      parameters by name

#ifndef SCHEDSIM_INCLUDE_SCHEDSIM_SCHEDSIM_H_
#define SCHEDSIM_INCLUDE_SCHEDSIM_SCHEDSIM_H_

#include "schedsim/machine.h"
#include "schedsim/metrics.h"
#include "schedsim/params.h"
#include "schedsim/policy.h"
#include "schedsim/simulation.h"
#include "schedsim/trace.h"
#include "schedsim/workload.h"

#endif  // SCHEDSIM_INCLUDE_SCHEDSIM_SCHEDSIM_H_
