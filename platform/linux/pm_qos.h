// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// What a cpuidle policy can do from user space on Linux. The kernel's
// governor picks a state on every idle entry, inside the kernel, and user
// space cannot take that decision; it can only bound it:
//
//   * CpuDmaLatencyRequest: a PM QoS CPU-latency request through
//     /dev/cpu_dma_latency (Documentation/power/pm_qos_interface.rst). The
//     request holds while the file stays open; every cpuidle governor then
//     skips states whose exit latency exceeds the smallest request.
//   * SetIdleStateDisabled: cpuN/cpuidle/stateK/disable, one state of one
//     CPU (Documentation/admin-guide/pm/cpuidle.rst), saved first in a
//     SettingsSnapshot so that it is put back.

#ifndef SCHEDSIM_PLATFORM_LINUX_PM_QOS_H_
#define SCHEDSIM_PLATFORM_LINUX_PM_QOS_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "platform/linux/settings_snapshot.h"

namespace schedsim::platform::host {

class CpuDmaLatencyRequest {
 public:
  // Opens <dev_root>/cpu_dma_latency and writes `latency_us` as a 4-byte
  // native-endian s32 (the binary form the kernel accepts). The request is
  // in force until the object is destroyed (the descriptor closed).
  // InvalidArgument for a negative latency; the open or write error,
  // naming the file, otherwise (opening needs root).
  static absl::StatusOr<std::unique_ptr<CpuDmaLatencyRequest>> Open(
      int32_t latency_us, const std::string& dev_root = "/dev");

  CpuDmaLatencyRequest(const CpuDmaLatencyRequest&) = delete;
  CpuDmaLatencyRequest& operator=(const CpuDmaLatencyRequest&) = delete;
  // Closes the file: the kernel drops the request.
  ~CpuDmaLatencyRequest();

  // Changes the request in place.
  absl::Status Update(int32_t latency_us);

  int32_t latency_us() const { return latency_us_; }
  const std::string& path() const { return path_; }

 private:
  CpuDmaLatencyRequest(int fd, std::string path)
      : fd_(fd), path_(std::move(path)) {}

  int fd_;
  std::string path_;
  int32_t latency_us_ = 0;
};

// Writes `disabled` ("1"/"0") to cpu<cpu>/cpuidle/state<state>/disable
// through `snapshot`, which saves the original value first and restores it
// later. NotFound naming the file when the state does not exist.
absl::Status SetIdleStateDisabled(SettingsSnapshot& snapshot, int cpu,
                                  int state, bool disabled);

}  // namespace schedsim::platform::host

#endif  // SCHEDSIM_PLATFORM_LINUX_PM_QOS_H_
