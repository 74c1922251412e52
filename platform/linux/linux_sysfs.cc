// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/linux_sysfs.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <set>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "base/input_file.h"

namespace schedsim::platform::host {
namespace {

// Largest CPU id accepted in a list: far above any kernel's NR_CPUS, small
// enough that a bogus range cannot exhaust memory.
constexpr int kMaxCpuId = 1 << 16;

// Closes a file descriptor on scope exit.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::string QuoteForError(absl::string_view text) {
  constexpr size_t kMaxShown = 80;
  absl::string_view t = absl::StripAsciiWhitespace(text);
  std::string shown = absl::CEscape(t.substr(0, kMaxShown));
  if (t.size() > kMaxShown) absl::StrAppend(&shown, "...");
  return absl::StrCat("'", shown, "'");
}

absl::StatusOr<std::vector<int>> ParseCpuListText(absl::string_view text,
                                                  absl::string_view path) {
  std::set<int> ids;
  absl::string_view t = absl::StripAsciiWhitespace(text);
  if (!t.empty()) {
    // cpulists ("0-3,8") and cpufreq's space-separated lists ("0 64").
    for (absl::string_view part :
         absl::StrSplit(t, absl::ByAnyChar(", \t\n"), absl::SkipEmpty())) {
      std::vector<absl::string_view> ends = absl::StrSplit(part, '-');
      int lo = 0;
      int hi = 0;
      if (ends.size() > 2 || !absl::SimpleAtoi(ends.front(), &lo) ||
          !absl::SimpleAtoi(ends.back(), &hi) || lo < 0 || hi < lo ||
          hi > kMaxCpuId) {
        return absl::InvalidArgumentError(
            absl::StrCat("expected a CPU list like '0-3,8' or '0 1' in ", path,
                         ", got ", QuoteForError(text)));
      }
      for (int id = lo; id <= hi; ++id) ids.insert(id);
    }
  }
  return std::vector<int>(ids.begin(), ids.end());
}

std::string AbsolutePath(const std::string& path) {
  if (char* real = realpath(path.c_str(), nullptr)) {
    std::string resolved(real);
    free(real);
    return resolved;
  }
  if (!path.empty() && path[0] == '/') return path;
  char cwd[4096];
  if (getcwd(cwd, sizeof(cwd)) == nullptr) return path;
  return absl::StrCat(cwd, "/", path);
}

LinuxSysfs::LinuxSysfs(std::string root, int64_t max_file_bytes)
    : root_(std::move(root)), max_file_bytes_(max_file_bytes) {
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
}

std::string LinuxSysfs::Path(absl::string_view rel) const {
  return absl::StrCat(root_, "/", rel);
}

bool LinuxSysfs::Exists(absl::string_view rel) const {
  struct stat st;
  return stat(Path(rel).c_str(), &st) == 0;
}

bool LinuxSysfs::IsDir(absl::string_view rel) const {
  struct stat st;
  return stat(Path(rel).c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool LinuxSysfs::Writable(absl::string_view rel) const {
  return access(Path(rel).c_str(), W_OK) == 0;
}

absl::StatusOr<std::string> LinuxSysfs::ReadRaw(absl::string_view rel) const {
  // Bounded (issue 14 #5): a file that never ends, or one that grows while
  // govd runs, is an error naming it and the limit, not std::bad_alloc. A
  // FIFO or a device planted in the tree is refused without blocking.
  const std::string path = Path(rel);
  return base::ReadInputFile(path, "sysfs or procfs file", max_file_bytes_);
}

absl::StatusOr<std::string> LinuxSysfs::Read(absl::string_view rel) const {
  absl::StatusOr<std::string> raw = ReadRaw(rel);
  if (!raw.ok()) return raw.status();
  return std::string(absl::StripAsciiWhitespace(*raw));
}

absl::StatusOr<int64_t> LinuxSysfs::ReadInt(absl::string_view rel) const {
  absl::StatusOr<std::string> text = Read(rel);
  if (!text.ok()) return text.status();
  int64_t value = 0;
  if (text->empty() || !absl::SimpleAtoi(*text, &value)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "expected an integer in ", Path(rel), ", got ", QuoteForError(*text)));
  }
  return value;
}

absl::StatusOr<std::vector<int>> LinuxSysfs::ReadCpuList(
    absl::string_view rel) const {
  absl::StatusOr<std::string> text = ReadRaw(rel);
  if (!text.ok()) return text.status();
  return ParseCpuListText(*text, Path(rel));
}

absl::Status LinuxSysfs::CheckInsideRoot(absl::string_view rel) const {
  const std::string path = Path(rel);
  char* real_root = realpath(root_.c_str(), nullptr);
  if (real_root == nullptr) {
    return absl::ErrnoToStatus(errno, absl::StrCat("cannot resolve ", root_));
  }
  std::string root(real_root);
  free(real_root);
  char* real = realpath(path.c_str(), nullptr);
  if (real == nullptr) {
    return absl::ErrnoToStatus(errno, absl::StrCat("cannot resolve ", path));
  }
  std::string target(real);
  free(real);
  if (root != "/" && target != root &&
      !absl::StartsWith(target, absl::StrCat(root, "/"))) {
    return absl::PermissionDeniedError(
        absl::StrCat("refusing to write ", path, ": it resolves to ", target,
                     ", outside the root ", root_, " (", root, ")"));
  }
  return absl::OkStatus();
}

absl::Status LinuxSysfs::WriteRaw(absl::string_view rel,
                                  absl::string_view content) const {
  const std::string path = Path(rel);
  if (absl::Status inside = CheckInsideRoot(rel); !inside.ok()) {
    if (inside.code() == absl::StatusCode::kNotFound) {
      return absl::NotFoundError(absl::StrCat(
          "cannot open ", path, " for writing: ", inside.message()));
    }
    return inside;
  }
  struct stat st;
  int flags = O_WRONLY | O_CLOEXEC | O_NOFOLLOW;
  // Truncate ordinary files (test trees); sysfs ignores O_TRUNC anyway.
  if (stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) flags |= O_TRUNC;
  Fd fd(open(path.c_str(), flags));
  if (fd.get() < 0) {
    return absl::ErrnoToStatus(
        errno, absl::StrCat("cannot open ", path, " for writing"));
  }
  ssize_t n = 0;
  do {
    n = write(fd.get(), content.data(), content.size());
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    return absl::ErrnoToStatus(
        errno,
        absl::StrCat("cannot write ", QuoteForError(content), " to ", path));
  }
  if (static_cast<size_t>(n) != content.size()) {
    return absl::DataLossError(
        absl::StrCat("short write of ", QuoteForError(content), " to ", path,
                     ": ", n, " of ", content.size(), " bytes"));
  }
  return absl::OkStatus();
}

absl::Status LinuxSysfs::Write(absl::string_view rel,
                               absl::string_view value) const {
  return WriteRaw(rel, absl::StrCat(value, "\n"));
}

std::vector<int> LinuxSysfs::NumberedEntries(absl::string_view rel,
                                             absl::string_view prefix) const {
  std::vector<int> numbers;
  DIR* dir = opendir(Path(rel).c_str());
  if (dir == nullptr) return numbers;
  while (const struct dirent* e = readdir(dir)) {
    absl::string_view name = e->d_name;
    if (!absl::ConsumePrefix(&name, prefix) || name.empty() ||
        name.size() > 9 ||
        !std::all_of(name.begin(), name.end(), absl::ascii_isdigit)) {
      continue;
    }
    int n = 0;
    if (absl::SimpleAtoi(name, &n)) numbers.push_back(n);
  }
  closedir(dir);
  std::sort(numbers.begin(), numbers.end());
  return numbers;
}

}  // namespace schedsim::platform::host
