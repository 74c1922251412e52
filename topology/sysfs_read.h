// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Reading a sysfs tree (internal to the sysfs importer, see sysfs.h): the
// files of a tree by relative path (SysfsTree), and the parsers of their
// contents, with the limits that keep a bogus file from exhausting memory.

#ifndef SCHEDSIM_TOPOLOGY_SYSFS_READ_H_
#define SCHEDSIM_TOPOLOGY_SYSFS_READ_H_

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "base/input_file.h"

namespace schedsim::topology::sysfs_internal {

// File content as shown in an error message: stripped, escaped, shortened.
std::string Quote(absl::string_view text);

absl::StatusOr<int64_t> ParseInt(const std::string& path,
                                 absl::string_view text);

// Parses a kernel list ("0-3,8,10-11") of CPU or node ids, in sysfs
// numbering; the result is sorted and free of duplicates.
absl::StatusOr<std::vector<int>> ParseIdList(const std::string& path,
                                             absl::string_view text);

// Parses a kernel CPU mask ("00000000,000000ff": comma-separated 32-bit
// hex words, most significant first, as in nodeN/cpumap) into the ids of
// its set bits, ascending.
absl::StatusOr<std::vector<int>> ParseIdMask(const std::string& path,
                                             absl::string_view text);

// Parses a cache size such as "32K", "1M" or "512" (bytes).
absl::StatusOr<int64_t> ParseSizeBytes(const std::string& path,
                                       absl::string_view text);

// Parses whitespace-separated integers (a SLIT row, a frequency list).
absl::StatusOr<std::vector<int64_t>> ParseIntRow(const std::string& path,
                                                 absl::string_view text,
                                                 absl::string_view what);

// Read access to the files of a sysfs tree, by path relative to its root.
class SysfsTree {
 public:
  explicit SysfsTree(std::string root) : root_(std::move(root)) {
    while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
  }

  const std::string& root() const { return root_; }
  std::string Path(absl::string_view rel) const {
    return absl::StrCat(root_, "/", rel);
  }
  bool IsDir(absl::string_view rel) const {
    std::error_code ec;
    return std::filesystem::is_directory(Path(rel), ec);
  }
  // Why directory `rel` cannot be listed ("" when it can): a CPU
  // directory the reader may not enter reads as a CPU with no attributes.
  std::string ListError(absl::string_view rel) const {
    std::error_code ec;
    std::filesystem::directory_iterator it(Path(rel), ec);
    return ec ? ec.message() : std::string();
  }
  bool Exists(absl::string_view rel) const {
    std::error_code ec;
    return std::filesystem::exists(Path(rel), ec);
  }

  // The content of a regular file, or nullopt when it is missing or cannot
  // be read (sysfs attributes may refuse reads, e.g. with EIO or EPERM), is
  // not a regular file (a FIFO is never opened for a blocking read) or is
  // longer than base::kMaxSysfsFileBytes. Trailing NUL bytes are dropped:
  // older kernels printed some lists (node*/cpulist, node/online) with a
  // terminating NUL after the newline.
  //
  // A file that is there but is no regular file or is too long is also
  // recorded (refused()): the importer refuses the tree rather than import
  // a machine without it (issue 49 #13: such files read as missing, exit
  // 0).
  std::optional<std::string> Read(absl::string_view rel) const {
    absl::StatusOr<std::string> content =
        base::ReadInputFile(Path(rel), "sysfs file", base::kMaxSysfsFileBytes);
    if (!content.ok()) {
      if (content.status().code() == absl::StatusCode::kInvalidArgument) {
        if (refused_.empty())
          refused_ = std::string(content.status().message());
        ++refused_count_;
      }
      return std::nullopt;
    }
    while (!content->empty() && content->back() == '\0') content->pop_back();
    return *std::move(content);
  }

  // The numbers N, ascending, of the entries named <prefix>N (N all digits)
  // in directory `rel`; empty when it is missing.
  std::vector<int> NumberedEntries(absl::string_view rel,
                                   absl::string_view prefix) const {
    std::vector<int> numbers;
    std::error_code ec;
    std::filesystem::directory_iterator it(Path(rel), ec);
    if (ec) return numbers;
    for (; it != std::filesystem::directory_iterator(); it.increment(ec)) {
      if (ec) break;
      std::string file = it->path().filename().string();
      absl::string_view suffix = file;
      if (!absl::ConsumePrefix(&suffix, prefix) || suffix.empty() ||
          suffix.size() > 9 ||
          !std::all_of(suffix.begin(), suffix.end(), absl::ascii_isdigit)) {
        continue;
      }
      int n = 0;
      if (absl::SimpleAtoi(suffix, &n)) numbers.push_back(n);
    }
    std::sort(numbers.begin(), numbers.end());
    return numbers;
  }

  // The first file Read() refused as no regular file or too long ("" when
  // none), and how many it refused.
  const std::string& refused() const { return refused_; }
  int refused_count() const { return refused_count_; }

 private:
  std::string root_;
  mutable std::string refused_;
  mutable int refused_count_ = 0;
};

}  // namespace schedsim::topology::sysfs_internal

#endif  // SCHEDSIM_TOPOLOGY_SYSFS_READ_H_
