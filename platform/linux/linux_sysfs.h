// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// LinuxSysfs: reads and writes the files of a Linux pseudo-filesystem tree
// (sysfs, procfs, devfs) under a configurable root, so that the Linux
// backend runs against the real machine ("/sys", "/proc", "/dev") and, in
// tests, against a tree of ordinary files in a temporary directory.
//
// Every error is an absl::Status whose message names the full path and what
// went wrong, e.g. "cannot open /sys/devices/system/cpu/cpufreq/policy0/
// scaling_setspeed for writing: Permission denied". Nothing here aborts on
// what the environment does.
//
// Namespace `host`: the machine the program runs on (`linux` itself is a
// predefined macro under GNU dialects of C++).

#ifndef SCHEDSIM_PLATFORM_LINUX_LINUX_SYSFS_H_
#define SCHEDSIM_PLATFORM_LINUX_LINUX_SYSFS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "base/input_file.h"

namespace schedsim::platform::host {

// Where the backend finds the kernel's interfaces. Tests point all three at
// directories of ordinary files.
struct LinuxPaths {
  std::string sysfs_root = "/sys";  // holds devices/system/cpu
  std::string proc_root = "/proc";  // holds stat
  std::string dev_root = "/dev";    // holds cpu/N/msr, cpu_dma_latency
};

// The sysfs directory of the CPUs, relative to the sysfs root.
inline constexpr absl::string_view kSysfsCpuDir = "devices/system/cpu";

class LinuxSysfs {
 public:
  // `root` is a directory such as "/sys"; trailing slashes are ignored.
  // Reads are bounded: a file longer than `max_file_bytes` is an error
  // naming it and the limit (base::kMaxSysfsFileBytes for sysfs attributes;
  // the procfs reader of /proc/stat takes base::kMaxProcFileBytes).
  explicit LinuxSysfs(std::string root = "/sys",
                      int64_t max_file_bytes = base::kMaxSysfsFileBytes);

  const std::string& root() const { return root_; }
  // root + "/" + rel.
  std::string Path(absl::string_view rel) const;

  bool Exists(absl::string_view rel) const;
  bool IsDir(absl::string_view rel) const;
  // True when the process may open the file for writing (access(W_OK)).
  // Root passes whatever the mode bits say.
  bool Writable(absl::string_view rel) const;

  // The whole content of a file. NotFound when it is missing,
  // PermissionDenied when it may not be read, another code for other I/O
  // errors; the message names the path.
  absl::StatusOr<std::string> ReadRaw(absl::string_view rel) const;
  // The content without leading and trailing whitespace.
  absl::StatusOr<std::string> Read(absl::string_view rel) const;
  // A decimal integer; InvalidArgument naming the path and quoting the
  // content when it is not one.
  absl::StatusOr<int64_t> ReadInt(absl::string_view rel) const;
  // A kernel CPU list ("0-3,8", or cpufreq's "0 1 2"), sorted, without
  // duplicates.
  absl::StatusOr<std::vector<int>> ReadCpuList(absl::string_view rel) const;

  // Writes `content` verbatim with one write(2) (sysfs attributes take one
  // write), truncating a regular file first. The file must exist: sysfs
  // creates no files. Errors name the path and the value. Confined to the
  // root: a path whose resolved target lies outside it (a symlink out of a
  // --sysfs tree) is refused (PermissionDenied, CheckInsideRoot), and the
  // file itself is opened with O_NOFOLLOW.
  absl::Status WriteRaw(absl::string_view rel, absl::string_view content) const;
  // OK when `rel` exists and resolves (realpath) to a path inside the
  // resolved root; PermissionDenied naming both otherwise (NotFound when
  // it does not exist).
  absl::Status CheckInsideRoot(absl::string_view rel) const;
  // Writes `value` followed by a newline, as `echo value > file` does.
  absl::Status Write(absl::string_view rel, absl::string_view value) const;

  // The numbers N, ascending, of the entries named <prefix>N (N all
  // digits) of directory `rel`; empty when it is missing.
  std::vector<int> NumberedEntries(absl::string_view rel,
                                   absl::string_view prefix) const;

 private:
  std::string root_;
  int64_t max_file_bytes_;
};

// Parses a kernel CPU list: a cpulist ("0-3,8,10-11") or a space-separated
// one as cpufreq's related_cpus prints it ("0 64"); empty text is the empty
// list.
// `path` names the source in the error message.
absl::StatusOr<std::vector<int>> ParseCpuListText(absl::string_view text,
                                                  absl::string_view path);

// `path` made absolute: realpath when it resolves, else the working
// directory joined with it (a path that does not exist yet).
std::string AbsolutePath(const std::string& path);

// `text` shortened, stripped and escaped in quotes, for error messages.
std::string QuoteForError(absl::string_view text);

}  // namespace schedsim::platform::host

#endif  // SCHEDSIM_PLATFORM_LINUX_LINUX_SYSFS_H_
