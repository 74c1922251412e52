// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// `schedsim govd`: runs a frequency governor from the policy registry on
// the machine it runs on, through the Linux backend (platform/linux/): the
// same policy object the simulator runs, fed every period with utilization
// estimated from /proc/stat and acting on the cpufreq policies. A dry run
// by default (it logs what it would set and why); --apply saves the
// original settings, writes, and restores them on exit, SIGINT and
// SIGTERM. docs/cli-linux.md and docs/hardware.md describe it.
//
// Exit codes: 0 ran (for --duration-s, or until SIGINT/SIGTERM) and
// restored; 1 failed (settings could not be saved, written or restored, or
// --apply on a machine without cpufreq); 2 usage error (bad flags, an
// unknown governor or parameter); 3 dry run on a machine without cpufreq:
// the missing pieces are listed and there is nothing to govern.

#ifndef SCHEDSIM_CLI_GOVD_COMMAND_H_
#define SCHEDSIM_CLI_GOVD_COMMAND_H_

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "platform/linux/governor_loop.h"
#include "platform/linux/msr.h"

namespace schedsim::cli {

// Exit code of a dry run with nothing to govern (no cpufreq).
inline constexpr int kGovdNothingToGovern = 3;

// Substitutes for tests; every member may stay null/empty.
struct GovdHooks {
  platform::host::LoopClock* clock = nullptr;  // null: CLOCK_MONOTONIC
  platform::host::MsrAccess* msr = nullptr;    // null: <dev>/cpu/N/msr
  // After each period, with the number of periods done.
  std::function<void(int64_t periods)> after_period;
  // Where the default snapshot file goes; empty: /run/schedsim when it can
  // be created and written, else the working directory.
  std::string snapshot_dir;
  // Where the per-root lock files go (platform/linux/root_lock.h); empty:
  // /run/schedsim when it can be created and written, else /tmp.
  std::string lock_dir;
};

int GovdCommand(const std::vector<std::string>& args, std::ostream& out,
                std::ostream& err, const GovdHooks& hooks = GovdHooks());

}  // namespace schedsim::cli

#endif  // SCHEDSIM_CLI_GOVD_COMMAND_H_
