// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "base/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace schedsim::base {

std::string ByteSize(int64_t bytes) {
  if (bytes >= kMiB && bytes % kMiB == 0) {
    return absl::StrCat(bytes / kMiB, " MiB");
  }
  if (bytes >= kKiB && bytes % kKiB == 0) {
    return absl::StrCat(bytes / kKiB, " KiB");
  }
  return absl::StrCat(bytes, bytes == 1 ? " byte" : " bytes");
}

std::string FileTypeName(unsigned mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISREG(mode)) return "a regular file";
  return "not a regular file";
}

namespace {

absl::Status TooLarge(const std::string& path, absl::string_view what,
                      int64_t max_bytes) {
  return absl::InvalidArgumentError(
      absl::StrCat(path, ": larger than the limit of ", ByteSize(max_bytes),
                   " for a ", what));
}

}  // namespace

absl::StatusOr<int> OpenInputFile(const std::string& path,
                                  absl::string_view what, int64_t max_bytes) {
  int fd;
  do {
    fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    const int err = errno;
    // Issue 49 #16: a socket cannot be opened (ENXIO, "No such device or
    // address"); say what the path is instead.
    struct stat named;
    if (stat(path.c_str(), &named) == 0 && !S_ISREG(named.st_mode) &&
        !S_ISDIR(named.st_mode)) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, ": is ", FileTypeName(named.st_mode), ", not a regular file; ",
          absl::StrContains("aeiou", what.empty() ? 'x' : what[0]) ? "an "
                                                                   : "a ",
          what, " must be a regular file"));
    }
    return absl::ErrnoToStatus(err, absl::StrCat(path, ": cannot open"));
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    const int err = errno;
    close(fd);
    return absl::ErrnoToStatus(err,
                               absl::StrCat(path, ": cannot stat the ", what));
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": is ", FileTypeName(st.st_mode), ", not a regular file; ",
        absl::StrContains("aeiou", what.empty() ? 'x' : what[0]) ? "an " : "a ",
        what, " must be a regular file"));
  }
  if (max_bytes >= 0 && st.st_size > max_bytes) {
    close(fd);
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": is ", st.st_size, " bytes, larger than the limit of ",
        ByteSize(max_bytes), " for a ", what));
  }
  const int flags = fcntl(fd, F_GETFL);
  if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

absl::StatusOr<std::string> ReadBounded(int fd, const std::string& path,
                                        absl::string_view what,
                                        int64_t max_bytes) {
  std::string content;
  char buf[1 << 16];
  while (true) {
    const ssize_t n = read(fd, buf, sizeof(buf));
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      return absl::ErrnoToStatus(
          err, absl::StrCat(path, ": cannot read the ", what));
    }
    if (n == 0) break;
    if (static_cast<int64_t>(content.size()) + n > max_bytes) {
      return TooLarge(path, what, max_bytes);
    }
    content.append(buf, static_cast<size_t>(n));
  }
  return content;
}

absl::StatusOr<std::string> ReadInputFile(const std::string& path,
                                          absl::string_view what,
                                          int64_t max_bytes) {
  absl::StatusOr<int> fd = OpenInputFile(path, what, max_bytes);
  if (!fd.ok()) return fd.status();
  absl::StatusOr<std::string> content = ReadBounded(*fd, path, what, max_bytes);
  close(*fd);
  return content;
}

}  // namespace schedsim::base
