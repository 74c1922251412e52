// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Test helper: lays out a pepc "inlinefiles" sysfs capture as a real
// directory tree, so that code reading sysfs (LoadTopologyFromSysfs) can be
// pointed at it.
//
// A capture (Intel pepc's tests/emul-data/<machine>/sys/inlinefiles.txt) is
// text; lines starting with '#' and empty lines are ignored, every other
// line is
//
//   ro|rw '|' /sys/<path> '|' <content>
//
// and the content runs to the end of the line (it may itself hold '|').
// LayOutPepcCapture*() writes each file to <dest_root>/<path>, that is the
// path with its leading "/sys" removed, so <dest_root> stands for "/sys":
// <dest_root>/devices/system/cpu/cpu0/... . Like sysfs, each file ends in a
// newline, which the captures leave out. A file with several lines of
// content appears as consecutive lines with the same path; they are joined
// with newlines. A path repeated after other paths replaces the earlier
// content (the sklep0 capture lists a few files twice, identically).
//
// Example:
//
//   absl::StatusOr<std::string> root = MakeTestTempDir("milan0");
//   ASSERT_TRUE(root.ok());
//   ASSERT_TRUE(LayOutPepcCapture(CaptureRunfile(
//       "pepc_milan0_sys_inlinefiles.txt"), *root).ok());
//   absl::StatusOr<Topology> t = LoadTopologyFromSysfs(*root);

#ifndef SCHEDSIM_TOPOLOGY_TESTING_PEPC_TREE_H_
#define SCHEDSIM_TOPOLOGY_TESTING_PEPC_TREE_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace schedsim::topology::testing {

// Lays out the capture text `capture` under `dest_root` (created if
// missing). Fails with InvalidArgument, naming `source` and the line
// number, on a line that is not `mode|/sys/path|content` or whose path is
// not under /sys or contains "." or ".." components; with the I/O error on
// a file that cannot be written. Returns the number of files written
// through `files_written` when it is not null.
absl::Status LayOutPepcCaptureText(absl::string_view capture,
                                   const std::string& dest_root,
                                   absl::string_view source = "capture",
                                   int* files_written = nullptr);

// Reads the capture file `capture_path` and lays it out as above.
absl::Status LayOutPepcCapture(const std::string& capture_path,
                               const std::string& dest_root,
                               int* files_written = nullptr);

// The path of a data file of this workspace in the test's runfiles, e.g.
// CaptureRunfile("pepc_rome0_sys_inlinefiles.txt") for
// //tests/data:pepc_rome0_sys_inlinefiles.txt. Uses TEST_SRCDIR and
// TEST_WORKSPACE when Bazel sets them, else a path relative to the current
// directory.
std::string CaptureRunfile(absl::string_view file_name);

// Makes a new, empty, uniquely named directory under TEST_TMPDIR (or the
// system temp dir outside Bazel), with `prefix` in its name.
absl::StatusOr<std::string> MakeTestTempDir(absl::string_view prefix);

}  // namespace schedsim::topology::testing

#endif  // SCHEDSIM_TOPOLOGY_TESTING_PEPC_TREE_H_
