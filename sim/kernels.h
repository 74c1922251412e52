// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Kernel versions as data: every version-dependent behaviour the model has,
// with the kernel versions that have it, the commit that brought or
// removed it and what the model does, in one table (KernelFeatures()).
// Naming a kernel ("kernel": "6.12" in an experiment, a variant or a
// scenario; SimulationOptions::kernel in the library) sets each switch of
// the table to what that kernel has; a file's "config" may still override
// a single switch, as a sched_feat toggle does, and every result records
// the kernel and the overrides it ran with. `schedsim kernels` prints the
// table; docs/model.md "Kernel versions" explains it.
//
// Where an older kernel's behaviour differs from anything the model has,
// the feature's `model` text says so instead of pretending.

#ifndef SCHEDSIM_SIM_KERNELS_H_
#define SCHEDSIM_SIM_KERNELS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "sim/config.h"

namespace schedsim::sim {

// major.minor; ordered.
struct KernelVersion {
  int major = 0;
  int minor = 0;
  friend bool operator<(KernelVersion a, KernelVersion b) {
    return a.major != b.major ? a.major < b.major : a.minor < b.minor;
  }
  friend bool operator==(KernelVersion a, KernelVersion b) {
    return a.major == b.major && a.minor == b.minor;
  }
  friend bool operator<=(KernelVersion a, KernelVersion b) { return !(b < a); }
  std::string ToString() const;
};

// "6.12", "4.16", "6.12.3" (the patch level is ignored), "v6.6".
absl::StatusOr<KernelVersion> ParseKernelVersion(absl::string_view text);

// One version-dependent behaviour.
struct KernelFeature {
  const char* name;        // the SimConfig switch it sets
  const char* sched_feat;  // kernel/sched/features.h name, or ""
  KernelVersion since;     // the first version with it ({0,0}: all)
  KernelVersion until;     // the first version without it ({0,0}: none)
  const char* since_commit;
  const char* until_commit;
  const char* model;  // what the model does, and what it does not
  bool SimConfig::*field;
  bool Has(KernelVersion v) const {
    return since <= v && (until.major == 0 || v < until);
  }
};

const std::vector<KernelFeature>& KernelFeatures();

// A version the project names, with what it is.
struct KnownKernel {
  KernelVersion version;
  const char* note;  // e.g. "seed 000's kernel", "LTS"
};
// The versions `schedsim kernels` lists, oldest first.
const std::vector<KnownKernel>& KnownKernels();

// The idle-CPU search the kernel runs by default: "sis_prop" before 6.0
// (SIS_UTIL, commit 70fb5ccf2ebb, v6.0; SIS_PROP removed in v6.7, commit
// 984ffb6a4366), "sis_util" from 6.0.
const char* KernelPlacementPolicy(KernelVersion v);

// Sets every switch of the table to what kernel `v` has. A version before
// the oldest the table covers (3.10) or after the newest it knows of is
// accepted: the table's ranges decide; docs/model.md says what is not
// modelled.
void ApplyKernel(KernelVersion v, SimConfig* config);

}  // namespace schedsim::sim

#endif  // SCHEDSIM_SIM_KERNELS_H_
