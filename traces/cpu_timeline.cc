// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "traces/cpu_timeline.h"

#include <algorithm>
#include <utility>

namespace schedsim::traces {

CpuTimeline::CpuTimeline(int num_cpus, int64_t from_ns, int64_t to_ns, int bins,
                         std::vector<bool> cpus)
    : from_ns_(from_ns),
      to_ns_(std::max(to_ns, from_ns + 1)),
      bins_(std::max(bins, 1)),
      cpus_(std::max(num_cpus, 0)) {
  for (int c = 0; c < num_cpus; ++c) {
    const bool sel =
        cpus.empty() || (static_cast<size_t>(c) < cpus.size() && cpus[c]);
    if (!sel) continue;
    Cpu& cpu = cpus_[c];
    cpu.selected = true;
    cpu.khz_ns.assign(bins_, 0.0);
    cpu.freq_ns.assign(bins_, 0.0);
    cpu.c0_ns.assign(bins_, 0.0);
    selected_.push_back(c);
  }
}

int64_t CpuTimeline::BinStartNs(int bin) const {
  return from_ns_ + (to_ns_ - from_ns_) * bin / bins_;
}

template <typename Add>
void CpuTimeline::ForBins(int64_t a, int64_t b, Add add) const {
  a = std::max(a, from_ns_);
  b = std::min(b, to_ns_);
  if (a >= b) return;
  const int64_t span = to_ns_ - from_ns_;
  int bin = static_cast<int>((a - from_ns_) * bins_ / span);
  while (bin < bins_ && a < b) {
    const int64_t end = std::min(b, BinStartNs(bin + 1));
    if (end > a) add(bin, static_cast<double>(end - a));
    a = std::max(a, end);
    ++bin;
  }
}

void CpuTimeline::CloseFreq(Cpu& c, int64_t t) {
  if (c.khz >= 0) {
    const double khz = static_cast<double>(c.khz);
    ForBins(c.freq_since, t, [&](int bin, double ns) {
      c.khz_ns[bin] += khz * ns;
      c.freq_ns[bin] += ns;
    });
  }
  c.freq_since = t;
}

void CpuTimeline::CloseIdle(Cpu& c, int64_t t) {
  if (c.state == kNotIdle) {
    ForBins(c.idle_since, t, [&](int bin, double ns) { c.c0_ns[bin] += ns; });
  } else if (c.state >= 0) {
    std::vector<double>& s = c.state_ns[c.state];
    ForBins(c.idle_since, t, [&](int bin, double ns) { s[bin] += ns; });
  }
  c.idle_since = t;
}

void CpuTimeline::OnIdle(int64_t time_ns, int cpu, int state) {
  if (cpu < 0 || static_cast<size_t>(cpu) >= cpus_.size()) return;
  Cpu& c = cpus_[cpu];
  if (!c.selected) return;
  CloseIdle(c, time_ns);
  if (state >= 0) {
    if (static_cast<size_t>(state) >= c.state_ns.size()) {
      c.state_ns.resize(state + 1, std::vector<double>(bins_, 0.0));
    }
    num_states_ = std::max(num_states_, state + 1);
    c.state = state;
  } else {
    c.state = kNotIdle;
  }
}

void CpuTimeline::OnFrequency(int64_t time_ns, int cpu, int64_t khz) {
  if (cpu < 0 || static_cast<size_t>(cpu) >= cpus_.size()) return;
  Cpu& c = cpus_[cpu];
  if (!c.selected) return;
  CloseFreq(c, time_ns);
  c.khz = khz;
}

void CpuTimeline::Finish(int64_t end_ns) {
  for (int cpu : selected_) {
    CloseFreq(cpus_[cpu], end_ns);
    CloseIdle(cpus_[cpu], end_ns);
  }
}

double CpuTimeline::MeanKhz(int cpu, int bin) const {
  const Cpu& c = cpus_[cpu];
  if (c.freq_ns[bin] <= 0) return -1;
  return c.khz_ns[bin] / c.freq_ns[bin];
}

int CpuTimeline::MainIdleState(int cpu, int bin) const {
  const Cpu& c = cpus_[cpu];
  int best = kUnknown;
  double best_ns = 0;
  if (c.c0_ns[bin] > best_ns) {
    best = kNotIdle;
    best_ns = c.c0_ns[bin];
  }
  for (size_t s = 0; s < c.state_ns.size(); ++s) {
    if (c.state_ns[s][bin] > best_ns) {
      best = static_cast<int>(s);
      best_ns = c.state_ns[s][bin];
    }
  }
  return best;
}

double CpuTimeline::IdleShare(int cpu, int bin) const {
  const Cpu& c = cpus_[cpu];
  double idle = 0;
  for (const std::vector<double>& s : c.state_ns) idle += s[bin];
  const double known = idle + c.c0_ns[bin];
  return known > 0 ? idle / known : -1;
}

}  // namespace schedsim::traces
