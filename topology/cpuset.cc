// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "topology/cpuset.h"

#include <cctype>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace schedsim::topology {

CpuSet::CpuSet(int num_cpus)
    : num_cpus_(num_cpus), words_((num_cpus + 63) / 64, 0) {}

absl::StatusOr<CpuSet> CpuSet::ParseList(absl::string_view text, int num_cpus) {
  CpuSet set(num_cpus);
  absl::string_view stripped = absl::StripAsciiWhitespace(text);
  if (stripped.empty()) return set;
  for (absl::string_view part : absl::StrSplit(stripped, ',')) {
    part = absl::StripAsciiWhitespace(part);
    std::vector<absl::string_view> ends = absl::StrSplit(part, '-');
    int lo = 0;
    int hi = 0;
    // Issue 49 #16: the reason, not only the expectation.
    const auto bad = [&](absl::string_view why) {
      return absl::InvalidArgumentError(absl::StrCat(
          "expected a CPU list like \"0-3,8\", got \"", text, "\": ", why));
    };
    if (ends.size() > 2) {
      return bad(absl::StrCat("\"", part, "\" has more than one '-'"));
    }
    if (!absl::SimpleAtoi(ends[0], &lo) || lo < 0 ||
        !absl::SimpleAtoi(ends.back(), &hi) || hi < 0) {
      return bad(absl::StrCat("\"", part,
                              "\" is not a CPU number or a range N-M of them"));
    }
    if (hi < lo) {
      return bad(
          absl::StrCat("the range \"", part, "\" ends before it starts"));
    }
    if (hi >= num_cpus) {
      return absl::OutOfRangeError(absl::StrCat("CPU ", hi, " in list \"", text,
                                                "\" is beyond the ", num_cpus,
                                                " CPUs of this machine"));
    }
    for (int cpu = lo; cpu <= hi; ++cpu) set.Set(cpu);
  }
  return set;
}

absl::StatusOr<CpuSet> CpuSet::ParseMask(absl::string_view text, int num_cpus) {
  CpuSet set(num_cpus);
  absl::string_view stripped = absl::StripAsciiWhitespace(text);
  int bit = 0;
  for (size_t i = stripped.size(); i-- > 0;) {
    char c = stripped[i];
    if (c == ',') continue;
    if (!std::isxdigit(static_cast<unsigned char>(c))) {
      return absl::InvalidArgumentError(absl::StrCat(
          "expected a hex CPU mask like \"ff,00000000\", got \"", text, "\""));
    }
    int nibble = std::isdigit(static_cast<unsigned char>(c))
                     ? c - '0'
                     : std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;
    for (int b = 0; b < 4; ++b, ++bit) {
      if ((nibble >> b) & 1) {
        if (bit >= num_cpus) {
          return absl::OutOfRangeError(absl::StrCat(
              "CPU ", bit, " in mask \"", text, "\" is beyond the ", num_cpus,
              " CPUs of this machine"));
        }
        set.Set(bit);
      }
    }
  }
  return set;
}

void CpuSet::SetAll() {
  for (int cpu = 0; cpu < num_cpus_; ++cpu) Set(cpu);
}

void CpuSet::ClearAll() {
  for (uint64_t& w : words_) w = 0;
}

int CpuSet::Count() const {
  int n = 0;
  for (uint64_t w : words_) n += __builtin_popcountll(w);
  return n;
}

bool CpuSet::Empty() const {
  for (uint64_t w : words_) {
    if (w != 0) return false;
  }
  return true;
}

bool CpuSet::IsSubsetOf(const CpuSet& other) const {
  for (size_t i = 0; i < words_.size(); ++i) {
    if (words_[i] & ~other.words_[i]) return false;
  }
  return true;
}

bool CpuSet::Intersects(const CpuSet& other) const {
  for (size_t i = 0; i < words_.size(); ++i) {
    if (words_[i] & other.words_[i]) return true;
  }
  return false;
}

CpuSet& CpuSet::operator|=(const CpuSet& other) {
  for (size_t i = 0; i < words_.size(); ++i) words_[i] |= other.words_[i];
  return *this;
}

CpuSet& CpuSet::operator&=(const CpuSet& other) {
  for (size_t i = 0; i < words_.size(); ++i) words_[i] &= other.words_[i];
  return *this;
}

CpuSet& CpuSet::AndNot(const CpuSet& other) {
  for (size_t i = 0; i < words_.size(); ++i) words_[i] &= ~other.words_[i];
  return *this;
}

bool CpuSet::operator<(const CpuSet& other) const {
  int a = First();
  int b = other.First();
  if (a != b) return a < b;
  return words_ < other.words_;
}

std::vector<int> CpuSet::ToVector() const {
  std::vector<int> out;
  for (int cpu = First(); cpu >= 0; cpu = Next(cpu)) out.push_back(cpu);
  return out;
}

std::string CpuSet::ToList() const {
  std::string out;
  int cpu = First();
  while (cpu >= 0) {
    int end = cpu;
    while (end + 1 < num_cpus_ && Test(end + 1)) ++end;
    if (!out.empty()) out += ',';
    absl::StrAppend(&out, cpu);
    if (end > cpu) absl::StrAppend(&out, "-", end);
    cpu = Next(end);
  }
  return out;
}

}  // namespace schedsim::topology
