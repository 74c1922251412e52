// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// What `schedsim govd` reads of a machine (platform/linux: Probe,
// LinuxCpufreq::Open and Sample), in a dry run: the input is a pepc
// "inlinefiles" capture of /sys (tests/data/README.md, "Format"), then,
// after a line "===", the content of /proc/stat. Nothing is written.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <system_error>

#include "fuzz/fuzz_util.h"
#include "platform/linux/linux_cpufreq.h"
#include "platform/linux/probe.h"
#include "topology/testing/pepc_tree.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace host = schedsim::platform::host;
  const std::string text = schedsim::fuzz::Text(data, size);
  const size_t split = text.find("\n===\n");
  const std::string capture = text.substr(0, split);
  const std::string stat =
      split == std::string::npos ? "cpu 1 0 0 1\n" : text.substr(split + 5);
  const std::string root = schedsim::fuzz::ScratchDir() + "/govd";
  std::error_code ec;
  std::filesystem::remove_all(root, ec);
  int files = 0;
  absl::Status laid = schedsim::topology::testing::LayOutPepcCaptureText(
      capture, root, "fuzz", &files);
  if (laid.ok() && files <= 4000) {
    std::filesystem::create_directories(root + "/proc", ec);
    std::filesystem::create_directories(root + "/dev", ec);
    schedsim::fuzz::WriteScratch("govd/proc/stat",
                                 reinterpret_cast<const uint8_t*>(stat.data()),
                                 stat.size());
    host::LinuxPaths paths;
    paths.sysfs_root = root + "/sys";
    paths.proc_root = root + "/proc";
    paths.dev_root = root + "/dev";
    (void)host::Probe(paths).Text();
    host::LinuxFreqOptions options;
    options.paths = paths;
    options.apply = false;
    options.governor_name = "schedutil";
    absl::StatusOr<std::unique_ptr<host::LinuxCpufreq>> cpufreq =
        host::LinuxCpufreq::Open(options, nullptr);
    if (cpufreq.ok()) {
      for (int64_t now_ns : {1'000'000'000, 1'010'000'000}) {
        if (!(*cpufreq)->Sample(now_ns).ok()) break;
        for (const auto& d : (*cpufreq)->domains()) {
          (void)(*cpufreq)->DescribeInputs(*d);
        }
      }
    }
  }
  std::filesystem::remove_all(root, ec);
  return 0;
}
