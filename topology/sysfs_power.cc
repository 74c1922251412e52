// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Importing a Topology from sysfs (sysfs.h): the cpuidle states, the
// cpufreq policy (frequencies, driver, HWP/CPPC capabilities) and the
// vendor guessed from the drivers.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "base/status_macros.h"
#include "topology/cpuset.h"
#include "topology/sysfs_importer.h"
#include "topology/sysfs_read.h"
#include "topology/topology.h"

namespace schedsim::topology::sysfs_internal {
namespace {

// The kernel prints (unsigned int)-1 for "unknown" in several files
// (cpuidle `power`, CPUFREQ_ETERNAL transition latency).
constexpr int64_t kUnknownU32 = 4294967295;

// Accepted cpuidle `power` values, in mW per CPU.
constexpr int64_t kMaxPlausibleStatePowerMw = 100000;

}  // namespace

absl::Status Importer::ReadCStates() {
  const std::string dir = CpuPath(cpus_[0], "cpuidle");
  std::vector<int> states = tree_.NumberedEntries(dir, "state");
  if (states.empty()) {
    Warn(absl::StrCat("no idle states in ", tree_.Path(dir),
                      "; C-state table left empty"));
    return absl::OkStatus();
  }
  std::vector<CState> table;
  std::set<std::string> missing;
  for (int k : states) {
    const std::string sdir = absl::StrCat(dir, "/state", k);
    const auto file = [&](absl::string_view name) {
      return absl::StrCat(sdir, "/", name);
    };
    CState s;
    std::optional<std::string> name = OptString(file("name"));
    if (name.has_value() && !name->empty()) {
      s.name = *name;
    } else {
      s.name = absl::StrCat("state", k);
      missing.insert(absl::StrCat("state", k, "/name"));
    }
    s.desc = OptString(file("desc")).value_or("");
    SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> latency_us,
                              OptInt(file("latency")));
    SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> residency_us,
                              OptInt(file("residency")));
    SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> power_mw,
                              OptInt(file("power")));
    SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> disable,
                              OptInt(file("disable")));
    if (!latency_us.has_value()) {
      missing.insert(absl::StrCat("state", k, "/latency"));
    }
    if (!residency_us.has_value()) {
      missing.insert(absl::StrCat("state", k, "/residency"));
    }
    // Microseconds to nanoseconds, keeping absurd values in range.
    constexpr int64_t kMaxUs = int64_t{1} << 40;
    s.exit_latency_ns =
        std::clamp<int64_t>(latency_us.value_or(0), 0, kMaxUs) * 1000;
    s.target_residency_ns =
        std::clamp<int64_t>(residency_us.value_or(0), 0, kMaxUs) * 1000;
    s.physical_exit_ns = s.exit_latency_ns;
    s.physical_entry_ns = 0;
    const int64_t p = power_mw.value_or(0);
    s.power_mw = (p > 0 && p < kMaxPlausibleStatePowerMw) ? p : 0;
    s.disabled = disable.value_or(0) != 0;
    if (s.name == "POLL") s.flags |= CState::kPolling;
    table.push_back(std::move(s));
  }
  if (!missing.empty()) {
    Warn(absl::StrCat("idle state files missing in ", tree_.Path(dir), ": ",
                      absl::StrJoin(missing, ", "),
                      "; latency/residency taken as 0"));
  }
  builder_.set_cstates(std::move(table));
  return absl::OkStatus();
}

// The cpufreq directory of the first CPU, or "" when there is none.
absl::StatusOr<std::string> Importer::FindCpufreqDir() {
  const int first = cpus_[0];
  const std::string own = CpuPath(first, "cpufreq");
  for (absl::string_view probe : {"cpuinfo_max_freq", "scaling_driver"}) {
    if (tree_.Exists(absl::StrCat(own, "/", probe))) return own;
  }
  const std::string policies = absl::StrCat(kCpuDir, "/cpufreq");
  const std::string same = absl::StrCat(policies, "/policy", first);
  if (tree_.IsDir(same)) return same;
  for (int p : tree_.NumberedEntries(policies, "policy")) {
    const std::string dir = absl::StrCat(policies, "/policy", p);
    SCHEDSIM_ASSIGN_OR_RETURN(std::optional<std::vector<int>> related,
                              OptCpuList(absl::StrCat(dir, "/related_cpus")));
    if (related.has_value() &&
        std::find(related->begin(), related->end(), 0) != related->end()) {
      return dir;
    }
  }
  return std::string();
}

