// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/linux_cpufreq.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "topology/sysfs.h"

namespace schedsim::platform::host {
namespace {

// The kernel prints (unsigned int)-1 (CPUFREQ_ETERNAL) for an unknown
// transition latency.
constexpr int64_t kUnknownLatencyNs = 4294967295;
// CPUs of a domain listed by name in an action's reason; the rest are
// summarised.
constexpr int kMaxCpusDescribed = 8;

bool SameRequest(const HwpRequest& a, const HwpRequest& b) {
  return a.min_perf == b.min_perf && a.max_perf == b.max_perf &&
         a.desired_perf == b.desired_perf && a.epp == b.epp;
}

bool IsIntelDriver(absl::string_view driver) {
  return driver == "intel_pstate" || driver == "intel_cpufreq";
}

std::string CpuDir(int cpu) { return absl::StrCat(kSysfsCpuDir, "/cpu", cpu); }

}  // namespace

std::string EppText(int epp) {
  // intel_pstate's energy_perf_strings / epp_values (EPP_PERFORMANCE 0x00,
  // EPP_BALANCE_PERFORMANCE 0x80, EPP_BALANCE_POWERSAVE 0xC0,
  // EPP_POWERSAVE 0xFF).
  switch (epp) {
    case 0:
      return "performance";
    case 0x80:
      return "balance_performance";
    case 0xC0:
      return "balance_power";
    case 0xFF:
      return "power";
    default:
      return absl::StrCat(epp);
  }
}

std::string FormatAction(const LinuxFreqAction& a) {
  std::string out =
      absl::StrFormat("[%10.3f s] policy%d: %s\n",
                      static_cast<double>(a.time_ns) / 1e9, a.policy, a.what);
  if (!a.writes.empty()) {
    absl::StrAppend(&out, "    ",
                    a.dry_run   ? "dry run, would write: "
                    : a.applied ? "wrote: "
                                : "tried to write: ",
                    absl::StrJoin(a.writes, "; "), "\n");
  }
  absl::StrAppend(&out, "    why: ", a.why, "\n");
  for (const std::string& note : a.notes) {
    absl::StrAppend(&out, "    note: ", note, "\n");
  }
  if (!a.error.empty()) absl::StrAppend(&out, "    FAILED: ", a.error, "\n");
  return out;
}

// --- LinuxFreqDomain ---------------------------------------------------------

int64_t LinuxFreqDomain::now_ns() const { return owner_->now_ns_; }

int64_t LinuxFreqDomain::tick_period_ns() const {
  return owner_->options_.tick_period_ns;
}

CpuUtil LinuxFreqDomain::util(int cpu) const {
  CpuUtil u;
  if (cpu < 0 || cpu >= owner_->num_cpus()) return u;
  const CpuObservation& o = owner_->obs_[cpu];
  u.capacity = o.capacity;
  u.util_cfs = std::clamp<int64_t>(std::llround(o.util), 0, o.capacity);
  return u;
}

CpuCounters LinuxFreqDomain::counters(int cpu) const {
  if (cpu < 0 || cpu >= owner_->num_cpus()) return CpuCounters();
  return owner_->obs_[cpu].counters;
}

std::vector<LinuxFreqAction> LinuxFreqDomain::TakeActions() {
  std::vector<LinuxFreqAction> out;
  out.swap(actions_);
  return out;
}

int64_t LinuxFreqDomain::ResolveKhz(int64_t khz) const {
  const int64_t hi = policy_max_khz_;
  const int64_t lo = std::min(policy_min_khz_, hi);
  const int64_t target = std::clamp(khz, lo, hi);
  if (spec_.pstates_khz.empty()) return target;
  // CPUFREQ_RELATION_L: the lowest available frequency at or above the
  // target within the limits, else the highest below the maximum.
  int64_t best = -1;
  for (int64_t f : spec_.pstates_khz) {
    if (f >= target && f <= hi && (best < 0 || f < best)) best = f;
  }
  if (best < 0) {
    for (int64_t f : spec_.pstates_khz) {
      if (f <= hi && f > best) best = f;
    }
  }
  return best < 0 ? target : best;
}

LinuxFreqAction LinuxFreqDomain::NewAction(std::string what) const {
  LinuxFreqAction a;
  a.time_ns = owner_->now_ns_;
  a.policy = policy_;
  a.dry_run = !owner_->options_.apply;
  a.what = std::move(what);
  a.why = owner_->DescribeInputs(*this);
  return a;
}

void LinuxFreqDomain::Fail(LinuxFreqAction& action, absl::Status status) {
  action.applied = false;
  action.error = std::string(status.message());
  if (status_.ok()) status_ = std::move(status);
}

bool LinuxFreqDomain::DoWrite(LinuxFreqAction& action, const std::string& rel,
                              const std::string& value) {
  const LinuxSysfs& sysfs = owner_->sysfs_;
  action.writes.push_back(absl::StrCat(sysfs.Path(rel), " <- ", value));
  if (!owner_->options_.apply) return true;
  absl::Status s = owner_->snapshot_->WriteFile(rel, value);
  if (!s.ok()) {
    Fail(action, std::move(s));
    return false;
  }
  action.applied = true;
  return true;
}

void LinuxFreqDomain::SetTargetKhz(int64_t khz) {
  if (!status_.ok()) return;
  const bool apply = owner_->options_.apply;
  const int64_t target = ResolveKhz(khz);
  // Nothing new to ask for (unless someone moved the policy off
  // `userspace` since: then the switch is redone).
  if (target_set_ && target == requested_khz_ &&
      (!apply || !userspace_available_ || governor_ == "userspace")) {
    return;
  }
  std::string what = absl::StrCat("target ", target, " kHz");
  if (target != khz) {
    absl::StrAppend(&what, " (asked ", khz, " kHz; within the limits ",
                    policy_min_khz_, "-", policy_max_khz_,
                    spec_.pstates_khz.empty()
                        ? ")"
                        : " and resolved to an available frequency)");
  }
  LinuxFreqAction a = NewAction(std::move(what));
  requested_khz_ = target;
  target_set_ = true;
  if (!userspace_available_) {
    absl::Status why = absl::FailedPreconditionError(absl::StrCat(
        "policy", policy_, " (driver ", spec_.driver,
        ") offers no `userspace` governor with scaling_setspeed, so a target "
        "frequency cannot be set from user space",
        IsIntelDriver(spec_.driver)
            ? "; intel_pstate in passive mode (echo passive > "
              "/sys/devices/system/cpu/intel_pstate/status) offers it"
            : ""));
    if (apply) {
      Fail(a, std::move(why));
    } else {
      a.notes.push_back(absl::StrCat("cannot be applied: ", why.message()));
    }
    actions_.push_back(std::move(a));
    return;
  }
  if (governor_ != "userspace" && !userspace_planned_) {
    a.notes.push_back(
        absl::StrCat("scaling_setspeed needs the userspace "
                     "governor; the original governor '",
                     original_governor_, "' is restored on exit"));
    if (!DoWrite(a, absl::StrCat(dir_, "/scaling_governor"), "userspace")) {
      actions_.push_back(std::move(a));
      return;
    }
    if (apply) {
      governor_ = "userspace";
    } else {
      userspace_planned_ = true;
    }
  }
  DoWrite(a, absl::StrCat(dir_, "/scaling_setspeed"), absl::StrCat(target));
  actions_.push_back(std::move(a));
}

void LinuxFreqDomain::SetHwpRequest(int cpu, const HwpRequest& request) {
  if (!status_.ok()) return;
  const std::string what = absl::StrCat(
      "HWP request CPU ", cpu, ": min ", request.min_perf, " max ",
      request.max_perf, " desired ", request.desired_perf, " EPP ", request.epp,
      " (perf units of ", spec_.khz_per_perf_unit, " kHz)");
  if (!spec_.has_hwp) {
    LinuxFreqAction a = NewAction(what);
    Fail(a, absl::FailedPreconditionError(absl::StrCat(
                "the governor sent an HWP request to policy", policy_,
                ", which has no HWP (driver ", spec_.driver, ")")));
    actions_.push_back(std::move(a));
    return;
  }
  if (cpu < 0 || cpu >= cpus_.width() || !cpus_.Test(cpu)) {
    LinuxFreqAction a = NewAction(what);
    Fail(a, absl::InvalidArgumentError(
                absl::StrCat("the governor sent an HWP request for CPU ", cpu,
                             ", which is not in policy", policy_, " (CPUs ",
                             cpus_.ToList(), ")")));
    actions_.push_back(std::move(a));
    return;
  }
  if (hwp_[cpu].has_value() && SameRequest(*hwp_[cpu], request)) return;
  hwp_[cpu] = request;
  if (!msr_hwp_) {
    // One set of policy files for every CPU of the domain.
    if (last_mapped_.has_value() && SameRequest(*last_mapped_, request)) {
      return;
    }
    last_mapped_ = request;
    LinuxFreqAction a = NewAction(what);
    MapHwpToSysfs(a, request);
    actions_.push_back(std::move(a));
    return;
  }
  LinuxFreqAction a = NewAction(what);
  MsrAccess& msr = *owner_->msr_;
  uint64_t previous = 0;
  absl::StatusOr<uint64_t> now = msr.Read(cpu, kMsrHwpRequest);
  if (now.ok()) {
    previous = *now;
  } else {
    a.notes.push_back(
        absl::StrCat("bits 63:32 taken as 0: ", now.status().message()));
  }
  const uint64_t value = EncodeHwpRequest(request, previous);
  a.writes.push_back(absl::StrCat("MSR 0x774 (IA32_HWP_REQUEST) of CPU ", cpu,
                                  " via ", msr.Where(cpu), " <- 0x",
                                  absl::Hex(value, absl::kZeroPad16)));
  if (owner_->options_.apply) {
    absl::Status s = owner_->snapshot_->WriteMsr(cpu, kMsrHwpRequest, value);
    if (s.ok()) {
      a.applied = true;
    } else {
      Fail(a, std::move(s));
    }
  }
  actions_.push_back(std::move(a));
}

void LinuxFreqDomain::MapHwpToSysfs(LinuxFreqAction& a,
                                    const HwpRequest& request) {
  const bool apply = owner_->options_.apply;
  const int64_t unit = spec_.khz_per_perf_unit;
  const int64_t min_khz = int64_t{request.min_perf} * unit;
  const int64_t max_khz = int64_t{request.max_perf} * unit;
  if (request.desired_perf > 0) {
    a.notes.push_back(
        absl::StrCat("desired performance ", request.desired_perf, " (",
                     int64_t{request.desired_perf} * unit,
                     " kHz) has no sysfs equivalent and is not applied; "
                     "--allow-msr-writes writes it to IA32_HWP_REQUEST"));
  }
  struct Planned {
    std::string name;
    int64_t khz;
  };
  std::vector<Planned> limits;
  // Raising the minimum above the current maximum needs the maximum first.
  const Planned min_file{"scaling_min_freq", min_khz};
  const Planned max_file{"scaling_max_freq", max_khz};
  if (min_khz > policy_max_khz_) {
    limits = {max_file, min_file};
  } else {
    limits = {min_file, max_file};
  }
  for (const Planned& p : limits) {
    int64_t& current =
        p.name == "scaling_min_freq" ? policy_min_khz_ : policy_max_khz_;
    if (p.khz <= 0 || p.khz == current) continue;
    if (!DoWrite(a, absl::StrCat(dir_, "/", p.name), absl::StrCat(p.khz))) {
      return;
    }
    if (apply) current = p.khz;
  }
  if (!has_epp_file_) {
    a.notes.push_back(absl::StrCat(
        "no ", dir_, "/energy_performance_preference: EPP not applied"));
    return;
  }
  const std::string epp = EppText(request.epp);
  if (epp != epp_) {
    if (!DoWrite(a, absl::StrCat(dir_, "/energy_performance_preference"),
                 epp)) {
      return;
    }
    if (apply) epp_ = epp;
  }
  if (a.writes.empty()) {
    a.notes.push_back("the policy's files already carry this request");
  }
}

// --- LinuxCpufreq
// --------------------------------------------------------------

LinuxCpufreq::LinuxCpufreq(const LinuxFreqOptions& options)
    : options_(options),
      sysfs_(options.paths.sysfs_root),
      proc_(options.paths.proc_root) {}

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
  d.policy_min_khz_ = *min_khz;
  d.policy_max_khz_ = *max_khz;
  absl::StatusOr<int64_t> cur = sysfs_.ReadInt(file("scaling_cur_freq"));
  if (!cur.ok()) cur = sysfs_.ReadInt(file("cpuinfo_cur_freq"));
  if (cur.ok() && *cur > 0) {
    d.cur_freq_khz_ = *cur;
  } else if (d.cur_freq_khz_ <= 0) {
    d.cur_freq_khz_ = d.spec_.base_khz;
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

absl::Status LinuxCpufreq::Sample(int64_t now_ns) {
  const std::string stat_path = proc_.Path("stat");
  absl::StatusOr<std::string> text = proc_.ReadRaw("stat");
  if (!text.ok()) return text.status();
  absl::StatusOr<std::vector<CpuTimes>> times = ParseProcStat(*text, stat_path);
  if (!times.ok()) return times.status();
  const int width = num_cpus();
  // fresh[cpu]: this sample carries new information about the CPU's busy
  // time (/proc/stat advances in USER_HZ ticks, typically 10 ms: a short
  // period may see none, and must not be taken for idle).
  std::vector<char> fresh(width, 0);
  for (CpuObservation& o : obs_) o.online = false;
  for (const CpuTimes& t : *times) {
    if (t.cpu < 0 || t.cpu >= width) continue;
    CpuObservation& o = obs_[t.cpu];
    o.online = true;
    std::optional<CpuTimes>& prev = times_[t.cpu];
    if (prev.has_value() && t.total() > prev->total()) {
      o.busy_fraction = BusyFraction(*prev, t);
      o.iowait = IowaitGrew(*prev, t);
      prev = t;
      fresh[t.cpu] = 1;
    } else if (prev.has_value() && t.total() == prev->total()) {
      o.iowait = false;  // no tick since the last sample: keep the estimate
    } else {
      // First reading, or the counters went back (CPU hotplug).
      prev = t;
      o.busy_fraction = 0.0;
      o.iowait = false;
      util_ns_[t.cpu] = now_ns;
    }
  }
  for (int cpu = 0; cpu < width; ++cpu) {
    CpuObservation& o = obs_[cpu];
    if (o.online) continue;
    o.busy_fraction = 0.0;
    o.iowait = false;
    o.util = 0.0;
    times_[cpu].reset();
    msr_valid_[cpu] = 0;
  }
  for (auto& d : domains_) {
    absl::Status s = ReadPolicyState(*d);
    if (!s.ok()) return s;
  }
  const int64_t dt_ns =
      sampled_ ? std::max<int64_t>(now_ns - last_sample_ns_, 0) : 0;
  for (auto& d : domains_) {
    const int64_t base_khz =
        d->spec_.base_khz > 0 ? d->spec_.base_khz : d->cur_freq_khz_;
    const int64_t max_khz =
        d->spec_.max_turbo_khz > 0 ? d->spec_.max_turbo_khz : base_khz;
    int64_t sum_khz = 0;
    int online = 0;
    for (int cpu = d->cpus_.First(); cpu >= 0; cpu = d->cpus_.Next(cpu)) {
      CpuObservation& o = obs_[cpu];
      int64_t f_khz = d->cur_freq_khz_;
      bool from_msr = false;
      if (msr_counters_ && o.online) {
        absl::StatusOr<uint64_t> tsc = msr_->Read(cpu, kMsrTsc);
        absl::StatusOr<uint64_t> mperf = msr_->Read(cpu, kMsrMperf);
        absl::StatusOr<uint64_t> aperf = msr_->Read(cpu, kMsrAperf);
        if (tsc.ok() && mperf.ok() && aperf.ok()) {
          from_msr = true;
          const CpuCounters now = {*aperf, *mperf, *tsc};
          const CpuCounters& last = last_msr_[cpu];
          if (msr_valid_[cpu] && now.tsc > last.tsc &&
              now.mperf >= last.mperf && now.aperf >= last.aperf) {
            const double dtsc = static_cast<double>(now.tsc - last.tsc);
            const double dmperf = static_cast<double>(now.mperf - last.mperf);
            const double daperf = static_cast<double>(now.aperf - last.aperf);
            // Time in C0 at cycle resolution: the busy fraction
            // intel_pstate uses (MPERF / TSC).
            o.busy_fraction = std::clamp(dmperf / dtsc, 0.0, 1.0);
            fresh[cpu] = 1;
            if (dmperf > 0 && base_khz > 0) {
              f_khz =
                  std::llround(static_cast<double>(base_khz) * daperf / dmperf);
            }
          }
          o.counters = now;
          last_msr_[cpu] = now;
          msr_valid_[cpu] = 1;
        } else {
          msr_counters_ = false;
          const absl::Status& bad =
              !tsc.ok() ? tsc.status()
                        : (!mperf.ok() ? mperf.status() : aperf.status());
          notes_.push_back(absl::StrCat(
              "MSR read failed; APERF/MPERF/TSC derived from /proc/stat from "
              "now on: ",
              bad.message()));
        }
      }
      if (!from_msr && dt_ns > 0 && base_khz > 0) {
        // TSC at the base frequency; MPERF while busy; APERF at f.
        const uint64_t dtsc = static_cast<uint64_t>(
            static_cast<double>(base_khz) * static_cast<double>(dt_ns) / 1e6);
        const uint64_t dmperf =
            static_cast<uint64_t>(static_cast<double>(dtsc) * o.busy_fraction);
        const uint64_t daperf = static_cast<uint64_t>(
            static_cast<double>(dmperf) * static_cast<double>(f_khz) /
            static_cast<double>(base_khz));
        o.counters.tsc += dtsc;
        o.counters.mperf += dmperf;
        o.counters.aperf += daperf;
      }
      o.avg_khz = f_khz;
      if (fresh[cpu] && sampled_) {
        const int64_t dt_cpu_ns = std::max<int64_t>(now_ns - util_ns_[cpu], 0);
        const double alpha =
            options_.util_half_life_ns > 0
                ? 1.0 -
                      std::exp2(-static_cast<double>(dt_cpu_ns) /
                                static_cast<double>(options_.util_half_life_ns))
                : 1.0;
        const double scale =
            max_khz > 0 ? std::min(1.0, static_cast<double>(f_khz) /
                                            static_cast<double>(max_khz))
                        : 1.0;
        const double sample =
            o.busy_fraction * static_cast<double>(o.capacity) * scale;
        o.util += alpha * (sample - o.util);
        util_ns_[cpu] = now_ns;
      }
      if (o.online) {
        sum_khz += f_khz;
        ++online;
      }
    }
    d->current_khz_ = online > 0 ? sum_khz / online : d->cur_freq_khz_;
  }
  now_ns_ = now_ns;
  last_sample_ns_ = now_ns;
  sampled_ = true;
  return absl::OkStatus();
}

std::string LinuxCpufreq::DescribeInputs(const LinuxFreqDomain& d) const {
  std::vector<int> cpus = d.cpus_.ToVector();
  std::stable_sort(cpus.begin(), cpus.end(),
                   [&](int a, int b) { return obs_[a].util > obs_[b].util; });
  std::vector<std::string> parts;
  for (size_t i = 0; i < cpus.size() && i < kMaxCpusDescribed; ++i) {
    const CpuObservation& o = obs_[cpus[i]];
    if (!o.online) {
      parts.push_back(absl::StrCat("cpu", cpus[i], " offline"));
      continue;
    }
    parts.push_back(absl::StrFormat(
        "cpu%d busy %.1f%% util %d%s", cpus[i], 100.0 * o.busy_fraction,
        std::llround(o.util), o.iowait ? " iowait" : ""));
  }
  if (cpus.size() > static_cast<size_t>(kMaxCpusDescribed)) {
    parts.push_back(
        absl::StrCat("+", cpus.size() - kMaxCpusDescribed, " less busy CPUs"));
  }
  return absl::StrCat(
      options_.governor_name.empty() ? "governor" : options_.governor_name,
      "; ", absl::StrJoin(parts, ", "), "; running at ", d.current_khz_, " kHz",
      msr_counters_ ? " (APERF/MPERF)" : " (scaling_cur_freq)", "; limits ",
      d.policy_min_khz_, "-", d.policy_max_khz_, " kHz");
}

}  // namespace schedsim::platform::host
