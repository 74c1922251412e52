// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// LinuxFreqDomain's writing (linux_cpufreq.h): a governor's frequency or
// HWP request resolved and written to the policy's sysfs files (or only
// described, in a dry run), and the text of the actions.

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "platform/core/answer_checks.h"
#include "platform/drivers/acpi_cpufreq.h"
#include "platform/linux/linux_cpufreq.h"
#include "platform/linux/linux_cpufreq_internal.h"

namespace schedsim::platform::host {
namespace {

using cpufreq_internal::IsIntelDriver;

bool SameRequest(const HwpRequest& a, const HwpRequest& b) {
  return a.min_perf == b.min_perf && a.max_perf == b.max_perf &&
         a.desired_perf == b.desired_perf && a.epp == b.epp;
}

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

std::vector<LinuxFreqAction> LinuxFreqDomain::TakeActions() {
  std::vector<LinuxFreqAction> out;
  out.swap(actions_);
  return out;
}

int64_t LinuxFreqDomain::ResolveKhz(int64_t khz) const {
  const int64_t hi = policy_max_khz_;
  const int64_t lo = std::min(policy_min_khz_, hi);
  const int64_t target = std::clamp(khz, lo, hi);
  // acpi-cpufreq's table, CPUFREQ_RELATION_L: the lowest available
  // frequency at or above the target within the limits, else the highest
  // below the maximum (scaling_setspeed takes table entries only).
  return drivers::ResolveTableKhz(spec_.pstates_khz, target,
                                  drivers::Relation::kLow, hi,
                                  drivers::AboveTable::kTableOnly);
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
  switch (core::CheckHwpWrite(spec_, cpus_, cpu)) {
    case core::HwpWrite::kOk:
      break;
    case core::HwpWrite::kNoHwp: {
      LinuxFreqAction a = NewAction(what);
      Fail(a, absl::FailedPreconditionError(absl::StrCat(
                  "the governor sent an HWP request to policy", policy_,
                  ", which has no HWP (driver ", spec_.driver, ")")));
      actions_.push_back(std::move(a));
      return;
    }
    case core::HwpWrite::kCpuNotInDomain: {
      LinuxFreqAction a = NewAction(what);
      Fail(a, absl::InvalidArgumentError(
                  absl::StrCat("the governor sent an HWP request for CPU ", cpu,
                               ", which is not in policy", policy_, " (CPUs ",
                               cpus_.ToList(), ")")));
      actions_.push_back(std::move(a));
      return;
    }
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

}  // namespace schedsim::platform::host