absl::Status Importer::ReadFrequency() {
  FrequencySpec f;
  SCHEDSIM_ASSIGN_OR_RETURN(cpufreq_dir_, FindCpufreqDir());
  const std::string cppc = CpuPath(cpus_[0], "acpi_cppc");
  const auto cppc_file = [&](absl::string_view name) {
    return absl::StrCat(cppc, "/", name);
  };
  SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> lowest_perf,
                            OptInt(cppc_file("lowest_perf")));
  SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> nonlinear_perf,
                            OptInt(cppc_file("lowest_nonlinear_perf")));
  SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> nominal_perf,
                            OptInt(cppc_file("nominal_perf")));
  SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> highest_perf,
                            OptInt(cppc_file("highest_perf")));
  SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> nominal_mhz,
                            OptInt(cppc_file("nominal_freq")));
  auto perf = [](const std::optional<int64_t>& v) {
    return static_cast<int>(std::clamp<int64_t>(v.value_or(0), 0, 1 << 20));
  };
  f.hwp.lowest = perf(lowest_perf);
  f.hwp.most_efficient = perf(nonlinear_perf);
  f.hwp.guaranteed = perf(nominal_perf);
  f.hwp.highest = perf(highest_perf);

  if (cpufreq_dir_.empty()) {
    Warn(absl::StrCat("no cpufreq for CPU ", cpus_[0], " (",
                      tree_.Path(CpuPath(cpus_[0], "cpufreq")), " or ",
                      tree_.Path(kCpuDir), "/cpufreq/policy*)",
                      "; frequencies left 0"));
    builder_.set_frequency(std::move(f));
    return absl::OkStatus();
  }
  const auto file = [&](absl::string_view name) {
    return absl::StrCat(cpufreq_dir_, "/", name);
  };
  constexpr int64_t kMaxKhz = int64_t{1} << 40;
  SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> min_khz,
                            OptInt(file("cpuinfo_min_freq")));
  SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> max_khz,
                            OptInt(file("cpuinfo_max_freq")));
  if (!min_khz.has_value() || !max_khz.has_value()) {
    Warn(absl::StrCat("cpuinfo_min_freq or cpuinfo_max_freq missing in ",
                      tree_.Path(cpufreq_dir_), "; taken as 0"));
  }
  f.min_khz = std::clamp<int64_t>(min_khz.value_or(0), 0, kMaxKhz);
  f.max_turbo_khz = std::clamp<int64_t>(max_khz.value_or(0), 0, kMaxKhz);

  const std::string avail_rel = file("scaling_available_frequencies");
  if (std::optional<std::string> avail = tree_.Read(avail_rel)) {
    SCHEDSIM_ASSIGN_OR_RETURN(
        std::vector<int64_t> khz,
        ParseIntRow(tree_.Path(avail_rel), *avail,
                    "space-separated frequencies in kHz"));
    for (int64_t v : khz) {
      if (v > 0 && v < kMaxKhz) f.pstates_khz.push_back(v);
    }
    std::sort(f.pstates_khz.rbegin(), f.pstates_khz.rend());
    f.pstates_khz.erase(std::unique(f.pstates_khz.begin(), f.pstates_khz.end()),
                        f.pstates_khz.end());
  }

  SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> base_khz,
                            OptInt(file("base_frequency")));
  if (base_khz.has_value() && *base_khz > 0) {
    f.base_khz = std::min(*base_khz, kMaxKhz);
  } else if (!f.pstates_khz.empty()) {
    f.base_khz = f.pstates_khz.front();
    Warn(absl::StrCat("no base_frequency; base taken as ", f.base_khz,
                      " kHz, the highest of scaling_available_frequencies "
                      "(ACPI P0)"));
  } else if (nominal_mhz.has_value() && *nominal_mhz > 0) {
    f.base_khz = std::min(*nominal_mhz, kMaxKhz / 1000) * 1000;
    Warn(absl::StrCat("no base_frequency; base taken as ", f.base_khz,
                      " kHz from acpi_cppc/nominal_freq"));
  } else {
    f.base_khz = f.max_turbo_khz;
    Warn("base frequency unknown; assumed cpuinfo_max_freq");
  }

  SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> latency_ns,
                            OptInt(file("cpuinfo_transition_latency")));
  if (latency_ns.has_value() &&
      (*latency_ns < 0 || *latency_ns >= kUnknownU32)) {
    Warn("cpuinfo_transition_latency unknown (CPUFREQ_ETERNAL); taken as 0");
    latency_ns.reset();
  }
  f.transition_latency_ns = latency_ns.value_or(0);
  f.driver = OptString(file("scaling_driver")).value_or("");
  f.governor = OptString(file("scaling_governor")).value_or("");

  f.has_epp = tree_.Exists(file("energy_performance_preference")) ||
              tree_.Exists(file("energy_performance_available_preferences"));
  const bool intel_driver =
      f.driver == "intel_pstate" || f.driver == "intel_cpufreq";
  f.has_hwp =
      (intel_driver && (tree_.Exists(absl::StrCat(
                            kCpuDir, "/intel_pstate/hwp_dynamic_boost")) ||
                        f.has_epp)) ||
      absl::StartsWith(f.driver, "amd-pstate");

  if (nominal_perf.has_value() && *nominal_perf > 0) {
    const int64_t nominal_khz =
        (nominal_mhz.has_value() && *nominal_mhz > 0)
            ? std::min(*nominal_mhz, kMaxKhz / 1000) * 1000
            : f.base_khz;
    if (nominal_khz > 0) {
      f.khz_per_perf_unit = (nominal_khz + *nominal_perf / 2) / *nominal_perf;
    }
  }
  driver_ = f.driver;
  builder_.set_frequency(std::move(f));
  return absl::OkStatus();
}

