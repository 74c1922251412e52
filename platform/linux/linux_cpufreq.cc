// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// LinuxCpufreq's discovery (linux_cpufreq.h): opening the cpufreq policies
// of the machine, their limits, frequencies and HWP/CPPC capabilities.
// Sampling is in linux_cpufreq_sample.cc, writing in linux_cpufreq_write.cc.

#include "platform/linux/linux_cpufreq.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "platform/linux/linux_cpufreq_internal.h"
#include "topology/sysfs.h"

namespace schedsim::platform::host {
namespace {

using cpufreq_internal::IsIntelDriver;

// The kernel prints (unsigned int)-1 (CPUFREQ_ETERNAL) for an unknown
// transition latency.
constexpr int64_t kUnknownLatencyNs = 4294967295;

std::string CpuDir(int cpu) { return absl::StrCat(kSysfsCpuDir, "/cpu", cpu); }

}  // namespace

LinuxCpufreq::LinuxCpufreq(const LinuxFreqOptions& options)
    : options_(options),
      sysfs_(options.paths.sysfs_root),
      proc_(options.paths.proc_root, base::kMaxProcFileBytes) {}

absl::StatusOr<std::unique_ptr<LinuxCpufreq>> LinuxCpufreq::Open(
    const LinuxFreqOptions& options, SettingsSnapshot* snapshot) {
  std::unique_ptr<LinuxCpufreq> self(new LinuxCpufreq(options));
  self->snapshot_ = snapshot;
  if (options.apply && snapshot == nullptr) {
    return absl::InvalidArgumentError(
        "LinuxCpufreq::Open: apply needs a SettingsSnapshot");
  }
  if (options.tick_period_ns <= 0 || options.util_half_life_ns < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "LinuxCpufreq::Open: tick_period_ns must be > 0 (got ",
        options.tick_period_ns, ") and util_half_life_ns >= 0 (got ",
        options.util_half_life_ns, ")"));
  }
  const LinuxSysfs& sysfs = self->sysfs_;
  const std::string policies_dir = absl::StrCat(kSysfsCpuDir, "/cpufreq");
  const std::vector<int> policies =
      sysfs.NumberedEntries(policies_dir, "policy");
  if (policies.empty()) {
    return absl::NotFoundError(absl::StrCat(
        "no cpufreq policies in ", sysfs.Path(policies_dir),
        ": no cpufreq driver is loaded (usual in VMs and containers)"));
  }
  absl::StatusOr<topology::Topology> topo =
      topology::LoadTopologyFromSysfs(sysfs.root());
  if (!topo.ok()) return topo.status();
  self->topology_ = std::make_unique<topology::Topology>(*std::move(topo));

  int width = 0;
  for (int policy : policies) {
    std::unique_ptr<LinuxFreqDomain> d;
    absl::Status s = self->OpenPolicy(policy, self->topology_->frequency(), &d);
    if (!s.ok()) return s;
    for (int cpu = d->cpus_.First(); cpu >= 0; cpu = d->cpus_.Next(cpu)) {
      width = std::max(width, cpu + 1);
    }
    self->domains_.push_back(std::move(d));
  }
  // OpenPolicy left each domain's CPUs in a set as wide as its highest CPU;
  // give them all the machine's width.
  for (auto& d : self->domains_) {
    topology::CpuSet wide(width);
    for (int cpu = d->cpus_.First(); cpu >= 0; cpu = d->cpus_.Next(cpu)) {
      wide.Set(cpu);
    }
    d->cpus_ = std::move(wide);
    d->hwp_.assign(width, std::nullopt);
  }
  self->obs_.assign(width, CpuObservation());
  self->times_.assign(width, std::nullopt);
  self->last_msr_.assign(width, CpuCounters());
  self->msr_valid_.assign(width, 0);
  self->util_ns_.assign(width, 0);
  for (int cpu = 0; cpu < width; ++cpu) {
    absl::StatusOr<int64_t> capacity =
        sysfs.ReadInt(absl::StrCat(CpuDir(cpu), "/cpu_capacity"));
    if (capacity.ok() && *capacity > 0 && *capacity <= kCapacityScale) {
      self->obs_[cpu].capacity = *capacity;
    }
  }

  self->msr_ = options.msr;
  if (self->msr_ == nullptr) {
    self->own_msr_ = std::make_unique<DevMsrAccess>(options.paths.dev_root);
    self->msr_ = self->own_msr_.get();
  }
  if (options.msr_counters) {
    const int first = self->domains_.front()->cpus_.First();
    absl::StatusOr<uint64_t> probe = self->msr_->Read(first, kMsrTsc);
    self->msr_counters_ = probe.ok();
    if (!probe.ok()) {
      self->notes_.push_back(absl::StrCat(
          "APERF/MPERF/TSC derived from /proc/stat and the frequency: ",
          probe.status().message()));
    }
  } else {
    self->notes_.push_back(
        "APERF/MPERF/TSC derived from /proc/stat and the frequency (MSR "
        "counters not requested)");
  }

  for (auto& d : self->domains_) {
    self->FillHwpCaps(*d);
    if (!options.allow_msr_writes) continue;
    if (!d->spec_.has_hwp) {
      self->notes_.push_back(
          absl::StrCat("policy", d->policy_,
                       " has no HWP: --allow-msr-writes changes "
                       "nothing there"));
    } else if (!IsIntelDriver(d->spec_.driver)) {
      self->notes_.push_back(absl::StrCat(
          "policy", d->policy_, " (driver ", d->spec_.driver,
          "): MSR HWP requests are implemented for Intel's "
          "IA32_HWP_REQUEST only; HWP requests use the sysfs mapping"));
    } else {
      d->msr_hwp_ = true;
    }
  }

  if (options.apply) {
    for (auto& d : self->domains_) {
      if (!d->spec_.has_hwp && !d->userspace_available_) {
        return absl::FailedPreconditionError(absl::StrCat(
            "policy", d->policy_, " (driver ", d->spec_.driver,
            ") offers no `userspace` governor with scaling_setspeed, so "
            "target frequencies cannot be applied from user space",
            IsIntelDriver(d->spec_.driver)
                ? "; switch intel_pstate to passive mode (echo passive > "
                  "/sys/devices/system/cpu/intel_pstate/status)"
                : ""));
      }
      absl::Status s = snapshot->SavePolicy(d->policy_);
      if (!s.ok()) return s;
      std::vector<std::string> files;
      if (d->userspace_available_) {
        files.push_back("scaling_governor");
        files.push_back("scaling_setspeed");
      }
      if (d->spec_.has_hwp && !d->msr_hwp_) {
        files.push_back("scaling_min_freq");
        files.push_back("scaling_max_freq");
        if (d->has_epp_file_) files.push_back("energy_performance_preference");
      }
      for (const std::string& f : files) {
        const std::string rel = absl::StrCat(d->dir_, "/", f);
        if (!sysfs.Writable(rel)) {
          return absl::PermissionDeniedError(
              absl::StrCat("cannot write ", sysfs.Path(rel),
                           " (changing cpufreq settings needs root)"));
        }
      }
      if (d->msr_hwp_) {
        for (int cpu = d->cpus_.First(); cpu >= 0; cpu = d->cpus_.Next(cpu)) {
          s = snapshot->SaveMsr(cpu, kMsrHwpRequest);
          if (!s.ok()) return s;
        }
      }
    }
  }
  return self;
}

