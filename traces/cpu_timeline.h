// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// CpuTimeline: a trace sink that records, per CPU, its frequency and its
// idle state over time in fixed bins, for the per-CPU timeline plots of
// `schedsim run --plots=DIR --trace=...` (experiments/plots.h).
//
// The span [from_ns, to_ns) is cut into `bins` equal bins. Per selected
// CPU and bin it keeps the time-weighted mean frequency (kHz) and the time
// spent in each idle state and out of idle ("C0": from a cpu_idle exit to
// the next entry). Before a CPU's first cpu_frequency event its frequency
// is unknown, before its first cpu_idle event its idle state is: that time
// is counted nowhere, and a bin with no known time reads as unknown. Memory:
// bins x (idle states + 3) doubles per selected CPU.

#ifndef SCHEDSIM_TRACES_CPU_TIMELINE_H_
#define SCHEDSIM_TRACES_CPU_TIMELINE_H_

#include <cstdint>
#include <vector>

#include "sim/trace_sink.h"

namespace schedsim::traces {

class CpuTimeline : public sim::TraceSink {
 public:
  // Not idle: MainIdleState()'s value for a bin spent mostly running.
  static constexpr int kNotIdle = -1;
  // Unknown: MainIdleState()'s value for a bin with no known time.
  static constexpr int kUnknown = -2;

  // CPUs 0..num_cpus-1, those with cpus[c] set (all when `cpus` is empty).
  // REQUIRES: from_ns < to_ns, bins >= 1.
  CpuTimeline(int num_cpus, int64_t from_ns, int64_t to_ns, int bins,
              std::vector<bool> cpus = {});

  void OnIdle(int64_t time_ns, int cpu, int state) override;
  void OnFrequency(int64_t time_ns, int cpu, int64_t khz) override;

  // Accounts every CPU's last state up to `end_ns` (clipped to the span).
  void Finish(int64_t end_ns);

  // The selected CPUs, ascending.
  const std::vector<int>& cpus() const { return selected_; }
  int bins() const { return bins_; }
  int64_t from_ns() const { return from_ns_; }
  int64_t to_ns() const { return to_ns_; }
  // Start of bin b.
  int64_t BinStartNs(int bin) const;
  // The time-weighted mean frequency of `cpu` over `bin`, kHz; < 0 when
  // unknown for the whole bin. `cpu` must be selected.
  double MeanKhz(int cpu, int bin) const;
  // The idle state index `cpu` spent most of `bin` in, kNotIdle when it was
  // mostly out of idle, kUnknown when no time of the bin is known.
  int MainIdleState(int cpu, int bin) const;
  // The share of the bin's known time `cpu` spent in idle states, 0..1;
  // < 0 when unknown.
  double IdleShare(int cpu, int bin) const;
  // The deepest idle state index seen + 1 (0 when none).
  int num_idle_states() const { return num_states_; }

 private:
  struct Cpu {
    bool selected = false;
    int64_t freq_since = 0;
    int64_t khz = -1;  // -1: not known yet
    int64_t idle_since = 0;
    int state = kUnknown;         // kNotIdle, or the idle state index
    std::vector<double> khz_ns;   // sum of kHz x ns, per bin
    std::vector<double> freq_ns;  // ns with a known frequency, per bin
    std::vector<double> c0_ns;    // ns out of idle, per bin
    // state_ns[s][bin]: ns in idle state s.
    std::vector<std::vector<double>> state_ns;
  };
  // Calls add(bin, ns) for each bin [a, b) overlaps, clipped to the span.
  template <typename Add>
  void ForBins(int64_t a, int64_t b, Add add) const;
  void CloseFreq(Cpu& c, int64_t t);
  void CloseIdle(Cpu& c, int64_t t);

  int64_t from_ns_;
  int64_t to_ns_;
  int bins_;
  int num_states_ = 0;
  std::vector<Cpu> cpus_;
  std::vector<int> selected_;
};

}  // namespace schedsim::traces

#endif  // SCHEDSIM_TRACES_CPU_TIMELINE_H_
