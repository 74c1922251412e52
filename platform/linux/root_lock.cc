// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/root_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace schedsim::platform::host {
namespace {

// Longest escaped root kept whole in a lock file name (NAME_MAX is 255).
constexpr size_t kMaxEscapedRoot = 160;
// Largest record read back.
constexpr size_t kMaxRecordBytes = 8192;

uint64_t Fnv1a64(const std::string& s) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// The record in `fd` (bounded); "" when unreadable.
std::string ReadRecord(int fd) {
  std::string text(kMaxRecordBytes, '\0');
  ssize_t n = 0;
  do {
    n = pread(fd, text.data(), text.size(), 0);
  } while (n < 0 && errno == EINTR);
  if (n <= 0) return "";
  text.resize(static_cast<size_t>(n));
  return text;
}

void ParseRecord(const std::string& text, long* pid, std::string* snapshot) {
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (absl::ConsumePrefix(&line, "pid ")) {
      long p = 0;
      if (absl::SimpleAtoi(line, &p) && p > 0) *pid = p;
    } else if (absl::ConsumePrefix(&line, "snapshot ")) {
      std::string unescaped;
      if (absl::CUnescape(line, &unescaped)) *snapshot = unescaped;
    }
  }
}

}  // namespace

std::string DefaultLockDir() {
  constexpr char kRunDir[] = "/run/schedsim";
  if ((mkdir(kRunDir, 0700) == 0 || errno == EEXIST) &&
      access(kRunDir, W_OK) == 0) {
    return kRunDir;
  }
  return "/tmp";
}

std::string LockFileName(const std::string& resolved_root) {
  std::string escaped;
  for (unsigned char c : resolved_root) {
    if (c == '/') {
      escaped += '-';
    } else if (absl::ascii_isalnum(c) || c == '.') {
      escaped += static_cast<char>(c);
    } else {
      absl::StrAppend(&escaped, "_", absl::Hex(c, absl::kZeroPad2));
    }
  }
  if (escaped.size() > kMaxEscapedRoot) {
    escaped = absl::StrCat(escaped.substr(0, kMaxEscapedRoot - 17), "_",
                           absl::Hex(Fnv1a64(resolved_root), absl::kZeroPad16));
  }
  return absl::StrCat("govd-root", escaped, ".lock");
}

absl::StatusOr<std::unique_ptr<RootLock>> RootLock::Acquire(
    const std::string& root, const std::string& lock_dir) {
  char* real = realpath(root.c_str(), nullptr);
  if (real == nullptr) {
    return absl::ErrnoToStatus(errno,
                               absl::StrCat("cannot resolve the root ", root));
  }
  std::unique_ptr<RootLock> lock(new RootLock());
  lock->resolved_root_ = real;
  free(real);
  lock->lock_file_ =
      absl::StrCat(lock_dir, "/", LockFileName(lock->resolved_root_));
  const std::string& file = lock->lock_file_;
  lock->fd_ =
      open(file.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (lock->fd_ < 0 && errno == EACCES) {
    // Another user's lock file: flock works on a read-only descriptor.
    lock->fd_ = open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  }
  if (lock->fd_ < 0) {
    return absl::ErrnoToStatus(
        errno, absl::StrCat("cannot open the lock file ", file, " of ",
                            lock->resolved_root_));
  }
  struct stat st;
  if (fstat(lock->fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the lock file ", file, " is not a regular file; remove it"));
  }
  int locked = 0;
  do {
    locked = flock(lock->fd_, LOCK_EX | LOCK_NB);
  } while (locked != 0 && errno == EINTR);
  if (locked != 0) {
    if (errno != EWOULDBLOCK) {
      return absl::ErrnoToStatus(
          errno,
          absl::StrCat("cannot lock ", file, " of ", lock->resolved_root_));
    }
    long pid = 0;
    std::string snapshot;
    ParseRecord(ReadRecord(lock->fd_), &pid, &snapshot);
    return absl::FailedPreconditionError(absl::StrCat(
        "another schedsim govd ",
        pid > 0 ? absl::StrCat("(PID ", pid, ") ") : std::string(),
        "is writing the settings under ", lock->resolved_root_,
        " (it holds the lock ", file, ")",
        snapshot.empty() ? std::string()
                         : absl::StrCat(" with the snapshot ", snapshot),
        "; one instance per root: stop it first (it restores its settings "
        "on SIGINT or SIGTERM)"));
  }
  ParseRecord(ReadRecord(lock->fd_), &lock->previous_pid_,
              &lock->previous_snapshot_);
  return lock;
}

RootLock::~RootLock() {
  if (fd_ >= 0) close(fd_);
}

absl::Status RootLock::Record(const std::string& snapshot) {
  std::string text = absl::StrCat("pid ", getpid(), "\n");
  if (!snapshot.empty()) {
    absl::StrAppend(&text, "snapshot ", absl::CEscape(snapshot), "\n");
  }
  const auto fail = [&]() {
    return absl::ErrnoToStatus(
        errno, absl::StrCat("cannot write the lock file ", lock_file_));
  };
  if (ftruncate(fd_, 0) != 0) return fail();
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = pwrite(fd_, text.data() + done, text.size() - done,
                             static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return fail();
    done += static_cast<size_t>(n);
  }
  if (fsync(fd_) != 0) return fail();
  return absl::OkStatus();
}

}  // namespace schedsim::platform::host
