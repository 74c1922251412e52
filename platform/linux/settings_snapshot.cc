// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/settings_snapshot.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "platform/linux/msr.h"

namespace schedsim::platform::host {
namespace {

// Restore priority by file name (see the header).
int OrderOf(absl::string_view rel) {
  if (absl::EndsWith(rel, "/scaling_governor")) return 0;
  if (absl::EndsWith(rel, "/scaling_max_freq")) return 1;
  if (absl::EndsWith(rel, "/scaling_min_freq")) return 2;
  if (absl::EndsWith(rel, "/energy_performance_preference")) return 3;
  if (absl::EndsWith(rel, "/scaling_setspeed")) return 4;
  return 5;
}
constexpr int kMsrOrder = 6;

// A value sysfs shows but does not take back ("<unsupported>").
bool IsPlaceholder(absl::string_view content) {
  return absl::StartsWith(absl::StripLeadingAsciiWhitespace(content), "<");
}

}  // namespace

std::string PolicyDir(int policy) {
  return absl::StrCat(kSysfsCpuDir, "/cpufreq/policy", policy);
}

std::string IdleStateDir(int cpu, int state) {
  return absl::StrCat(kSysfsCpuDir, "/cpu", cpu, "/cpuidle/state", state);
}

SettingsSnapshot::SettingsSnapshot(const LinuxPaths& paths, MsrAccess* msr)
    : sysfs_(paths.sysfs_root), msr_(msr) {
  if (msr_ == nullptr) {
    own_msr_ = std::make_unique<DevMsrAccess>(paths.dev_root);
    msr_ = own_msr_.get();
  }
}

SettingsSnapshot::~SettingsSnapshot() {
  absl::Status s = Restore();
  if (!s.ok()) {
    std::fprintf(stderr, "schedsim: restoring saved settings failed: %s\n",
                 std::string(s.message()).c_str());
  }
}

const SettingsSnapshot::Entry* SettingsSnapshot::FindFile(
    absl::string_view rel) const {
  for (const Entry& e : entries_) {
    if (!e.is_msr && e.rel == rel) return &e;
  }
  return nullptr;
}

const SettingsSnapshot::Entry* SettingsSnapshot::FindMsr(int cpu,
                                                         uint32_t reg) const {
  for (const Entry& e : entries_) {
    if (e.is_msr && e.cpu == cpu && e.reg == reg) return &e;
  }
  return nullptr;
}

absl::Status SettingsSnapshot::SaveFile(absl::string_view rel) {
  if (FindFile(rel) != nullptr) return absl::OkStatus();
  absl::StatusOr<std::string> content = sysfs_.ReadRaw(rel);
  if (!content.ok()) {
    return absl::Status(content.status().code(),
                        absl::StrCat("cannot save the original setting: ",
                                     content.status().message()));
  }
  Entry e;
  e.rel = std::string(rel);
  e.content = *std::move(content);
  e.order = OrderOf(rel);
  entries_.push_back(std::move(e));
  return absl::OkStatus();
}

absl::Status SettingsSnapshot::WriteFile(absl::string_view rel,
                                         absl::string_view value) {
  absl::Status saved = SaveFile(rel);
  if (!saved.ok()) return saved;
  return sysfs_.Write(rel, value);
}

absl::Status SettingsSnapshot::SaveMsr(int cpu, uint32_t reg) {
  if (FindMsr(cpu, reg) != nullptr) return absl::OkStatus();
  absl::StatusOr<uint64_t> value = msr_->Read(cpu, reg);
  if (!value.ok()) {
    return absl::Status(value.status().code(),
                        absl::StrCat("cannot save the original setting: ",
                                     value.status().message()));
  }
  Entry e;
  e.is_msr = true;
  e.cpu = cpu;
  e.reg = reg;
  e.value = *value;
  e.order = kMsrOrder;
  entries_.push_back(std::move(e));
  return absl::OkStatus();
}

absl::Status SettingsSnapshot::WriteMsr(int cpu, uint32_t reg, uint64_t value) {
  absl::Status saved = SaveMsr(cpu, reg);
  if (!saved.ok()) return saved;
  return msr_->Write(cpu, reg, value);
}

absl::Status SettingsSnapshot::SavePolicy(int policy) {
  const std::string dir = PolicyDir(policy);
  if (!sysfs_.IsDir(dir)) {
    return absl::NotFoundError(
        absl::StrCat("no cpufreq policy directory ", sysfs_.Path(dir)));
  }
  for (absl::string_view name :
       {"scaling_governor", "scaling_setspeed", "scaling_min_freq",
        "scaling_max_freq", "energy_performance_preference"}) {
    const std::string rel = absl::StrCat(dir, "/", name);
    if (!sysfs_.Exists(rel)) continue;
    absl::Status s = SaveFile(rel);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status SettingsSnapshot::SaveIdleStates(int cpu) {
  const std::string dir = absl::StrCat(kSysfsCpuDir, "/cpu", cpu, "/cpuidle");
  const std::vector<int> states = sysfs_.NumberedEntries(dir, "state");
  if (states.empty()) {
    return absl::NotFoundError(
        absl::StrCat("no cpuidle states in ", sysfs_.Path(dir)));
  }
  for (int k : states) {
    absl::Status s = SaveFile(absl::StrCat(IdleStateDir(cpu, k), "/disable"));
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status SettingsSnapshot::RestoreOne(const Entry& e, bool* wrote) {
  *wrote = false;
  if (e.is_msr) {
    absl::StatusOr<uint64_t> now = msr_->Read(e.cpu, e.reg);
    if (now.ok() && *now == e.value) return absl::OkStatus();
    *wrote = true;
    return msr_->Write(e.cpu, e.reg, e.value);
  }
  absl::StatusOr<std::string> now = sysfs_.ReadRaw(e.rel);
  if (now.ok() && *now == e.content) return absl::OkStatus();
  // Kernel attributes print a trailing newline that a test tree may lack;
  // equal values need no write either way.
  if (now.ok() && absl::StripAsciiWhitespace(*now) ==
                      absl::StripAsciiWhitespace(e.content)) {
    return absl::OkStatus();
  }
  *wrote = true;
  return sysfs_.WriteRaw(e.rel, e.content);
}

std::string SettingsSnapshot::Describe(const Entry& e) const {
  if (e.is_msr) {
    return absl::StrCat("MSR 0x", absl::Hex(e.reg), " of CPU ", e.cpu, " = 0x",
                        absl::Hex(e.value, absl::kZeroPad16), " (",
                        msr_->Where(e.cpu), ")");
  }
  return absl::StrCat(sysfs_.Path(e.rel), " = ", QuoteForError(e.content));
}

absl::Status SettingsSnapshot::Restore(RestoreReport* report) {
  RestoreReport local;
  RestoreReport& r = report != nullptr ? *report : local;
  r = RestoreReport();
  std::vector<const Entry*> order;
  order.reserve(entries_.size());
  for (const Entry& e : entries_) order.push_back(&e);
  std::stable_sort(
      order.begin(), order.end(),
      [](const Entry* a, const Entry* b) { return a->order < b->order; });
  std::vector<const Entry*> failed;
  for (const Entry* e : order) {
    bool wrote = false;
    absl::Status s = RestoreOne(*e, &wrote);
    if (!s.ok()) {
      failed.push_back(e);
    } else if (wrote) {
      ++r.written;
    } else {
      ++r.unchanged;
    }
  }
  // Second pass: dependencies between limits.
  absl::Status first_error;
  int errors = 0;
  for (const Entry* e : failed) {
    bool wrote = false;
    absl::Status s = RestoreOne(*e, &wrote);
    if (s.ok()) {
      wrote ? ++r.written : ++r.unchanged;
      continue;
    }
    if (!e->is_msr && IsPlaceholder(e->content)) {
      r.notes.push_back(
          absl::StrCat(sysfs_.Path(e->rel), " was ", QuoteForError(e->content),
                       ", a value the kernel shows but does not take back (",
                       s.message(), "); left as it is"));
      continue;
    }
    if (first_error.ok()) first_error = s;
    ++errors;
  }
  if (errors > 1) {
    return absl::Status(
        first_error.code(),
        absl::StrCat(first_error.message(), " (and ", errors - 1,
                     " more settings not restored)"));
  }
  return first_error;
}

}  // namespace schedsim::platform::host
