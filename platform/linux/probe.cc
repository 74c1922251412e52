// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/probe.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "platform/linux/msr.h"
#include "platform/linux/proc_stat.h"
#include "topology/cpuset.h"

namespace schedsim::platform::host {
namespace {

std::string JoinSet(const std::set<std::string>& values) {
  return values.empty() ? "?" : absl::StrJoin(values, ", ");
}

// "0-3,8" from a list of ids.
std::string IdList(const std::vector<int>& ids) {
  if (ids.empty()) return "";
  topology::CpuSet set(ids.back() + 1);
  for (int id : ids) set.Set(id);
  return set.ToList();
}

void ProbeCpufreq(const LinuxSysfs& sysfs, ProbeReport& r) {
  const std::string dir = absl::StrCat(kSysfsCpuDir, "/cpufreq");
  r.policies = sysfs.NumberedEntries(dir, "policy");
  if (r.policies.empty()) {
    r.pieces.push_back(
        {"cpufreq", false,
         absl::StrCat("no cpufreq policies in ", sysfs.Path(dir),
                      sysfs.IsDir(dir) ? "" : " (no such directory)",
                      ": no cpufreq driver is loaded (usual in VMs and "
                      "containers; on bare metal check the BIOS and the "
                      "kernel's cpufreq drivers)")});
    return;
  }
  std::set<std::string> drivers, governors, no_userspace, offered;
  std::vector<int> with_userspace, with_epp;
  for (int p : r.policies) {
    const std::string pdir = absl::StrCat(dir, "/policy", p);
    const std::string driver =
        sysfs.Read(absl::StrCat(pdir, "/scaling_driver")).value_or("?");
    drivers.insert(driver);
    governors.insert(
        sysfs.Read(absl::StrCat(pdir, "/scaling_governor")).value_or("?"));
    const std::string available =
        sysfs.Read(absl::StrCat(pdir, "/scaling_available_governors"))
            .value_or("");
    std::vector<std::string> names =
        absl::StrSplit(available, ' ', absl::SkipEmpty());
    const bool userspace =
        std::find(names.begin(), names.end(), "userspace") != names.end() &&
        sysfs.Exists(absl::StrCat(pdir, "/scaling_setspeed"));
    if (userspace) {
      with_userspace.push_back(p);
    } else {
      no_userspace.insert(driver);
      offered.insert(available.empty() ? "none listed" : available);
    }
    if (sysfs.Exists(absl::StrCat(pdir, "/energy_performance_preference"))) {
      with_epp.push_back(p);
    }
  }
  r.pieces.push_back(
      {"cpufreq", true,
       absl::StrCat("policies ", IdList(r.policies), ", driver ",
                    JoinSet(drivers), ", governor ", JoinSet(governors))});
  if (with_userspace.size() == r.policies.size()) {
    r.pieces.push_back({"userspace governor", true,
                        absl::StrCat("scaling_setspeed usable on policies ",
                                     IdList(with_userspace))});
  } else {
    r.pieces.push_back(
        {"userspace governor", false,
         absl::StrCat(
             with_userspace.empty()
                 ? std::string("no policy")
                 : absl::StrCat("only policies ", IdList(with_userspace)),
             " offers `userspace` with scaling_setspeed (driver ",
             JoinSet(no_userspace), " offers: ", JoinSet(offered),
             "): target frequencies cannot be set there; HWP requests map "
             "onto scaling_min/max_freq and EPP",
             no_userspace.count("intel_pstate")
                 ? "; intel_pstate in passive mode offers `userspace`"
                 : "")});
  }
  if (!with_epp.empty()) {
    r.pieces.push_back(
        {"EPP", true,
         absl::StrCat("energy_performance_preference on policies ",
                      IdList(with_epp))});
  } else {
    r.pieces.push_back(
        {"EPP", false,
         absl::StrCat("no energy_performance_preference (driver ",
                      JoinSet(drivers),
                      " has no HWP/CPPC energy preference): HWP requests "
                      "cannot carry EPP")});
  }
}

void ProbeCpuidle(const LinuxSysfs& sysfs, int cpu, ProbeReport& r) {
  const std::string dir = absl::StrCat(kSysfsCpuDir, "/cpu", cpu, "/cpuidle");
  const std::vector<int> states = sysfs.NumberedEntries(dir, "state");
  if (states.empty()) {
    r.pieces.push_back(
        {"cpuidle", false,
         absl::StrCat("no idle states in ", sysfs.Path(dir),
                      ": no cpuidle driver (idle left to the hypervisor, or "
                      "cpuidle.off=1); idle-state disable and shadow "
                      "evaluation need them")});
    return;
  }
  std::vector<std::string> names;
  for (int k : states) {
    names.push_back(sysfs.Read(absl::StrCat(dir, "/state", k, "/name"))
                        .value_or(absl::StrCat("state", k)));
  }
  const std::string common = absl::StrCat(kSysfsCpuDir, "/cpuidle");
  std::string governor =
      sysfs.Read(absl::StrCat(common, "/current_governor_ro")).value_or("");
  if (governor.empty()) {
    governor =
        sysfs.Read(absl::StrCat(common, "/current_governor")).value_or("?");
  }
  r.pieces.push_back(
      {"cpuidle", true,
       absl::StrCat(
           "driver ",
           sysfs.Read(absl::StrCat(common, "/current_driver")).value_or("?"),
           ", governor ", governor, ", states ", absl::StrJoin(names, " "),
           " (CPU ", cpu, ")")});
}

void ProbeMsr(const std::string& dev_root, int cpu, ProbeReport& r) {
  const std::string path = MsrPath(dev_root, cpu);
  if (access(path.c_str(), F_OK) != 0) {
    r.pieces.push_back(
        {"MSR", false,
         absl::StrCat(path,
                      " does not exist: load the msr module (modprobe msr); "
                      "without it APERF/MPERF/TSC are derived from "
                      "/proc/stat and HWP requests cannot go to the MSR")});
    return;
  }
  absl::StatusOr<uint64_t> tsc = ReadMsr(dev_root, cpu, kMsrTsc);
  if (!tsc.ok()) {
    r.pieces.push_back(
        {"MSR", false,
         absl::StrCat(tsc.status().message(),
                      " (reading MSRs needs root or CAP_SYS_RAWIO)")});
    return;
  }
  r.pieces.push_back({"MSR", true, absl::StrCat(path, " readable")});
}

void ProbeDmaLatency(const std::string& dev_root, ProbeReport& r) {
  const std::string path = absl::StrCat(dev_root, "/cpu_dma_latency");
  if (access(path.c_str(), F_OK) != 0) {
    r.pieces.push_back({"cpu_dma_latency", false,
                        absl::StrCat(path,
                                     " does not exist (kernel without "
                                     "PM QoS CPU latency support)")});
    return;
  }
  if (access(path.c_str(), W_OK) != 0) {
    r.pieces.push_back(
        {"cpu_dma_latency", false,
         absl::StrCat(path, " is not writable (PM QoS requests need root)")});
    return;
  }
  r.pieces.push_back(
      {"cpu_dma_latency", true, absl::StrCat(path, " writable")});
}

void ProbeProcStat(const LinuxSysfs& proc, ProbeReport& r) {
  absl::StatusOr<std::string> text = proc.ReadRaw("stat");
  if (!text.ok()) {
    r.pieces.push_back(
        {"/proc/stat", false, std::string(text.status().message())});
    return;
  }
  absl::StatusOr<std::vector<CpuTimes>> times =
      ParseProcStat(*text, proc.Path("stat"));
  if (!times.ok()) {
    r.pieces.push_back(
        {"/proc/stat", false, std::string(times.status().message())});
    return;
  }
  if (times->empty()) {
    r.pieces.push_back(
        {"/proc/stat", false,
         absl::StrCat("no per-CPU lines in ", proc.Path("stat"))});
    return;
  }
  r.pieces.push_back(
      {"/proc/stat", true,
       absl::StrCat(times->size(), " CPUs in ", proc.Path("stat"))});
}

}  // namespace

const ProbePiece* ProbeReport::Find(absl::string_view name) const {
  for (const ProbePiece& p : pieces) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

bool ProbeReport::Has(absl::string_view name) const {
  const ProbePiece* p = Find(name);
  return p != nullptr && p->present;
}

std::vector<ProbePiece> ProbeReport::Missing() const {
  std::vector<ProbePiece> out;
  for (const ProbePiece& p : pieces) {
    if (!p.present) out.push_back(p);
  }
  return out;
}

std::string ProbeReport::Text() const {
  std::string out;
  for (const ProbePiece& p : pieces) {
    absl::StrAppend(&out, p.present ? "  present  " : "  MISSING  ", p.name,
                    ": ", p.detail, "\n");
  }
  return out;
}

ProbeReport Probe(const LinuxPaths& paths) {
  ProbeReport r;
  const LinuxSysfs sysfs(paths.sysfs_root);
  const LinuxSysfs proc(paths.proc_root, base::kMaxProcFileBytes);
  ProbeCpufreq(sysfs, r);
  std::vector<int> cpus = sysfs.NumberedEntries(kSysfsCpuDir, "cpu");
  const int first = cpus.empty() ? 0 : cpus.front();
  ProbeCpuidle(sysfs, first, r);
  ProbeMsr(paths.dev_root, first, r);
  ProbeDmaLatency(paths.dev_root, r);
  ProbeProcStat(proc, r);
  return r;
}

}  // namespace schedsim::platform::host
