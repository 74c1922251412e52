// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The "menu" cpuidle governor, Linux v6.1 drivers/cpuidle/governors/menu.c
// (the steps: menu.cc): predict the idle duration as min(next timer x a learned
// correction factor, typical interval of the last 8 periods) and take the
// deepest enabled state fitting it, the PM QoS limit and the iowait-scaled
// latency. Simplifications: the update reads dev.poll_time_limit() at the
// next Select; "woken by the tick" is inferred (tick kept and the residency
// reached it); v6.1 and v4.16 (Options::v416) are modelled; the optional
// 2012 repeat-mode timer's wake-ups are replayed on the governor's books
// only (see Options).

#ifndef SCHEDSIM_GOVERNORS_CPUIDLE_MENU_H_
#define SCHEDSIM_GOVERNORS_CPUIDLE_MENU_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "platform/cpuidle.h"

namespace schedsim::governors {

// The algorithm versions modelled (the registry's "version" parameter):
// v6.1, and the menu of v4.16 and before (back to the v3.x series), before
// v4.17's idle loop rework let it keep the tick.
inline constexpr absl::string_view kMenuVersion61 = "6.1";
inline constexpr absl::string_view kMenuVersion416 = "4.16";

class MenuGovernor final : public platform::IdleGovernor {
 public:
  // Constants of menu.c, Linux v6.1.
  static constexpr int kBuckets = 12;   // BUCKETS: 6 by length x iowait
  static constexpr int kIntervals = 8;  // INTERVALS: history length
  static constexpr uint32_t kResolution = 1024;                   // RESOLUTION
  static constexpr uint32_t kDecay = 8;                           // DECAY
  static constexpr uint32_t kUnityFactor = kResolution * kDecay;  // 1.0
  static constexpr int64_t kMaxInterestingNs = 50'000'000;        // 50 ms
  // "No typical interval" / "no sample" marker (the kernel's UINT_MAX).
  static constexpr uint32_t kNoInterval = 0xffffffffu;

  // Constants of the 2012 repeat-mode timer, Youquan Song's commits
  // 69a37beabf1f "cpuidle: Quickly notice prediction failure for repeat
  // mode" and e11538d1f039 "... in general case" (v3.8; reverted in v3.11
  // after Jeremy Eder's report, seed 003): MAX_DEVIATION = 60 us and
  // perfect_cstate_ms = 30 (a module parameter) in menu.c of v3.8-v3.10.
  static constexpr int64_t kRepeatMaxDeviationNs = 60'000;
  static constexpr int64_t kPerfectCstateNs = 30'000'000;
  // schedsim's bound on the wake-ups replayed for one idle period, to bound
  // the hook's cost (the kernel has none). Each expiry lengthens the next
  // timeout once the history fills with pieces, so 64 covers pauses far
  // longer than the 50 ms that menu cares about.
  static constexpr int kMaxRepeatTimerReplays = 64;

  struct Options {
    // Models the 2012 repeat-mode timer. When the selected state is shallower
    // than the deepest enabled one only because the prediction was low,
    // v3.8 armed a per-CPU timer of T = 2 * (predicted + 60 us):
    //   - "repeat" mode when the typical interval set the prediction and
    //     4 * T < the time to the next timer;
    //   - otherwise "general" mode when the next timer is over 30 ms away.
    // If the CPU was still idle at T the timer woke it; in general mode the
    // bucket's correction factor was first reset to 1.0; menu then updated
    // its history with a T-long idle period and selected again for the rest
    // of the period (usually deeper, re-arming the timer if the prediction
    // was still low).
    // schedsim cannot wake an idle CPU from a governor, so when the period
    // ends and lasted longer than T, the governor replays those wake-ups on
    // its own books: it updates with each T-long piece, applies the reset,
    // selects again for the remaining time, and finally updates with the
    // last piece in the state that re-selection chose. The learned state
    // (interval history, correction factors) is thus what the kernel's
    // would be; what the CPU physically did (state, exit latency, power)
    // stays the state chosen at the start of the period.
    // The visible effect (seed 003): after a pause in a request/response
    // stream the history holds several timer-bounded pieces instead of one
    // outlier, which breaks the typical-interval pattern, and a general-mode
    // expiry resets the correction factor; either way the next short idle
    // periods get a deeper state than mainline gives them, until the
    // history is re-learnt. The timer is not armed for a polling state
    // (POLL's own time limit already ends it).
    bool repeat_mode_timer = false;
    // With repeat_mode_timer: also the general mode and its correction
    // factor reset, which commit e11538d1f039 ("Quickly notice prediction
    // failure in general case") added on top of 69a37beabf1f's repeat
    // mode. False models 3.10-rc2 with e11538d1 alone reverted (seed 003's
    // "perfteam2" kernel): the timer is armed in repeat mode only.
    bool general_mode_timer = true;
    // The menu of v4.16 (drivers/cpuidle/governors/menu.c before v4.17's
    // "cpuidle: menu: Refine idle state selection for running tick" and
    // the idle loop rework around it): the idle loop has stopped the tick
    // before menu runs, so menu never keeps it and never meets a tick
    // wake-up; POLL is the starting state only when the next timer is at
    // most max(20 us, C1's target residency) away or the latency limit is
    // not above C1's exit latency; no rule moves a shallow choice deeper
    // because of the tick, and no update rule for a POLL time limit
    // (v4.18). menu.cc's file comment lists the steps.
    bool v416 = false;
  };

