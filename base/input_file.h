// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Bounded reads of the files the tool is given (issue 14, "every input read
// by the tool is bounded"): every input is opened with O_NONBLOCK (a FIFO
// never blocks the open), must be a regular file (a FIFO, a device, a
// socket or a directory is refused with a message saying which), and is
// read up to a size limit per kind of input, named in the error.

#ifndef SCHEDSIM_BASE_INPUT_FILE_H_
#define SCHEDSIM_BASE_INPUT_FILE_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace schedsim::base {

inline constexpr int64_t kKiB = 1024;
inline constexpr int64_t kMiB = 1024 * kKiB;

// The size limits, per kind of input (docs/cli.md, "Input limits").
// Scenario, experiment, rt-app and validation JSON files.
inline constexpr int64_t kMaxJsonFileBytes = 64 * kMiB;
// hwloc XML files (lstopo of a large machine with its I/O is a few MiB).
inline constexpr int64_t kMaxHwlocXmlBytes = 64 * kMiB;
// One sysfs or procfs attribute (the kernel's are at most a page).
inline constexpr int64_t kMaxSysfsFileBytes = 64 * kKiB;
// One procfs file (/proc/stat: a line per CPU and a count per interrupt).
inline constexpr int64_t kMaxProcFileBytes = 4 * kMiB;
// A whole-file capture or snapshot (pepc dumps, govd snapshots).
inline constexpr int64_t kMaxCaptureFileBytes = 64 * kMiB;
// One line of an ftrace text trace (the kernel's trace_marker writes at
// most 4 KiB; a line longer than this is not a trace).
inline constexpr int64_t kMaxTraceLineBytes = 1 * kMiB;

// "64 KiB", "1 MiB", "100 bytes": a limit as the errors show it.
std::string ByteSize(int64_t bytes);

// What `mode` is, for an error: "a directory", "a FIFO (named pipe)",
// "a character device", "a block device", "a socket", "a regular file".
std::string FileTypeName(unsigned mode);

// Opens `path` (an input of kind `what`, such as "scenario file") for
// reading: O_RDONLY | O_NONBLOCK | O_CLOEXEC, then fstat. The file must be
// regular and, with max_bytes >= 0, at most max_bytes long. Returns the
// descriptor (O_NONBLOCK cleared; the caller closes it). Errors name the
// path and the kind: NotFound when it does not exist, InvalidArgument when
// it is not a regular file or is too large, the errno's code otherwise.
absl::StatusOr<int> OpenInputFile(const std::string& path,
                                  absl::string_view what, int64_t max_bytes);

// The whole content of `path`, opened as OpenInputFile does, read up to
// max_bytes: a file longer than that (even one that grows while it is
// read) is an InvalidArgument naming the path, the kind and the limit.
absl::StatusOr<std::string> ReadInputFile(const std::string& path,
                                          absl::string_view what,
                                          int64_t max_bytes);

// Reads descriptor `fd` (of `path`) to its end, up to max_bytes; more is an
// InvalidArgument naming the path, the kind and the limit. Does not close.
absl::StatusOr<std::string> ReadBounded(int fd, const std::string& path,
                                        absl::string_view what,
                                        int64_t max_bytes);

}  // namespace schedsim::base

#endif  // SCHEDSIM_BASE_INPUT_FILE_H_
