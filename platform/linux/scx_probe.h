// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Whether this machine can load a sched_ext scheduler now: the checks
// `schedsim scx` makes before it loads anything, each failure one line
// saying what is missing and what would provide it.
//
//   - sched_ext in the kernel: <sysfs>/kernel/sched_ext/state exists (Linux
//     6.12+ built with CONFIG_SCHED_CLASS_EXT=y; kernel/sched/ext.c
//     creates the sched_ext kset at boot);
//   - no other BPF scheduler: state reads "disabled" (another one reads
//     "enabled" and names itself in root/ops; "enabling"/"disabling" are
//     transitions);
//   - the privilege to load one: CAP_SYS_ADMIN, or CAP_BPF with
//     CAP_PERFMON, in CapEff of <proc>/self/status (struct_ops maps and
//     programs need bpf_capable(); root has them all).

#ifndef SCHEDSIM_PLATFORM_LINUX_SCX_PROBE_H_
#define SCHEDSIM_PLATFORM_LINUX_SCX_PROBE_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "platform/linux/linux_sysfs.h"

namespace schedsim::platform::host {

struct ScxProbeResult {
  enum class Verdict {
    kReady,           // sched_ext present, idle, and we may load
    kNoSchedExt,      // no <sysfs>/kernel/sched_ext/state
    kOtherScheduler,  // a BPF scheduler is loaded (or coming/going)
    kNoPrivilege,     // lacks CAP_SYS_ADMIN (or CAP_BPF + CAP_PERFMON)
    kUnreadable,      // the state file or /proc/self/status cannot be read
  };
  Verdict verdict = Verdict::kNoSchedExt;
  std::string state;    // the state file's content, trimmed ("" if missing)
  std::string ops;      // root/ops: the loaded scheduler's name, if any
  std::string message;  // one line; empty when kReady
  bool ready() const { return verdict == Verdict::kReady; }
};

// Capability bits (include/uapi/linux/capability.h).
inline constexpr int kCapSysAdmin = 21;
inline constexpr int kCapPerfmon = 38;
inline constexpr int kCapBpf = 39;

// The CapEff mask of a /proc/PID/status text; InvalidArgument when the
// line is missing or not hex.
absl::StatusOr<uint64_t> ParseCapEff(absl::string_view status_text);

// True when the mask allows loading a sched_ext scheduler.
bool CapsAllowSchedExt(uint64_t cap_eff);

// The checks above, in that order; the first failure decides.
ScxProbeResult ProbeSchedExt(const LinuxPaths& paths);

}  // namespace schedsim::platform::host

#endif  // SCHEDSIM_PLATFORM_LINUX_SCX_PROBE_H_
