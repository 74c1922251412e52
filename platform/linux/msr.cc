// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/msr.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "absl/strings/str_cat.h"

namespace schedsim::platform::host {
namespace {

std::string RegName(uint32_t reg) { return absl::StrCat("0x", absl::Hex(reg)); }

absl::StatusOr<uint64_t> PreadMsr(int fd, const std::string& path,
                                  uint32_t reg) {
  uint64_t value = 0;
  ssize_t n = 0;
  do {
    n = pread(fd, &value, sizeof(value), static_cast<off_t>(reg));
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    return absl::ErrnoToStatus(
        errno, absl::StrCat("cannot read MSR ", RegName(reg), " from ", path));
  }
  if (n != static_cast<ssize_t>(sizeof(value))) {
    return absl::DataLossError(absl::StrCat("short read of MSR ", RegName(reg),
                                            " from ", path, ": ", n,
                                            " of 8 bytes"));
  }
  return value;
}

}  // namespace

std::string MsrPath(const std::string& dev_root, int cpu) {
  return absl::StrCat(dev_root, "/cpu/", cpu, "/msr");
}

absl::StatusOr<uint64_t> ReadMsr(const std::string& dev_root, int cpu,
                                 uint32_t reg) {
  const std::string path = MsrPath(dev_root, cpu);
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return absl::ErrnoToStatus(
        errno, absl::StrCat("cannot open ", path,
                            " (MSR access needs root and `modprobe msr`)"));
  }
  absl::StatusOr<uint64_t> value = PreadMsr(fd, path, reg);
  close(fd);
  return value;
}

absl::Status WriteMsr(const std::string& dev_root, int cpu, uint32_t reg,
                      uint64_t value) {
  const std::string path = MsrPath(dev_root, cpu);
  const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    return absl::ErrnoToStatus(
        errno, absl::StrCat("cannot open ", path, " for writing"));
  }
  ssize_t n = 0;
  do {
    n = pwrite(fd, &value, sizeof(value), static_cast<off_t>(reg));
  } while (n < 0 && errno == EINTR);
  const int saved_errno = errno;
  close(fd);
  if (n < 0) {
    return absl::ErrnoToStatus(
        saved_errno, absl::StrCat("cannot write 0x", absl::Hex(value),
                                  " to MSR ", RegName(reg), " via ", path));
  }
  if (n != static_cast<ssize_t>(sizeof(value))) {
    return absl::DataLossError(absl::StrCat("short write to MSR ", RegName(reg),
                                            " via ", path, ": ", n,
                                            " of 8 bytes"));
  }
  return absl::OkStatus();
}

DevMsrAccess::~DevMsrAccess() {
  for (const auto& [cpu, fd] : fds_) close(fd);
}

absl::StatusOr<uint64_t> DevMsrAccess::Read(int cpu, uint32_t reg) {
  auto it = fds_.find(cpu);
  if (it == fds_.end()) {
    const std::string path = MsrPath(dev_root_, cpu);
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      return absl::ErrnoToStatus(
          errno, absl::StrCat("cannot open ", path,
                              " (MSR access needs root and `modprobe msr`)"));
    }
    it = fds_.emplace(cpu, fd).first;
  }
  return PreadMsr(it->second, MsrPath(dev_root_, cpu), reg);
}

absl::Status DevMsrAccess::Write(int cpu, uint32_t reg, uint64_t value) {
  return WriteMsr(dev_root_, cpu, reg, value);
}

uint64_t EncodeHwpRequest(const HwpRequest& r, uint64_t previous) {
  const auto byte = [](int v) {
    return static_cast<uint64_t>(std::clamp(v, 0, 255));
  };
  return (previous & ~uint64_t{0xFFFFFFFF}) | byte(r.min_perf) |
         (byte(r.max_perf) << 8) | (byte(r.desired_perf) << 16) |
         (byte(r.epp) << 24);
}

HwpRequest DecodeHwpRequest(uint64_t value) {
  HwpRequest r;
  r.min_perf = static_cast<int>(value & 0xFF);
  r.max_perf = static_cast<int>((value >> 8) & 0xFF);
  r.desired_perf = static_cast<int>((value >> 16) & 0xFF);
  r.epp = static_cast<int>((value >> 24) & 0xFF);
  return r;
}

topology::HwpCaps DecodeHwpCapabilities(uint64_t value) {
  topology::HwpCaps caps;
  caps.highest = static_cast<int>(value & 0xFF);
  caps.guaranteed = static_cast<int>((value >> 8) & 0xFF);
  caps.most_efficient = static_cast<int>((value >> 16) & 0xFF);
  caps.lowest = static_cast<int>((value >> 24) & 0xFF);
  return caps;
}

}  // namespace schedsim::platform::host
