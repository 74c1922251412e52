// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/scx_probe.h"

#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace schedsim::platform::host {

absl::StatusOr<uint64_t> ParseCapEff(absl::string_view status_text) {
  for (absl::string_view line : absl::StrSplit(status_text, '\n')) {
    if (!absl::ConsumePrefix(&line, "CapEff:")) continue;
    line = absl::StripAsciiWhitespace(line);
    uint64_t mask = 0;
    if (line.empty() || line.size() > 16 || !absl::SimpleHexAtoi(line, &mask)) {
      return absl::InvalidArgumentError(
          absl::StrCat("CapEff: expected up to 16 hex digits, got '",
                       line.substr(0, 40), "'"));
    }
    return mask;
  }
  return absl::InvalidArgumentError("no CapEff: line");
}

bool CapsAllowSchedExt(uint64_t cap_eff) {
  const auto has = [cap_eff](int bit) { return (cap_eff >> bit) & 1; };
  return has(kCapSysAdmin) || (has(kCapBpf) && has(kCapPerfmon));
}

ScxProbeResult ProbeSchedExt(const LinuxPaths& paths) {
  using Verdict = ScxProbeResult::Verdict;
  ScxProbeResult r;
  const LinuxSysfs sysfs(paths.sysfs_root);
  absl::StatusOr<std::string> state = sysfs.Read("kernel/sched_ext/state");
  if (!state.ok()) {
    if (absl::IsNotFound(state.status())) {
      r.verdict = Verdict::kNoSchedExt;
      r.message =
          absl::StrCat("this kernel has no sched_ext (",
                       sysfs.Path("kernel/sched_ext/state"),
                       " is missing): it needs Linux 6.12 or later built with "
                       "CONFIG_SCHED_CLASS_EXT=y");
    } else {
      r.verdict = Verdict::kUnreadable;
      r.message = absl::StrCat("cannot read the sched_ext state: ",
                               state.status().message());
    }
    return r;
  }
  r.state = *state;
  absl::StatusOr<std::string> ops = sysfs.Read("kernel/sched_ext/root/ops");
  if (ops.ok()) r.ops = *ops;
  if (r.state != "disabled") {
    r.verdict = Verdict::kOtherScheduler;
    r.message = absl::StrCat(
        "another sched_ext scheduler is loaded (",
        sysfs.Path("kernel/sched_ext/state"), " reads '", r.state, "'",
        r.ops.empty() ? std::string()
                      : absl::StrCat(", root/ops '", r.ops, "'"),
        "); stop it first");
    return r;
  }
  const LinuxSysfs proc(paths.proc_root);
  absl::StatusOr<std::string> status = proc.ReadRaw("self/status");
  if (!status.ok()) {
    r.verdict = Verdict::kUnreadable;
    r.message =
        absl::StrCat("cannot check the privilege: ", status.status().message());
    return r;
  }
  absl::StatusOr<uint64_t> caps = ParseCapEff(*status);
  if (!caps.ok()) {
    r.verdict = Verdict::kUnreadable;
    r.message =
        absl::StrCat("cannot check the privilege: ", proc.Path("self/status"),
                     ": ", caps.status().message());
    return r;
  }
  if (!CapsAllowSchedExt(*caps)) {
    r.verdict = Verdict::kNoPrivilege;
    r.message = absl::StrCat(
        "loading a sched_ext scheduler needs CAP_SYS_ADMIN (or CAP_BPF and "
        "CAP_PERFMON); this process has CapEff ",
        absl::Hex(*caps, absl::kZeroPad16), ": run it as root");
    return r;
  }
  r.verdict = Verdict::kReady;
  return r;
}

}  // namespace schedsim::platform::host
