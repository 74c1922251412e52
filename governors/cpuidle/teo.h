// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The "teo" (timer events oriented) cpuidle governor, Linux v6.1
// drivers/cpuidle/governors/teo.c (the steps: teo.cc), or, with version
// "5.12", the v5.1-v5.12 algorithm (teo.cc, "Version 5.12"): take the deepest
// state fitting the time to the next timer, then go shallower when past
// wake-ups before the timer ("intercepts", overall and among the last 9)
// outweigh wake-ups by it ("hits") in the bins of the states at or above that
// one. Simplifications: the update reads dev.poll_time_limit() at the next
// Select instead of in Reflect (where the simulator has not set it yet);
// "woken by the tick" (tick_nohz_idle_got_tick) is inferred: the tick was
// kept and the residency reached it.

#ifndef SCHEDSIM_GOVERNORS_CPUIDLE_TEO_H_
#define SCHEDSIM_GOVERNORS_CPUIDLE_TEO_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "platform/cpuidle.h"

namespace schedsim::governors {

// The algorithm versions modelled (the registry's "version" parameter):
// v6.1 (the intercepts and "recent" rework of v5.13, commits c410a9a142f1
// "cpuidle: teo: Change the main idle state selection logic" and
// 77577558f25d "... Rework most recent idle duration values treatment", as
// 6.1 has it), and the
// original "early hits" algorithm as v5.12 last had it (introduced in v5.1,
// commit b26bf6ab716f "cpuidle: New timer events oriented governor for
// tickless systems", with its 5.x fixes: disabled states' metrics, ns
// units).
inline constexpr absl::string_view kTeoVersion61 = "6.1";
// v6.3: v6.1's algorithm with the util-awareness of commit 9ce0f7c4bc64
// "cpuidle: teo: Introduce util-awareness" (v6.3): a CPU whose
// sched_cpu_util() exceeds its capacity >> 6 (UTIL_THRESHOLD_SHIFT) is
// "utilized" and gets the next shallower non-polling state (with only two
// states, the first non-polling one at once). Later kernels reworked and
// then removed it.
inline constexpr absl::string_view kTeoVersion63 = "6.3";
inline constexpr absl::string_view kTeoVersion512 = "5.12";

class TeoGovernor final : public platform::IdleGovernor {
 public:
  // Constants of teo.c, Linux v6.1.
  static constexpr uint32_t kPulse = 1024;  // PULSE: one event's weight
  static constexpr int kDecayShift = 3;     // DECAY_SHIFT: x 7/8 per update
  static constexpr int kNrRecent = 9;       // NR_RECENT: recent intercepts

  // One bin per state: idle durations in [its target residency, the next
  // state's target residency).
  struct Bin {
    uint32_t intercepts = 0;  // decayed weight of early wake-ups here
    uint32_t hits = 0;        // decayed weight of wake-ups by the timer
    uint32_t recent = 0;      // intercepts here among the last kNrRecent
  };

  // v5.12: INTERVALS, the idle durations kept for pattern detection.
  static constexpr int kIntervals = 8;

  // v5.12: per state, the decayed weights of wake-ups that matched the
  // state picked by the timer ("hits"), did not ("misses", both counted on
  // the state matching the sleep length), and matched this shallower state
  // instead ("early_hits").
  struct State512 {
    uint32_t early_hits = 0;
    uint32_t hits = 0;
    uint32_t misses = 0;
  };

  struct Options {
    bool v512 = false;  // the v5.12 algorithm instead of v6.1's
    bool v63 = false;   // v6.1's with v6.3's util-awareness
  };

  // v6.3: UTIL_THRESHOLD_SHIFT; utilized = util > capacity >> this.
  static constexpr int kUtilThresholdShift = 6;

  TeoGovernor() = default;
  explicit TeoGovernor(Options options) : options_(options) {}

  absl::string_view name() const override { return "teo"; }

  // teo_enable_device: sizes the CPU's bins (the only allocation) and
  // clears them.
  void Enable(platform::IdleDevice& dev) override;

  // teo_select: first accounts the previous idle period (teo_update), then
  // picks a state; keeps the tick for polling states and expected idle
  // durations shorter than the tick.
  // REQUIRES: Enable(dev) was called for dev.cpu(). Does not allocate.
  int Select(platform::IdleDevice& dev, bool* stop_tick) override;

  // teo_reflect: records the wake-up time and residency.
  void Reflect(platform::IdleDevice& dev, int index) override;

  // --- Inspection (tests, traces) -------------------------------------------
  const Bin& bin(int cpu, int state) const { return cpus_[cpu].bins[state]; }
  uint32_t total(int cpu) const { return cpus_[cpu].total; }
  // v6.3: whether the last Select found the CPU utilized.
  bool utilized(int cpu) const { return cpus_[cpu].utilized; }
  const State512& state512(int cpu, int state) const {
    return cpus_[cpu].states512[state];
  }

 private:
  struct PerCpu {
    bool enabled = false;
    bool needs_update = false;
    int last_state = -1;
    int64_t selection_ns = 0;     // when Select ran
    int64_t sleep_length_ns = 0;  // the timer distance it saw
    int64_t delta_tick_ns = 0;
    bool tick_kept = false;
    bool utilized = false;  // v6.3, at the last Select
    int64_t wake_ns = 0;    // when Reflect ran
    int64_t residency_ns = 0;
    std::vector<Bin> bins;  // by state, sized in Enable
    uint32_t total = 0;
    std::array<int, kNrRecent> recent_idx{};  // ring of intercept bins
    int next_recent = 0;
    // v5.12.
    std::vector<State512> states512;              // by state, sized in Enable
    std::array<int64_t, kIntervals> intervals{};  // measured durations
    int interval_idx = 0;
  };

  PerCpu& CpuState(const platform::IdleDevice& dev);
  // The idle duration the last wake-up measured (teo_update's first step,
  // the same in both versions); INT64_MAX for a timer wake-up.
  int64_t MeasuredNs(const platform::IdleDevice& dev, const PerCpu& c) const;
  void Update(const platform::IdleDevice& dev, PerCpu& c);
  void Update512(const platform::IdleDevice& dev, PerCpu& c);
  int Select512(platform::IdleDevice& dev, PerCpu& c, int64_t duration_ns,
                int64_t delta_tick_ns, bool* stop_tick);

  Options options_;

  std::vector<PerCpu> cpus_;  // by CPU id, grown in Enable
};

}  // namespace schedsim::governors

#endif  // SCHEDSIM_GOVERNORS_CPUIDLE_TEO_H_
