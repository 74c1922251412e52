// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// menu, Linux v6.1 drivers/cpuidle/governors/menu.c, described in our own
// words (no kernel source copied); the repeat-mode timer from the v3.8
// commit descriptions (see menu.h).
//
// The kernel's algorithm. Per CPU, menu keeps a correction factor per
// bucket (the ratio of measured idle time to the time to the next timer,
// 1.0 = RESOLUTION x DECAY = 8192) and the last 8 measured intervals. The
// bucket (which_bucket()) is the decade of the expected duration (<10 us,
// <100 us, <1 ms, <10 ms, <100 ms, longer), in the upper half of the 12
// when the CPU has a task in iowait.
//
// menu_select():
//   1. Account the previous idle period (menu_update() below); if the last
//      state was never entered, push "no interval" into the history.
//   2. The time to the next timer as if the tick were stopped, and the
//      distance to the next tick (tick_nohz_get_sleep_length()).
//   3. Pick the bucket.
//   4. State 0 no matter what when there is one state, the PM QoS limit is
//      0, or state 0 is enabled and state 1 is too deep for the timer or
//      the limit (the tick is stopped unless state 0 polls).
//   5. Predict: the timer distance times the bucket's correction factor,
//      rounded to microseconds.
//   6. Take the smaller of that and the typical interval
//      (get_typical_interval() below).
//   7. With the tick already stopped, a prediction shorter than a tick is
//      replaced by the timer distance.
//   8. Otherwise the latency limit becomes at most the prediction divided
//      by 1 + 10 x the number of iowaiters (the "performance multiplier").
//   9. Walk the enabled states upwards and keep the deepest one whose
//      target residency fits the prediction and exit latency fits the
//      limit. At the first state too deep for the prediction: from a
//      polling state, take it if it fits the limit and the timer (the
//      prediction becomes its residency); with a prediction under a tick,
//      stop; with the tick running, stop with the prediction set to the
//      kept state's residency; with the tick stopped, take the deeper state
//      if the kept one is shallower than a tick and the deeper one fits the
//      distance to the tick, and return now (9.1).
//  10. For a polling state or a prediction under a tick (tick not already
//      stopped), keep the tick, and go down to the deepest enabled state
//      that fits the distance to the tick if the choice does not.
//
// get_typical_interval(), over the last 8 intervals in microseconds:
//   1. Average the samples at or below a threshold (at first INT_MAX);
//      give up if the smallest is at least the timer-based prediction.
//   2. Compute their variance.
//   3. Accept the average if the standard deviation is below a sixth of it
//      with at least 6 of 8 samples left, or at most 20 us.
//   4. Otherwise give up if 6 or fewer samples remain,
//   5. else drop the largest sample (threshold = max - 1) and repeat.
//
// menu_update(), from the recorded selection:
//   1. The measured idle time: 9/10 of MAX_INTERESTING (50 ms) if the tick
//      woke a CPU whose timer was more than a tick away; the timer distance
//      if POLL ran into its time limit; else the residency minus the exit
//      latency (or half the residency when it is not above twice that).
//   2. At most the timer distance.
//   3. Factor = factor - factor/8 + 1024 x measured / timer (or 1024 when
//      the measurement is not below 50 ms): an average with weight 1/8.
//   4. Push the measurement, in microseconds, into the interval history.
//
// The v4.16 menu (Options::v416), as it stood from the v3.x series until
// v4.17 reworked the idle loop around it:
//   - the idle loop stopped the tick before menu ran, so the time to the
//     next timer is the real one (step 2 without the tick) and menu always
//     lets the tick stay stopped;
//   - steps 5-6 as above; the starting state is POLL only when the next
//     timer is at most max(20 us, C1's target residency) away or the
//     latency limit is not above C1's exit latency, else C1;
//   - the latency limit becomes at most the prediction divided by the
//     performance multiplier, 1 + 10 x iowaiters (its load term read the
//     runqueue's weight, 0 on a CPU going idle);
//   - the deepest enabled state from the starting one whose residency fits
//     the prediction and exit latency the limit (the starting state even
//     when too deep); no tick rules (steps 7, 9's tick cases, 10);
//   - menu_update has no tick wake-up rule and no POLL time-limit rule
//     (poll_idle() had no limit before v4.18): the measured residency
//     minus the exit latency, as in step 1's last case.
//
// What the model simplifies: see menu.h.

