// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Idle-state control of an experiment (its top level and each variant) or
// a scenario: what a user changes on a booted Linux machine to keep CPUs
// out of deep idle states (docs/experiments.md, "Idle-state control").
//
//   "idle_states_disabled": ["C6", "C8"]   sysfs cpuN/cpuidle/stateK/disable
//                                          on every CPU (by the state's name)
//   "max_cstate": 2                        the intel_idle.max_cstate=N (and
//                                          processor.max_cstate=N) boot
//                                          option: the states deeper than
//                                          the N-th after POLL are not
//                                          registered
//   "idle": "halt"                         the idle=halt boot option: no
//                                          cpuidle driver, every idle
//                                          period halts (HLT) in C1 with the
//                                          tick stopped
//   "acpi_c2_dummy_wait": false            the kernel skips the "dummy wait"
//                                          (an inl of the ACPI PM timer)
//                                          after entering an I/O-port
//                                          C-state, as v6.0 does on AMD
//                                          (commit e400ad8b7e6a): the
//                                          states entered through an I/O
//                                          port lose kAcpiDummyWaitNs of
//                                          exit time; true (the presets'
//                                          default): as measured, with it
//   "pm_qos_resume_latency_us": {"0-3": 20, "4": "n/a"}
//                                          cpuN/power/pm_qos_resume_latency_us
//                                          by CPU list, as sysfs takes it: 0
//                                          is "no constraint", "n/a" a limit
//                                          of 0 (POLL only)
//
//   IdleControl idle;
//   SCHEDSIM_RETURN_IF_ERROR(ParseIdleControl(reader, root, "", &idle));
//   absl::StatusOr<topology::Topology> m = ApplyIdleControl(machine, idle);
//
// Errors name the file and the JSON path; a state name the machine does not
// have lists the machine's states.

#ifndef SCHEDSIM_EXPERIMENTS_IDLE_CONTROL_H_
#define SCHEDSIM_EXPERIMENTS_IDLE_CONTROL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "experiments/json_util.h"
#include "sim/stats.h"
#include "topology/topology.h"

namespace schedsim::experiments {

// The largest resume latency accepted, in us (the kernel's s32 limit less
// its "no constraint" value).
inline constexpr int64_t kMaxResumeLatencyUs = 2147483646;

// The "dummy wait" of drivers/acpi/processor_idle.c acpi_idle_do_entry()
// -> wait_for_freeze() (before v6.0 on every x86 vendor; since commit
// e400ad8b7e6a, v6.0, on Intel without a hypervisor only): an inl() of the
// ACPI PM timer block after the P_LVLx read that enters an I/O-port
// C-state, executed when the CPU wakes. "Can take thousands of cycles"
// (the commit); assumed 1 us, about 3000 cycles at 3 GHz. The presets'
// I/O-port C2 exit (2.5 us, measured on a 2021 kernel) includes it.
inline constexpr int64_t kAcpiDummyWaitNs = 1000;

struct IdleControl {
  std::string filename;  // error messages start with it
  // "idle_states_disabled": state names; `disabled_path` is the JSON path
  // of the list, "" when absent.
  std::vector<std::string> disabled;
  std::string disabled_path;
  // "max_cstate": the deepest registered state counted after POLL; -1 =
  // absent.
  int max_cstate = -1;
  std::string max_cstate_path;
  // "pm_qos_resume_latency_us": CPU list text, the limit in ns (-1 = no
  // constraint), and the JSON path of each entry.
  struct ResumeLatency {
    std::string cpus;
    int64_t ns = -1;
    std::string path;
  };
  std::vector<ResumeLatency> resume_latency;
  bool has_resume_latency = false;
  // "idle": "halt"; `idle_path` "" when absent.
  bool idle_halt = false;
  std::string idle_path;
  // "acpi_c2_dummy_wait"; `dummy_wait_path` "" when absent.
  bool acpi_dummy_wait = true;
  std::string dummy_wait_path;

  bool empty() const {
    return disabled_path.empty() && max_cstate < 0 && !has_resume_latency &&
           idle_path.empty() && dummy_wait_path.empty();
  }
};

// The keys ParseIdleControl reads.
const std::vector<std::string>& IdleControlKeys();

// Reads the keys of IdleControlKeys() present in the object `j` (at JSON
// path `path`, "" for the top level) into *control; each present key
// replaces the one there (a variant's over the file's).
absl::Status ParseIdleControl(const JsonFileReader& reader,
                              const OrderedJson& j, const std::string& path,
                              IdleControl* control);

// `machine` with `control` applied (topology::Topology::WithIdleSettings);
// `machine` itself when `control` is empty. InvalidArgument naming the
// file and JSON path: a state name the machine does not have (listing its
// states), max_cstate 0 or a machine without an idle-state table, a CPU
// list outside the machine, a CPU given twice.
absl::StatusOr<topology::Topology> ApplyIdleControl(
    const topology::Topology& machine, const IdleControl& control);

// The per-state counters of `stats` padded to the states of `machine`, so
// that states max_cstate left unregistered show as unused (0) in reports.
void PadIdleStats(const topology::Topology& machine, sim::SimStats* stats);

}  // namespace schedsim::experiments

#endif  // SCHEDSIM_EXPERIMENTS_IDLE_CONTROL_H_