absl::Status LinuxCpufreq::OpenPolicy(int policy,
                                      const topology::FrequencySpec& machine,
                                      std::unique_ptr<LinuxFreqDomain>* out) {
  auto d = std::unique_ptr<LinuxFreqDomain>(new LinuxFreqDomain());
  d->owner_ = this;
  d->policy_ = policy;
  d->dir_ = PolicyDir(policy);
  const auto file = [&](absl::string_view name) {
    return absl::StrCat(d->dir_, "/", name);
  };
  const auto required = [&](const absl::Status& s) {
    return absl::InvalidArgumentError(
        absl::StrCat("cpufreq policy", policy, ": ", s.message()));
  };

  absl::StatusOr<std::vector<int>> cpus =
      sysfs_.ReadCpuList(file("affected_cpus"));
  if (!cpus.ok() || cpus->empty()) {
    cpus = sysfs_.ReadCpuList(file("related_cpus"));
  }
  if (!cpus.ok()) return required(cpus.status());
  if (cpus->empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("cpufreq policy", policy, ": no CPUs in ",
                     sysfs_.Path(file("affected_cpus")), " or ",
                     sysfs_.Path(file("related_cpus"))));
  }
  d->cpus_ = topology::CpuSet(cpus->back() + 1);
  for (int cpu : *cpus) d->cpus_.Set(cpu);

  topology::FrequencySpec& f = d->spec_;
  f = machine;
  absl::StatusOr<int64_t> min_khz = sysfs_.ReadInt(file("cpuinfo_min_freq"));
  if (!min_khz.ok()) return required(min_khz.status());
  absl::StatusOr<int64_t> max_khz = sysfs_.ReadInt(file("cpuinfo_max_freq"));
  if (!max_khz.ok()) return required(max_khz.status());
  f.min_khz = *min_khz;
  f.max_turbo_khz = *max_khz;
  f.pstates_khz.clear();
  if (absl::StatusOr<std::string> avail =
          sysfs_.Read(file("scaling_available_frequencies"));
      avail.ok()) {
    for (absl::string_view field :
         absl::StrSplit(*avail, absl::ByAnyChar(" \t\n"), absl::SkipEmpty())) {
      int64_t khz = 0;
      if (!absl::SimpleAtoi(field, &khz) || khz <= 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("expected frequencies in kHz in ",
                         sysfs_.Path(file("scaling_available_frequencies")),
                         ", got ", QuoteForError(*avail)));
      }
      f.pstates_khz.push_back(khz);
    }
    std::sort(f.pstates_khz.rbegin(), f.pstates_khz.rend());
    f.pstates_khz.erase(std::unique(f.pstates_khz.begin(), f.pstates_khz.end()),
                        f.pstates_khz.end());
  }
  if (absl::StatusOr<int64_t> base = sysfs_.ReadInt(file("base_frequency"));
      base.ok() && *base > 0) {
    f.base_khz = *base;
  } else if (!f.pstates_khz.empty()) {
    f.base_khz = f.pstates_khz.front();
  } else if (f.base_khz < f.min_khz || f.base_khz > f.max_turbo_khz ||
             f.base_khz <= 0) {
    f.base_khz = f.max_turbo_khz;
  }
  f.transition_latency_ns = 0;
  if (absl::StatusOr<int64_t> latency =
          sysfs_.ReadInt(file("cpuinfo_transition_latency"));
      latency.ok() && *latency > 0 && *latency < kUnknownLatencyNs) {
    f.transition_latency_ns = *latency;
  }
  f.driver = sysfs_.Read(file("scaling_driver")).value_or("");
  d->original_governor_ = sysfs_.Read(file("scaling_governor")).value_or("");
  d->governor_ = d->original_governor_;
  f.governor = d->original_governor_;
  d->has_epp_file_ = sysfs_.Exists(file("energy_performance_preference"));
  f.has_epp = d->has_epp_file_ ||
              sysfs_.Exists(file("energy_performance_available_preferences"));
  // As LoadTopologyFromSysfs decides it, but for this policy's driver.
  f.has_hwp =
      (IsIntelDriver(f.driver) &&
       (f.has_epp || sysfs_.Exists(absl::StrCat(
                         kSysfsCpuDir, "/intel_pstate/hwp_dynamic_boost")))) ||
      absl::StartsWith(f.driver, "amd-pstate");
  const std::string governors =
      sysfs_.Read(file("scaling_available_governors")).value_or("");
  const std::vector<absl::string_view> names =
      absl::StrSplit(governors, absl::ByAnyChar(" \t\n"), absl::SkipEmpty());
  d->userspace_available_ =
      std::find(names.begin(), names.end(), "userspace") != names.end() &&
      sysfs_.Exists(file("scaling_setspeed"));

  absl::Status s = ReadPolicyState(*d);
  if (!s.ok()) return s;
  d->requested_khz_ = d->cur_freq_khz_;
  if (absl::StatusOr<int64_t> setspeed =
          sysfs_.ReadInt(file("scaling_setspeed"));
      setspeed.ok() && *setspeed > 0) {
    d->requested_khz_ = *setspeed;
  }
  d->current_khz_ = d->cur_freq_khz_;
  *out = std::move(d);
  return absl::OkStatus();
}

