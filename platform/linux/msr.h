// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Model-specific registers through the msr driver: /dev/cpu/N/msr, where a
// pread/pwrite of 8 bytes at offset REG reads/writes MSR REG of CPU N
// (arch/x86/kernel/msr.c). The device exists once `modprobe msr` ran;
// reading needs CAP_SYS_RAWIO (root) and writing may be further refused by
// the kernel's MSR write filter (msr.allow_writes, v5.9+) or lockdown.
//
// Register numbers and layouts are from the Intel SDM vol. 4 (and, for
// APERF/MPERF/TSC, the same on AMD).

#ifndef SCHEDSIM_PLATFORM_LINUX_MSR_H_
#define SCHEDSIM_PLATFORM_LINUX_MSR_H_

#include <cstdint>
#include <map>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "platform/cpufreq.h"
#include "topology/topology.h"

namespace schedsim::platform::host {

inline constexpr uint32_t kMsrTsc = 0x10;    // IA32_TIME_STAMP_COUNTER
inline constexpr uint32_t kMsrMperf = 0xE7;  // IA32_MPERF
inline constexpr uint32_t kMsrAperf = 0xE8;  // IA32_APERF
inline constexpr uint32_t kMsrHwpCapabilities = 0x771;  // IA32_HWP_CAPABILITIES
inline constexpr uint32_t kMsrHwpRequest = 0x774;       // IA32_HWP_REQUEST

// <dev_root>/cpu/<cpu>/msr.
std::string MsrPath(const std::string& dev_root, int cpu);

// Reads one MSR (opens and closes the device). Errors name the device and
// the register: NotFound without the msr module, PermissionDenied without
// root.
absl::StatusOr<uint64_t> ReadMsr(const std::string& dev_root, int cpu,
                                 uint32_t reg);
// Writes one MSR.
absl::Status WriteMsr(const std::string& dev_root, int cpu, uint32_t reg,
                      uint64_t value);

// Access to the MSRs of the machine's CPUs: the seam the backend reads
// counters and writes HWP requests through. DevMsrAccess is the real one;
// tests substitute a map (registers overlap as file offsets, so a file of
// bytes cannot stand in for several of them).
class MsrAccess {
 public:
  virtual ~MsrAccess() = default;
  virtual absl::StatusOr<uint64_t> Read(int cpu, uint32_t reg) = 0;
  virtual absl::Status Write(int cpu, uint32_t reg, uint64_t value) = 0;
  // Where CPU `cpu`'s registers are, for messages ("/dev/cpu/3/msr").
  virtual std::string Where(int cpu) const = 0;
};

// The msr driver's devices under `dev_root`. Keeps one read descriptor
// per CPU open (the sampler reads three MSRs per CPU per period); writes
// open the device each time.
class DevMsrAccess final : public MsrAccess {
 public:
  explicit DevMsrAccess(std::string dev_root)
      : dev_root_(std::move(dev_root)) {}
  DevMsrAccess(const DevMsrAccess&) = delete;
  DevMsrAccess& operator=(const DevMsrAccess&) = delete;
  ~DevMsrAccess() override;

  absl::StatusOr<uint64_t> Read(int cpu, uint32_t reg) override;
  absl::Status Write(int cpu, uint32_t reg, uint64_t value) override;
  std::string Where(int cpu) const override { return MsrPath(dev_root_, cpu); }

 private:
  std::string dev_root_;
  std::map<int, int> fds_;  // cpu -> read descriptor
};

// IA32_HWP_REQUEST fields (SDM vol. 3B 14.4.4): bits 7:0 minimum, 15:8
// maximum, 23:16 desired performance, 31:24 EPP; bits 63:32 (activity
// window, package control, the "valid" bits) are taken from `previous`.
// Values are clamped to 0..255.
uint64_t EncodeHwpRequest(const HwpRequest& request, uint64_t previous);
HwpRequest DecodeHwpRequest(uint64_t value);

// IA32_HWP_CAPABILITIES: bits 7:0 highest, 15:8 guaranteed, 23:16 most
// efficient, 31:24 lowest performance.
topology::HwpCaps DecodeHwpCapabilities(uint64_t value);

}  // namespace schedsim::platform::host

#endif  // SCHEDSIM_PLATFORM_LINUX_MSR_H_
