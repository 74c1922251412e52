// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/pm_qos.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include "absl/strings/str_cat.h"

namespace schedsim::platform::host {

absl::StatusOr<std::unique_ptr<CpuDmaLatencyRequest>>
CpuDmaLatencyRequest::Open(int32_t latency_us, const std::string& dev_root) {
  if (latency_us < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a CPU latency request must be >= 0 us, got ", latency_us));
  }
  std::string path = absl::StrCat(dev_root, "/cpu_dma_latency");
  const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    return absl::ErrnoToStatus(
        errno, absl::StrCat("cannot open ", path, " for writing"));
  }
  std::unique_ptr<CpuDmaLatencyRequest> request(
      new CpuDmaLatencyRequest(fd, std::move(path)));
  absl::Status s = request->Update(latency_us);
  if (!s.ok()) return s;
  return request;
}

CpuDmaLatencyRequest::~CpuDmaLatencyRequest() {
  if (fd_ >= 0) close(fd_);
}

absl::Status CpuDmaLatencyRequest::Update(int32_t latency_us) {
  if (latency_us < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a CPU latency request must be >= 0 us, got ", latency_us));
  }
  // The device ignores the offset; rewinding keeps an ordinary file (a
  // test's stand-in) at 4 bytes.
  lseek(fd_, 0, SEEK_SET);
  ssize_t n = 0;
  do {
    n = write(fd_, &latency_us, sizeof(latency_us));
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    return absl::ErrnoToStatus(
        errno, absl::StrCat("cannot write ", latency_us, " us to ", path_));
  }
  if (n != static_cast<ssize_t>(sizeof(latency_us))) {
    return absl::DataLossError(
        absl::StrCat("short write to ", path_, ": ", n, " of 4 bytes"));
  }
  latency_us_ = latency_us;
  return absl::OkStatus();
}

absl::Status SetIdleStateDisabled(SettingsSnapshot& snapshot, int cpu,
                                  int state, bool disabled) {
  const std::string rel = absl::StrCat(IdleStateDir(cpu, state), "/disable");
  if (!snapshot.sysfs().Exists(rel)) {
    return absl::NotFoundError(
        absl::StrCat("no idle state ", state, " on CPU ", cpu, ": ",
                     snapshot.sysfs().Path(rel), " does not exist"));
  }
  return snapshot.WriteFile(rel, disabled ? "1" : "0");
}

}  // namespace schedsim::platform::host