#include "governors/cpuidle/menu.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "absl/numeric/int128.h"
#include "absl/strings/str_cat.h"
#include "platform/registry.h"

namespace schedsim::governors {

namespace {

using platform::IdleDevice;

constexpr int64_t kNsPerUs = 1000;
// The typical-interval detector's outlier threshold starts at INT_MAX
// (get_typical_interval step 1).
constexpr uint32_t kThreshStartUs = 0x7fffffffu;
// Sleep lengths are clamped to what a u32 count of microseconds holds
// (~71 minutes) before the fixed-point scaling, so that
// next_timer_ns * factor cannot overflow.
constexpr int64_t kMaxSleepNs = int64_t{MenuGovernor::kNoInterval} * kNsPerUs;
// The iowait half of the bucket table (which_bucket).
constexpr int kIowaitBucketOffset = MenuGovernor::kBuckets / 2;
// The performance multiplier's weight per iowaiter (menu_select step 8).
constexpr int64_t kIowaitMultiplier = 10;

// which_bucket: by decade of the expected duration, iowait in the upper
// half.
int WhichBucket(int64_t duration_ns, int nr_iowait) {
  int bucket = nr_iowait > 0 ? kIowaitBucketOffset : 0;
  if (duration_ns < 10 * kNsPerUs) return bucket;
  if (duration_ns < 100 * kNsPerUs) return bucket + 1;
  if (duration_ns < 1000 * kNsPerUs) return bucket + 2;
  if (duration_ns < 10000 * kNsPerUs) return bucket + 3;
  if (duration_ns < 100000 * kNsPerUs) return bucket + 4;
  return bucket + 5;
}

int FirstEnabled(const IdleDevice& dev) {
  for (int i = 0; i < dev.state_count(); ++i) {
    if (!dev.state_disabled(i)) return i;
  }
  return 0;  // nothing enabled: the core reports the error
}

}  // namespace

MenuGovernor::PerCpu& MenuGovernor::CpuState(const IdleDevice& dev) {
  int cpu = dev.cpu();
  if (cpu < 0 || cpu >= static_cast<int>(cpus_.size()) || !cpus_[cpu].enabled) {
    std::fprintf(stderr, "menu: CPU %d used before Enable()\n", cpu);
    std::abort();
  }
  return cpus_[cpu];
}

void MenuGovernor::Enable(IdleDevice& dev) {
  int cpu = dev.cpu();
  if (cpu >= static_cast<int>(cpus_.size())) cpus_.resize(cpu + 1);
  PerCpu& c = cpus_[cpu];
  c = PerCpu();
  c.enabled = true;
  c.correction_factor.fill(kUnityFactor);
}

void MenuGovernor::PushInterval(PerCpu& c, uint32_t interval_us) {
  c.intervals_us[c.interval_ptr] = interval_us;
  c.interval_ptr = (c.interval_ptr + 1) % kIntervals;
}

// get_typical_interval (the file comment): the average of the last 8 intervals
// if they are tight enough, dropping the largest outliers while at least 6
// samples remain; kNoInterval if there is no pattern.
uint32_t MenuGovernor::TypicalIntervalUs(const PerCpu& c,
                                         uint32_t predicted_us) const {
  uint32_t thresh = kThreshStartUs;
  for (;;) {
    uint32_t min = kNoInterval;
    uint32_t max = 0;
    uint64_t sum = 0;
    int divisor = 0;
    for (uint32_t v : c.intervals_us) {
      if (v > thresh) continue;
      sum += v;
      ++divisor;
      max = std::max(max, v);
      min = std::min(min, v);
    }
    // Discarded anyway by the min() with the timer-based prediction.
    if (min >= predicted_us) return kNoInterval;
    uint64_t avg = sum / divisor;
    absl::uint128 variance = 0;
    for (uint32_t v : c.intervals_us) {
      if (v > thresh) continue;
      int64_t diff = static_cast<int64_t>(v) - static_cast<int64_t>(avg);
      variance += absl::uint128(static_cast<uint64_t>(diff * diff));
    }
    // The 128-bit division is a libgcc call; the sum nearly always fits
    // in 64 bits (intervals are below thresh <= UINT_MAX, eight of them).
    if (absl::Uint128High64(variance) == 0) {
      variance = absl::Uint128Low64(variance) / static_cast<uint64_t>(divisor);
    } else {
      variance /= divisor;
    }
    // stddev < avg / 6 with at least 3/4 of the samples, or stddev <= 20 us
    // (get_typical_interval step 3).
    bool tight = absl::uint128(avg) * avg > variance * 36 &&
                 divisor * 4 >= kIntervals * 3;
    if (tight || variance <= 400) return static_cast<uint32_t>(avg);
    if (divisor * 4 <= kIntervals * 3) return kNoInterval;
    thresh = max - 1;  // drop the largest sample(s) and try again
  }
}

// menu_select steps 5-6 (both versions): the time to the next timer scaled
// by the bucket's correction factor (rounded to the nearest microsecond),
// capped by the typical interval; *typical_used when the cap applied.
int64_t MenuGovernor::PredictUs(const PerCpu& c, int64_t next_timer_ns,
                                int bucket, bool* typical_used) const {
  const int64_t scale = int64_t{kUnityFactor} * kNsPerUs;
  int64_t timer_us = (std::min(next_timer_ns, kMaxSleepNs) *
                          int64_t{c.correction_factor[bucket]} +
                      scale / 2) /
                     scale;
  uint32_t predicted_us =
      static_cast<uint32_t>(std::min<int64_t>(timer_us, int64_t{kNoInterval}));
  uint32_t typical_us = TypicalIntervalUs(c, predicted_us);
  *typical_used = typical_us != kNoInterval && typical_us <= predicted_us;
  return std::min(predicted_us, typical_us);
}

// menu_select steps 2-10 for v6.1 (the file comment), plus the repeat-mode
// timer decision. Pure: reads the learned state, changes nothing.
MenuGovernor::Choice MenuGovernor::Choose(const IdleDevice& dev,
                                          const PerCpu& c,
                                          const Inputs& in) const {
  Choice ch;
  const int n = dev.state_count();
  if (n == 0) return ch;  // no driver: the core idles without a state
  int64_t next_timer_ns = in.sleep_length_ns;
  int64_t delta_tick_ns = in.delta_tick_ns;
  if (next_timer_ns < 0) next_timer_ns = delta_tick_ns = 0;
  const int64_t tick_ns = in.tick_ns;
  int64_t latency_req_ns = in.latency_req_ns;
  ch.next_timer_ns = next_timer_ns;
  ch.bucket = WhichBucket(next_timer_ns, in.nr_iowait);

  // Step 4: state 0 no matter what.
  bool state0_forced = n <= 1 || latency_req_ns == 0 ||
                       (!dev.state_disabled(0) &&
                        (next_timer_ns < dev.state(1).target_residency_ns ||
                         latency_req_ns < dev.state(1).exit_latency_ns));
  if (state0_forced) {
    // Never a disabled state: the shallowest enabled one instead.
    ch.state = dev.state_disabled(0) ? FirstEnabled(dev) : 0;
    ch.stop_tick = !dev.state(ch.state).polling();
    return ch;
  }

  // Steps 5-6.
  bool typical_used = false;
  const int64_t prediction_us =
      PredictUs(c, next_timer_ns, ch.bucket, &typical_used);
  int64_t predicted_ns = prediction_us * kNsPerUs;

  // Steps 7-8.
  if (in.tick_stopped) {
    if (predicted_ns < tick_ns) predicted_ns = next_timer_ns;
  } else {
    int64_t interactivity_req_ns =
        predicted_ns / (1 + kIowaitMultiplier * in.nr_iowait);
    latency_req_ns = std::min(latency_req_ns, interactivity_req_ns);
  }

  // Step 9: the deepest enabled state fitting the prediction and latency.
  int idx = -1;
  bool low_predicted = false;  // a deeper enabled state was too long
  bool done = false;           // step 9.1's "return now"
  for (int i = 0; i < n; ++i) {
    if (dev.state_disabled(i)) continue;
    const topology::CState& s = dev.state(i);
    if (idx == -1) idx = i;  // the first enabled state
    if (s.target_residency_ns > predicted_ns) {
      low_predicted = true;
      const topology::CState& cur = dev.state(idx);
      if (cur.polling() && s.exit_latency_ns <= latency_req_ns &&
          s.target_residency_ns <= next_timer_ns) {
        // A physical state rather than busy polling when the timer allows.
        predicted_ns = s.target_residency_ns;
        idx = i;
      } else if (predicted_ns < tick_ns) {
        // Keep idx.
      } else if (!in.tick_stopped) {
        // Keep idx; the kept tick re-runs the governor.
        predicted_ns = cur.target_residency_ns;
      } else {
        // Tick stopped: do not get stuck in a shallow state.
        if (cur.target_residency_ns < tick_ns &&
            s.target_residency_ns <= delta_tick_ns) {
          idx = i;
        }
        done = true;
      }
      break;
    }
    if (s.exit_latency_ns > latency_req_ns) break;
    idx = i;
  }
  if (idx == -1) idx = FirstEnabled(dev);

  // Step 10: keep the tick for polling or short predictions; then make
  // the state fit the time to the next tick.
  ch.stop_tick = true;
  if (!done && !in.tick_stopped &&
      (dev.state(idx).polling() || predicted_ns < tick_ns)) {
    ch.stop_tick = false;
    if (idx > 0 && dev.state(idx).target_residency_ns > delta_tick_ns) {
      for (int i = idx - 1; i >= 0; --i) {
        if (dev.state_disabled(i)) continue;
        idx = i;
        if (dev.state(i).target_residency_ns <= delta_tick_ns) break;
      }
    }
  }
  ch.state = idx;
  ArmRepeatTimer(dev, low_predicted, typical_used, prediction_us, next_timer_ns,
                 ch);
  return ch;
}

// The 2012 repeat-mode timer (menu.h, Options::repeat_mode_timer).
void MenuGovernor::ArmRepeatTimer(const IdleDevice& dev, bool low_predicted,
                                  bool typical_used, int64_t prediction_us,
                                  int64_t next_timer_ns, Choice& ch) const {
  if (!options_.repeat_mode_timer || !low_predicted ||
      dev.state(ch.state).polling()) {
    return;
  }
  int64_t timer_ns = 2 * (prediction_us * kNsPerUs + kRepeatMaxDeviationNs);
  if (typical_used && 4 * timer_ns < next_timer_ns) {
    ch.timer = TimerMode::kRepeat;
    ch.timer_ns = timer_ns;
  } else if (options_.general_mode_timer && next_timer_ns > kPerfectCstateNs) {
    ch.timer = TimerMode::kGeneral;
    ch.timer_ns = timer_ns;
  }
}

// menu_select of v4.16 (the file comment). Pure, as Choose.
MenuGovernor::Choice MenuGovernor::Choose416(const IdleDevice& dev,
                                             const PerCpu& c,
                                             const Inputs& in) const {
  Choice ch;
  ch.stop_tick = true;  // the idle loop stopped it already
  const int n = dev.state_count();
  if (n == 0) return ch;
  int64_t next_timer_ns = std::max<int64_t>(in.sleep_length_ns, 0);
  ch.next_timer_ns = next_timer_ns;
  ch.bucket = WhichBucket(next_timer_ns, in.nr_iowait);
  int64_t latency_req_ns = in.latency_req_ns;
  if (latency_req_ns == 0 || n <= 1) {
    ch.state = dev.state_disabled(0) ? FirstEnabled(dev) : 0;
    return ch;
  }
  bool typical_used = false;
  const int64_t prediction_us =
      PredictUs(c, next_timer_ns, ch.bucket, &typical_used);
  const int64_t predicted_ns = prediction_us * kNsPerUs;

  // POLL only for a timer due "really really soon" or a limit C1 cannot
  // meet.
  int first = 0;
  if (dev.state(0).polling()) {
    const topology::CState& c1 = dev.state(1);
    const int64_t polling_threshold_ns =
        std::max<int64_t>(20 * kNsPerUs, c1.target_residency_ns);
    if (next_timer_ns > polling_threshold_ns &&
        latency_req_ns > c1.exit_latency_ns && !dev.state_disabled(1)) {
      first = 1;
    }
  }
  latency_req_ns = std::min(
      latency_req_ns, predicted_ns / (1 + kIowaitMultiplier * in.nr_iowait));

  int idx = -1;
  bool low_predicted = false;
  for (int i = first; i < n; ++i) {
    if (dev.state_disabled(i)) continue;
    const topology::CState& s = dev.state(i);
    if (idx == -1) idx = i;
    if (s.target_residency_ns > predicted_ns) {
      low_predicted = true;
      break;
    }
    if (s.exit_latency_ns > latency_req_ns) break;
    idx = i;
  }
  if (idx == -1) idx = FirstEnabled(dev);
  ch.state = idx;
  ArmRepeatTimer(dev, low_predicted, typical_used, prediction_us, next_timer_ns,
                 ch);
  return ch;
}

int MenuGovernor::Select(IdleDevice& dev, bool* stop_tick) {
  PerCpu& c = CpuState(dev);
  // Step 1.
  if (c.needs_update) {
    Update(dev, c);
    c.needs_update = false;
  } else if (dev.last_residency_ns() == 0) {
    PushInterval(c, kNoInterval);  // the last state was never entered
  }
  Inputs in;
  in.sleep_length_ns = dev.sleep_length_ns(&in.delta_tick_ns);
  in.latency_req_ns = dev.latency_limit_ns();
  in.tick_ns = dev.tick_period_ns();
  in.nr_iowait = dev.nr_iowait();
  in.tick_stopped = dev.tick_stopped();
  Choice ch = options_.v416 ? Choose416(dev, c, in) : Choose(dev, c, in);
  c.last = ch;
  c.last_inputs = in;
  *stop_tick = ch.stop_tick;
  return ch.state;
}

void MenuGovernor::Reflect(IdleDevice& dev, int index) {
  PerCpu& c = CpuState(dev);
  c.last_state = index;
  c.residency_ns = dev.last_residency_ns();
  c.needs_update = true;
}

// menu_update (the file comment) for one piece of an idle period:
// `residency_ns` in `state`, selected with `choice`.
void MenuGovernor::UpdatePiece(const IdleDevice& dev, PerCpu& c, int state,
                               int64_t residency_ns, const Choice& choice,
                               bool tick_wakeup, bool poll_time_limit) {
  const topology::CState& s = dev.state(state);
  const int64_t next_timer_ns = choice.next_timer_ns;
  int64_t measured_ns;
  if (tick_wakeup && next_timer_ns > c.last_inputs.tick_ns) {
    // The tick cut a long sleep short: treat it as a long one (9/10 of
    // MAX_INTERESTING) (menu_update step 1).
    measured_ns = 9 * kMaxInterestingNs / 10;
  } else if (s.polling() && poll_time_limit) {
    measured_ns = next_timer_ns;
  } else {
    measured_ns = residency_ns;
    if (measured_ns > 2 * s.exit_latency_ns) {
      measured_ns -= s.exit_latency_ns;
    } else {
      measured_ns /= 2;
    }
  }
  measured_ns = std::min(measured_ns, next_timer_ns);

  uint32_t factor = c.correction_factor[choice.bucket];
  factor -= factor / kDecay;
  if (next_timer_ns > 0 && measured_ns < kMaxInterestingNs) {
    factor += static_cast<uint32_t>(int64_t{kResolution} * measured_ns /
                                    next_timer_ns);
  } else {
    factor += kResolution;
  }
  c.correction_factor[choice.bucket] = factor;
  PushInterval(c, static_cast<uint32_t>(std::min<int64_t>(
                      measured_ns / kNsPerUs, int64_t{kNoInterval})));
}

void MenuGovernor::Update(const IdleDevice& dev, PerCpu& c) {
  const int64_t residency_ns = c.residency_ns;
  // tick_nohz_idle_got_tick(), inferred: the tick was kept running and the
  // period lasted until it.
  // v4.16 had neither rule: its tick was stopped, and poll_idle() had no
  // time limit.
  const bool tick_wakeup = !options_.v416 && !c.last.stop_tick &&
                           !c.last_inputs.tick_stopped &&
                           residency_ns >= c.last_inputs.delta_tick_ns;
  const bool poll_time_limit = !options_.v416 && dev.poll_time_limit();
  if (!options_.repeat_mode_timer || c.last.timer == TimerMode::kNone ||
      residency_ns <= c.last.timer_ns) {
    UpdatePiece(dev, c, c.last_state, residency_ns, c.last, tick_wakeup,
                poll_time_limit);
    return;
  }

  // Replay the repeat-mode timer's wake-ups (menu.h, Options).
  Choice piece = c.last;
  int state = c.last_state;
  int64_t elapsed_ns = 0;
  Inputs in = c.last_inputs;
  // After a wake-up without a task the tick stays as it was left.
  const bool tick_stopped = in.tick_stopped || c.last.stop_tick;
  for (int fires = 0;
       fires < kMaxRepeatTimerReplays && piece.timer != TimerMode::kNone &&
       residency_ns - elapsed_ns > piece.timer_ns;
       ++fires) {
    if (piece.timer == TimerMode::kGeneral) {
      // "The prediction history is totally broken": back to 1.0.
      c.correction_factor[piece.bucket] = kUnityFactor;
    }
    UpdatePiece(dev, c, state, piece.timer_ns, piece, /*tick_wakeup=*/false,
                /*poll_time_limit=*/false);
    elapsed_ns += piece.timer_ns;
    ++c.repeat_timer_fires;
    // Back to idle for the rest of the period.
    Inputs again = in;
    again.sleep_length_ns =
        std::max<int64_t>(in.sleep_length_ns - elapsed_ns, 0);
    again.tick_stopped = tick_stopped;
    again.delta_tick_ns =
        tick_stopped ? again.sleep_length_ns
                     : std::max<int64_t>(in.delta_tick_ns - elapsed_ns, 0);
    piece = options_.v416 ? Choose416(dev, c, again) : Choose(dev, c, again);
    state = piece.state;
  }
  UpdatePiece(dev, c, state, residency_ns - elapsed_ns, piece, tick_wakeup,
              /*poll_time_limit=*/false);
}

namespace {

platform::PolicyInfo MenuInfo() {
  platform::PolicyInfo info;
  info.family = platform::PolicyFamily::kCpuidle;
  info.name = "menu";
  info.description =
      "Linux v6.1 drivers/cpuidle/governors/menu.c (the default governor, "
      "rating 20): predicts the idle duration as min(time to the next timer "
      "x a learned correction factor per bucket (12 buckets: 6 decades x "
      "iowait), typical interval of the last 8 idle periods), then picks "
      "the deepest enabled state fitting the prediction, the PM QoS limit "
      "and prediction / (1 + 10 x nr_iowait); keeps the tick for short "
      "predictions. Optional: the 2012 repeat-mode timer (v3.8-v3.10).";
  info.params = {
      {"version", std::string(kMenuVersion61),
       "kernel version of the algorithm: \"6.1\" (default) or \"4.16\" "
       "(the menu before v4.17's idle loop rework: the tick already "
       "stopped, POLL only for a timer within max(20 us, C1's residency) "
       "or a limit below C1's exit latency, no tick or POLL time-limit "
       "rules); v6.12's menu, with its reworked intercept detection, is "
       "not modelled"},
      {"repeat_mode_timer", false,
       "model the 2012 'quickly notice prediction failure' timer "
       "(commits 69a37beabf1f + e11538d1f039, v3.8, reverted in v3.11 after "
       "the netperf TCP_RR report of seed 003): T = 2 x (prediction + 60 us) "
       "wake-ups replayed on the governor's books; bool, default false "
       "(mainline since v3.11)"},
      {"general_mode_timer", true,
       "with repeat_mode_timer: also arm the timer in the general mode "
       "(next timer over 30 ms away) and reset the bucket's correction "
       "factor when it expires, as commit e11538d1f039 ('Quickly notice "
       "prediction failure in general case') added; false = that commit "
       "reverted, repeat mode (69a37beabf1f) only; bool, default true"},
  };
  info.make_idle = [](const platform::Params& p)
      -> absl::StatusOr<std::unique_ptr<platform::IdleGovernor>> {
    const std::string& version = p.GetString("version");
    if (version != kMenuVersion61 && version != kMenuVersion416) {
      return absl::InvalidArgumentError(
          absl::StrCat("cpuidle policy 'menu': version \"", version,
                       "\" is not modelled; use \"", kMenuVersion61, "\" or \"",
                       kMenuVersion416, "\""));
    }
    MenuGovernor::Options options;
    options.v416 = version == kMenuVersion416;
    options.repeat_mode_timer = p.GetBool("repeat_mode_timer");
    options.general_mode_timer = p.GetBool("general_mode_timer");
    return std::make_unique<MenuGovernor>(options);
  };
  return info;
}

SCHEDSIM_REGISTER_POLICY(MenuInfo());

}  // namespace

}  // namespace schedsim::governors
