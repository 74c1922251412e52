// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/settings_snapshot.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "base/input_file.h"
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

constexpr absl::string_view kSnapshotMagic = "schedsim settings snapshot 1";

// A sysfs attribute is at most a page (fs/sysfs/file.c); a saved value
// longer than that is not one the kernel printed.
constexpr size_t kMaxAttributeBytes = 4096;

// "<prefix>N" with N 1-9 digits, consumed from *s.
bool ConsumeNumbered(absl::string_view* s, absl::string_view prefix) {
  if (!absl::ConsumePrefix(s, prefix)) return false;
  size_t n = 0;
  while (n < s->size() && n < 10 && absl::ascii_isdigit((*s)[n])) ++n;
  if (n == 0 || n > 9) return false;
  s->remove_prefix(n);
  return true;
}

// The files the backend may write (SavePolicy, SaveIdleStates and
// pm_qos.h's SetIdleStateDisabled), and so the only ones a snapshot may
// name: `--restore` writes nothing else.
bool IsGovdWritable(absl::string_view rel) {
  absl::string_view s = rel;
  if (!absl::ConsumePrefix(&s, kSysfsCpuDir)) return false;
  if (absl::ConsumePrefix(&s, "/cpufreq") && ConsumeNumbered(&s, "/policy")) {
    for (absl::string_view name :
         {"/scaling_governor", "/scaling_setspeed", "/scaling_min_freq",
          "/scaling_max_freq", "/energy_performance_preference"}) {
      if (s == name) return true;
    }
    return false;
  }
  s = rel.substr(kSysfsCpuDir.size());
  return ConsumeNumbered(&s, "/cpu") && ConsumeNumbered(&s, "/cpuidle/state") &&
         s == "/disable";
}

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
    : sysfs_(paths.sysfs_root), paths_(paths), msr_(msr) {
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
  if (absl::Status inside = sysfs_.CheckInsideRoot(rel);
      inside.code() == absl::StatusCode::kPermissionDenied) {
    return inside;
  }
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
  return WriteSnapshotFile();
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
  return WriteSnapshotFile();
}

absl::Status SettingsSnapshot::SetSnapshotFile(std::string path) {
  // Created exclusively (issue 49 #10): an existing file is another
  // instance's snapshot, or one a killed run left with the only copy of
  // the original settings; neither may be overwritten (nor, after a clean
  // exit, removed).
  const int fd = open(
      path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    const int err = errno;
    if (err == EEXIST) {
      return absl::AlreadyExistsError(absl::StrCat(
          "the snapshot file ", path,
          " exists already: another govd's, or one a killed run left (then "
          "`schedsim govd --restore=",
          path, "` puts its settings back); refusing to overwrite it"));
    }
    return absl::ErrnoToStatus(
        err, absl::StrCat("cannot create the snapshot file ", path));
  }
  close(fd);
  snapshot_file_ = std::move(path);
  absl::Status s = WriteSnapshotFile();
  if (!s.ok()) {
    unlink(snapshot_file_.c_str());
    snapshot_file_.clear();
  }
  return s;
}

absl::Status SettingsSnapshot::RemoveSnapshotFile() {
  if (snapshot_file_.empty()) return absl::OkStatus();
  const std::string path = std::move(snapshot_file_);
  snapshot_file_.clear();
  if (unlink(path.c_str()) != 0 && errno != ENOENT) {
    return absl::ErrnoToStatus(
        errno, absl::StrCat("cannot remove the snapshot file ", path));
  }
  return absl::OkStatus();
}

absl::Status SettingsSnapshot::WriteSnapshotFile() const {
  if (snapshot_file_.empty()) return absl::OkStatus();
  // Absolute roots: --restore may run from any directory.
  std::string text =
      absl::StrCat(kSnapshotMagic, "\nsysfs ",
                   absl::CEscape(AbsolutePath(paths_.sysfs_root)), "\ndev ",
                   absl::CEscape(AbsolutePath(paths_.dev_root)), "\n");
  for (const Entry& e : entries_) {
    if (e.is_msr) {
      absl::StrAppend(&text, "msr ", e.cpu, " ", absl::Hex(e.reg), " ",
                      absl::Hex(e.value), "\n");
    } else {
      absl::StrAppend(&text, "file ", absl::CEscape(e.rel), " ",
                      absl::CEscape(e.content), "\n");
    }
  }
  // A new temporary file each time (mkostemp: O_CREAT | O_EXCL, mode
  // 0600), never one found in place: a planted file or hard link is not
  // written through.
  std::string tmp = absl::StrCat(snapshot_file_, ".tmp.XXXXXX");
  const auto fail = [&](absl::string_view what) {
    const int err = errno;
    return absl::ErrnoToStatus(
        err, absl::StrCat("cannot ", what, " the snapshot file ", tmp));
  };
  const int fd = mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0) return fail("create");
  const auto fail_and_remove = [&](absl::string_view what) {
    absl::Status s = fail(what);
    close(fd);
    unlink(tmp.c_str());
    return s;
  };
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return fail_and_remove("write");
    done += static_cast<size_t>(n);
  }
  if (fsync(fd) != 0) return fail_and_remove("sync");
  close(fd);
  if (rename(tmp.c_str(), snapshot_file_.c_str()) != 0) {
    const int err = errno;
    unlink(tmp.c_str());
    return absl::ErrnoToStatus(
        err, absl::StrCat("cannot rename ", tmp, " to ", snapshot_file_));
  }
  return absl::OkStatus();
}

