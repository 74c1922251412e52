// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// SettingsSnapshot: the undo log of the Linux backend. Every file (and
// MSR) the backend may write is saved here before the first write, and
// Restore() puts the saved values back, so that running a schedsim policy
// on a machine leaves it as it was found.
//
//   SettingsSnapshot snapshot(paths);
//   RETURN_IF_ERROR(snapshot.SavePolicy(0));  // governor, setspeed, ...
//   RETURN_IF_ERROR(snapshot.WriteFile(
//       "devices/system/cpu/cpufreq/policy0/scaling_governor", "userspace"));
//   ...
//   absl::Status s = snapshot.Restore();  // also runs on destruction
//
// Restore() is idempotent: it writes back only the values that differ from
// what the files (MSRs) hold now, so a second call writes nothing unless
// something changed them again in between. Order: scaling_governor first
// (so that leaving `userspace` happens before anything else), then
// scaling_max_freq, scaling_min_freq, energy_performance_preference,
// scaling_setspeed, the rest (idle-state `disable`) in the order saved,
// MSRs last; a write that fails is tried once more after all the others
// (a new minimum may need the old maximum restored first, or the reverse).
//
// Placeholders: sysfs shows some values it does not accept back, e.g.
// scaling_setspeed reads "<unsupported>" unless the governor is
// `userspace`. Restoring the governor brings such a file back by itself; if
// it still differs, one write is tried and its failure is only a note.
//
// The snapshot file (SetSnapshotFile): created exclusively (an existing
// file is refused, AlreadyExists), then every entry is also written to it,
// atomically (a new mkostemp temporary file, fsync, rename) and before
// SaveFile or SaveMsr returns, so it is on disk before the first write of the
// setting it holds. After a SIGKILL or a power loss LoadSnapshotFile reads it
// back and Restore() puts the machine back (`schedsim govd --restore=FILE`).
// Format: a first line `schedsim settings snapshot 1`, then `sysfs ROOT`,
// `dev ROOT`, and one line per entry, `file REL CONTENT` or
// `msr CPU REG VALUE` (REG and VALUE hex); REL and CONTENT C-escaped; the
// roots absolute. LoadSnapshotFile accepts only the files and the MSR the
// backend writes (SavePolicy's and SaveIdleStates' files, IA32_HWP_REQUEST)
// and absolute roots, so a --restore writes nothing else.
//
// Confinement: SaveFile refuses a file whose resolved path lies outside the
// sysfs root (a symlink out of a --sysfs tree), so nothing is saved, and
// hence nothing written, through it (LinuxSysfs::CheckInsideRoot).
//
// Signals: nothing here is async-signal-safe. Restore from the main thread
// after a signal handler set a flag (stop_signals.h).

#ifndef SCHEDSIM_PLATFORM_LINUX_SETTINGS_SNAPSHOT_H_
#define SCHEDSIM_PLATFORM_LINUX_SETTINGS_SNAPSHOT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "platform/linux/linux_sysfs.h"
#include "platform/linux/msr.h"

namespace schedsim::platform::host {

// devices/system/cpu/cpufreq/policy<N>.
std::string PolicyDir(int policy);
// devices/system/cpu/cpu<cpu>/cpuidle/state<state>.
std::string IdleStateDir(int cpu, int state);

class SettingsSnapshot {
 public:
  struct Entry {
    bool is_msr = false;
    std::string rel;      // file: path relative to the sysfs root
    int cpu = -1;         // MSR
    uint32_t reg = 0;     // MSR
    std::string content;  // file: the saved content, verbatim
    uint64_t value = 0;   // MSR: the saved value
    int order = 0;        // restore priority (lower first)
  };

  struct RestoreReport {
    int written = 0;                 // values written back
    int unchanged = 0;               // values already equal to the saved ones
    std::vector<std::string> notes;  // placeholders that could not be put
                                     // back, and similar non-errors
  };

  // Files under paths.sysfs_root; MSRs through `msr`, or when null through
  // the msr driver under paths.dev_root. `msr` must outlive the snapshot.
  explicit SettingsSnapshot(const LinuxPaths& paths, MsrAccess* msr = nullptr);
  SettingsSnapshot(const SettingsSnapshot&) = delete;
  SettingsSnapshot& operator=(const SettingsSnapshot&) = delete;
  // Restores. Call Restore() first to see its errors; the destructor's
  // attempt prints failures to stderr.
  ~SettingsSnapshot();

  // Saves the content of sysfs file `rel` unless it is already saved (the
  // first saved value is the original). Errors (naming the path) when it
  // cannot be read.
  absl::Status SaveFile(absl::string_view rel);
  // SaveFile(rel), then writes `value` followed by a newline.
  absl::Status WriteFile(absl::string_view rel, absl::string_view value);

  // Saves MSR `reg` of `cpu` unless already saved.
  absl::Status SaveMsr(int cpu, uint32_t reg);
  // SaveMsr(cpu, reg), then writes `value`.
  absl::Status WriteMsr(int cpu, uint32_t reg, uint64_t value);

  // Saves every file of cpufreq policy `policy` that the backend may write
  // and that exists: scaling_governor, scaling_setspeed, scaling_min_freq,
  // scaling_max_freq, energy_performance_preference. NotFound when the
  // policy directory is missing.
  absl::Status SavePolicy(int policy);
  // Saves cpu<cpu>/cpuidle/state<K>/disable for every state K. NotFound
  // when the CPU has no cpuidle states.
  absl::Status SaveIdleStates(int cpu);

  // Writes back every saved value that differs from the current one (see
  // the file comment). Tries every entry; returns the first error (naming
  // the file) after the retry pass, with the count of failures.
  absl::Status Restore(RestoreReport* report = nullptr);

  // Creates `path` (AlreadyExists when it exists) and keeps it up to date
  // with every entry from now on (writes it now, with the entries saved so
  // far). Errors name the file.
  absl::Status SetSnapshotFile(std::string path);
  const std::string& snapshot_file() const { return snapshot_file_; }
  // Deletes the snapshot file (after a clean restore) and stops updating it.
  absl::Status RemoveSnapshotFile();

  // A snapshot file read back: its roots and entries.
  struct Loaded {
    LinuxPaths paths;
    std::vector<Entry> entries;
  };
  // Reads a snapshot file; InvalidArgument naming the file and line when it
  // is not one.
  static absl::StatusOr<Loaded> LoadSnapshotFile(const std::string& path);
  // Adds entries read back (for Restore); entries already saved are kept.
  void AddEntries(const std::vector<Entry>& entries);

  const std::vector<Entry>& entries() const { return entries_; }
  // "path = 'content'" (files, with the full path) or
  // "MSR 0x774 of CPU 3 = 0x... (/dev/cpu/3/msr)" for the log.
  std::string Describe(const Entry& entry) const;
  const LinuxSysfs& sysfs() const { return sysfs_; }

 private:
  const Entry* FindFile(absl::string_view rel) const;
  const Entry* FindMsr(int cpu, uint32_t reg) const;
  // Puts one entry back if it differs; sets *wrote.
  absl::Status RestoreOne(const Entry& e, bool* wrote);

  absl::Status WriteSnapshotFile() const;

  LinuxSysfs sysfs_;
  LinuxPaths paths_;
  std::string snapshot_file_;
  std::unique_ptr<DevMsrAccess> own_msr_;
  MsrAccess* msr_;
  std::vector<Entry> entries_;
};

}  // namespace schedsim::platform::host

#endif  // SCHEDSIM_PLATFORM_LINUX_SETTINGS_SNAPSHOT_H_
