// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// A govd snapshot file (platform/linux/settings_snapshot.h
// LoadSnapshotFile), as `schedsim govd --restore=FILE` reads it. A file
// that loads is restored, but into a scratch tree (its own roots are
// replaced: a fuzzer never writes the machine's /sys) with MSRs in memory.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"
#include "fuzz/fuzz_util.h"
#include "platform/linux/msr.h"
#include "platform/linux/settings_snapshot.h"

namespace {

namespace host = schedsim::platform::host;

class MemoryMsr final : public host::MsrAccess {
 public:
  absl::StatusOr<uint64_t> Read(int cpu, uint32_t reg) override {
    return regs_[{cpu, reg}];
  }
  absl::Status Write(int cpu, uint32_t reg, uint64_t value) override {
    regs_[{cpu, reg}] = value;
    return absl::OkStatus();
  }
  std::string Where(int cpu) const override {
    return absl::StrCat("memory MSR of CPU ", cpu);
  }

 private:
  std::map<std::pair<int, uint32_t>, uint64_t> regs_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path =
      schedsim::fuzz::WriteScratch("govd.snapshot", data, size);
  absl::StatusOr<host::SettingsSnapshot::Loaded> loaded =
      host::SettingsSnapshot::LoadSnapshotFile(path);
  if (!loaded.ok()) return 0;
  const std::string root = schedsim::fuzz::ScratchDir() + "/root";
  std::error_code ec;
  std::filesystem::remove_all(root, ec);
  std::filesystem::create_directories(root + "/sys/devices/system/cpu", ec);
  std::filesystem::create_directories(root + "/dev", ec);
  host::LinuxPaths paths;
  paths.sysfs_root = root + "/sys";
  paths.dev_root = root + "/dev";
  MemoryMsr msr;
  {
    host::SettingsSnapshot snapshot(paths, &msr);
    snapshot.AddEntries(loaded->entries);
    for (const host::SettingsSnapshot::Entry& e : snapshot.entries()) {
      (void)snapshot.Describe(e);
    }
    (void)snapshot.Restore();
  }
  std::filesystem::remove_all(root, ec);
  return 0;
}
