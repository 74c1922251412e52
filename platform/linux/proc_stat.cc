// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "platform/linux/proc_stat.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "platform/linux/linux_sysfs.h"

namespace schedsim::platform::host {

absl::StatusOr<std::vector<CpuTimes>> ParseProcStat(absl::string_view text,
                                                    absl::string_view path) {
  std::vector<CpuTimes> cpus;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    std::vector<absl::string_view> fields =
        absl::StrSplit(line, absl::ByAnyChar(" \t"), absl::SkipEmpty());
    if (fields.empty()) continue;
    absl::string_view name = fields[0];
    // "cpu" alone is the sum over CPUs; only "cpuN" lines are per CPU.
    if (!absl::ConsumePrefix(&name, "cpu") || name.empty()) continue;
    const auto bad = [&](absl::string_view why) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, ":", line_number, ": ", why, " in ", QuoteForError(line)));
    };
    CpuTimes t;
    if (!std::all_of(name.begin(), name.end(), absl::ascii_isdigit) ||
        !absl::SimpleAtoi(name, &t.cpu)) {
      return bad("expected a CPU number after 'cpu'");
    }
    uint64_t* slots[] = {&t.user,   &t.nice, &t.system,  &t.idle,
                         &t.iowait, &t.irq,  &t.softirq, &t.steal};
    constexpr size_t kRequired = 4;  // user nice system idle
    const size_t have = fields.size() - 1;
    if (have < kRequired) {
      return bad("expected at least 4 tick counts (user nice system idle)");
    }
    for (size_t i = 0; i < std::size(slots) && i < have; ++i) {
      if (!absl::SimpleAtoi(fields[i + 1], slots[i])) {
        return bad(
            absl::StrCat("expected a tick count, got '", fields[i + 1], "'"));
      }
    }
    cpus.push_back(t);
  }
  return cpus;
}

double BusyFraction(const CpuTimes& before, const CpuTimes& after) {
  if (after.total() <= before.total() || after.busy() < before.busy()) {
    return 0.0;
  }
  const double busy = static_cast<double>(after.busy() - before.busy());
  const double total = static_cast<double>(after.total() - before.total());
  return std::clamp(busy / total, 0.0, 1.0);
}

bool IowaitGrew(const CpuTimes& before, const CpuTimes& after) {
  return after.iowait > before.iowait;
}

}  // namespace schedsim::platform::host