absl::Status LinuxCpufreq::ReadPolicyState(LinuxFreqDomain& d) {
  const auto file = [&](absl::string_view name) {
    return absl::StrCat(d.dir_, "/", name);
  };
  absl::StatusOr<int64_t> min_khz = sysfs_.ReadInt(file("scaling_min_freq"));
  if (!min_khz.ok()) return min_khz.status();
  absl::StatusOr<int64_t> max_khz = sysfs_.ReadInt(file("scaling_max_freq"));
  if (!max_khz.ok()) return max_khz.status();
  // Issue 49 #13: the kernel keeps min <= max (cpufreq_set_policy);
  // limits the other way round are no machine's, and were taken silently.
  if (*min_khz > *max_khz) {
    return absl::InvalidArgumentError(absl::StrCat(
        "scaling_min_freq ", *min_khz, " kHz is above scaling_max_freq ",
        *max_khz, " kHz in ", sysfs_.Path(d.dir_),
        "; expected min <= max, as the kernel keeps them"));
  }
  d.policy_min_khz_ = *min_khz;
  d.policy_max_khz_ = *max_khz;
  // The frequency the log reports: scaling_cur_freq, else
  // cpuinfo_cur_freq; when neither reads, the log says the base frequency
  // is assumed and why (issue 49 #13: it said "running at 2800000 kHz
  // (scaling_cur_freq)" with no such file).
  absl::StatusOr<int64_t> cur = sysfs_.ReadInt(file("scaling_cur_freq"));
  std::string source = "scaling_cur_freq";
  absl::Status first_error = cur.status();
  if (!cur.ok() || *cur <= 0) {
    cur = sysfs_.ReadInt(file("cpuinfo_cur_freq"));
    source = "cpuinfo_cur_freq";
  }
  if (cur.ok() && *cur > 0) {
    d.cur_freq_khz_ = *cur;
    d.cur_freq_source_ = source;
  } else {
    d.cur_freq_khz_ = d.spec_.base_khz;
    d.cur_freq_source_ = absl::StrCat(
        "assumed: the base frequency; ",
        first_error.ok() ? absl::StrCat("scaling_cur_freq is not positive")
                         : std::string(first_error.message()));
  }
  if (absl::StatusOr<std::string> g = sysfs_.Read(file("scaling_governor"));
      g.ok()) {
    d.governor_ = *g;
  }
  if (d.has_epp_file_) {
    if (absl::StatusOr<std::string> epp =
            sysfs_.Read(file("energy_performance_preference"));
        epp.ok()) {
      d.epp_ = *epp;
    }
  }
  return absl::OkStatus();
}

