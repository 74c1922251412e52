// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "cli/govd_command.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <map>
#include <memory>
#include <utility>
#include <variant>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "cli/flags.h"
#include "cli/param_flags.h"
#include "platform/linux/linux_cpufreq.h"
#include "platform/linux/probe.h"
#include "platform/linux/root_lock.h"
#include "platform/linux/settings_snapshot.h"
#include "platform/linux/stop_signals.h"
#include "platform/registry.h"

namespace schedsim::cli {
namespace {

namespace host = platform::host;

constexpr int64_t kNsPerMs = 1'000'000;
// Bounds of --period-ms: shorter periods spend more time reading sysfs
// than the policy saves; longer ones react too slowly to matter.
constexpr int64_t kMinPeriodMs = 1;
constexpr int64_t kMaxPeriodMs = 10000;
// Bound of --duration-s (115 days).
constexpr int64_t kMaxDurationS = 10000000;
// Saved settings and policies listed by name before summarising.
constexpr size_t kMaxListed = 16;

constexpr char kUsage[] =
    "Usage: schedsim govd --governor=NAME [--param=KEY=VALUE ...] "
    "[--sysfs=DIR]\n"
    "                     [--proc=DIR] [--dev=DIR] [--period-ms=N] "
    "[--duration-s=N]\n"
    "                     [--util-half-life-ms=N] [--apply] "
    "[--allow-msr-writes]\n"
    "                     [--snapshot=FILE]\n"
    "       schedsim govd --restore=FILE\n";

// What --help says between the usage and the flags.
constexpr char kAbout[] =
    "Runs a schedsim frequency governor on this machine's cpufreq "
    "policies.\nDry run by default; docs/hardware.md explains how to "
    "run it safely.\nExit codes: 0 ran and restored, 1 failed, 2 "
    "usage error, 3 dry run with\nnothing to govern (no cpufreq).\n";

// The default snapshot file: /run/schedsim/govd-PID.snapshot when that
// directory can be made and written, else ./schedsim-govd-PID.snapshot
// (absolute).
std::string DefaultSnapshotFile(const std::string& dir_hint) {
  const std::string name = absl::StrCat("govd-", getpid(), ".snapshot");
  if (!dir_hint.empty()) return absl::StrCat(dir_hint, "/", name);
  constexpr char kRunDir[] = "/run/schedsim";
  if ((mkdir(kRunDir, 0700) == 0 || errno == EEXIST) &&
      access(kRunDir, W_OK) == 0) {
    return absl::StrCat(kRunDir, "/", name);
  }
  char cwd[4096];
  if (getcwd(cwd, sizeof(cwd)) == nullptr) return "schedsim-" + name;
  return absl::StrCat(cwd, "/schedsim-", name);
}

std::string SignalName(int signal_number) {
  const char* abbrev = sigabbrev_np(signal_number);
  return abbrev != nullptr ? absl::StrCat("SIG", abbrev)
                           : absl::StrCat("signal ", signal_number);
}

// Takes the lock of `sysfs_root` (one writer per root); null after
// printing why when another instance holds it or it cannot be taken.
std::unique_ptr<host::RootLock> LockRoot(const std::string& sysfs_root,
                                         const GovdHooks& hooks,
                                         std::ostream& err) {
  const std::string dir =
      hooks.lock_dir.empty() ? host::DefaultLockDir() : hooks.lock_dir;
  absl::StatusOr<std::unique_ptr<host::RootLock>> lock =
      host::RootLock::Acquire(sysfs_root, dir);
  if (!lock.ok()) {
    err << "schedsim govd: " << lock.status().message()
        << " (nothing was written)\n";
    return nullptr;
  }
  return *std::move(lock);
}

// `schedsim govd --restore=FILE`: puts back the settings of a snapshot file
// that a killed run left. Idempotent: only values that differ are written.
int RestoreFromFile(const std::string& file, std::ostream& out,
                    std::ostream& err, const GovdHooks& hooks);

void PrintDomains(const host::LinuxCpufreq& cpufreq, bool apply,
                  std::ostream& out) {
  size_t listed = 0;
  for (const auto& d : cpufreq.domains()) {
    if (listed++ == kMaxListed) {
      out << "  ... and " << cpufreq.domains().size() - kMaxListed
          << " more policies\n";
      break;
    }
    const topology::FrequencySpec& f = d->spec();
    out << "  policy" << d->id() << ": CPUs " << d->cpus().ToList() << ", "
        << f.driver << (f.has_hwp ? " (HWP)" : "") << ", " << f.min_khz << "-"
        << f.max_turbo_khz << " kHz, limits " << d->policy_min_khz() << "-"
        << d->policy_max_khz() << " kHz, governor " << d->original_governor();
    if (!f.has_hwp) {
      out << (d->userspace_available()
                  ? (apply ? "; targets via scaling_setspeed (switches to "
                             "userspace on the first one)"
                           : "; targets via scaling_setspeed")
                  : "; no userspace governor: targets cannot be set");
    }
    out << "\n";
  }
  for (const std::string& note : cpufreq.notes()) {
    out << "  note: " << note << "\n";
  }
}

void PrintSaved(const host::SettingsSnapshot& snapshot, std::ostream& out) {
  out << "Saved " << snapshot.entries().size()
      << " settings (restored on exit, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, "
         "SIGUSR2, SIGALRM, SIGTERM and a closed output; after a kill -9: "
         "schedsim govd --restore="
      << snapshot.snapshot_file() << "):\n";
  size_t listed = 0;
  for (const host::SettingsSnapshot::Entry& e : snapshot.entries()) {
    if (listed++ == kMaxListed) {
      out << "  ... and " << snapshot.entries().size() - kMaxListed
          << " more\n";
      break;
    }
    out << "  " << snapshot.Describe(e) << "\n";
  }
}

// Writes the saved settings back and prints what happened; false when
// something could not be restored.
bool RestoreAndPrint(host::SettingsSnapshot& snapshot, std::ostream& out,
                     std::ostream& err) {
  host::SettingsSnapshot::RestoreReport report;
  absl::Status s = snapshot.Restore(&report);
  out << "Restored the saved settings: " << report.written << " written back, "
      << report.unchanged << " unchanged\n";
  for (const std::string& note : report.notes)
    out << "  note: " << note << "\n";
  if (!s.ok()) {
    err << "schedsim govd: restoring the saved settings failed: " << s.message()
        << "\n";
    return false;
  }
  return true;
}

// Restores, then removes the snapshot file (kept when the restore failed);
// false when something could not be restored.
bool RestoreAndReport(host::SettingsSnapshot& snapshot, std::ostream& out,
                      std::ostream& err) {
  if (!RestoreAndPrint(snapshot, out, err)) {
    if (!snapshot.snapshot_file().empty()) {
      err << "schedsim govd: the snapshot file " << snapshot.snapshot_file()
          << " is kept; `schedsim govd --restore=" << snapshot.snapshot_file()
          << "` tries again\n";
    }
    return false;
  }
  const std::string file = snapshot.snapshot_file();
  if (!file.empty()) {
    absl::Status removed = snapshot.RemoveSnapshotFile();
    if (removed.ok()) {
      out << "Removed the snapshot file " << file << "\n";
    } else {
      err << "schedsim govd: " << removed.message() << "\n";
    }
  }
  return true;
}

int RestoreFromFile(const std::string& file, std::ostream& out,
                    std::ostream& err, const GovdHooks& hooks) {
  absl::StatusOr<host::SettingsSnapshot::Loaded> loaded =
      host::SettingsSnapshot::LoadSnapshotFile(file);
  if (!loaded.ok()) {
    err << "schedsim govd: " << loaded.status().message() << "\n";
    return 1;
  }
  // One writer per root: a live govd restores its own settings.
  std::unique_ptr<host::RootLock> lock =
      LockRoot(loaded->paths.sysfs_root, hooks, err);
  if (lock == nullptr) return 1;
  host::ScopedStopSignals signals;  // a signal does not cut the restore short
  host::SettingsSnapshot snapshot(loaded->paths, hooks.msr);
  snapshot.AddEntries(loaded->entries);
  out << "schedsim govd: restoring " << snapshot.entries().size()
      << " settings from " << file << " (sysfs " << loaded->paths.sysfs_root
      << ", dev " << loaded->paths.dev_root << ")\n";
  if (!RestoreAndPrint(snapshot, out, err)) return 1;
  // The lock's record no longer names a snapshot left to restore.
  const std::string previous = lock->previous_snapshot();
  absl::Status recorded =
      lock->Record(previous.empty() || host::AbsolutePath(previous) ==
                                           host::AbsolutePath(file)
                       ? std::string()
                       : previous);
  if (!recorded.ok()) err << "schedsim govd: " << recorded.message() << "\n";
  out << "The snapshot file " << file
      << " is kept (restoring again writes nothing); remove it when done\n";
  return 0;
}

}  // namespace

int GovdCommand(const std::vector<std::string>& args_in, std::ostream& out,
                std::ostream& err, const GovdHooks& hooks) {
  std::vector<std::string> args = args_in;
  std::vector<std::string> param_texts;
  absl::Status extracted = ExtractParamFlags(args, &param_texts);

  std::string governor_name;
  std::string param_help;  // shown in --help; --param is taken out above
  host::LinuxPaths paths;
  int64_t period_ms = 10;
  double duration_s = 0;
  int64_t half_life_ms = 32;
  bool apply = false;
  bool allow_msr_writes = false;
  std::string snapshot_file;
  std::string restore_file;
  CommandLine cl("govd", kUsage, kAbout, out, err,
                 /*usage_on_error=*/true);
  FlagSet& flags = cl.flags();
  flags.String(
      "governor", &governor_name,
      absl::StrCat("the cpufreq governor to run: ",
                   KnownPolicyNames(platform::PolicyFamily::kCpufreq)));
  flags.String("param", &param_help,
               "KEY=VALUE: a governor parameter (repeatable; `schedsim "
               "policies` lists them)");
  flags.String("sysfs", &paths.sysfs_root,
               "the sysfs root holding devices/system/cpu");
  flags.String("proc", &paths.proc_root, "the procfs root holding stat");
  flags.String("dev", &paths.dev_root,
               "the devfs root holding cpu/N/msr and cpu_dma_latency");
  flags.Int("period-ms", &period_ms,
            "sampling period in ms: one UpdateUtil per CPU per period "
            "(intel_pstate samples every 10 ms)");
  flags.Double("duration-s", &duration_s,
               "run this many seconds (fractions allowed); 0: until SIGINT "
               "or SIGTERM");
  flags.Int("util-half-life-ms", &half_life_ms,
            "half-life in ms of the utilization estimate's EWMA (PELT's is "
            "32); 0: the last period only");
  flags.Bool("apply", &apply,
             "write the governor's decisions (default: dry run, log only); "
             "saves and restores the original settings");
  flags.Bool("allow-msr-writes", &allow_msr_writes,
             "HWP requests go to IA32_HWP_REQUEST via /dev/cpu/N/msr "
             "instead of scaling_min/max_freq and EPP");
  flags.String("snapshot", &snapshot_file,
               "with --apply: the file that holds every setting before its "
               "first write (default /run/schedsim/govd-PID.snapshot, or the "
               "working directory); removed after a clean restore");
  flags.String("restore", &restore_file,
               "restore the settings of a snapshot file a killed run left "
               "(idempotent), and exit");
  std::vector<std::string> positional;
  if (std::optional<int> done = cl.Parse(args, &positional, 0, extracted)) {
    return *done;
  }
  const auto usage_error = [&](absl::string_view message) {
    return cl.UsageError(message);
  };
  if (!restore_file.empty()) {
    if (!governor_name.empty() || apply) {
      return usage_error("--restore=FILE takes no --governor or --apply");
    }
    return RestoreFromFile(restore_file, out, err, hooks);
  }
  if (!snapshot_file.empty() && !apply) {
    return usage_error("--snapshot=FILE needs --apply (a dry run writes none)");
  }
  if (governor_name.empty()) {
    return usage_error(
        absl::StrCat("--governor is required; known: ",
                     KnownPolicyNames(platform::PolicyFamily::kCpufreq)));
  }
  if (period_ms < kMinPeriodMs || period_ms > kMaxPeriodMs) {
    return usage_error(absl::StrCat("--period-ms must be in ", kMinPeriodMs,
                                    "..", kMaxPeriodMs, ", got ", period_ms));
  }
  if (!(duration_s >= 0) || duration_s > kMaxDurationS) {
    return usage_error(
        absl::StrCat("--duration-s must be in 0..", kMaxDurationS,
                     " (0: until SIGINT/SIGTERM), got ", duration_s));
  }
  if (half_life_ms < 0) {
    return usage_error(
        absl::StrCat("--util-half-life-ms must be >= 0, got ", half_life_ms));
  }
  const platform::PolicyInfo* info = platform::PolicyRegistry::Global().Find(
      platform::PolicyFamily::kCpufreq, governor_name);
  if (info == nullptr) {
    return usage_error(absl::StrCat(
        "unknown cpufreq governor '", governor_name,
        "'; known: ", KnownPolicyNames(platform::PolicyFamily::kCpufreq)));
  }
  absl::StatusOr<std::map<std::string, platform::ParamValue>> params =
      TypedParamValues(*info, absl::StrCat("governor '", info->name, "'"),
                       param_texts);
  if (!params.ok()) return usage_error(params.status().message());
  absl::StatusOr<std::unique_ptr<platform::FreqGovernor>> governor =
      platform::PolicyRegistry::Global().MakeFreq(governor_name, *params);
  if (!governor.ok()) return usage_error(governor.status().message());

  if (apply && snapshot_file.empty()) {
    snapshot_file = DefaultSnapshotFile(hooks.snapshot_dir);
  }
  // `govd --restore=FILE` may run from any directory.
  if (apply) snapshot_file = host::AbsolutePath(snapshot_file);
  // Issue 49 #9: one writer per root. A second --apply would save the
  // first one's settings as the originals and restore those.
  std::unique_ptr<host::RootLock> lock;
  if (apply) {
    lock = LockRoot(paths.sysfs_root, hooks, err);
    if (lock == nullptr) return 1;
    const std::string& left = lock->previous_snapshot();
    if (!left.empty() && access(left.c_str(), F_OK) == 0) {
      err << "schedsim govd: the previous govd on " << lock->resolved_root()
          << (lock->previous_pid() > 0
                  ? absl::StrCat(" (PID ", lock->previous_pid(), ")")
                  : std::string())
          << " ended without restoring its settings; its snapshot " << left
          << " is still there. `schedsim govd --restore=" << left
          << "` puts them back; then run again (nothing was written)\n";
      return 1;
    }
  }
  out << "schedsim govd: governor " << governor_name << " on "
      << paths.sysfs_root << ", "
      << (apply ? absl::StrCat(
                      "APPLY: settings are written and restored on exit, "
                      "snapshot ",
                      snapshot_file)
                : std::string("dry run: nothing is written"))
      << "\n  period " << period_ms << " ms, "
      << (duration_s > 0 ? absl::StrFormat("for %g s", duration_s)
                         : std::string("until SIGINT/SIGTERM"))
      << ", util EWMA half-life " << half_life_ms << " ms\n";
  const host::ProbeReport probe = host::Probe(paths);
  out << "What this machine offers:\n" << probe.Text();
  if (!probe.Has("cpufreq")) {
    err << "schedsim govd: nothing to govern: " << probe.Find("cpufreq")->detail
        << "\n";
    if (apply) return 1;
    out << "Dry run ends: without cpufreq policies there is no frequency to "
           "set (exit code "
        << kGovdNothingToGovern << ").\n";
    return kGovdNothingToGovern;
  }
  if (!probe.Has("/proc/stat")) {
    err << "schedsim govd: cannot estimate utilization: "
        << probe.Find("/proc/stat")->detail << "\n";
    return 1;
  }

  // Handlers first: a signal during set-up still leads to a restore.
  host::ScopedStopSignals signals;
  host::SettingsSnapshot snapshot(paths, hooks.msr);
  if (apply) {
    // On disk before the first write (each save rewrites it).
    absl::Status s = snapshot.SetSnapshotFile(snapshot_file);
    if (!s.ok()) {
      err << "schedsim govd: " << s.message()
          << " (nothing was written; --snapshot=FILE chooses another)\n";
      return 1;
    }
    // The next instance on this root sees it if this one is killed.
    s = lock->Record(snapshot_file);
    if (!s.ok()) {
      err << "schedsim govd: " << s.message() << " (nothing was written)\n";
      snapshot.RemoveSnapshotFile().IgnoreError();
      return 1;
    }
  }
  host::LinuxFreqOptions options;
  options.paths = paths;
  options.apply = apply;
  options.allow_msr_writes = allow_msr_writes;
  options.msr = hooks.msr;
  options.util_half_life_ns = half_life_ms * kNsPerMs;
  options.tick_period_ns = period_ms * kNsPerMs;
  options.governor_name = governor_name;
  absl::StatusOr<std::unique_ptr<host::LinuxCpufreq>> cpufreq =
      host::LinuxCpufreq::Open(options, apply ? &snapshot : nullptr);
  if (!cpufreq.ok()) {
    err << "schedsim govd: " << cpufreq.status().message() << "\n";
    if (apply) RestoreAndReport(snapshot, out, err);
    return 1;
  }
  out << "Governing " << (*cpufreq)->domains().size() << " cpufreq "
      << ((*cpufreq)->domains().size() == 1 ? "policy" : "policies") << ":\n";
  PrintDomains(**cpufreq, apply, out);
  if (apply) PrintSaved(snapshot, out);
  out << "Decisions:\n";
  out.flush();

  host::GovernorLoopOptions loop;
  loop.period_ns = period_ms * kNsPerMs;
  loop.duration_ns = static_cast<int64_t>(duration_s * 1e9);
  loop.clock = hooks.clock;
  loop.log = &out;
  loop.after_period = hooks.after_period;
  absl::StatusOr<host::GovernorLoopResult> result =
      host::RunGovernorLoop(**governor, **cpufreq, loop);

  bool restored = true;
  if (apply) restored = RestoreAndReport(snapshot, out, err);
  if (!result.ok()) {
    err << "schedsim govd: " << result.status().message() << "\n";
    return 1;
  }
  out << "Ran " << result->periods << " periods ("
      << absl::StrFormat("%.3f", static_cast<double>(result->periods) *
                                     static_cast<double>(period_ms) / 1e3)
      << " s), " << result->actions << " decisions"
      << (result->stop_signal == SIGPIPE ? "; stopped: the output was closed"
          : result->stop_signal != 0
              ? absl::StrCat("; stopped by ", SignalName(result->stop_signal))
              : std::string())
      << "\n";
  return restored ? 0 : 1;
}

}  // namespace schedsim::cli
