// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/fake_tree.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace schedsim::platform::host::testing {
namespace fs = std::filesystem;

absl::Status WriteTestFile(const std::string& path, absl::string_view content) {
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  if (ec) {
    return absl::InternalError(absl::StrCat("cannot create the directory of ",
                                            path, ": ", ec.message()));
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  out.close();
  if (!out) return absl::InternalError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

std::string ReadTestFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

absl::StatusOr<LinuxPaths> MakeFakeLinuxTree(const std::string& dir,
                                             const FakeMachine& m) {
  LinuxPaths paths;
  paths.sysfs_root = absl::StrCat(dir, "/sys");
  paths.proc_root = absl::StrCat(dir, "/proc");
  paths.dev_root = absl::StrCat(dir, "/dev");
  const std::string cpu_dir = absl::StrCat(paths.sysfs_root, "/", kSysfsCpuDir);
  std::vector<std::pair<std::string, std::string>> files;
  const auto add = [&](std::string rel, std::string value) {
    files.emplace_back(absl::StrCat(cpu_dir, "/", rel),
                       absl::StrCat(value, "\n"));
  };
  const std::string all = absl::StrCat("0-", m.num_cpus - 1);
  add("online", all);
  add("present", all);
  add("possible", all);
  for (int cpu = 0; cpu < m.num_cpus; ++cpu) {
    const std::string c = absl::StrCat("cpu", cpu);
    add(absl::StrCat(c, "/topology/core_id"), absl::StrCat(cpu));
    add(absl::StrCat(c, "/topology/physical_package_id"), "0");
    add(absl::StrCat(c, "/topology/thread_siblings_list"), absl::StrCat(cpu));
    if (m.cpuidle) {
      const char* names[] = {"POLL", "C1", "C2"};
      const int latency_us[] = {0, 1, 100};
      for (int k = 0; k < 3; ++k) {
        const std::string s = absl::StrCat(c, "/cpuidle/state", k);
        add(absl::StrCat(s, "/name"), names[k]);
        add(absl::StrCat(s, "/latency"), absl::StrCat(latency_us[k]));
        add(absl::StrCat(s, "/residency"), absl::StrCat(2 * latency_us[k]));
        add(absl::StrCat(s, "/disable"), "0");
      }
    }
  }
  if (m.cpuidle) {
    add("cpuidle/current_driver", "acpi_idle");
    add("cpuidle/current_governor", "menu");
  }
  if (m.intel_pstate_hwp) add("intel_pstate/hwp_dynamic_boost", "0");
  for (const FakePolicy& p : m.policies) {
    const std::string d = absl::StrCat("cpufreq/policy", p.policy, "/");
    const std::string cpus = absl::StrJoin(p.cpus, " ");
    add(d + "affected_cpus", cpus);
    add(d + "related_cpus", cpus);
    add(d + "scaling_driver", p.driver);
    add(d + "scaling_governor", p.governor);
    add(d + "scaling_available_governors", p.available_governors);
    if (!p.available_khz.empty()) {
      add(d + "scaling_available_frequencies",
          absl::StrJoin(p.available_khz, " "));
    }
    add(d + "cpuinfo_min_freq", absl::StrCat(p.cpuinfo_min_khz));
    add(d + "cpuinfo_max_freq", absl::StrCat(p.cpuinfo_max_khz));
    add(d + "cpuinfo_transition_latency", "0");
    add(d + "scaling_min_freq", absl::StrCat(p.scaling_min_khz));
    add(d + "scaling_max_freq", absl::StrCat(p.scaling_max_khz));
    add(d + "scaling_cur_freq", absl::StrCat(p.cur_khz));
    add(d + "scaling_setspeed", p.setspeed);
    if (!p.epp.empty()) {
      add(d + "energy_performance_preference", p.epp);
      add(d + "energy_performance_available_preferences",
          "default performance balance_performance balance_power power");
    }
  }
  for (const auto& [path, content] : files) {
    absl::Status s = WriteTestFile(path, content);
    if (!s.ok()) return s;
  }
  std::error_code ec;
  fs::create_directories(paths.dev_root, ec);
  std::vector<CpuTimes> idle;
  for (int cpu = 0; cpu < m.num_cpus; ++cpu) {
    CpuTimes t;
    t.cpu = cpu;
    t.idle = 1000;
    idle.push_back(t);
  }
  absl::Status s = WriteProcStat(paths, idle);
  if (!s.ok()) return s;
  return paths;
}

absl::Status WriteProcStat(const LinuxPaths& paths,
                           const std::vector<CpuTimes>& cpus) {
  CpuTimes sum;
  std::string lines;
  for (const CpuTimes& t : cpus) {
    absl::StrAppend(&lines, "cpu", t.cpu, " ", t.user, " ", t.nice, " ",
                    t.system, " ", t.idle, " ", t.iowait, " ", t.irq, " ",
                    t.softirq, " ", t.steal, " 0 0\n");
    sum.user += t.user;
    sum.nice += t.nice;
    sum.system += t.system;
    sum.idle += t.idle;
    sum.iowait += t.iowait;
  }
  const std::string text = absl::StrCat(
      "cpu  ", sum.user, " ", sum.nice, " ", sum.system, " ", sum.idle, " ",
      sum.iowait, " 0 0 0 0 0\n", lines, "intr 0\nctxt 0\nbtime 0\n");
  return WriteTestFile(absl::StrCat(paths.proc_root, "/stat"), text);
}

absl::Status WriteFakeMsr(const LinuxPaths& paths, int cpu, uint32_t reg,
                          uint64_t value) {
  const std::string dir = absl::StrCat(paths.dev_root, "/cpu/", cpu);
  std::error_code ec;
  fs::create_directories(dir, ec);
  const std::string path = absl::StrCat(dir, "/msr");
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return absl::InternalError(absl::StrCat("cannot open ", path));
  const ssize_t n = pwrite(fd, &value, sizeof(value), static_cast<off_t>(reg));
  close(fd);
  if (n != static_cast<ssize_t>(sizeof(value))) {
    return absl::InternalError(absl::StrCat("cannot write ", path));
  }
  return absl::OkStatus();
}

uint64_t ReadFakeMsr(const LinuxPaths& paths, int cpu, uint32_t reg) {
  const std::string path = absl::StrCat(paths.dev_root, "/cpu/", cpu, "/msr");
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  uint64_t value = 0;
  const ssize_t n = pread(fd, &value, sizeof(value), static_cast<off_t>(reg));
  close(fd);
  return n == static_cast<ssize_t>(sizeof(value)) ? value : 0;
}

uint64_t FakeMsrAccess::Get(int cpu, uint32_t reg) const {
  auto it = regs_.find({cpu, reg});
  return it == regs_.end() ? 0 : it->second;
}

absl::StatusOr<uint64_t> FakeMsrAccess::Read(int cpu, uint32_t reg) {
  auto it = regs_.find({cpu, reg});
  if (it == regs_.end()) {
    return absl::NotFoundError(absl::StrCat(
        "cannot read MSR 0x", absl::Hex(reg), " from ", Where(cpu)));
  }
  return it->second;
}

absl::Status FakeMsrAccess::Write(int cpu, uint32_t reg, uint64_t value) {
  regs_[{cpu, reg}] = value;
  ++writes_;
  return absl::OkStatus();
}

std::string FakeMsrAccess::Where(int cpu) const {
  return absl::StrCat("fake MSRs of CPU ", cpu);
}

std::map<std::string, FileState> TreeState(const std::string& dir) {
  std::map<std::string, FileState> out;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const std::string path = it->path().string();
    struct stat st;
    if (stat(path.c_str(), &st) != 0) continue;
    FileState f;
    f.content = ReadTestFile(path);
    f.mtime_ns =
        int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec;
    out[path] = f;
  }
  return out;
}

}  // namespace schedsim::platform::host::testing