void LinuxCpufreq::FillHwpCaps(LinuxFreqDomain& d) {
  topology::FrequencySpec& f = d.spec_;
  if (!f.has_hwp) return;
  const int first = d.cpus_.First();
  const std::string cppc = absl::StrCat(CpuDir(first), "/acpi_cppc");
  absl::StatusOr<int64_t> highest =
      sysfs_.ReadInt(absl::StrCat(cppc, "/highest_perf"));
  absl::StatusOr<int64_t> nominal =
      sysfs_.ReadInt(absl::StrCat(cppc, "/nominal_perf"));
  absl::StatusOr<int64_t> nonlinear =
      sysfs_.ReadInt(absl::StrCat(cppc, "/lowest_nonlinear_perf"));
  absl::StatusOr<int64_t> lowest =
      sysfs_.ReadInt(absl::StrCat(cppc, "/lowest_perf"));
  if (highest.ok() && nominal.ok() && nonlinear.ok() && lowest.ok() &&
      *highest > 0 && *nominal > 0) {
    f.hwp.highest = static_cast<int>(*highest);
    f.hwp.guaranteed = static_cast<int>(*nominal);
    f.hwp.most_efficient = static_cast<int>(*nonlinear);
    f.hwp.lowest = static_cast<int>(*lowest);
    // khz_per_perf_unit as LoadTopologyFromSysfs computes it: nominal_freq
    // (MHz), else the base frequency, over nominal_perf.
    absl::StatusOr<int64_t> nominal_mhz =
        sysfs_.ReadInt(absl::StrCat(cppc, "/nominal_freq"));
    const int64_t nominal_khz =
        nominal_mhz.ok() && *nominal_mhz > 0 ? *nominal_mhz * 1000 : f.base_khz;
    if (nominal_khz > 0) {
      f.khz_per_perf_unit = (nominal_khz + *nominal / 2) / *nominal;
    }
    return;
  }
  if (f.hwp.highest > 0) return;  // the machine's (first CPU's) acpi_cppc
  if (msr_counters_ && IsIntelDriver(f.driver)) {
    absl::StatusOr<uint64_t> caps = msr_->Read(first, kMsrHwpCapabilities);
    if (caps.ok() && (*caps & 0xFF) != 0) {
      f.hwp = DecodeHwpCapabilities(*caps);
      return;
    }
  }
  const int64_t unit = f.khz_per_perf_unit > 0 ? f.khz_per_perf_unit : 100000;
  f.khz_per_perf_unit = unit;
  f.hwp.highest = static_cast<int>(f.max_turbo_khz / unit);
  f.hwp.guaranteed = static_cast<int>(f.base_khz / unit);
  f.hwp.lowest = static_cast<int>((f.min_khz + unit - 1) / unit);
  f.hwp.most_efficient = f.hwp.lowest;
  notes_.push_back(absl::StrCat(
      "policy", d.policy_,
      ": HWP capabilities derived from cpuinfo_min/max_freq and the base "
      "frequency at ",
      unit,
      " kHz per unit (no acpi_cppc, IA32_HWP_CAPABILITIES unread): "
      "lowest ",
      f.hwp.lowest, ", guaranteed ", f.hwp.guaranteed, ", highest ",
      f.hwp.highest));
}

}  // namespace schedsim::platform::host