  MenuGovernor() = default;
  explicit MenuGovernor(const Options& options) : options_(options) {}

  absl::string_view name() const override { return "menu"; }

  // menu_enable_device: sizes the per-CPU arrays (the only allocation) and
  // resets the CPU's history: intervals 0, correction factors 1.0.
  void Enable(platform::IdleDevice& dev) override;

  // menu_select: first accounts the previous idle period (menu_update),
  // then predicts and picks a state. Sets *stop_tick to false when the
  // prediction is shorter than the tick or the state is a polling one.
  // REQUIRES: Enable(dev) was called for dev.cpu(). Does not allocate.
  int Select(platform::IdleDevice& dev, bool* stop_tick) override;

  // menu_reflect: records the state and the residency for the update at
  // the next Select.
  void Reflect(platform::IdleDevice& dev, int index) override;

  // --- Inspection (tests, traces) -------------------------------------------
  // Correction factor of `bucket` on `cpu`; kUnityFactor means 1.0.
  uint32_t correction_factor(int cpu, int bucket) const {
    return cpus_[cpu].correction_factor[bucket];
  }
  // The repeat-mode timer wake-ups replayed so far on `cpu`.
  int64_t repeat_timer_fires(int cpu) const {
    return cpus_[cpu].repeat_timer_fires;
  }

 private:
  enum class TimerMode : uint8_t { kNone, kRepeat, kGeneral };

  // What menu_select saw and decided; kept for the update.
  struct Choice {
    int state = 0;
    bool stop_tick = true;
    int bucket = 0;
    int64_t next_timer_ns = 0;
    TimerMode timer = TimerMode::kNone;
    int64_t timer_ns = 0;  // repeat-mode timer, relative to idle entry
  };

  // The inputs of one selection.
  struct Inputs {
    int64_t sleep_length_ns = 0;
    int64_t delta_tick_ns = 0;
    int64_t latency_req_ns = 0;
    int64_t tick_ns = 0;
    int nr_iowait = 0;
    bool tick_stopped = false;
  };

  struct PerCpu {
    bool enabled = false;
    bool needs_update = false;
    int last_state = -1;
    Choice last;
    Inputs last_inputs;
    int64_t residency_ns = 0;
    std::array<uint32_t, kBuckets> correction_factor{};
    std::array<uint32_t, kIntervals> intervals_us{};
    int interval_ptr = 0;
    int64_t repeat_timer_fires = 0;
  };

  PerCpu& CpuState(const platform::IdleDevice& dev);
  Choice Choose(const platform::IdleDevice& dev, const PerCpu& c,
                const Inputs& in) const;
  Choice Choose416(const platform::IdleDevice& dev, const PerCpu& c,
                   const Inputs& in) const;
  // The 2012 repeat-mode timer's decision, for either version.
  void ArmRepeatTimer(const platform::IdleDevice& dev, bool low_predicted,
                      bool typical_used, int64_t prediction_us,
                      int64_t next_timer_ns, Choice& ch) const;
  uint32_t TypicalIntervalUs(const PerCpu& c, uint32_t predicted_us) const;
  int64_t PredictUs(const PerCpu& c, int64_t next_timer_ns, int bucket,
                    bool* typical_used) const;
  void Update(const platform::IdleDevice& dev, PerCpu& c);
  void UpdatePiece(const platform::IdleDevice& dev, PerCpu& c, int state,
                   int64_t residency_ns, const Choice& choice, bool tick_wakeup,
                   bool poll_time_limit);
  static void PushInterval(PerCpu& c, uint32_t interval_us);

  Options options_;
  std::vector<PerCpu> cpus_;  // by CPU id, grown in Enable
};

}  // namespace schedsim::governors

#endif  // SCHEDSIM_GOVERNORS_CPUIDLE_MENU_H_
