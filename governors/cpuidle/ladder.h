// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The "ladder" cpuidle governor, Linux v6.1
// drivers/cpuidle/governors/ladder.c (the steps: ladder.cc): climb one state
// deeper after a number of consecutive idle periods longer than the current
// state's exit latency, step one state back after a shorter one. Never POLL
// unless the PM QoS limit is 0; the tick is always stopped (ladder ignores it).
// Deliberate differences, only where the kernel would break its promises:
// a disabled state is never returned (the kernel's forced demotion can land
// on one), and the first state is left for a shallower one when its exit
// latency exceeds a non-zero PM QoS limit.

#ifndef SCHEDSIM_GOVERNORS_CPUIDLE_LADDER_H_
#define SCHEDSIM_GOVERNORS_CPUIDLE_LADDER_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "platform/cpuidle.h"

namespace schedsim::governors {

class LadderGovernor final : public platform::IdleGovernor {
 public:
  // PROMOTION_COUNT and DEMOTION_COUNT of ladder.c, Linux v6.1.
  static constexpr int kDefaultPromotionCount = 4;
  static constexpr int kDefaultDemotionCount = 1;

  struct Options {
    // Consecutive long idle periods before moving one state deeper.
    int promotion_count = kDefaultPromotionCount;
    // Consecutive short idle periods before moving one state shallower.
    int demotion_count = kDefaultDemotionCount;
  };

  LadderGovernor() = default;
  explicit LadderGovernor(const Options& options) : options_(options) {}

  absl::string_view name() const override { return "ladder"; }

  // ladder_enable_device: sizes the CPU's per-state counters (the only
  // allocation) and starts at the first non-polling state.
  void Enable(platform::IdleDevice& dev) override;

  // ladder_select_state: judges the last idle period against the current
  // state's exit latency (the promotion and demotion time) and moves at
  // most one step. Leaves *stop_tick alone (true).
  // REQUIRES: Enable(dev) was called for dev.cpu(). Does not allocate.
  int Select(platform::IdleDevice& dev, bool* stop_tick) override;

  // ladder_reflect: remembers the state entered unless it was state 0.
  void Reflect(platform::IdleDevice& dev, int index) override;

  // --- Inspection (tests, traces) -------------------------------------------
  // The state the ladder stands on for `cpu`.
  int current_state(int cpu) const { return cpus_[cpu].last_state; }

 private:
  struct Counts {
    int promotion = 0;
    int demotion = 0;
  };
  struct PerCpu {
    bool enabled = false;
    int last_state = 0;
    std::vector<Counts> counts;  // by state, sized in Enable
  };

  PerCpu& CpuState(const platform::IdleDevice& dev);
  // ladder_do_selection: resets the old state's counters and moves.
  static int Move(PerCpu& c, int old_state, int new_state);
  // The result, made valid: never disabled, within a non-zero PM QoS limit
  // when any enabled state is.
  static int Sanitize(const platform::IdleDevice& dev, int state,
                      int64_t latency_req_ns);

  Options options_;
  std::vector<PerCpu> cpus_;  // by CPU id, grown in Enable
};

}  // namespace schedsim::governors

#endif  // SCHEDSIM_GOVERNORS_CPUIDLE_LADDER_H_
