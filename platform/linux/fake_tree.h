// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Test helper: a synthetic Linux machine as a tree of ordinary files,
// <root>/sys, <root>/proc and <root>/dev, for the Linux backend's tests.
// Files end in a newline, as sysfs prints them.
//
//   FakeMachine m;                         // 2 CPUs, one acpi-cpufreq
//   m.policies.push_back(FakePolicy());    // policy0 over CPUs 0-1
//   absl::StatusOr<LinuxPaths> paths = MakeFakeLinuxTree(dir, m);
//   WriteProcStat(*paths, {{0, busy, idle}, ...});

#ifndef SCHEDSIM_PLATFORM_LINUX_FAKE_TREE_H_
#define SCHEDSIM_PLATFORM_LINUX_FAKE_TREE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "platform/linux/linux_sysfs.h"
#include "platform/linux/msr.h"
#include "platform/linux/proc_stat.h"

namespace schedsim::platform::host::testing {

struct FakePolicy {
  int policy = 0;
  std::vector<int> cpus = {0, 1};
  std::string driver = "acpi-cpufreq";
  std::string governor = "schedutil";
  std::string available_governors =
      "conservative ondemand userspace powersave performance schedutil";
  // Empty: no scaling_available_frequencies file.
  std::vector<int64_t> available_khz = {2800000, 2100000, 1500000};
  int64_t cpuinfo_min_khz = 1500000;
  int64_t cpuinfo_max_khz = 2800000;
  int64_t scaling_min_khz = 1500000;
  int64_t scaling_max_khz = 2800000;
  int64_t cur_khz = 1500000;
  std::string setspeed = "<unsupported>";
  // Non-empty: energy_performance_preference with this value.
  std::string epp;
};

struct FakeMachine {
  int num_cpus = 2;
  std::vector<FakePolicy> policies;
  bool cpuidle = true;  // cpuN/cpuidle/state0..2 (POLL, C1, C2)
  // Non-empty: devices/system/cpu/intel_pstate/hwp_dynamic_boost exists
  // (with an intel_pstate policy, the backend sees HWP).
  bool intel_pstate_hwp = false;
};

// Creates `dir` if needed and writes <dir>/sys, <dir>/proc/stat (every CPU
// idle) and an empty <dir>/dev. Returns the paths to hand to the backend.
absl::StatusOr<LinuxPaths> MakeFakeLinuxTree(const std::string& dir,
                                             const FakeMachine& machine);

// Writes `path`, creating its directories.
absl::Status WriteTestFile(const std::string& path, absl::string_view content);

// Rewrites <proc_root>/stat with one line per CpuTimes.
absl::Status WriteProcStat(const LinuxPaths& paths,
                           const std::vector<CpuTimes>& cpus);

// Sets MSR `reg` of `cpu` in a stand-in <dev_root>/cpu/<cpu>/msr (an
// ordinary file, created if missing, where offset `reg` holds the 8-byte
// value), as the msr driver's pread would return it.
absl::Status WriteFakeMsr(const LinuxPaths& paths, int cpu, uint32_t reg,
                          uint64_t value);
// Reads it back (0 when unreadable).
uint64_t ReadFakeMsr(const LinuxPaths& paths, int cpu, uint32_t reg);

// MSRs as a map, for the backend's MsrAccess seam.
class FakeMsrAccess final : public MsrAccess {
 public:
  void Set(int cpu, uint32_t reg, uint64_t value) { regs_[{cpu, reg}] = value; }
  // 0 when never set.
  uint64_t Get(int cpu, uint32_t reg) const;
  // Reads of a register never set fail with NotFound; writes always work.
  absl::StatusOr<uint64_t> Read(int cpu, uint32_t reg) override;
  absl::Status Write(int cpu, uint32_t reg, uint64_t value) override;
  std::string Where(int cpu) const override;
  int writes() const { return writes_; }

 private:
  std::map<std::pair<int, uint32_t>, uint64_t> regs_;
  int writes_ = 0;
};

// Content and modification time of every regular file under `dir`, by
// path.
struct FileState {
  std::string content;
  int64_t mtime_ns = 0;
  bool operator==(const FileState& o) const {
    return content == o.content && mtime_ns == o.mtime_ns;
  }
};
std::map<std::string, FileState> TreeState(const std::string& dir);

// The content of a file, "" when unreadable.
std::string ReadTestFile(const std::string& path);

}  // namespace schedsim::platform::host::testing

#endif  // SCHEDSIM_PLATFORM_LINUX_FAKE_TREE_H_
