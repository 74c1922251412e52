// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The CPUs, cores, packages, caches and NUMA nodes of a sysfs tree read by
// libhwloc's own Linux backend (sysfs.h says when): the backend runs in a
// limited trial child with HWLOC_FSROOT pointing at the tree's filesystem
// root and writes the topology out as XML, which this process loads and
// converts as hwloc.cc converts an XML file.

#include <hwloc.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "base/child_wait.h"
#include "base/status_macros.h"
#include "topology/hwloc_objects.h"
#include "topology/sysfs_importer.h"

namespace schedsim::topology::sysfs_internal {
namespace {

using hwloc_internal::HwlocTopologyPtr;

constexpr absl::string_view kExpected =
    "expected a Linux sysfs tree with devices/system/cpu/cpuN/topology (as in "
    "/sys or a copy of it)";

// Owns a temporary file.
struct FileCloser {
  void operator()(FILE* f) const { std::fclose(f); }
};

// Everything written to `fd` from offset 0.
absl::StatusOr<std::string> ReadAll(int fd, absl::string_view source) {
  std::string out;
  char buf[1 << 16];
  while (true) {
    const ssize_t n =
        pread(fd, buf, sizeof buf, static_cast<off_t>(out.size()));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      return absl::ErrnoToStatus(
          errno, absl::StrCat("cannot read back the topology of ", source));
    }
    if (n == 0) return out;
    out.append(buf, static_cast<size_t>(n));
  }
}

// Runs libhwloc's Linux backend on `fsroot` in a trial child and returns
// the topology it found as XML text ("" when it found no PU).
absl::StatusOr<std::string> LinuxBackendXml(const std::string& fsroot,
                                            absl::string_view source) {
  std::unique_ptr<FILE, FileCloser> tmp(std::tmpfile());
  if (tmp == nullptr) {
    return absl::ErrnoToStatus(
        errno, absl::StrCat("cannot create a temporary file for ", source));
  }
  const int fd = fileno(tmp.get());
  base::TrialLimits limits = hwloc_internal::HwlocTrialLimits();
  limits.quiet = true;  // libhwloc warns on stderr about odd dumps
  const base::TrialResult r = base::RunTrialChild(limits, [&] {
    // Only in the child: the Linux backend alone (no x86 CPUID of the
    // running machine), reading the tree under `fsroot` (as `lstopo --input
    // DIR` does).
    setenv("HWLOC_FSROOT", fsroot.c_str(), 1);
    setenv("HWLOC_COMPONENTS", "linux,stop", 1);
    setenv("HWLOC_DUMPED_HWDATA_DIR",
           absl::StrCat(fsroot == "/" ? "" : fsroot, "/var/run/hwloc").c_str(),
           1);
    for (const char* v : {"HWLOC_XMLFILE", "HWLOC_SYNTHETIC",
                          "HWLOC_CPUID_PATH", "HWLOC_THISSYSTEM"}) {
      unsetenv(v);
    }
    absl::StatusOr<HwlocTopologyPtr> t =
        hwloc_internal::NewHwlocTopology(source);
    if (!t.ok() || hwloc_topology_load(t->get()) != 0 ||
        hwloc_get_nbobjs_by_type(t->get(), HWLOC_OBJ_PU) <= 0) {
      return false;
    }
    char* xml = nullptr;
    int len = 0;
    if (hwloc_topology_export_xmlbuffer(t->get(), &xml, &len, 0) != 0) {
      return false;
    }
    bool ok = true;
    for (int done = 0; ok && done < len;) {
      const ssize_t n = write(fd, xml + done, static_cast<size_t>(len - done));
      if (n < 0 && errno == EINTR) continue;
      ok = n > 0;
      if (ok) done += static_cast<int>(n);
    }
    hwloc_free_xmlbuffer(t->get(), xml);
    return ok;
  });
  SCHEDSIM_RETURN_IF_ERROR(hwloc_internal::TrialStatus(
      r, source, "reading it", absl::StrCat("; ", kExpected)));
  return ReadAll(fd, source);
}

}  // namespace

absl::StatusOr<bool> Importer::ReadTopologyWithHwloc() {
  // The filesystem root holding the tree: the tree must be a `sys`
  // directory (/sys, or DUMP/sys), and hold the bitmask topology files
  // that libhwloc reads (core_cpus or thread_siblings), which pepc captures
  // and hand-made trees lack.
  const std::string& root = tree_.root();
  const size_t slash = root.rfind('/');
  if (slash == std::string::npos || root.substr(slash + 1) != "sys" ||
      !tree_.IsDir(kCpuDir)) {
    return false;
  }
  const std::vector<int> dirs = tree_.NumberedEntries(kCpuDir, "cpu");
  if (dirs.empty() ||
      (!tree_.Exists(CpuPath(dirs.front(), "topology/core_cpus")) &&
       !tree_.Exists(CpuPath(dirs.front(), "topology/thread_siblings")) &&
       !tree_.Exists(CpuPath(dirs.front(), "topology/core_siblings")))) {
    return false;
  }
  const std::string fsroot = slash == 0 ? "/" : root.substr(0, slash);
  const std::string source = absl::StrCat(
      "sysfs tree '", root, "' (read by libhwloc's Linux backend)");

  SCHEDSIM_ASSIGN_OR_RETURN(const std::string xml,
                            LinuxBackendXml(fsroot, source));
  if (xml.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(source, ": libhwloc found no CPU in it; ", kExpected));
  }
  SCHEDSIM_ASSIGN_OR_RETURN(HwlocTopologyPtr topology,
                            hwloc_internal::NewHwlocTopology(source));
  SCHEDSIM_RETURN_IF_ERROR(
      hwloc_internal::LoadHwlocXmlText(topology.get(), xml, source, kExpected));
  hwloc_internal::ConvertOptions options;
  options.model_and_vendor = false;  // sysfs_power.cc guesses the vendor
  options.orphan_pus_join_first_node = true;
  SCHEDSIM_RETURN_IF_ERROR(hwloc_internal::AddHwlocObjects(
      topology.get(), source, options, builder_, &cpus_));
  sim_of_.clear();
  for (size_t i = 0; i < cpus_.size(); ++i) {
    sim_of_[cpus_[i]] = static_cast<int>(i);
  }
  Warn(absl::StrCat(
      "CPUs, cores, packages, caches and NUMA nodes read by libhwloc's Linux "
      "backend from ",
      fsroot,
      " (as lstopo reads it: CPUs outside the dump's cgroup left out, "
      "CPU-less NUMA nodes and packages counted but not modelled)"));
  return true;
}

}  // namespace schedsim::topology::sysfs_internal