absl::Status Importer::ReadCapacities() {
  std::vector<int64_t> caps(cpus_.size(), 0);
  size_t known = 0;
  int64_t largest = 0;
  for (size_t sim = 0; sim < cpus_.size(); ++sim) {
    const std::string rel = CpuPath(cpus_[sim], "cpu_capacity");
    SCHEDSIM_ASSIGN_OR_RETURN(std::optional<int64_t> cap, OptInt(rel));
    if (!cap.has_value()) continue;
    if (*cap <= 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "expected a CPU capacity > 0 in ", tree_.Path(rel), ", got ", *cap));
    }
    caps[sim] = *cap;
    largest = std::max(largest, *cap);
    ++known;
  }
  if (known == 0) return absl::OkStatus();
  if (known < cpus_.size()) {
    Warn(absl::StrCat("cpu_capacity on ", known, " of ", cpus_.size(),
                      " CPUs: ignored, every CPU modelled at capacity 1024"));
    return absl::OkStatus();
  }
  if (std::all_of(caps.begin(), caps.end(),
                  [&](int64_t c) { return c == caps[0]; })) {
    return absl::OkStatus();
  }
  for (size_t sim = 0; sim < cpus_.size(); ++sim) {
    const int64_t scaled = std::max<int64_t>(
        1, std::llround(1024.0 * static_cast<double>(caps[sim]) /
                        static_cast<double>(largest)));
    builder_.set_capacity(static_cast<int>(sim), static_cast<int>(scaled));
  }
  capacities_set_ = true;
  return absl::OkStatus();
}

