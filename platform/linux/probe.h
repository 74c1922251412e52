// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Probe: which pieces of the Linux backend this machine (or tree) offers,
// and for each missing one why and what would provide it. Probe reads
// only; it opens nothing for writing (writability is checked with
// access(2)).
//
// Pieces, by name:
//   "cpufreq"            devices/system/cpu/cpufreq/policyN directories
//   "userspace governor" `userspace` in scaling_available_governors and
//                        scaling_setspeed (needed to set a target frequency)
//   "EPP"                energy_performance_preference (HWP/CPPC drivers)
//   "cpuidle"            devices/system/cpu/cpu<first>/cpuidle/stateK
//   "MSR"                <dev>/cpu/<first>/msr readable (APERF/MPERF/TSC)
//   "cpu_dma_latency"    <dev>/cpu_dma_latency writable (PM QoS)
//   "/proc/stat"         per-CPU lines (the utilization estimate)
// "userspace governor" and "EPP" are listed only when "cpufreq" is present.

#ifndef SCHEDSIM_PLATFORM_LINUX_PROBE_H_
#define SCHEDSIM_PLATFORM_LINUX_PROBE_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "platform/linux/linux_sysfs.h"

namespace schedsim::platform::host {

struct ProbePiece {
  std::string name;
  bool present = false;
  // Present: what was found ("policies 0-3, driver acpi-cpufreq, governor
  // schedutil"). Missing: why, and what would provide it.
  std::string detail;
};

struct ProbeReport {
  std::vector<ProbePiece> pieces;
  std::vector<int> policies;  // policy numbers found

  // The piece named `name`, or null.
  const ProbePiece* Find(absl::string_view name) const;
  bool Has(absl::string_view name) const;
  std::vector<ProbePiece> Missing() const;
  // One line per piece: "  present  cpufreq: ..." / "  MISSING  MSR: ...".
  std::string Text() const;
};

ProbeReport Probe(const LinuxPaths& paths);

}  // namespace schedsim::platform::host

#endif  // SCHEDSIM_PLATFORM_LINUX_PROBE_H_
