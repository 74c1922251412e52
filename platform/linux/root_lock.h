// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// RootLock: one writer per sysfs root. `schedsim govd --apply` and
// `schedsim govd --restore` hold it for as long as they may write, so that
// a second instance on the same machine (or the same --sysfs tree) is
// refused instead of saving the first one's settings as "the original".
//
// The lock is flock(2) (LOCK_EX | LOCK_NB) on a lock file named after the
// resolved, absolute root (realpath, so /sys, /sys/ and a symlink to /sys
// share one): <lock_dir>/govd-root<escaped root>.lock, e.g.
// /run/schedsim/govd-root-sys.lock. flock locks belong to the open file
// description and end with the process, so a kill -9 leaves no stale lock.
// The file itself is never removed (removing a lock file races with the
// next locker); it holds a record of its holder:
//
//   pid 1234
//   snapshot /run/schedsim/govd-1234.snapshot
//
// so that a refused instance names the holder, and so that the next
// instance sees that the previous holder ended without restoring (its
// snapshot file is still there): govd then refuses to save the settings
// that run left behind as originals and names `govd --restore`.

#ifndef SCHEDSIM_PLATFORM_LINUX_ROOT_LOCK_H_
#define SCHEDSIM_PLATFORM_LINUX_ROOT_LOCK_H_

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace schedsim::platform::host {

// The directory of the lock files: /run/schedsim when it exists or can be
// created and is writable (root), else /tmp.
std::string DefaultLockDir();

// The lock file's name (no directory) for a resolved root: "govd-root"
// followed by the root with '/' written as '-' and every byte other than
// [A-Za-z0-9.] as _XX (hex), so that two roots never share a name; roots
// longer than 160 bytes end in a hash instead.
std::string LockFileName(const std::string& resolved_root);

class RootLock {
 public:
  // Takes the lock of `root` in `lock_dir`. FailedPrecondition naming the
  // holder's PID and the lock file when another process (or another open
  // of the same lock in this process) holds it; NotFound when the root
  // does not resolve; other codes name the lock file.
  static absl::StatusOr<std::unique_ptr<RootLock>> Acquire(
      const std::string& root, const std::string& lock_dir);

  RootLock(const RootLock&) = delete;
  RootLock& operator=(const RootLock&) = delete;
  ~RootLock();  // releases (closes the file)

  const std::string& resolved_root() const { return resolved_root_; }
  const std::string& lock_file() const { return lock_file_; }
  // The snapshot file the previous holder recorded ("" when none).
  const std::string& previous_snapshot() const { return previous_snapshot_; }
  // The previous holder's PID (0 when none was recorded).
  long previous_pid() const { return previous_pid_; }

  // Rewrites the record: this process, and `snapshot` ("" for none).
  absl::Status Record(const std::string& snapshot);

 private:
  RootLock() = default;
  int fd_ = -1;
  std::string resolved_root_;
  std::string lock_file_;
  std::string previous_snapshot_;
  long previous_pid_ = 0;
};

}  // namespace schedsim::platform::host

#endif  // SCHEDSIM_PLATFORM_LINUX_ROOT_LOCK_H_