absl::StatusOr<SettingsSnapshot::Loaded> SettingsSnapshot::LoadSnapshotFile(
    const std::string& path) {
  absl::StatusOr<std::string> text =
      base::ReadInputFile(path, "snapshot file", base::kMaxCaptureFileBytes);
  if (!text.ok()) return text.status();
  Loaded loaded;
  loaded.paths.sysfs_root.clear();
  loaded.paths.dev_root.clear();
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(*text, '\n')) {
    ++line_number;
    const auto bad = [&](absl::string_view what) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ":", line_number, ": ", what));
    };
    if (line_number == 1) {
      if (line != kSnapshotMagic) {
        return bad(
            absl::StrCat("not a schedsim settings snapshot (expected "
                         "a first line '",
                         kSnapshotMagic, "')"));
      }
      continue;
    }
    if (line.empty()) continue;
    // CEscape leaves spaces: a root or a content may hold some, so each
    // line splits into at most as many fields as it has.
    const absl::string_view kind = line.substr(0, line.find(' '));
    const int fields = kind == "file" ? 3 : kind == "msr" ? 4 : 2;
    std::vector<std::string> f =
        absl::StrSplit(line, absl::MaxSplits(' ', fields - 1));
    std::string a, b;
    if ((f[0] == "sysfs" || f[0] == "dev") && f.size() == 2 &&
        absl::CUnescape(f[1], &a)) {
      if (a.empty() || a[0] != '/') {
        return bad(absl::StrCat("expected an absolute ", f[0], " root, got ",
                                QuoteForError(a)));
      }
      (f[0] == "sysfs" ? loaded.paths.sysfs_root : loaded.paths.dev_root) = a;
    } else if (f[0] == "file" && f.size() == 3 && absl::CUnescape(f[1], &a) &&
               absl::CUnescape(f[2], &b) && !a.empty()) {
      if (!IsGovdWritable(a)) {
        return bad(absl::StrCat(
            "govd never writes ", QuoteForError(a),
            "; a snapshot holds only devices/system/cpu/cpufreq/policyN/"
            "{scaling_governor,scaling_setspeed,scaling_min_freq,"
            "scaling_max_freq,energy_performance_preference} and "
            "devices/system/cpu/cpuN/cpuidle/stateK/disable (nothing was "
            "written)"));
      }
      if (b.size() > kMaxAttributeBytes) {
        return bad(absl::StrCat("the saved content of ", a, " is ", b.size(),
                                " bytes; a sysfs attribute holds at most ",
                                kMaxAttributeBytes, " (nothing was written)"));
      }
      Entry e;
      e.rel = a;
      e.content = b;
      e.order = OrderOf(a);
      loaded.entries.push_back(std::move(e));
    } else if (f[0] == "msr" && f.size() == 4) {
      Entry e;
      e.is_msr = true;
      uint64_t reg = 0;
      if (!absl::SimpleAtoi(f[1], &e.cpu) || e.cpu < 0 ||
          !absl::SimpleHexAtoi(f[2], &reg) || reg > UINT32_MAX ||
          !absl::SimpleHexAtoi(f[3], &e.value)) {
        return bad("expected 'msr CPU REG VALUE' (REG and VALUE hex)");
      }
      if (reg != kMsrHwpRequest) {
        return bad(absl::StrCat("govd never writes MSR 0x", absl::Hex(reg),
                                "; a snapshot holds only IA32_HWP_REQUEST "
                                "(0x774) (nothing was written)"));
      }
      e.reg = static_cast<uint32_t>(reg);
      e.order = kMsrOrder;
      loaded.entries.push_back(std::move(e));
    } else {
      return bad(
          "expected 'sysfs ROOT', 'dev ROOT', 'file REL CONTENT' or "
          "'msr CPU REG VALUE'");
    }
  }
  if (loaded.paths.sysfs_root.empty() || loaded.paths.dev_root.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": no 'sysfs ROOT' or 'dev ROOT' line"));
  }
  return loaded;
}

void SettingsSnapshot::AddEntries(const std::vector<Entry>& entries) {
  for (const Entry& e : entries) {
    if (e.is_msr ? FindMsr(e.cpu, e.reg) != nullptr
                 : FindFile(e.rel) != nullptr) {
      continue;
    }
    entries_.push_back(e);
  }
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
