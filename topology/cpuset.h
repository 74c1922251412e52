// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// CpuSet: a set of logical CPU ids as a bitmap, like the kernel's cpumask.
// The width is fixed when the set is made (the machine's CPU count), so set
// operations are a few word operations and never allocate after
// construction. Text form is the kernel's cpulist format ("0-15,128-143").

#ifndef SCHEDSIM_TOPOLOGY_CPUSET_H_
#define SCHEDSIM_TOPOLOGY_CPUSET_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace schedsim::topology {

class CpuSet {
 public:
  CpuSet() = default;
  // An empty set able to hold CPUs 0 .. num_cpus-1.
  explicit CpuSet(int num_cpus);

  // Parses a kernel cpulist ("0-3,8,10-11"; empty or "\n" is the empty set).
  // Fails on malformed text or a CPU id >= num_cpus.
  static absl::StatusOr<CpuSet> ParseList(absl::string_view text, int num_cpus);
  // Parses a kernel cpumask in hex ("ff,00000000"), as in shared_cpu_map.
  static absl::StatusOr<CpuSet> ParseMask(absl::string_view text, int num_cpus);

  int width() const { return num_cpus_; }
  // REQUIRES: 0 <= cpu < width().
  void Set(int cpu) { words_[cpu >> 6] |= uint64_t{1} << (cpu & 63); }
  void Clear(int cpu) { words_[cpu >> 6] &= ~(uint64_t{1} << (cpu & 63)); }
  bool Test(int cpu) const { return (words_[cpu >> 6] >> (cpu & 63)) & 1; }
  void SetAll();
  void ClearAll();

  int Count() const;
  bool Empty() const;
  // First CPU in the set, or -1.
  int First() const { return Next(-1); }
  // Smallest CPU > cpu in the set, or -1. Inline: the idle-CPU searches
  // call it per CPU probed.
  int Next(int cpu) const {
    const int start = cpu + 1;
    if (start >= num_cpus_) return -1;
    size_t wi = static_cast<size_t>(start >> 6);
    uint64_t w = words_[wi] & (~uint64_t{0} << (start & 63));
    while (w == 0) {
      if (++wi >= words_.size()) return -1;
      w = words_[wi];
    }
    return static_cast<int>(wi * 64) + __builtin_ctzll(w);
  }
  // The kernel's for_each_cpu_wrap order: the first CPU >= start, wrapping
  // around to 0; returns -1 when the set is empty.
  int NextWrap(int cpu, int start) const {
    // The walk visits [start, width) and then [0, start).
    int next;
    if (cpu < 0) {
      next = Next(start - 1);
      if (next >= 0) return next;
      next = First();
    } else if (cpu >= start) {
      next = Next(cpu);
      if (next >= 0) return next;
      next = First();
    } else {
      next = Next(cpu);
    }
    return next < start ? next : -1;
  }

  bool IsSubsetOf(const CpuSet& other) const;
  bool Intersects(const CpuSet& other) const;
  CpuSet& operator|=(const CpuSet& other);
  CpuSet& operator&=(const CpuSet& other);
  CpuSet& AndNot(const CpuSet& other);
  // *this = a & b, reusing this set's storage (no allocation when the
  // widths match, as on every call after the first). REQUIRES: a and b
  // have the same width.
  void AssignAnd(const CpuSet& a, const CpuSet& b) {
    num_cpus_ = a.num_cpus_;
    const size_t n = a.words_.size();
    words_.resize(n);
    uint64_t* out = words_.data();
    const uint64_t* x = a.words_.data();
    const uint64_t* y = b.words_.data();
    for (size_t i = 0; i < n; ++i) out[i] = x[i] & y[i];
  }
  friend CpuSet operator|(CpuSet a, const CpuSet& b) { return a |= b; }
  friend CpuSet operator&(CpuSet a, const CpuSet& b) { return a &= b; }
  bool operator==(const CpuSet& other) const {
    return num_cpus_ == other.num_cpus_ && words_ == other.words_;
  }
  bool operator!=(const CpuSet& other) const { return !(*this == other); }
  // Orders sets by their lowest CPU, then bitwise (for stable sorting).
  bool operator<(const CpuSet& other) const;

  // The members in increasing order.
  std::vector<int> ToVector() const;
  // Kernel cpulist form, e.g. "0-15,128-143"; "" for the empty set.
  std::string ToList() const;

  const std::vector<uint64_t>& words() const { return words_; }

 private:
  int num_cpus_ = 0;
  std::vector<uint64_t> words_;
};

}  // namespace schedsim::topology

#endif  // SCHEDSIM_TOPOLOGY_CPUSET_H_