void Importer::NoteHybridCpus() {
  // Each CPU's maximum frequency: its own cpufreq directory, else the
  // policy whose related_cpus holds it.
  std::map<int, int64_t> max_khz;  // simulated CPU -> kHz
  for (size_t sim = 0; sim < cpus_.size(); ++sim) {
    std::optional<std::string> text =
        tree_.Read(CpuPath(cpus_[sim], "cpufreq/cpuinfo_max_freq"));
    int64_t khz = 0;
    if (text.has_value() &&
        absl::SimpleAtoi(absl::StripAsciiWhitespace(*text), &khz) && khz > 0) {
      max_khz[static_cast<int>(sim)] = khz;
    }
  }
  const std::string policies = absl::StrCat(kCpuDir, "/cpufreq");
  for (int p : tree_.NumberedEntries(policies, "policy")) {
    const std::string dir = absl::StrCat(policies, "/policy", p);
    std::optional<std::string> text =
        tree_.Read(absl::StrCat(dir, "/cpuinfo_max_freq"));
    std::optional<std::string> related =
        tree_.Read(absl::StrCat(dir, "/related_cpus"));
    int64_t khz = 0;
    if (!text.has_value() || !related.has_value() ||
        !absl::SimpleAtoi(absl::StripAsciiWhitespace(*text), &khz) ||
        khz <= 0) {
      continue;
    }
    absl::StatusOr<std::vector<int>> ids =
        ParseIdList(tree_.Path(absl::StrCat(dir, "/related_cpus")), *related);
    if (!ids.ok()) continue;
    for (int id : *ids) {
      auto it = sim_of_.find(id);
      if (it != sim_of_.end()) max_khz.emplace(it->second, khz);
    }
  }
  std::map<int64_t, std::vector<int>> cpus_at;  // kHz -> sysfs CPU ids
  for (const auto& [sim, khz] : max_khz) cpus_at[khz].push_back(cpus_[sim]);
  const auto list = [](const std::vector<int>& ids) {
    CpuSet set(ids.empty() ? 1 : *std::max_element(ids.begin(), ids.end()) + 1);
    for (int id : ids) set.Set(id);
    return set.ToList();
  };
  if (cpus_at.size() > 1) {
    std::vector<std::string> parts;
    for (auto it = cpus_at.rbegin(); it != cpus_at.rend(); ++it) {
      parts.push_back(
          absl::StrCat(it->first, " kHz on CPUs ", list(it->second)));
    }
    Warn(absl::StrCat(
        "CPUs differ in cpuinfo_max_freq (a hybrid part or "
        "binned cores): ",
        absl::StrJoin(parts, ", "),
        capacities_set_
            ? absl::StrCat("; each CPU's capacity is its cpu_capacity, the "
                           "frequencies all modelled as CPU ",
                           cpus_[0], "'s")
            : absl::StrCat("; all modelled as CPU ", cpus_[0],
                           " (no cpu_capacity files: per-CPU capacity "
                           "unknown)")));
  }
  // Intel hybrid parts name their CPU kinds by PMU.
  std::vector<std::string> kinds;
  for (const char* kind : {"cpu_core", "cpu_atom"}) {
    const std::string rel = absl::StrCat("devices/", kind, "/cpus");
    if (std::optional<std::string> text = tree_.Read(rel)) {
      kinds.push_back(
          absl::StrCat(kind, " CPUs ", absl::StripAsciiWhitespace(*text)));
    }
  }
  if (kinds.size() > 1) {
    Warn(absl::StrCat("hybrid CPU kinds (", absl::StrJoin(kinds, ", "),
                      capacities_set_
                          ? absl::StrCat("); capacities from cpu_capacity, "
                                         "frequencies modelled as CPU ",
                                         cpus_[0], "'s")
                          : absl::StrCat("); all modelled as CPU ", cpus_[0])));
  }
}

void Importer::GuessVendor() {
  const std::string idle_driver =
      OptString(absl::StrCat(kCpuDir, "/cpuidle/current_driver")).value_or("");
  std::string evidence;
  Vendor vendor = Vendor::kUnknown;
  if (idle_driver == "intel_idle") {
    vendor = Vendor::kIntel;
    evidence = "cpuidle driver intel_idle";
  } else if (driver_ == "intel_pstate" || driver_ == "intel_cpufreq") {
    vendor = Vendor::kIntel;
    evidence = absl::StrCat("cpufreq driver ", driver_);
  } else if (tree_.IsDir(absl::StrCat(kCpuDir, "/intel_pstate")) ||
             tree_.IsDir(absl::StrCat(kCpuDir, "/intel_uncore_frequency"))) {
    vendor = Vendor::kIntel;
    evidence = "intel_pstate or intel_uncore_frequency in sysfs";
  } else if (absl::StartsWith(driver_, "amd-pstate")) {
    vendor = Vendor::kAmd;
    evidence = absl::StrCat("cpufreq driver ", driver_);
  } else if (tree_.IsDir(absl::StrCat(kCpuDir, "/amd_pstate"))) {
    vendor = Vendor::kAmd;
    evidence = "amd_pstate in sysfs";
  } else if (!cpufreq_dir_.empty() &&
             tree_.Exists(absl::StrCat(cpufreq_dir_, "/cpb"))) {
    vendor = Vendor::kAmd;
    evidence = "acpi-cpufreq's cpb attribute (AMD Core Performance Boost)";
  }
  builder_.set_vendor(vendor);
  if (vendor == Vendor::kUnknown) {
    Warn("vendor not recognisable from sysfs drivers; left unknown");
  } else {
    Warn(absl::StrCat("vendor taken as ", VendorName(vendor), " from ",
                      evidence));
  }
}

}  // namespace schedsim::topology::sysfs_internal
