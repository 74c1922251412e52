// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The parsers of sysfs file contents (sysfs_read.h).

#include "topology/sysfs_read.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"

namespace schedsim::topology::sysfs_internal {
namespace {

// Largest CPU or node id accepted in a list; far above any kernel's
// NR_CPUS, and small enough that a bogus range cannot exhaust memory.
constexpr int kMaxListId = 1 << 20;

}  // namespace

std::string Quote(absl::string_view text) {
  constexpr size_t kMaxShown = 80;
  absl::string_view t = absl::StripAsciiWhitespace(text);
  std::string shown = absl::CEscape(t.substr(0, kMaxShown));
  if (t.size() > kMaxShown) absl::StrAppend(&shown, "...");
  return absl::StrCat("'", shown, "'");
}

absl::StatusOr<int64_t> ParseInt(const std::string& path,
                                 absl::string_view text) {
  absl::string_view t = absl::StripAsciiWhitespace(text);
  int64_t value = 0;
  if (t.empty() || !absl::SimpleAtoi(t, &value)) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected an integer in ", path, ", got ", Quote(text)));
  }
  return value;
}

// Parses a kernel list ("0-3,8,10-11") of CPU or node ids, in sysfs
// numbering; the result is sorted and free of duplicates.
absl::StatusOr<std::vector<int>> ParseIdList(const std::string& path,
                                             absl::string_view text) {
  std::set<int> ids;
  absl::string_view t = absl::StripAsciiWhitespace(text);
  if (!t.empty()) {
    for (absl::string_view part : absl::StrSplit(t, ',')) {
      part = absl::StripAsciiWhitespace(part);
      std::vector<absl::string_view> ends = absl::StrSplit(part, '-');
      int lo = 0;
      int hi = 0;
      if (ends.size() > 2 || !absl::SimpleAtoi(ends.front(), &lo) ||
          !absl::SimpleAtoi(ends.back(), &hi) || lo < 0 || hi < lo ||
          hi > kMaxListId) {
        return absl::InvalidArgumentError(
            absl::StrCat("expected a CPU list like '0-3,8' in ", path, ", got ",
                         Quote(text)));
      }
      for (int id = lo; id <= hi; ++id) ids.insert(id);
    }
  }
  return std::vector<int>(ids.begin(), ids.end());
}

absl::StatusOr<std::vector<int>> ParseIdMask(const std::string& path,
                                             absl::string_view text) {
  std::vector<absl::string_view> words =
      absl::StrSplit(absl::StripAsciiWhitespace(text), ',');
  const auto bad = [&] {
    return absl::InvalidArgumentError(
        absl::StrCat("expected a CPU mask like '00000000,000000ff' in ", path,
                     ", got ", Quote(text)));
  };
  if (words.size() * 32 > static_cast<size_t>(kMaxListId)) return bad();
  std::vector<int> ids;
  for (size_t w = 0; w < words.size(); ++w) {
    const absl::string_view word = absl::StripAsciiWhitespace(words[w]);
    uint32_t bits = 0;
    if (word.empty() || word.size() > 8 || !absl::SimpleHexAtoi(word, &bits)) {
      return bad();
    }
    const int base = static_cast<int>(words.size() - 1 - w) * 32;
    for (int b = 0; b < 32; ++b) {
      if (bits & (uint32_t{1} << b)) ids.push_back(base + b);
    }
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

// Parses a cache size such as "32K", "1M" or "512" (bytes).
absl::StatusOr<int64_t> ParseSizeBytes(const std::string& path,
                                       absl::string_view text) {
  absl::string_view t = absl::StripAsciiWhitespace(text);
  int64_t scale = 1;
  if (!t.empty()) {
    switch (absl::ascii_toupper(t.back())) {
      case 'K':
        scale = int64_t{1} << 10;
        break;
      case 'M':
        scale = int64_t{1} << 20;
        break;
      case 'G':
        scale = int64_t{1} << 30;
        break;
      default:
        break;
    }
    if (scale != 1) t.remove_suffix(1);
  }
  int64_t value = 0;
  if (t.empty() || !absl::SimpleAtoi(t, &value) || value < 0 ||
      value > (int64_t{1} << 40) / scale) {
    return absl::InvalidArgumentError(absl::StrCat(
        "expected a cache size like '32K' in ", path, ", got ", Quote(text)));
  }
  return value * scale;
}

// Parses whitespace-separated integers (a SLIT row, a frequency list).
absl::StatusOr<std::vector<int64_t>> ParseIntRow(const std::string& path,
                                                 absl::string_view text,
                                                 absl::string_view what) {
  std::vector<int64_t> values;
  for (absl::string_view field :
       absl::StrSplit(text, absl::ByAnyChar(" \t\n"), absl::SkipEmpty())) {
    int64_t v = 0;
    if (!absl::SimpleAtoi(field, &v)) {
      return absl::InvalidArgumentError(
          absl::StrCat("expected ", what, " in ", path, ", got ", Quote(text)));
    }
    values.push_back(v);
  }
  return values;
}

}  // namespace schedsim::topology::sysfs_internal
