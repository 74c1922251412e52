// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Per-CPU time accounting from /proc/stat (Documentation/filesystems/
// proc.rst, "1.7 Miscellaneous kernel statistics in /proc/stat"): one line
// per online CPU,
//
//   cpuN user nice system idle iowait irq softirq steal guest guest_nice
//
// in USER_HZ ticks (guest time is already included in user and nice).
// Offline CPUs have no line. The Linux backend estimates each CPU's busy
// fraction from the deltas of two readings.

#ifndef SCHEDSIM_PLATFORM_LINUX_PROC_STAT_H_
#define SCHEDSIM_PLATFORM_LINUX_PROC_STAT_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace schedsim::platform::host {

// Cumulative times of one CPU, USER_HZ ticks.
struct CpuTimes {
  int cpu = -1;
  uint64_t user = 0;
  uint64_t nice = 0;
  uint64_t system = 0;
  uint64_t idle = 0;
  uint64_t iowait = 0;
  uint64_t irq = 0;
  uint64_t softirq = 0;
  uint64_t steal = 0;

  // Time the CPU ran something: user + nice + system + irq + softirq.
  uint64_t busy() const { return user + nice + system + irq + softirq; }
  // busy + idle + iowait + steal. Steal (time the hypervisor ran another
  // guest) counts as neither busy nor idle of this CPU's work but is part
  // of the wall time.
  uint64_t total() const { return busy() + idle + iowait + steal; }
};

// The per-CPU lines of /proc/stat text, in order of appearance. Fields
// beyond `steal` are ignored; kernels older than 2.6.11 that print fewer
// fields get zeros for the missing ones (at least user..idle are
// required). InvalidArgument naming `path` and the line number on a
// malformed cpuN line; other lines are skipped.
absl::StatusOr<std::vector<CpuTimes>> ParseProcStat(absl::string_view text,
                                                    absl::string_view path);

// Busy fraction of a CPU between two readings (0..1; 0 when no time
// passed or the counters went backwards, e.g. across CPU hotplug).
double BusyFraction(const CpuTimes& before, const CpuTimes& after);

// True when the CPU accumulated iowait time between the readings: some task
// that last ran there slept in iowait (the backend's stand-in for
// SCHED_CPUFREQ_IOWAIT).
bool IowaitGrew(const CpuTimes& before, const CpuTimes& after);

}  // namespace schedsim::platform::host

#endif  // SCHEDSIM_PLATFORM_LINUX_PROC_STAT_H_
